"""Lexical and semantic evidence added on one scale, so the surer part leads.

Reciprocal-rank fusion and fixed-weight sums of normalised scores give both parts the same say
on every query, so the weaker part drags the stronger one down (on seal_tools naive RRF loses
to BM25, on metatool it loses to embeddings). Here each part contributes evidence in
log-odds units, which grows with how sure that part is:

    evidence(q, d) = sum_t idf(t) * sat(t, d)  +  LAMBDA * max(cos(q, d), 0)

The first term is BM25F without its per-query normalisation (see `toolcat.search.bm25`). Its
idf is the Robertson-Sparck Jones log-odds weight of a term, so it is large when the query
shares several rare terms with a tool (lexical matching is reliable there) and small for a
short query in everyday words (then the embeddings decide). The second term puts the cosine
similarity on the same scale: LAMBDA nats per unit of cosine. A fixed LAMBDA of 12 means a
cosine of 0.5 weighs as much as about one rare term found in a tool's name (idf 6-8 in a
catalog of a few thousand tools, times a saturation near 0.8). It was not fitted to a
benchmark: every LAMBDA from 10 to 14 beats both parts on every set we measured (docs/search.md).
A request longer than eight words weighs its cosine more (`semantic.length_weight`): the first
term sums over the request's words and grows with them, the cosine does not.
Two small terms join the lexical one: the evidence of a server the request names
(`ServerNames`) and of the action it asks for in a tool's name (`toolcat.search.actions`).
A last one breaks near-ties between siblings of one server: a tool whose name adds words the
request never says to a sibling's that fits about as well loses half a nat
(`toolcat.search.siblings`), and a sibling acting on the same object as a tool whose verb the
request states gives way to it (`toolcat.search.stated`). The cosine of an order is read in
part from its head alone, without the phrases that say where or about what, and a tool whose
name acts on a word an order says only in such a phrase loses a nat (`toolcat.search.focus`). A
request that asks for many of what a tool's name acts on gives a nat to the names that act on
many and takes one from those that act on one (`toolcat.search.number`). A tool whose
parameters take the kinds of value a request names (an e-mail address, a range in A1 notation,
an identifier whose prefix a parameter describes) gains up to a few nats
(`toolcat.search.values`). A request is read also without what it is about ("find my note about
the kubernetes migration" -> "find my note"), and a server it names only there is no evidence
(`toolcat.search.topic`). A question that gives no order takes a nat from the tools whose name
does more than look (`toolcat.search.looking`), a verb the table lacks is read with its object
among siblings that fit alike (`toolcat.search.collocations`), and one that is a noun the
catalog's names create or send ("snapshot ct 201") gives them the action's nat
(`toolcat.search.denominal`); one that makes its object ("file a bug", "log a call") asks to
create it, and is no word of what the request is about (`toolcat.search.making`).

The score maps the evidence to 0..1 without changing the order, with a log-logistic curve
(a logistic in log-evidence): e^3 / (e^3 + MIDPOINT^3). MIDPOINT is 5 nats, about a cosine
of 0.42 alone or a rare name word plus a related description, and scores 0.5; 8 nats scores
0.8. Unrelated text reaches a cosine of 0.1 to 0.15 (1.2 to 1.8 nats), which scores 0.01 to
0.045, so the default threshold of 0.05 turns away a request no tool is about. The
scale is absolute, so a score means the same for every query.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import toolcat.search.calibration as calibration
from toolcat.model import Tool
from toolcat.search.abstain import CatalogKinds
from toolcat.search.actions import AGREEMENT, Actions, phrasal_read
from toolcat.search.bilingual import Bilingual
from toolcat.search.bm25 import BM25Scorer, language_name
from toolcat.search.central import Centres
from toolcat.search.collocations import Collocations, phrase
from toolcat.search.denominal import Denominal
from toolcat.search.described import Described
from toolcat.search.device import Progress
from toolcat.search.embeddings import Embedder
from toolcat.search.focus import Focus, read, with_head
from toolcat.search.formats import Formats
from toolcat.search.initialisms import Initialisms
from toolcat.search.looking import Looks
from toolcat.search.making import Making, made, without
from toolcat.search.number import Number
from toolcat.search.orders import states
from toolcat.search.phrases import PhraseFinder
from toolcat.search.reversal import Reversals
from toolcat.search.semantic import LAMBDA as LAMBDA  # re-exported: hybrid's weight
from toolcat.search.semantic import SemanticScorer, length_weight
from toolcat.search.services import CatalogMentions
from toolcat.search.siblings import Siblings
from toolcat.search.split import Parts, by_best_part
from toolcat.search.stated import Stated
from toolcat.search.statements import Statements, without_statements
from toolcat.search.states import States
from toolcat.search.text import plurals_said, split_name, stems
from toolcat.search.thesaurus import Thesaurus
from toolcat.search.topic import TOPIC_WORDS, view, with_view
from toolcat.search.values import Values
from toolcat.search.verbs import CatalogVerbs

MIDPOINT = 5.0


class HybridScorer:
    """BM25F evidence plus scaled embedding similarity (see the module docstring).

    Built in its lexical stage (`lexical_stage`), it has no embeddings yet: it scores BM25F
    evidence alone on the same scale, says so in `notice` and in every explanation, and
    turns hybrid when `complete()` has loaded or computed them (serve runs it on a thread).
    """

    name = "hybrid"

    def __init__(self, tools: Sequence[Tool], *, model: str | None = None,
                 cache: bool = True, semantic_weight: float = LAMBDA,
                 device: str | None = None, progress: Progress | None = None) -> None:
        self._setup(BM25Scorer(tools), SemanticScorer(tools, model=model, cache=cache,
                                                      device=device, progress=progress),
                    semantic_weight)

    @classmethod
    def from_parts(cls, lexical: BM25Scorer, semantic: SemanticScorer, *,
                   semantic_weight: float = LAMBDA, values: Values | None = None
                   ) -> HybridScorer:
        """A hybrid of scorers already built over the same tools (a persisted index), with
        `values` kept with them."""
        scorer = cls.__new__(cls)
        scorer._setup(lexical, semantic, semantic_weight)
        if values is not None:
            scorer.values = values
        return scorer

    @classmethod
    def lexical_stage(cls, lexical: BM25Scorer, embedder: Embedder, notice: str,
                      complete: Callable[[Progress], SemanticScorer], *,
                      cache: bool = True, semantic_weight: float = LAMBDA,
                      values: Values | None = None) -> HybridScorer:
        """A hybrid whose embeddings are not at hand: BM25F evidence alone until
        `complete()` gets them from `complete`, which loads or computes the semantic stage
        and reports the tools it encodes to the progress callback it is given (see the class
        docstring)."""
        scorer = cls.__new__(cls)
        scorer._setup(lexical, None, semantic_weight, embedder, cache)
        if values is not None:
            scorer.values = values
        scorer.notice = notice
        scorer._complete = complete
        return scorer

    def _setup(self, lexical: BM25Scorer, semantic: SemanticScorer | None, weight: float,
               embedder: Embedder | None = None, cache: bool = True) -> None:
        self.tools = lexical.tools
        self.lexical = lexical
        self._semantic = semantic
        self.weight = weight
        self.notice: str | None = None  # why the scores are lexical only, while they are
        self._embedder = embedder if semantic is None else semantic.embedder
        self._cache = cache if semantic is None else semantic.cache
        self._complete: Callable[[Progress], SemanticScorer] | None = None
        self._completing = threading.Lock()
        self.servers = ServerNames(self.tools, lexical)
        self.actions = Actions(self.tools)
        self.siblings = Siblings(self.tools)
        self.stated = Stated(self.tools)
        self.reversals = Reversals(self.tools)
        self.verbs = CatalogVerbs(self.tools, self.servers.keys)
        self.denominal = Denominal(self.tools)
        self.described = Described(self.tools, lexical, self.servers.keys)
        self.making = Making(self.tools)
        self.centres = Centres(self.tools)
        self.looks = Looks(self.tools)
        self.collocations = Collocations(self.tools)
        self.focus = Focus(self.tools)
        self.number = Number(self.tools)
        self.states = States(self.tools, lexical)
        self.statements = Statements(self.tools)
        self.values = Values(self.tools)
        self.formats = Formats(self.tools, lexical)
        self.thesaurus = Thesaurus(lexical)
        self.bilingual = Bilingual(lexical)
        self.initialisms = Initialisms(lexical)
        self._last_cosine: tuple[tuple[tuple[str, ...], bool], np.ndarray] | None = None
        self._last_view: tuple[str, np.ndarray] | None = None
        self._last_fitting: tuple[tuple[str, bool], np.ndarray] | None = None
        self._kinds: CatalogKinds | None = None  # the off-catalog model's, on first need
        self._mentions = CatalogMentions(self.tools)  # the software services it names

    @property
    def ready(self) -> bool:
        """Whether the semantic stage is there (else: the lexical stage, see `notice`)."""
        return self._semantic is not None

    @property
    def semantic(self) -> SemanticScorer:
        """The semantic stage (ValueError in the lexical stage)."""
        if self._semantic is None:
            raise ValueError(f"the hybrid scorer has no semantic stage yet: {self.notice}")
        return self._semantic

    def complete(self, progress: Progress | None = None) -> None:
        """Load or compute the embeddings a lexical-stage hybrid waits for; the scores are
        hybrid from then on (`progress`: told of the encoding too, see Completing). A
        failure leaves the lexical stage, says so in `notice`, and is raised."""

        def encoding(done: int, total: int) -> None:
            self._encoding(done, total)
            if progress is not None:
                progress(done, total)

        with self._completing:
            if self._semantic is None and self._complete is not None:
                try:
                    self._semantic = self._complete(encoding)
                except Exception as exc:
                    problem = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
                    self.notice = f"the semantic stage failed ({problem}); ranked by words only"
                    raise
                self.notice = None

    def _encoding(self, done: int, total: int) -> None:
        self.notice = (f"the catalog's embeddings are being computed ({done:,} of "
                       f"{total:,} tools); ranked by words only until they are")

    @property
    def embedder(self) -> Embedder:
        assert self._embedder is not None
        return self._embedder

    @property
    def cache(self) -> bool:
        """Whether embeddings are read from and written to the disk cache."""
        return self._cache

    @property
    def midpoint(self) -> float:
        """The squashing's midpoint for the embedding model (`midpoint_of`)."""
        return midpoint_of(self.embedder.ident)

    def evidence(self, queries: Sequence[str], *, cached: bool = False,
                 floor: bool = True, by_length: bool = True) -> np.ndarray:
        """Total evidence per tool, one row per query (`cached`: see SemanticScorer); for a
        request whose parts ask for different things, a tool's evidence is the better of the
        whole request's and its best part's (toolcat.search.split). `floor=False` keeps
        evidence under zero (a question's penalty, `looking`), so that another semantic
        weight's evidence is this plus the weight's share of the cosine, floored then
        (toolcat.tune.material). `by_length=False` weighs every request's cosine alike, as
        the abstention's floors in nats were chosen (`semantic.length_weight`)."""
        if not queries:
            return self.whole_evidence(queries, cached=cached, floor=floor, by_length=by_length)
        return np.stack([found.evidence for found in self.parts(
            queries, cached=cached, floor=floor, by_length=by_length)])

    def parts(self, queries: Sequence[str], *, cached: bool = False,
              floor: bool = True, by_length: bool = True) -> list[Parts]:
        """Where each tool's evidence for each of `queries` comes from (see `evidence`)."""
        return by_best_part(queries, lambda texts: self.whole_evidence(
            texts, cached=cached, floor=floor, by_length=by_length))

    def whole_evidence(self, queries: Sequence[str], *, cached: bool = False,
                       floor: bool = True, by_length: bool = True) -> np.ndarray:
        """Total evidence per tool of each query read whole, one row per query (`floor`,
        `by_length`: see `evidence`)."""
        lexical, cosine = self._parts_of(queries, cached=cached)
        # whether a narrower sibling fits about as well is read at the default weight, so a
        # tuning's other weight shifts every tool's evidence by its cosine alone (tune.material)
        fitting = lexical if cosine is None else lexical + LAMBDA * cosine
        narrower = np.array([self.siblings.evidence(q, row) + self.stated.evidence(q, row)
                             + self.reversals.evidence(q, row)
                             for q, row in zip(queries, fitting, strict=True)]
                            ).reshape(fitting.shape)
        evidence = lexical
        if cosine is not None:
            weights = [self.weight + (length_weight(q) if by_length else 0.0) for q in queries]
            evidence = lexical + cosine * np.array(weights).reshape(-1, 1)
            # the verb phrase's action among siblings that fit alike
            narrower += np.array([
                self.collocations.evidence(q, row, self.semantic.embedder, self.verbs)
                for q, row in zip(queries, fitting, strict=True)]).reshape(fitting.shape)
        return np.maximum(evidence + narrower, 0.0) if floor else evidence + narrower

    def _parts_of(self, queries: Sequence[str], *, cached: bool = False
                  ) -> tuple[np.ndarray, np.ndarray | None]:
        """The lexical evidence per tool of each query read whole, and the clipped cosine
        the semantic weight multiplies (None in the lexical stage)."""
        asked = [self._asked(q) for q in queries]
        readings = [read(a) for a in asked]
        semantic = self._semantic  # read once: serve's completing thread may set it
        lexical = (np.array([self._words_evidence(q, semantic)
                             + self.servers.evidence(view(q) or q)
                             + self._action(q, semantic) + self.focus.evidence(reading)
                             + self.number.evidence(q) + self.states.evidence(q)
                             + self.statements.evidence(q) + self.values.evidence(q)
                             + self.formats.evidence(q)
                             + self.thesaurus.evidence(
                                 q, None if semantic is None else semantic.embedder)
                             + self.bilingual.evidence(q)
                             + self.initialisms.evidence(q)
                             + self.centres.look(self.servers.alone(q))
                             + self.looks.evidence(q)
                             for q, reading in zip(queries, readings, strict=True)])
                   if queries else np.zeros((0, len(self.tools))))
        if semantic is None:
            return lexical, None
        return lexical, self._cosine(semantic, queries, asked, [r.head for r in readings],
                                     cached=cached)

    def _words_evidence(self, query: str, semantic: SemanticScorer | None = None
                        ) -> np.ndarray:
        """BM25F's evidence for `query` without its statements (toolcat.search.statements) and
        the servers it names only in its topic; the words of its topic weigh TOPIC_WORDS
        (toolcat.search.topic). With `semantic` there, a request that names only a server has
        none: how often a tool repeats the name says nothing of what it does, and its
        server's tools are compared as a whole (toolcat.search.central)."""
        if semantic is not None and self.servers.alone(query):
            return np.zeros(len(self.tools))
        found = self._read(self._words(query))
        topic_free = view(query)
        if topic_free is None:
            return found
        return TOPIC_WORDS * found + (1 - TOPIC_WORDS) * self._read(topic_free)

    def _read(self, text: str) -> np.ndarray:
        """BM25F's evidence for `text` without its statements; a verb that makes its object
        (toolcat.search.making) is read as a word only for the tools of a server one of whose
        names opens with it."""
        found = self.lexical.evidence(without_statements(text))[0]
        verb = made(text)
        if verb is None:
            return found
        left = self.making.left(verb)
        if left.all():
            return found
        cut = self.lexical.evidence(without_statements(without(text, verb)))[0]
        return np.where(left, found, cut)

    def _words(self, query: str) -> str:
        """`query` as BM25F reads it: without the names of the servers it names only in
        what it is about (toolcat.search.topic), which say what it talks about."""
        topic_free = view(query)
        if topic_free is None:
            return query
        return self.servers.strip(query, self.servers.named(query)
                                  - self.servers.named(topic_free))

    def _asked(self, query: str) -> str:
        """What the query model reads of `query`: without the servers it names, its making
        verb as the model knows it, followed by its words read through a dictionary and its
        initialisms spelled out."""
        asked = self.making.embedded(self.servers.strip(query))
        return self.initialisms.for_model(query, self.bilingual.for_model(query, asked))

    def cosine(self, queries: Sequence[str], *, cached: bool = False) -> np.ndarray:
        """The clipped cosine per tool that the semantic weight multiplies, one row per query
        (ValueError in the lexical stage)."""
        asked = [self._asked(q) for q in queries]
        return self._cosine(self.semantic, queries, asked, [read(a).head for a in asked],
                            cached=cached)

    def _action(self, query: str, semantic: SemanticScorer | None) -> np.ndarray:
        """The evidence of the action `query` asks for: of the verb its first clause opens
        with, a noun the catalog's names create or send (toolcat.search.denominal) or mapped
        to the catalog's verbs (toolcat.search.verbs) when the action table does not know it,
        else of the table's (toolcat.search.actions); a request that asks to undo a verb
        some tools' names undo by a prefix, those tools' (toolcat.search.reversal)."""
        undoing = self.reversals.agreement(query)
        if undoing.any():
            return undoing
        made = self.denominal.evidence(query)
        if made.any():
            return made
        described = self.described.evidence(query)
        if described.any():
            return described
        making = self.making.evidence(query)
        if making.any():
            return making
        if semantic is not None:
            mapped = self.verbs.evidence(query, semantic.embedder)
            if mapped.any():
                return mapped
            classified = self.verbs.classified(query, semantic.embedder)
            if classified is not None:
                return self.actions.of_groups(frozenset((classified[1],)), query)
        return self.actions.evidence(query)

    def _cosine(self, semantic: SemanticScorer, queries: Sequence[str], asked: Sequence[str],
                heads: Sequence[str], *, cached: bool) -> np.ndarray:
        """The clipped cosine of each of `asked`, read in part from its head where the head is
        not the whole request (toolcat.search.focus) and from its topic-free view where it has
        one (toolcat.search.topic). The heads and views of a batch are encoded in it; one
        request is encoded as a single query (its vector is kept for the abstention and a
        tuning, and an approximate index may answer it), its head and view apart in one batch,
        and its cosine is kept for the next call (explain asks again for the same one). A
        request that names only a server is compared with that server's tools as a whole
        (toolcat.search.central)."""
        key = (tuple(queries), cached)
        last = self._last_cosine  # read once: serve's threads may replace it
        if last is not None and last[0] == key:
            return last[1]
        cut = [k for k, (whole, head) in enumerate(zip(asked, heads, strict=True))
               if head != whole]
        views = [view(a) for a in asked]  # toolcat.search.topic
        viewed = [k for k, v in enumerate(views) if v is not None]
        more = [*(heads[k] for k in cut), *(views[k] or "" for k in viewed)]
        if cached or len(asked) != 1:
            found = semantic.similarity([*asked, *more], cached=cached)
            of_more = found[len(asked):]
        else:
            found = semantic.similarity(asked)
            of_more = _more_similarity(semantic, more)
        cosine = np.clip(found[:len(asked)], 0.0, None)
        if cut:
            cosine[cut] = with_head(found[cut], of_more[:len(cut)])
        if viewed:
            cosine[viewed] = with_view(cosine[viewed], of_more[len(cut):])
        for row, query in enumerate(queries):
            alone = self.servers.alone(query)
            if alone:
                cosine[row] = self.centres.apply(alone, cosine[row], semantic.vectors)
        if len(asked) == 1:
            self._last_cosine = (key, cosine)
        return cosine

    def scores(self, query: str, extra: np.ndarray | None = None) -> np.ndarray:
        """Scores of every tool; `extra`: evidence to add, one value per tool (a tuning's
        usage evidence, toolcat.search.tuning)."""
        evidence = self.evidence([query])[0]
        return squash(evidence if extra is None else evidence + extra, self.midpoint)

    def ranking_key(self, query: str) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
        """Every tool's evidence, and `squash`, which turns evidence into the scores `scores`
        gives: `rank` squashes only the tools it may return (toolcat.search.ranking.Keyed)."""
        midpoint = self.midpoint
        return self.evidence([query])[0], lambda evidence: squash(evidence, midpoint)

    def scores_many(self, queries: Sequence[str], extra: np.ndarray | None = None
                    ) -> list[list[float]]:
        """Scores of each query (`extra`: one row per query, as for `scores`)."""
        evidence = self.evidence(queries, cached=True)
        return squash(evidence if extra is None else evidence + extra, self.midpoint).tolist()

    def turned_away(self, query: str) -> bool:
        """Whether the zero-shot abstention shipped with the embedding model turns `query`
        away (toolcat.search.abstain.shipped): it is nearer to small talk than to every
        tool. Never in the lexical stage, nor with a model none was fitted for."""
        return self.turned_away_many([query], cached=False)[0]

    def turned_away_many(self, queries: Sequence[str], *, cached: bool = True) -> list[bool]:
        """`turned_away` for each of `queries` (`cached`: through the embedding cache, as
        `scores_many`)."""
        return [reason is not None for reason in self.away_reasons(queries, cached=cached)]

    def away_reasons(self, queries: Sequence[str], *, cached: bool = True
                     ) -> list[str | None]:
        """Why the zero-shot abstention turns each of `queries` away (None: it does not):
        nearer to small talk than to every tool, or asking for what no tool of the catalog
        is about (toolcat.search.abstain.shipped_off_catalog)."""
        from toolcat.languages import foreign
        from toolcat.search.abstain import (
            beyond_catalog,
            catalog_kinds,
            far_from_tools,
            kind_asked,
            known_share,
            lexical_features,
            second_look,
            shipped,
            shipped_off_catalog,
        )
        from toolcat.search.embeddings import embed_texts

        semantic = self._semantic
        abstention = shipped(self.embedder.ident) if semantic is not None else None
        if semantic is None or abstention is None or not queries or not len(self.tools):
            return [None] * len(queries)
        # a request that names one of the catalog's servers is for its tools, whatever the
        # rest of it says ("what is the weather tomorrow" with a weather server), and one
        # CLD2 is sure is not English is not judged: the model reads English, and a request
        # in Spanish or German lies near nothing of the catalog. The others are embedded as
        # the scores just embedded them, so their vectors are not encoded again
        asked = [q for q in queries if self.servers.strip(q) == q and not foreign(q)]
        if not asked:
            return [None] * len(queries)
        if cached:  # one read of the embedding cache, as `semantic.similarity` would do
            vectors = embed_texts(semantic.embedder, asked, cache=semantic.cache)[0]
            similarity = vectors @ semantic.vectors.T
        else:
            similarity = semantic.similarity(asked)
            vectors = np.stack([self.embedder.query_vector(q) for q in asked])
        best = np.max(similarity, axis=1)
        at = similarity.argmax(axis=1)
        lexical = [lexical_features(self.lexical, q, int(i))
                   for q, i in zip(asked, at, strict=True)]
        wordless = [known_share(self.lexical, q) == 0 for q in asked]
        # an initialism the catalog's names spell out ("P&L for FY 25-26") is no small talk,
        # though the model, which does not know it, puts the request far from every tool
        reasons: list[str | None] = [
            "the request is nearer to requests no tool fits (small talk) than to any tool"
            if away and not self.initialisms.readings(q) else None
            for q, away in zip(asked, far_from_tools(abstention, vectors, best, asked,
                                                     wordless), strict=True)]
        model = shipped_off_catalog(self.embedder.ident)
        if model is not None:  # what small talk let through, the off-catalog model may not
            if self._kinds is None:
                self._kinds = catalog_kinds(model, semantic.vectors)
            beyond = beyond_catalog(model, self._kinds, vectors, best, lexical, asked, at,
                                    [self.tools[int(i)] for i in at])
            beyond = second_look(model, self._kinds, asked, beyond, lambda texts: np.stack(
                [self.embedder.query_vector(t) for t in texts]), semantic.vectors, self.lexical,
                self.tools)
            # a request far from every tool that asks for a service says which one
            kinds = kind_asked(model, self._kinds, vectors, [self.tools[int(i)] for i in at])
            reasons = [b if r is None else (k or r)
                       for r, b, k in zip(reasons, beyond, kinds, strict=True)]
        reasons = self._unmentioned(asked, reasons, vectors, cached=cached)
        away = dict(zip(asked, reasons, strict=True))
        return [away.get(q) for q in queries]

    def _unmentioned(self, asked: Sequence[str], reasons: list[str | None],
                     vectors: np.ndarray, *, cached: bool) -> list[str | None]:
        """`reasons`, where a request let through is turned away when it names what no tool
        of the catalog mentions and its best tool scores under FLOOR
        (toolcat.search.unmentioned), or when it is short, names a software service no tool
        of the catalog mentions and its best tool scores under SERVICE_FLOOR
        (toolcat.search.services), or when it is short, its best tool scores under
        uncovered.FLOOR, and it and the words of it no tool has are of a kind of service no
        tool is about (toolcat.search.uncovered; `vectors`: the requests' unit vectors). Only
        weak fits are read word by word."""
        from toolcat.search.abstain import SHORT_WORDS, without_quotes
        from toolcat.search.services import SERVICE_FLOOR, missing_services, why_missing
        from toolcat.search.uncovered import FLOOR as OBJECT_FLOOR
        from toolcat.search.unmentioned import FLOOR, unmentioned, why_unmentioned

        kept = [k for k, r in enumerate(reasons) if r is None]
        if not kept:
            return reasons
        evidence = self.evidence([asked[k] for k in kept], cached=cached, by_length=False)
        best = evidence.max(axis=1)
        midpoint = self.midpoint
        floor = float(squash(np.array(FLOOR), midpoint))
        out = list(reasons)
        for row, k in enumerate(kept):
            if best[row] >= max(FLOOR, SERVICE_FLOOR, OBJECT_FLOOR):
                continue
            nearest = self.tools[int(evidence[row].argmax())].qualified_name
            words = unmentioned(asked[k], self.lexical, without_quotes) \
                if best[row] < FLOOR else []
            if words:
                score = float(squash(np.array(best[row]), midpoint))
                out[k] = why_unmentioned(words, score, floor, nearest)
            elif best[row] < SERVICE_FLOOR and len(asked[k].split()) <= SHORT_WORDS:
                services = missing_services(asked[k], self._mentions, without_quotes)
                if services:
                    out[k] = why_missing(services, nearest)
                elif best[row] < OBJECT_FLOOR:
                    out[k] = self._uncovered(asked[k], vectors[k], nearest)
        return out

    def _uncovered(self, request: str, vector: np.ndarray, nearest: str) -> str | None:
        """Why `request` (of unit vector `vector`) is turned away when it and the words of it
        no tool has are of a kind of service no tool of the catalog is about
        (toolcat.search.uncovered), or None."""
        from toolcat.search.abstain import shipped_off_catalog
        from toolcat.search.uncovered import (
            asks_a_question,
            subject_words,
            uncovered_kind,
            why_uncovered,
        )

        semantic = self._semantic
        model = shipped_off_catalog(self.embedder.ident)
        if semantic is None or model is None or self._kinds is None \
                or asks_a_question(request):
            return None
        words = subject_words(request, self.lexical)
        if not words:
            return None
        kind = uncovered_kind(model, self._kinds, vector,
                              self.embedder.query_vector(" ".join(words)), semantic.vectors)
        return None if kind is None else why_uncovered(words, kind, nearest)

    def explain(self, query: str, index: int, extra: np.ndarray | None = None
                ) -> tuple[str, Mapping[str, Any]]:
        """Why `index` scores as it does (`extra` changes no part of the explanation: the
        caller that added it explains it)."""
        semantic = self._semantic
        found = self.parts([query])[0]
        part = found.texts[found.source[index]] if found.source[index] >= 0 else query
        cosine = float(self.cosine([part])[0][index]) if semantic is not None else 0.0
        words = without_statements(part)  # a statement's words are values, not evidence
        making = made(part)
        if making is not None and not self.making.left(making)[index]:
            words = without_statements(without(part, making))  # `_read`
        if semantic is not None and self.servers.alone(part):
            words = ""  # a server's name alone is no BM25F evidence (`_words_evidence`)
        reason, details = why(self.lexical, words, index,
                              float(self.lexical.evidence(words)[0][index]), cosine,
                              self.weight + length_weight(part), self.embedder.ident)
        if making is not None and not self.making.left(making)[index] and words:
            embedded = "" if self.making.left(making).any() else " (embedded as 'create')"
            reason = (f"{reason}; {making!r} read as the verb that makes what the request "
                      f"names, not as a word of it{embedded}")
            details = {**details, "verb_not_a_word": making}
        wordnet = self.thesaurus.explained(part, index,
                                           None if semantic is None else semantic.embedder)
        if wordnet is not None:
            reason, details = f"{reason}; {wordnet[0]}", {**details, **wordnet[1]}
        for read_in in (self.bilingual.explained(part, index),
                        self.initialisms.explained(part, index)):
            if read_in is not None:
                reason, details = f"{reason}; {read_in[0]}", {**details, **read_in[1]}
        if part != query:
            lift = found.lift[found.source[index]]
            reason = (f"{reason}" + (f" + {lift:.1f} as a part of its own" if lift else "")
                      + f", for the part {part[:80]!r}")
            details = {**details, "part": part, "part_lift": round(lift, 6)}
        if semantic is None:
            reason = f"{reason.split(' + semantic')[0]}; lexical stage: {self.notice}"
            details = {**details, "stage": "lexical"}
        undone = self.reversals.read(query)  # the action, when it undoes a verb
        noun = None if undone is not None else self.denominal.noun(query)
        described = (self.described.verb(query) if noun is None and undone is None
                     and self.described.evidence(query).any() else None)
        maker = (made(query) if noun is None and undone is None and described is None
                 and self.making.evidence(query).any() else None)
        mapped = (self.verbs.mapped(query, semantic.embedder)
                  if semantic is not None and noun is None and described is None
                  and undone is None and maker is None else None)
        classified = (self.verbs.classified(query, semantic.embedder)
                      if semantic is not None and mapped is None and noun is None
                      and described is None and undone is None and maker is None else None)
        if undone is not None:
            if self.reversals.agreement(query)[index]:
                verb = self.reversals.undoing_verb(index)
                reason = (f"{reason}; {undone.said!r} read as {verb}, its name's verb "
                          f"({AGREEMENT:+.1f})")
                details = {**details, "action_evidence": AGREEMENT,
                           "undoing": [undone.said, undone.base]}
        elif noun is not None:
            if self.denominal.evidence(query)[index]:
                reason = (f"{reason}; the request's verb {noun!r} is a noun its name creates "
                          f"or sends ({AGREEMENT:+.1f})")
                details = {**details, "action_evidence": AGREEMENT, "noun_verb": noun}
        elif described is not None:
            earned = float(self.described.evidence(query)[index])
            if earned:
                reason = (f"{reason}; {described!r} is how {self.tools[index].name}'s "
                          f"description says its action, read as its name's verb "
                          f"({earned:+.1f})")
                details = {**details, "action_evidence": round(earned, 6),
                           "described_verb": described}
        elif maker is not None:
            if self.making.evidence(query)[index]:
                reason = (f"{reason}; {maker!r} with a new object makes it, read as create, "
                          f"its name's action ({AGREEMENT:+.1f})")
                details = {**details, "action_evidence": AGREEMENT, "making_verb": maker}
        elif classified is not None:
            if self.actions.of_groups(frozenset((classified[1],)), query)[index]:
                reason = (f"{reason}; {classified[0]!r} read as {classified[1]}, its name's "
                          f"action ({AGREEMENT:+.1f})")
                details = {**details, "action_evidence": AGREEMENT,
                           "action_read": list(classified)}
        elif mapped is None and index in self.actions.agreeing(query):
            read_as = phrasal_read(query)
            reason = (f"{reason}; " + (f"{read_as[0]!r} read as {read_as[1]}, " if read_as
                                       else "") + f"its name's action is the one asked for "
                      f"({AGREEMENT:+.1f})")
            details = {**details, "action_evidence": AGREEMENT,
                       **({"action_read": list(read_as)} if read_as else {})}
        if semantic is not None:
            if mapped is not None and self.verbs.evidence(query, semantic.embedder)[index]:
                reason = (f"{reason}; its name's verb {mapped[1]!r} is the nearest to the "
                          f"request's {mapped[0]!r} ({AGREEMENT:+.1f})")
                details = {**details, "verb_evidence": AGREEMENT, "verb": list(mapped)}
            alone = self.servers.alone(query)
            if self.tools[index].server in alone:
                reason = (f"{reason}; the request names only its server: similarity to the "
                          f"server's tools as a whole")
                details = {**details, "server_centre": True}
            topic_free = view(self.servers.strip(part))
            if topic_free is not None:
                whole, of_view = (float(c) for c in self._viewed(semantic, part)[:, index])
                if of_view > whole:
                    reason = (f"{reason}; read without what the request is about "
                              f"({topic_free[:60]!r}), its similarity is {of_view:.2f}")
                    details = {**details, "topic_free": topic_free,
                               "topic_free_cosine": round(of_view, 6)}
        looks = float(self.centres.look(self.servers.alone(query))[index])
        if looks:
            reason = (f"{reason}; its name's verb reads, lists or searches, as a server's name "
                      f"alone asks ({looks:+.1f})")
            details = {**details, "look_evidence": looks}
        asks = float(self.looks.evidence(part)[index])
        if asks:
            reason = (f"{reason}; the request asks a question and gives no order, and its "
                      f"name's verb does more than look ({asks:+.1f})")
            details = {**details, "question_evidence": asks}
        topic = (float(self._words_evidence(part, semantic)[index])
                 - float(self.lexical.evidence(words)[0][index]))
        if abs(topic) >= 0.05:
            reason = (f"{reason}; the words said only in what the request is about weigh half "
                      f"({topic:+.1f})")
            details = {**details, "topic_evidence": round(topic, 6)}
        aside = float(self.focus.evidence(read(self.servers.strip(part)))[index])
        if aside:
            reason = (f"{reason}; its name acts on what the request names only as where or "
                      f"about what ({aside:.1f})")
            details = {**details, "aside_evidence": aside}
        state = float(self.states.evidence(part)[index])
        if state:
            said = ", ".join(repr(word) for word in sorted(states(part)))
            reason = (f"{reason}; the request says {said} as a state of what it is about, not "
                      f"as what to do ({state:+.1f})")
            details = {**details, "state_evidence": round(state, 6)}
        number = float(self.number.evidence(part)[index])
        if number:
            said = ("acts on many of what the request asks for many of" if number > 0 else
                    "acts on one of what the request asks for many of, or on many of what it "
                    "names one of")
            reason = f"{reason}; its name {said} ({number:+.1f})"
            details = {**details, "number_evidence": number}
        stated = float(self.statements.evidence(part)[index])
        if stated:
            reason = f"{reason}; {self.statements.said(part, index)} ({stated:.1f})"
            details = {**details, "statement_evidence": stated}
        valued, said = self.values.explained(part, index)
        if valued:
            reason = f"{reason}; {said} ({valued:+.1f})"
            details = {**details, "value_evidence": round(valued, 6)}
        formatted, said = self.formats.explained(part, index)
        if formatted:
            reason = f"{reason}; {said} ({formatted:.1f})"
            details = {**details, "format_evidence": round(formatted, 6)}
        phrased = self._phrased(part, index)
        if phrased:
            verb_phrase = phrase(part)
            reason = (f"{reason}; its name's action is the one the request's "
                      f"{verb_phrase[0] if verb_phrase else part!r} says, by the model "
                      f"({phrased:.1f})")
            details = {**details, "phrase_evidence": phrased}
        given = self._given_way(part, index)
        if given:
            reason = (f"{reason}; the request's verb is " + (
                "its name's, and a sibling's acting on the same fit ahead" if given > 0 else
                "a sibling's acting on the same, not its name's") + f" ({given:+.1f})")
            details = {**details, "stated_verb_evidence": round(given, 6)}
        undone_part = self.reversals.read(part)
        reversed_ = float(self.reversals.evidence(part, self._fitting(part))[index])
        if reversed_ and undone_part is not None:
            reason = (f"{reason}; the request asks to undo its name's verb "
                      f"({undone_part.said!r}), which a sibling's name undoes ({reversed_:+.1f})")
            details = {**details, "undone_evidence": round(reversed_, 6)}
        narrower = self._narrower(part, index)
        if narrower:
            reason = (f"{reason}; its name is narrower than a sibling's that fits as well, "
                      f"in words not asked for ({narrower:.1f})")
            details = {**details, "narrower_evidence": narrower}
        return reason, details

    def _viewed(self, semantic: SemanticScorer, request: str) -> np.ndarray:
        """The cosines of `request` (its servers' names out) and of its topic-free view, two
        rows, kept for the next call: explain asks for one tool at a time."""
        last = self._last_view  # read once: serve's threads may replace it
        if last is not None and last[0] == request:
            return last[1]
        asked = self.making.embedded(self.servers.strip(request))
        found = semantic.similarity([asked, view(asked) or asked])
        self._last_view = (request, found)
        return found

    def _phrased(self, request: str, index: int) -> float:
        """The evidence `index` gets for the action of the request's verb phrase (see
        `whole_evidence`), 0 when none."""
        if self._semantic is None:
            return 0.0
        return float(self.collocations.evidence(request, self._fitting(request),
                                                self.semantic.embedder, self.verbs)[index])

    def _narrower(self, request: str, index: int) -> float:
        """The evidence `index` loses to a plainer sibling for `request` (see
        `whole_evidence`), 0 when none."""
        return float(self.siblings.evidence(request, self._fitting(request))[index])

    def _given_way(self, request: str, index: int) -> float:
        """The evidence `index` gives up to a sibling whose verb `request` states (see
        `whole_evidence`), 0 when none."""
        return float(self.stated.evidence(request, self._fitting(request))[index])

    def _fitting(self, request: str) -> np.ndarray:
        """Every tool's evidence for `request` read whole at the default semantic weight, as
        the siblings' parts read it (see `whole_evidence`), kept for the next call: explain
        asks for one tool at a time."""
        key = (request, self._semantic is not None)
        last = self._last_fitting  # read once: serve's threads may replace it
        if last is not None and last[0] == key:
            return last[1]
        lexical, cosines = self._parts_of([request])
        fitting = lexical[0] if cosines is None else lexical[0] + LAMBDA * cosines[0]
        self._last_fitting = (key, fitting)
        return fitting


class ServerNames:
    """Finds the names of a catalog's servers in a request ("GitLab", "google maps").

    A server's name in a request says which server, not which of its tools: every tool of
    that server gets the same evidence for it, the idf of a word one tool in as many as there
    are servers has (`evidence`; 2.3 nats among 13 servers), where BM25F's server field,
    weighed lightly for catalogs that group tools by topic, gives little. Embedded with it, it
    would pull towards the tools whose text repeats the name most, whatever they do; so the
    request is embedded without it, unless nothing else is left or the name is also a word of
    the trade: one that the name or description of another server's tool has ("time" for a
    server called time, when a tool elsewhere reports a creation time). That is looked up in
    the BM25F postings, once per name a request holds."""

    def __init__(self, tools: Sequence[Tool], lexical: BM25Scorer) -> None:
        self._tools = tools
        self._lexical = lexical
        self._servers: dict[str, set[str]] = {}  # the name as a key (`_phrase`) -> servers
        names = set()
        for tool in tools:
            if tool.server and tool.server not in names:
                names.add(tool.server)
                self._servers.setdefault(_phrase(tool.server), set()).add(tool.server)
        # a name says which server only where there are several ("what time is it" over
        # mcp-server-time alone keeps its "time")
        self._finder = PhraseFinder(names if len(names) > 1 else ())
        self.keys = frozenset(self._servers)  # every server's name as a key (`_phrase`)
        self._proper: dict[str, bool] = {}
        self._members: dict[str, np.ndarray] | None = None  # server -> its tools' indices
        count = len(names)
        # naming one server of `count` weighs as much as a word one tool in `count` has
        self.weight = math.log(1 + (count - 0.5) / 1.5) if count > 1 else 0.0

    def named(self, query: str) -> set[str]:
        """The servers whose names `query` holds as names (see `proper`)."""
        said = (query[start:end] for start, end in self._finder.spans(query))
        return {server for name in said if self.proper(name)
                for server in self._servers.get(_phrase(name), ())}

    def evidence(self, query: str) -> np.ndarray:
        """NAMED_SERVER evidence for every tool of a server `query` names, else 0."""
        found = np.zeros(len(self._tools))
        named = self.named(query)
        if named:
            if self._members is None:
                servers = np.array([t.server for t in self._tools], dtype=object)
                self._members = {name: np.flatnonzero(servers == name)
                                 for owners in self._servers.values() for name in owners}
            for server in named:
                found[self._members[server]] = self.weight
        return found

    def alone(self, query: str) -> set[str]:
        """The servers `query` names when it says nothing but one server's name, as a name
        or as a word of the trade (see `proper`): with no other word, it names the server."""
        spans = self._finder.spans(query[:200]) if len(query) <= 200 else []
        if len(spans) != 1:
            return set()
        start, end = spans[0]
        if any(c.isalnum() for c in query[:start] + query[end:]):
            return set()
        return set(self._servers.get(_phrase(query[start:end]), ()))

    def strip(self, query: str, only: set[str] | None = None) -> str:
        """`query` without the server names it holds (`only`: the names of these servers),
        or as it is when that leaves no word."""
        if only is not None and not only:
            return query
        kept, at = [], 0
        for start, end in self._finder.spans(query):
            if self.proper(query[start:end]) and (
                    only is None or only & self._servers.get(_phrase(query[start:end]), set())):
                kept += [query[at:start], " "]
                at = end
        found = " ".join("".join([*kept, query[at:]]).split())
        return found if any(c.isalnum() for c in found) else query

    def proper(self, text: str) -> bool:
        """Whether `text`, a server's name as a request writes it, is used by that server's
        tools alone (a name), not by another server's (a word of the trade)."""
        key = _phrase(text)
        known = self._proper.get(key)
        if known is None:
            owners = self._servers.get(key, set())
            index = self._lexical.index
            shared: set[int] | None = None
            for term in dict.fromkeys(stems(text)):
                t = self._lexical.term_id(term)
                found = set() if t is None else set(
                    index.indices[index.indptr[t]:index.indptr[t + 1]].tolist())
                shared = found if shared is None else shared & found
            known = shared is not None and all(self._tools[i].server in owners for i in shared)
            if len(self._proper) < 10_000:  # bounded: requests may come from strangers
                self._proper[key] = known
        return known


def _phrase(name: str) -> str:
    """A name as a key: lower case, its separators dropped (`Google-Maps`, `googlemaps`)."""
    return "".join(split_name(name).lower().split())


def _more_similarity(semantic: SemanticScorer, texts: Sequence[str]) -> np.ndarray:
    """The cosines of other readings of one request (its head, its topic-free view) to every
    tool, one row each, encoded in one batch (a text said twice, once) without replacing the
    request's own vector that the embedder keeps for its next call."""
    if not texts:
        return np.zeros((0, len(semantic.tools)), dtype=np.float32)
    distinct = list(dict.fromkeys(texts))
    vectors = semantic.embedder.encode(distinct)
    if semantic.ann is not None:
        rows = [semantic.ann.similarity(vector, semantic.vectors) for vector in vectors]
        of_distinct: np.ndarray = np.stack(rows)
    else:
        of_distinct = np.asarray(vectors @ semantic.vectors.T, dtype=np.float32)
    return of_distinct[[distinct.index(text) for text in texts]]


def squash(evidence: np.ndarray, midpoint: float = MIDPOINT) -> np.ndarray:
    """Evidence in nats to a score in 0..1 (see the module docstring); `midpoint`: the
    embedding model's (`midpoint_of`)."""
    cubed = evidence**3
    return cubed / (cubed + midpoint**3)


def midpoint_of(ident: str) -> float:
    """The squashing's midpoint for the embedding model of identity `ident`: MIDPOINT, or the
    one fitted for it (toolcat.search.calibration)."""
    return calibration.midpoint(ident, MIDPOINT)


def why(lexical_scorer: BM25Scorer, query: str, index: int, lexical: float, cosine: float,
        weight: float, model: str) -> tuple[str, dict[str, Any]]:
    """The reason and details of a hybrid score: its two parts in nats, each with what it is
    made of (`lexical 6.9 (BM25F of the terms open, pull) + semantic 7.7 (cosine 0.64 × 12)`);
    `pick --explain` says once what the parts mean."""
    semantic = weight * max(cosine, 0.0)
    _, lexical_details = lexical_scorer.explain(query, index)
    matched = ", ".join(lexical_details["matched"])
    words = f"BM25F of the terms {matched}" if matched else "BM25F: no term matched"
    left_out = lexical_details.get("stop_words")
    if left_out:  # a request in another language: its stop words are no evidence
        language = language_name(left_out["language"])
        words += (f"; {language} stop words weighed among its tools in {language}: "
                  f"{', '.join(left_out['words'])}")
    plurals = lexical_details.get("plurals")
    if plurals:  # "GPUs" read as GPU (text.acronym_plurals)
        words += f"; {plurals_said(list(plurals.items()))}"
    reason = (f"lexical {lexical:.1f} ({words}) + semantic {semantic:.1f} (cosine "
              f"{cosine:.2f} × {weight:g})")
    return reason, {"lexical_evidence": round(lexical, 6), "cosine": round(cosine, 6),
                    "semantic_evidence": round(semantic, 6),
                    "matched": lexical_details["matched"], "model": model,
                    **({"stop_words": left_out} if left_out else {}),
                    **({"plurals": plurals} if plurals else {})}
