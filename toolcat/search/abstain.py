"""Abstention: a request is turned away ("no tool fits") when it is nearer to the requests no
tool fits than to any evidence for a tool (a tuning's, and the zero-shot one shipped with the
default model), or, with no tuning, when it asks for a service no tool of the catalog offers
(`OffCatalog`, below).

The tuning keeps the embeddings of requests no tool fits (toolcat's built-in small talk and
the requests a user labeled `relevant: []`) and a margin. For a request q:

    away(q) = max_n cos(q, n) - max(max_t cos(q, text(t)), max_d cos(q, usage(d))) > margin

over those requests n, every tool's own text vector t and every usage vector d (the mean of
a tool's past requests). `toolcat tune` fits the margin (`toolcat.tune.abstain`): never under
0, so a request nearer to some tool than to every request no tool fits is never turned away,
and high enough that cross-fitted requests that need a tool are turned away at most 2% of the
time. A score threshold cannot do this on catalogs whose real requests are short and casual
(metatool): small talk scores as high as they do, but lies nearer to other small talk.

Abstention only ever withholds tools: it cannot show one. What a tuning file of a stranger can
do with it is bounded by the margin the loader accepts (from 0): a request nearer to some
tool's own text than to every vector the file holds is never turned away (docs/security.md,
"Tuning files: abstention").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer

MAX_NEGATIVES = 1024  # requests no tool fits kept in a tuning (a sample beyond)
MAX_MARGIN = 2.0  # cosines differ by at most 2: a margin past it turns nothing away
SHORT_WORDS = 10  # a request of at most this many words is short (Abstention.short_margin)
# the zero-shot abstention's fits, one pair of files per embedding model (train/abstention.py)
MODELS = Path(__file__).parent / "models"


def shipped_path(part: str, ident: str) -> Path:
    """The file of the zero-shot fit `part` ("abstain": the small-talk margin, "offcatalog":
    the off-catalog model) for the embedding model of identity `ident`: one per model name,
    so that a fit for one model is never read for another (the file names its model's
    identity too, checked on load)."""
    return MODELS / f"zero-shot-{part}.{file_name(ident)}.npz"


def file_name(ident: str) -> str:
    """What names the embedding model of identity `ident` in the files fitted for it."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", Path(ident.split("@")[0]).name)[:60]


@dataclass(frozen=True)
class Abstention:
    """Unit vectors of requests no tool fits (one a row) and the fitted margin.

    `short_margin` (None: `margin`) is the margin of a short request (SHORT_WORDS words or
    fewer). A short request's cosine to a tool's long text is low, whether or not the tool
    fits, and small talk is short: "am I free thursday between 2 and 4?" lies as near to "are
    you there?" as to the calendar tool. The zero-shot decision fits a margin of its own for
    short requests (train/abstention.py); a tuning, fitted on the catalog's own requests,
    has one margin.

    `wordless_margin` (None: as the others) is the margin of a request none of whose content
    words any tool of the catalog has, whatever its length: the short margin allows for a
    short request whose words a tool has but whose cosine to its long text is low; with no
    word in common ("tell me a joke" against the demo's tools), nothing of the catalog speaks
    for it. The zero-shot decision fits it on the training requests that share no word with
    their catalog, never under `margin`."""

    vectors: np.ndarray
    margin: float
    short_margin: float | None = None
    wordless_margin: float | None = None

    def margins(self, queries: Sequence[str], wordless: Sequence[bool] | None = None
                ) -> np.ndarray:
        """The margin of each of `queries`: `wordless_margin` for one that shares no word
        with the catalog (`wordless`, None: none does), else `short_margin` for a short one,
        else `margin`."""
        short = self.margin if self.short_margin is None else self.short_margin
        found = np.array([short if len(q.split()) <= SHORT_WORDS else self.margin
                          for q in queries], dtype=np.float64)
        if wordless is not None and self.wordless_margin is not None:
            found[np.asarray(wordless, dtype=bool)] = self.wordless_margin
        return found


def contrast(negatives: np.ndarray, evidence: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each request vector (rows of `queries`): its cosine to the nearest of `negatives`
    less its cosine to the nearest of `evidence` (tool text and usage vectors)."""
    near_none = _nearest(queries, negatives)
    near_tool = _nearest(queries, evidence)
    return np.asarray(near_none - near_tool)


def _nearest(queries: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    if not len(vectors):
        return np.full(len(queries), -1.0)
    return np.asarray((queries @ vectors.T).max(axis=1), dtype=np.float64)


def turned_away(abstention: Abstention, query: np.ndarray, tools: np.ndarray,
                usage: np.ndarray | None, first: np.ndarray | None = None) -> bool:
    """Whether the request of vector `query` is turned away (see the module docstring):
    `tools` the text vectors of every tool, `usage` the usage vectors of the tools the
    tuning applies to (None: none), `first` the indices of the tools to compare first (the
    best scored: one near enough ends the check before the whole catalog is read)."""
    size = len(query)
    if not len(abstention.vectors) or abstention.vectors.shape[1] != size \
            or tools.shape[1] != size:
        return False  # vectors of another model's size cannot be compared: none turned away
    # turned away when every tool's evidence is under the nearest request no tool fits,
    # less the margin
    bar = float(np.max(abstention.vectors @ query)) - abstention.margin
    for part in (usage, None if first is None else tools[first], tools):
        if part is not None and len(part) and part.shape[1] == size \
                and float(np.max(part @ query)) >= bar:
            return False
    return True


def shows_nothing(best: np.ndarray, threshold: float, away: np.ndarray) -> np.ndarray:
    """Which requests are turned away: the one definition that pick, serve, bench and tune
    share. A request is turned away when pick shows no tool for it: no tool scores at least
    `threshold` (its `best` score under it; -inf when nothing scored), or the abstention
    turns it away (`away`)."""
    return np.asarray((np.asarray(best, dtype=np.float64) < threshold)
                      | np.asarray(away, dtype=bool))


@functools.cache
def shipped(ident: str) -> Abstention | None:
    """The zero-shot abstention fitted once for the embedding model `ident` and shipped with
    toolcat (`shipped_path`: the built-in small talk's vectors and two margins, for short requests
    and the others, fitted on public labeled sets so that at most 0.5% of their requests that
    need a tool are turned away; train/abstention.py), or None when none was fitted for that
    model."""
    try:
        with np.load(shipped_path("abstain", ident), allow_pickle=False) as stored:
            model, margin = str(stored["model"]), float(stored["margin"])
            short = float(stored["short_margin"]) if "short_margin" in stored else margin
            wordless = float(stored["wordless_margin"]) if "wordless_margin" in stored \
                else None
            vectors = stored["vectors"].astype(np.float32)
    except (OSError, KeyError, ValueError):
        return None
    if model != ident or vectors.ndim != 2 \
            or not all(0 <= m <= MAX_MARGIN for m in (margin, short, wordless or 0.0)):
        return None
    return Abstention(vectors, margin, short, wordless)


def far_from_tools(abstention: Abstention, queries: np.ndarray, best: np.ndarray,
                   texts: Sequence[str], wordless: Sequence[bool] | None = None
                   ) -> np.ndarray:
    """Which requests (unit vectors, one a row; `texts` the requests; `wordless` which share
    no word with the catalog, `known_share`) are turned away when `best` is each one's
    highest cosine to any tool: the nearest request no tool fits is nearer, by more than the
    request's margin (the module docstring, without usage). A request of more than
    SHORT_WORDS words that hands over a value (`hands_over_a_value`) is never turned away by
    this margin: small talk hands over none, and such a request is left to the off-catalog
    model and the gates after it (short talk may carry a number: "lol 10/10")."""
    if not len(queries) or queries.shape[1] != abstention.vectors.shape[1]:
        return np.zeros(len(queries), dtype=bool)
    nearest = (queries @ abstention.vectors.T).max(axis=1)
    valued = np.array([len(t.split()) > SHORT_WORDS and hands_over_a_value(t)
                       for t in texts], dtype=bool)
    return np.asarray((nearest - best > abstention.margins(texts, wordless)) & ~valued)


# --- requests for a service the catalog lacks (the zero-shot decision's second part) ---
#
# A short request for a missing service ("order me a large pepperoni pizza" against a catalog
# of developer tools) lies as near to the catalog's tools as a short request it serves: its
# cosine alone cannot tell them apart. What can: no content word of it is in any tool's text
# (no lexical evidence), its nearest kind of service (food delivery) is the nearest kind of no
# tool of the catalog, and it lies no nearer to the best tool than to the catalog's centre.
# A logistic model over those features (and the small-talk contrast above), fitted once on
# public sets, each request against its own catalog and against other sets' catalogs that
# cannot serve it (train/abstention.py), turns a request away when its score passes the
# threshold that keeps 99.5% of each training set's requests that need a tool.

FEATURES = ("small_talk", "best", "over_centre", "lexical", "known_words", "kind_gap",
            "words", "best_words", "over_breadth")
BREADTH = 10  # a tool's breadth: the mean of its cosines to its BREADTH nearest kinds
MAX_WEIGHT = 100.0  # a stored weight past it is no fitted model: the file is not used


@dataclass(frozen=True)
class OffCatalog:
    """The shipped model: the built-in small talk's vectors, the kinds of service (a name and
    a unit vector each), a weight per FEATURES, the bias and the threshold of the score, and
    `cover`: the least cosine to a kind of a tool nearest to it for the catalog to be about
    that kind (a tool of a catalog of developer tools is always nearest to some kind, "food
    delivery" for port forwarding, but far from it)."""

    small_talk: np.ndarray
    kinds: tuple[str, ...]
    kind_vectors: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    cover: float

    def score(self, features: np.ndarray) -> np.ndarray:
        """The log-odds that each request (a row of FEATURES) asks for no tool of the
        catalog."""
        return np.asarray(features @ self.weights + self.bias, dtype=np.float64)


@dataclass(frozen=True)
class CatalogKinds:
    """What a catalog is about, computed once per catalog: the unit vector of its centre, for
    each kind of service the highest cosine to it of a tool whose nearest kind it is
    (`strength`, 0 when none is), and each tool's breadth: the mean of its cosines to its
    BREADTH nearest kinds (a tool that searches, lists or runs anything lies near many kinds
    at once; one that does one thing, near one)."""

    centre: np.ndarray
    strength: np.ndarray
    breadth: np.ndarray


def catalog_kinds(model: OffCatalog, tools: np.ndarray) -> CatalogKinds:
    """The kinds of service of the catalog whose tools' unit vectors are the rows of `tools`
    (linear in the tools: one product with the few kinds' vectors)."""
    centre = tools.mean(axis=0) if len(tools) else np.zeros(tools.shape[1])
    norm = float(np.linalg.norm(centre))
    near = tools @ model.kind_vectors.T  # tools x kinds
    strength = np.zeros(len(model.kinds))
    breadth = np.zeros(len(tools))
    if len(tools):
        np.maximum.at(strength, near.argmax(axis=1), near.max(axis=1))
        top = min(BREADTH, near.shape[1])
        breadth = np.partition(near, near.shape[1] - top, axis=1)[:, -top:].mean(axis=1)
    return CatalogKinds(centre / norm if norm else centre, strength, breadth)


# a value a request hands over in quotes ("tick off 'buy groceries'"): a quote that opens a
# word and one that closes one, with no quote between (linear: each run is read once)
_QUOTED = re.compile(r"""(?:^|(?<=[\s(]))['"‘“][^'"‘’“”\n]{1,200}"""
                     r"""['"’”](?=[\s.,;:!?)]|$)""")


def without_quotes(text: str) -> str:
    """`text` without the values it hands over in quotes: "tick off 'buy groceries'" asks to
    tick off a task, not for groceries. (Not the words it writes as names: "play some jazz
    on Spotify" asks for Spotify.)"""
    return " ".join(_QUOTED.sub(" ", text).split())


# a value a request hands over: a piece with a digit ("the Q4 offsite", "from jan 5", "10 min")
_DIGIT = re.compile(r"\d")
MOST_READ = 2000  # characters of a request read for a value it hands over


def hands_over_a_value(text: str) -> bool:
    """Whether `text` hands over a value to act on: a piece with a digit (a time, a date, an
    amount, an identifier) or something in quotes ("tell Priya in a DM that I'll be 10 min
    late", "remember that the Q4 offsite is in Lisbon on Feb 12", "find the phonetics for
    the word 'quixotic'"). Small talk ("hello", "thanks, that's all for today", "hey Sam,
    good morning") hands over none: a request that does asks to act on it, however near to
    small talk its other words lie. (A name alone is no value: a greeting names whom it
    greets.)"""
    read = text[:MOST_READ]
    return bool(_DIGIT.search(read) or _QUOTED.search(read))


def lexical_features(lexical: BM25Scorer, query: str, nearest: int
                     ) -> tuple[float, float, float]:
    """The lexical evidence of a request in a catalog: log(1 + the best tool's BM25F evidence,
    in nats); the share of the request's content words (its stems, without the values it
    names) found in some tool's text; and the idf-weighted share of them found in the text
    of the tool nearest to it (`nearest`, its index): whether the tool the embedding found
    says what the request asks, or only lies near everything (1 when it has no content
    word)."""
    found, _ = lexical.evidence(query)
    best = float(found.max()) if len(found) else 0.0
    asked, ids, known = _known(lexical, query)
    index = lexical.index
    own = set(index.field_indices[index.field_indptr[nearest]:
                                  index.field_indptr[nearest + 1]].tolist())
    # a word no tool has weighs as one of a single tool: the most specific there is
    floor = float(np.log1p((index.size - 0.5) / 1.5)) if index.size else 1.0
    weight = {s: float(index.idf[t]) if t is not None else floor for s, t in ids.items()}
    total = sum(weight.values())
    mine = sum(weight[s] for s, t in ids.items() if t is not None and t in own)
    return (float(np.log1p(max(best, 0.0))), known / len(asked) if asked else 1.0,
            mine / total if total > 0 else 1.0)


def _known(lexical: BM25Scorer, query: str
           ) -> tuple[set[str], dict[str, int | None], int]:
    """The content words (stems, without the values it names) of `query`, each one's term in
    the catalog's index (None: no tool's text has it), and how many of them some tool's text
    or server name has."""
    from toolcat.search.bm25 import SERVER
    from toolcat.search.text import stems, without_values

    asked = set(stems(without_values(query)))
    ids = {s: lexical.term_id(s) for s in asked}
    known = sum(1 for s, t in ids.items() if t is not None or lexical.term_id(SERVER + s)
                is not None)
    return asked, ids, known


def known_share(lexical: BM25Scorer, query: str) -> float:
    """The share of the words of `query` (its content words without a digit: "Q3" is a value
    it hands over) that some tool's text or server name has (1 when it has none: nothing is
    missing); 0 for a request that shares no word with the catalog
    (`Abstention.wordless_margin`)."""
    from toolcat.search.bm25 import SERVER

    _, ids, _ = _known(lexical, query)
    words = [s for s in ids if not any(c.isdigit() for c in s)]
    known = sum(1 for s in words
                if ids[s] is not None or lexical.term_id(SERVER + s) is not None)
    return known / len(words) if words else 1.0


def features(model: OffCatalog, kinds: CatalogKinds, queries: np.ndarray, best: np.ndarray,
             lexical: Sequence[tuple[float, float, float]], texts: Sequence[str],
             at: np.ndarray) -> np.ndarray:
    """FEATURES of each request (rows of unit vectors `queries`, `best` its highest cosine to
    a tool, `lexical` its `lexical_features`, `texts` the requests, `at` the index of the
    tool nearest to it) against one catalog."""
    small_talk = (queries @ model.small_talk.T).max(axis=1) - best
    over_centre = best - queries @ kinds.centre
    near = queries @ model.kind_vectors.T
    covered = kinds.strength >= model.cover
    # a catalog about no kind (every tool far from all of them) says nothing of the request's
    gap = near.max(axis=1) - np.where(covered, near, -1.0).max(axis=1) if covered.any() \
        else np.zeros(len(queries))
    count = np.array([np.log(1 + len(t.split())) for t in texts], dtype=np.float64)
    words = np.asarray(lexical, dtype=np.float64).reshape(len(texts), 3)
    over_breadth = best - kinds.breadth[np.asarray(at, dtype=np.int64)]
    return np.column_stack([small_talk, best, over_centre, words[:, 0], words[:, 1], gap,
                            count, words[:, 2], over_breadth]).astype(np.float64)


def why_away(model: OffCatalog, kinds: CatalogKinds, row: np.ndarray, query: np.ndarray,
             nearest: Tool) -> str:
    """Why a request of FEATURES `row` (and unit vector `query`) was turned away, in words:
    the kind of service it asks for that no tool is about, else the features that weighed
    most; and the tool nearest to it (`nearest`)."""
    parts = row * model.weights
    kind = int((query @ model.kind_vectors.T).argmax())
    if kinds.strength[kind] < model.cover and parts[FEATURES.index("kind_gap")] > 0:
        return (f"no tool of this catalog is about {model.kinds[kind]} (nearest: "
                f"{nearest.qualified_name})")
    top = [FEATURES[i] for i in np.argsort(-parts)[:2] if parts[i] > 0]
    return "no tool fits its words and kind of service (" + ", ".join(
        f"{name} {row[FEATURES.index(name)]:.2f}" for name in top) + \
        f"; nearest: {nearest.qualified_name})"


def kind_asked(model: OffCatalog, kinds: CatalogKinds, queries: np.ndarray,
               nearest: Sequence[Tool]) -> list[str | None]:
    """What each request the small-talk margin turns away (rows of unit vectors `queries`,
    `nearest` its nearest tool) asks for, when it is a service rather than a chat: the kind of
    service nearest to it, when that kind is nearer to it than every request of small talk
    and no tool of the catalog is about it ("book me a table for two at an Italian place
    tonight": restaurants); else None ("hello", "tell me about yourself")."""
    if not len(queries) or queries.shape[1] != model.kind_vectors.shape[1]:
        return [None] * len(queries)
    near = queries @ model.kind_vectors.T
    kind = near.argmax(axis=1)
    talk = (queries @ model.small_talk.T).max(axis=1)
    return [f"no tool of this catalog is about {model.kinds[k]} (nearest: "
            f"{tool.qualified_name})"
            if near[i, k] > talk[i] and kinds.strength[k] < model.cover else None
            for i, (k, tool) in enumerate(zip(kind.tolist(), nearest, strict=True))]


def second_look(model: OffCatalog, kinds: CatalogKinds, texts: Sequence[str],
                found: Sequence[str | None], encode: Callable[[list[str]], np.ndarray],
                tools: np.ndarray, lexical: BM25Scorer, named: Sequence[Tool]
                ) -> list[str | None]:
    """`found` (`beyond_catalog`'s reasons for `texts`), where a request it turns away is
    kept when, without the values it quotes (`without_quotes`, embedded by `encode`), the
    off-catalog model would keep it: a quoted task's title is what the request hands over,
    not the service it asks for. Only turned-away requests that quote something are
    embedded again (`tools`: the tools' unit vectors; `named`: the tools)."""
    bare = {i: without_quotes(texts[i]) for i, r in enumerate(found) if r is not None}
    again = [i for i, text in bare.items() if text not in ("", texts[i])]
    if not again:
        return list(found)
    vectors = encode([bare[i] for i in again])
    near = vectors @ tools.T
    at = near.argmax(axis=1)
    asked = [texts[i] for i in again]
    second = beyond_catalog(model, kinds, vectors, near.max(axis=1),
                            [lexical_features(lexical, q, int(a))
                             for q, a in zip(asked, at, strict=True)],
                            asked, at, [named[int(a)] for a in at])
    kept = {i for i, r in zip(again, second, strict=True) if r is None}
    return [None if i in kept else r for i, r in enumerate(found)]


@functools.cache
def shipped_off_catalog(ident: str) -> OffCatalog | None:
    """The off-catalog model fitted for the embedding model `ident` (`shipped_path`), or None
    when none was fitted for it or the file is not one."""
    try:
        with np.load(shipped_path("offcatalog", ident), allow_pickle=False) as stored:
            model = str(stored["model"])
            found = OffCatalog(stored["small_talk"].astype(np.float32),
                               tuple(str(k) for k in stored["kinds"]),
                               stored["kind_vectors"].astype(np.float32),
                               stored["weights"].astype(np.float64), float(stored["bias"]),
                               float(stored["threshold"]), float(stored["cover"]))
            names = tuple(str(f) for f in stored["features"])
    except (OSError, KeyError, ValueError):
        return None
    size = found.small_talk.shape[1] if found.small_talk.ndim == 2 else -1
    if model != ident or names != FEATURES or found.weights.shape != (len(FEATURES),) \
            or found.kind_vectors.shape != (len(found.kinds), size) \
            or not np.all(np.abs(found.weights) <= MAX_WEIGHT) \
            or not all(np.isfinite([found.bias, found.threshold, found.cover])):
        return None
    return found


def beyond_catalog(model: OffCatalog, kinds: CatalogKinds, queries: np.ndarray,
                   best: np.ndarray, lexical: Sequence[tuple[float, float, float]],
                   texts: Sequence[str], at: np.ndarray, nearest: Sequence[Tool]
                   ) -> list[str | None]:
    """Why the off-catalog model turns each request (as for `features`; `nearest` its
    nearest tool) away (`why_away`), or None when its score is not over the threshold; a
    request whose form asks for no action on any system (toolcat.search.no_action) needs
    only a score over `no_action.LEANING`."""
    from toolcat.search.no_action import LEANING, no_action_form, why_no_action

    if not len(queries) or queries.shape[1] != model.kind_vectors.shape[1]:
        return [None] * len(queries)
    found = features(model, kinds, queries, best, lexical, texts, at)
    score = model.score(found)
    reasons: list[str | None] = []
    for i in range(len(queries)):
        form = no_action_form(without_quotes(texts[i])) \
            if LEANING < score[i] <= model.threshold else None
        reasons.append(why_away(model, kinds, found[i], queries[i], nearest[i])
                       if score[i] > model.threshold
                       else why_no_action(form, nearest[i].qualified_name) if form else None)
    return reasons
