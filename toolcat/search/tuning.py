"""A tuning applied at query time: what `toolcat tune` learned from the requests a catalog
really gets, added to the hybrid score as usage evidence.

For a tool that past requests used, the tuning holds the mean embedding of those requests
(its usage vector, after Tool2Vec, arXiv 2409.02141) and the stems they contained (its usage
terms). The tuned evidence of a tool is the zero-shot hybrid evidence plus two terms, in the
same nats (see `toolcat.search.hybrid`):

    usage_weight * c(d) * max(cos(q, usage(d)) - floor, 0) / (1 - floor)   similar past requests
    term_weight * sum_t idf(t) * sat(t, usage terms of d)                 their words (BM25)

where c(d) = n / (n + 1) for a tool used n times: one past request counts half; with a
Tool2Vec `mix`, what the tool's semantic evidence gains when its vector is mixed with its
centered usage vector (`mixed_gain`); and, with a `calibration` weight w, the tool's own
evidence e scaled by its learned bias (`calibration_factor`): e * (exp(w * bias / 3) - 1),
which multiplies the odds of its score by exp(w * bias); and, with a `negative_weight` v,
a penalty where logs said which tools were shown (`declined_penalty`):

    - v * m/(m+1) * max(cos(q, declined(d)) - max(cos(q, d), cos(q, usage(d))), 0)

for a tool offered and not called by m past requests whose mean is declined(d): a request
closer to those than to the tool's own text and its users' requests lowers it. A tool
without usage, or one whose definition changed since the tuning was made (its content key
differs), gets no usage evidence: it is scored zero-shot. The fitted `semantic_weight`
replaces the hybrid's fixed LAMBDA for the whole catalog. Weights of zero are the zero-shot
scorer exactly.

The tuning file is read and written by `toolcat.tune.file`; this module only applies it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolcat.model import Tool
from toolcat.search import tuned_name
from toolcat.search.abstain import Abstention, turned_away
from toolcat.search.cascade import CascadeScorer
from toolcat.search.device import Progress
from toolcat.search.hybrid import LAMBDA, MIDPOINT, HybridScorer, squash
from toolcat.search.ranking import Completing, Scores, Staged
from toolcat.search.text import stems
from toolcat.wording import plural

K1 = 1.2  # BM25 saturation of the usage terms, as the catalog's own BM25F
B = 0.75  # length normalisation: a tool used a thousand times says each word once per use
CONFIDENCE = 1.0  # c(d) = n / (n + CONFIDENCE)

# The bound on what a tuning can do (docs/tune.md, "What a tuning can never do"): the usage
# evidence of a tool is at most MAX_LIFT times the evidence its own text has for the query
# plus SLACK, and at most USAGE_CAP nats. A tool the query does not match (no query term,
# cosine <= 0) gains at most SLACK: it scores at most squash(SLACK) = 0.026, under pick's
# 0.05, so pick never shows it for that; a tool passes another only if its own evidence is
# at least (other's - 2 SLACK) / (1 + MAX_LIFT) (the other lowered by Tool2Vec's mix by at
# most SLACK); no tool gains more than USAGE_CAP nats or loses more than SLACK.
# SLACK lets past requests order tools that all match a request about as little (tools
# whose descriptions say nothing a user would ask for).
MAX_LIFT = 1.0
SLACK = 1.5
USAGE_CAP = 8.0

# Every value a tuning file may hold, as `toolcat tune` chooses them (toolcat.tune.choose's
# grid lies within; the loader refuses anything outside).
LIMITS: Mapping[str, tuple[float, float]] = {
    "semantic_weight": (8.0, 20.0),
    "usage_weight": (0.0, 64.0),
    "usage_floor": (0.0, 0.7),
    "term_weight": (0.0, 1.0),
    "lift": (0.0, MAX_LIFT),
    "mix": (0.0, 0.75),
    "calibration": (0.0, 1.0),
    "negative_weight": (0.0, 32.0),
}
# A tool's calibration bias, in the log-odds of its score (`calibration_factor`): at most
# ln 8, so that a calibrated tool's own evidence is at most doubled or halved (its score's
# odds times or divided by 8) before the bound above.
MAX_BIAS = math.log(8.0)
MIX_FLOOR = 0.2  # a request this unlike a tool's particular past requests gains nothing by them
MAX_TERMS = 48  # the most frequent stems of a tool's requests that are kept
MAX_COUNT = 10**9  # requests a tool was used by
MAX_DIMENSION = 4096  # of an embedding model's vectors
FIRST_CHECKED = 32  # best scored tools an abstention compares a request with first


def bench_base(scorers: Sequence[str]) -> str:
    """The scorer bench measures tuned next to `scorers`: the cascade when it is among them
    (a catalog past 10,000 tools, where the hybrid would encode every tool), else the
    hybrid."""
    return "cascade" if "cascade" in scorers else "hybrid"


@dataclass(frozen=True)
class Weights:
    """How much each part of the tuned evidence counts (see the module docstring)."""

    semantic_weight: float = LAMBDA
    usage_weight: float = 0.0
    usage_floor: float = 0.0
    term_weight: float = 0.0
    lift: float = MAX_LIFT  # usage evidence is at most lift * the tool's own evidence
    mix: float = 0.0  # Tool2Vec: the share of past requests in a tool's vector (`mixed`)
    calibration: float = 0.0  # how much of each tool's learned bias applies
    negative_weight: float = 0.0  # what requests that declined a tool take from it

    @property
    def zero_shot(self) -> bool:
        return self.semantic_weight == LAMBDA and not self.usage_weight \
            and not self.term_weight and not self.mix and not self.calibration \
            and not self.negative_weight

    def to_json(self) -> dict[str, float]:
        return {"semantic_weight": self.semantic_weight, "usage_weight": self.usage_weight,
                "usage_floor": self.usage_floor, "term_weight": self.term_weight,
                "lift": self.lift, "mix": self.mix, "calibration": self.calibration,
                "negative_weight": self.negative_weight}


@dataclass(frozen=True)
class ToolUsage:
    """What past requests say about one tool: how many used it, their mean embedding (unit
    length; None when the model differs), how many of them held each stem, its
    calibration bias (`toolcat.tune.calibration`; at most MAX_BIAS either way), and how many
    requests it was shown to and not called for, with their mean embedding (logs' `shown`)."""

    key: str
    count: int
    vector: np.ndarray | None
    terms: Mapping[str, int]
    bias: float = 0.0
    declined: int = 0
    declined_vector: np.ndarray | None = None


@dataclass(frozen=True)
class Tuning:
    """A learned tuning for one catalog (see the module docstring)."""

    model: str
    weights: Weights
    tools: Mapping[str, ToolUsage]  # by the tool's qualified name (server:name)
    min_score: float | None = None  # pick's fitted "no tool fits" threshold, when fitted
    trained: frozenset[bytes] = frozenset()  # digests of the requests it learned from
    report: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""  # the file it was read from
    digest: str = ""  # SHA-256 of the file's text (hex), when read from a file
    abstention: Abstention | None = None  # when fitted: "no tool fits" by nearest requests

    @property
    def label(self) -> str:
        """How output names this tuning: its file and the start of its content's digest, so a
        log says which tuning ranked (a file replaced in place shows another digest)."""
        shown = self.source or "a tuning"
        return f"{shown} ({self.digest[:12]})" if self.digest else shown

    def seen(self, texts: Iterable[str]) -> int:
        """How many of `texts` the tuning learned from."""
        return sum(query_digest(t) in self.trained for t in texts)


def tool_key(tool: Tool) -> str:
    """A short hash of what the scorers read of a tool: a tool whose key changed is scored
    zero-shot by an older tuning."""
    content = {"name": tool.name, "server": tool.server, "description": tool.description,
               "parameters": tool.parameters, "tags": list(tool.tags)}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


DIGEST_BYTES = 6


def query_digest(text: str) -> bytes:
    """Six bytes of the SHA-256 of a request, case and spacing ignored: enough to tell a
    benchmark's queries from the training ones without keeping their text."""
    return hashlib.sha256(" ".join(text.lower().split()).encode()).digest()[:DIGEST_BYTES]


@dataclass(frozen=True)
class Matched:
    """A tuning matched to the tools of a catalog: which tools carry usage, as arrays."""

    size: int  # tools in the catalog
    active: np.ndarray  # indices of the tools with usage evidence
    confidence: np.ndarray  # c(d) of each active tool
    vectors: np.ndarray | None  # one usage vector per active tool (None: other model)
    postings: Mapping[str, tuple[np.ndarray, np.ndarray]]  # stem -> (tool indices, weights)
    changed: int = 0  # tools of the tuning whose definition changed: scored zero-shot
    missing: int = 0  # tools of the tuning not in this catalog
    particular: np.ndarray | None = None  # `centered` usage vectors (None: other model)
    bias: np.ndarray | None = None  # calibration bias of each active tool (None: all zero)
    declined: np.ndarray | None = None  # m/(m+1) of each active tool (None: none declined)
    declined_vectors: np.ndarray | None = None  # their mean requests (zero where none)


def match(tuning: Tuning, tools: Sequence[Tool], model: str | None = None) -> Matched:
    """The tools of `tools` the tuning applies to. Usage vectors are left out when `model`
    (the identity of the embedding model in use) is not the tuning's."""
    found = {t.qualified_name: i for i, t in enumerate(tools)}
    active, usages, changed = [], [], 0
    for name, usage in tuning.tools.items():
        i = found.get(name)
        if i is None:
            continue
        if usage.key != tool_key(tools[i]):
            changed += 1
            continue
        active.append(i)
        usages.append(usage)
    missing = len(tuning.tools) - len(active) - changed
    order = np.argsort(np.array(active, dtype=np.int64), kind="stable")
    usages = [usages[j] for j in order.tolist()]
    indices = np.array(active, dtype=np.int64)[order]
    return build_matched(len(tools), indices, usages, model is None or model == tuning.model,
                         changed, missing)


def centered(vectors: np.ndarray) -> np.ndarray:
    """Usage vectors less their mean, of unit length: what is particular to each tool's
    requests. Past requests share a direction (the way users ask anything); mixed into a
    tool's vector uncentered, it pulls every used tool toward every request, and requests
    for tools without usage lost 0.047 nDCG@10 on metatool (centered: none)."""
    out = vectors - vectors.mean(axis=0, keepdims=True)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.asarray(out / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def mixed_gain(matched: Matched, semantic_weight: float, mix: float, own: np.ndarray,
               particular: np.ndarray, tool_dots: np.ndarray) -> np.ndarray:
    """Tool2Vec (arXiv 2409.02141) as evidence: for each active tool, what its semantic
    evidence gains when its vector t is mixed with its centered usage vector c, as
    normalize((1 - a) t + a c) with a = mix * c(d). `own`: cos(q, t) per request and active
    tool (unclipped), `particular`: cos(q, c), `tool_dots`: t . c per active tool."""
    a = mix * matched.confidence
    norm = np.sqrt((1 - a) ** 2 + a ** 2 + 2 * a * (1 - a) * tool_dots)
    cosine = ((1 - a) * own + a * particular) / norm
    gain = semantic_weight * (np.clip(cosine, 0.0, None) - np.clip(own, 0.0, None))
    return np.asarray(np.where(particular >= MIX_FLOOR, gain, np.minimum(gain, 0.0)))


def build_matched(size: int, indices: np.ndarray, usages: Sequence[ToolUsage],
                  with_vectors: bool = True, changed: int = 0, missing: int = 0) -> Matched:
    """Arrays for the tools at `indices` with these usages (also how `toolcat tune` scores
    its held-out queries, so what it measures is what a tuning file delivers)."""
    counts = np.array([u.count for u in usages], dtype=np.float64)
    confidence = counts / (counts + CONFIDENCE)
    vectors = None
    if with_vectors and usages and all(u.vector is not None for u in usages):
        vectors = np.stack([u.vector for u in usages if u.vector is not None]
                           ).astype(np.float32)
    bias = np.array([u.bias for u in usages], dtype=np.float64)
    declined, declined_vectors = None, None
    if vectors is not None and any(u.declined_vector is not None for u in usages):
        counts = np.array([u.declined if u.declined_vector is not None else 0
                           for u in usages], dtype=np.float64)
        declined = counts / (counts + CONFIDENCE)
        declined_vectors = np.zeros_like(vectors)
        for j, usage in enumerate(usages):
            if usage.declined_vector is not None:
                declined_vectors[j] = usage.declined_vector
    return Matched(size, indices, confidence, vectors, _postings(indices, usages), changed,
                   missing, None if vectors is None else centered(vectors),
                   bias if bias.any() else None, declined, declined_vectors)


def declined_penalty(matched: Matched, weight: float, declined: np.ndarray, own: np.ndarray,
                     similarity: np.ndarray) -> np.ndarray:
    """What requests that were shown a tool and did not call it take from it, per request
    and active tool: `declined` is cos(q, their mean), `own` cos(q, the tool's vector),
    `similarity` cos(q, its usage vector). Only a request closer to the requests that
    declined the tool than to both the tool and its users' requests loses anything; a tool
    without usage loses nothing (on metatool, lowering those cost requests for them 0.035
    nDCG@10)."""
    if matched.declined is None:
        return np.zeros_like(declined)
    return np.asarray(-weight * matched.declined
                      * np.clip(declined - np.maximum(own, similarity), 0.0, None))


def calibration_factor(matched: Matched, weights: Weights) -> np.ndarray | None:
    """Per tool, what its own evidence is multiplied by, less one, under the calibration
    weight (None: no tool is calibrated). The score is a logistic in 3 ln(evidence)
    (`toolcat.search.hybrid`), so scaling the evidence by exp(w * bias / 3) multiplies the
    odds of the score by exp(w * bias): a tool the zero-shot scorer put first more often than
    it was needed is lowered, one needed more often than put first is raised, and a tool the
    request gives no evidence to gets none. A tool without usage has no bias."""
    if not weights.calibration or matched.bias is None:
        return None
    out = np.zeros(matched.size)
    out[matched.active] = np.expm1(weights.calibration * np.clip(matched.bias, -MAX_BIAS,
                                                                 MAX_BIAS) / 3)
    return out


def _postings(indices: np.ndarray, usages: Sequence[ToolUsage]
              ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """BM25 over the usage terms of each tool: stem -> (tool indices, idf * saturation)."""
    if not usages:
        return {}
    lengths = np.array([sum(u.terms.values()) for u in usages], dtype=np.float64)
    mean = float(lengths.mean()) or 1.0
    norm = 1 - B + B * lengths / mean
    df: dict[str, int] = {}
    for usage in usages:
        for term in usage.terms:
            df[term] = df.get(term, 0) + 1
    n = len(usages)
    lists: dict[str, tuple[list[int], list[float]]] = {}
    for j, usage in enumerate(usages):
        for term, tf in usage.terms.items():
            scaled = tf / norm[j]
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            tools, weights = lists.setdefault(term, ([], []))
            tools.append(int(indices[j]))
            weights.append(idf * scaled / (K1 + scaled))
    return {term: (np.array(tools, dtype=np.int64), np.array(weights))
            for term, (tools, weights) in lists.items()}


def term_evidence(matched: Matched, text: str) -> np.ndarray:
    """The BM25 evidence of the usage terms of every tool for one request."""
    out = np.zeros(matched.size)
    for term in dict.fromkeys(stems(text)):
        posting = matched.postings.get(term)
        if posting is not None:
            out[posting[0]] += posting[1]
    return out


def usage_similarity(matched: Matched, vectors: np.ndarray) -> np.ndarray:
    """Cosine of each request vector (rows) to each active tool's usage vector."""
    if matched.vectors is None or not len(matched.active):
        return np.zeros((len(vectors), len(matched.active)), dtype=np.float32)
    return np.asarray(vectors @ matched.vectors.T)


def usage_evidence(matched: Matched, weights: Weights, similarity: np.ndarray,
                   terms: np.ndarray | None, mixed: np.ndarray | None = None,
                   declined: np.ndarray | None = None) -> np.ndarray:
    """The usage evidence of every tool, one row per request, before the bound (`bounded`):
    `similarity` from `usage_similarity`, `terms` stacked rows of `term_evidence` (None
    when unweighted), `mixed` the Tool2Vec gain of the active tools (`mixed_gain`),
    `declined` their penalty from requests that declined them (`declined_penalty`)."""
    out = np.zeros((len(similarity), matched.size))
    if mixed is not None and weights.mix and len(matched.active):
        out[:, matched.active] += mixed
    if declined is not None and weights.negative_weight and len(matched.active):
        out[:, matched.active] += declined
    if weights.usage_weight and len(matched.active):
        floor = weights.usage_floor
        out[:, matched.active] += (weights.usage_weight * matched.confidence
                                  * np.clip(similarity - floor, 0.0, None) / (1 - floor))
    if weights.term_weight and terms is not None:
        out += weights.term_weight * terms
    return out


def bounded(usage: np.ndarray, own: np.ndarray, lift: float) -> np.ndarray:
    """Usage evidence within the bound: at most `lift` times the tool's `own` (zero-shot)
    evidence for the query plus SLACK, at most USAGE_CAP nats, and at least -SLACK (a
    tool's mixed vector can lower its evidence, by at most that; see MAX_LIFT)."""
    return np.asarray(np.maximum(np.minimum(
        np.minimum(usage, min(lift, MAX_LIFT) * np.clip(own, 0.0, None) + SLACK), USAGE_CAP),
        -SLACK))


def unsquash(scores: np.ndarray, midpoint: float = MIDPOINT) -> np.ndarray:
    """The evidence a hybrid score came from (the inverse of `squash` at `midpoint`)."""
    clipped = np.clip(scores, 0.0, 1 - 1e-12)
    return np.asarray(midpoint * np.cbrt(clipped / (1 - clipped)))


class TunedScorer:
    """The hybrid scorer, or the cascade that re-ranks BM25F's candidates with it, with a
    tuning's usage evidence added (see the module docstring). Under the cascade, a tool with
    usage evidence is a candidate however little BM25F finds in it: past requests worded
    unlike the tool are what a tuning is for."""

    def __init__(self, base: HybridScorer | CascadeScorer, tuning: Tuning,
                 weights: Weights | None = None) -> None:
        """`base` should be built with the semantic_weight of `weights` (default: the
        tuning's); `toolcat.search.index.scorer_for(..., tuning=)` does both."""
        self.base = base
        self.name = tuned_name(base.name)
        self.tools = base.tools
        self.tuning = tuning
        self.weights = tuning.weights if weights is None else weights
        self.embedder = base.embedder
        self.matched = match(tuning, base.tools, self.embedder.ident)
        self._factor = calibration_factor(self.matched, self.weights)
        self._tools: np.ndarray | None = None
        self._last: tuple[tuple[str, str | None] | None, np.ndarray, np.ndarray,
                          np.ndarray] = (None, np.zeros(0), np.zeros(0), np.zeros(0))

    @property
    def notice(self) -> str | None:
        """Why the base scorer answers with words only for now (see HybridScorer)."""
        return self.base.notice if isinstance(self.base, Staged) else None

    def complete(self, progress: Progress | None = None) -> None:
        """Complete the base scorer's semantic stage, when it has one to complete."""
        if isinstance(self.base, Completing):
            self.base.complete(progress)

    def _vectors(self, queries: Sequence[str], cached: bool) -> np.ndarray:
        if cached:
            from toolcat.search.embeddings import embed_texts

            return embed_texts(self.embedder, queries, cache=self.base.cache)[0]
        if len(queries) == 1:  # the query the base scorer just encoded
            return self.embedder.query_vector(queries[0])[None, :]
        return self.embedder.encode(list(queries))

    def usage(self, queries: Sequence[str], *, cached: bool = False) -> np.ndarray:
        """The usage evidence of every tool, one row per query."""
        # in the base's lexical stage the model may not be loaded: past requests count by
        # their words only, as the base does
        semantic = (self.weights.usage_weight or self.weights.mix
                    or self.weights.negative_weight) and self.notice is None
        vectors = self._vectors(queries, cached) if semantic else None
        similarity = usage_similarity(self.matched, vectors) if vectors is not None \
            else np.zeros((len(queries), len(self.matched.active)))
        terms = (np.stack([term_evidence(self.matched, q) for q in queries])
                 if self.weights.term_weight and queries else None)
        mixed = declined = None
        tools = self._tool_vectors() if vectors is not None and (
            self.weights.mix or self.weights.negative_weight) else None
        if tools is not None and vectors is not None and self.matched.particular is not None \
                and self.weights.mix:
            particular = self.matched.particular
            mixed = mixed_gain(self.matched, self.weights.semantic_weight, self.weights.mix,
                               vectors @ tools.T, vectors @ particular.T,
                               np.sum(tools * particular, axis=1))
        if tools is not None and vectors is not None \
                and self.matched.declined_vectors is not None:
            declined = declined_penalty(self.matched, self.weights.negative_weight,
                                        vectors @ self.matched.declined_vectors.T,
                                        vectors @ tools.T, similarity)
        return usage_evidence(self.matched, self.weights, similarity, terms, mixed, declined)

    def turned_away(self, query: str) -> bool:
        """Whether the tuning's abstention turns `query` away (`toolcat.search.abstain`):
        never in the base's lexical stage, with a tuning of another embedding model or made
        for another catalog, or under a cascade whose catalog was not indexed (no vector for
        every tool to compare with)."""
        return self.turned_away_many([query], cached=False)[0]

    def turned_away_many(self, queries: Sequence[str], *, cached: bool = True) -> list[bool]:
        """`turned_away` for each of `queries`, encoded together (`cached`: through the
        embedding cache, as `scores_many`)."""
        abstention = self.tuning.abstention
        tools = self._all_tool_vectors()
        if abstention is None or tools is None or not queries or self.notice is not None \
                or self.embedder.ident != self.tuning.model \
                or (self.tuning.tools and not len(self.matched.active)):
            return [False] * len(queries)
        first = None
        if len(queries) == 1 and not cached:  # the best scored tools first (see turned_away)
            scores = self._scored(queries[0])[0]
            top = min(FIRST_CHECKED, len(scores))
            first = np.argpartition(-scores, top - 1)[:top] if top else None
        return [turned_away(abstention, vector, tools, self.matched.vectors, first)
                for vector in self._vectors(queries, cached)]

    def _all_tool_vectors(self) -> np.ndarray | None:
        """Every tool's vector: the hybrid's semantic stage's once it is there, the cascade's
        when its catalog was indexed; else None."""
        base = self.base
        if isinstance(base, HybridScorer):
            found = base.semantic.vectors if base.ready else None
        else:
            found = base.vectors
        return None if found is None else np.asarray(found, dtype=np.float32)

    def _tool_vectors(self) -> np.ndarray | None:
        """The vectors of the tools with usage, for Tool2Vec's mix and the declined
        penalty: the hybrid's, or the cascade's when its catalog was indexed (else None:
        neither is applied)."""
        if self._tools is None:
            found = self._all_tool_vectors()
            if found is not None:
                self._tools = found[self.matched.active]
        return self._tools

    def _scored(self, query: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Scores of every tool for `query`, the usage evidence they hold, and the usage
        evidence before the bound; kept for the next call with the same query in the same
        stage (a query is scored, then explained tool by tool: encoded once; once the base's
        semantic stage arrives, the same query is scored anew)."""
        key = (query, self.notice)
        if self._last[0] != key:
            raw = self.usage([query])[0]
            scores, kept = within_bound(np.asarray(self.base.scores(query, asked(raw))), raw,
                                        self.weights.lift, self._factor, self.base.midpoint)
            self._last = (key, scores, kept, raw)
        return self._last[1], self._last[2], self._last[3]

    def scores(self, query: str) -> np.ndarray:
        return self._scored(query)[0]

    def scores_many(self, queries: Sequence[str]) -> list[Scores]:
        raw = self.usage(queries, cached=True)
        midpoint = self.base.midpoint
        return [within_bound(np.asarray(row), extra, self.weights.lift, self._factor,
                             midpoint)[0]
                for row, extra in zip(self.base.scores_many(queries, asked(raw)), raw,
                                      strict=True)]

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        _, kept, raw = self._scored(query)
        usage = float(kept[index])
        reason, details = self.base.explain(query, index, asked(raw))
        if details.get("candidate") is False:  # not among the cascade's candidates
            return reason, details
        if usage > 0:
            if usage > max(details["lexical_evidence"], details["semantic_evidence"]):
                reason = "past requests lead: " + reason
            reason += f" + past requests ({usage:.1f}, {self.tuning.label})"
        elif usage < 0:
            reason += f" - past requests ({-usage:.1f}, {self.tuning.label})"
        return reason, {**details, "usage_evidence": round(usage, 6),
                        "tuning": self.tuning.label}


def within_bound(scores: np.ndarray, raw: np.ndarray, lift: float,
                 factor: np.ndarray | None = None, midpoint: float = MIDPOINT
                 ) -> tuple[np.ndarray, np.ndarray]:
    """`scores` of a base scorer given the positive part of the usage evidence `raw`
    (`asked`), brought within the bound (`bounded`) with the whole of it and the calibration
    (`factor` times the tool's own evidence, `calibration_factor`), and the usage evidence
    they then hold. The base scorer is asked with the positive part (under the cascade, a
    tool with any is a candidate); each tool's own evidence is read back from its score, so
    the bound needs nothing of the base scorer's insides."""
    added = asked(raw)
    own = unsquash(scores, midpoint) - added
    own[own < 1e-9] = 0.0  # rounding of a tool that has no evidence of its own
    kept = bounded(raw if factor is None else raw + factor * own, own, lift)
    kept[scores <= 0] = 0.0
    over = np.flatnonzero(kept != added)
    if not len(over):
        return scores, kept
    out = scores.copy()
    out[over] = squash(np.maximum(own[over] + kept[over], 0.0), midpoint)
    return out, kept


def asked(raw: np.ndarray) -> np.ndarray:
    """The part of the usage evidence a base scorer is given: the positive part (a negative
    part, from a mixed vector, is applied by `within_bound`, which can read the tool's own
    evidence back only from a score above zero)."""
    return np.asarray(np.maximum(raw, 0.0))


def effective_weights(tuning: Tuning, tools: Sequence[Tool]) -> Weights:
    """The tuning's weights, or the zero-shot ones when none of its tools is in `tools`
    unchanged (a tuning made for another catalog changes nothing)."""
    if tuning.tools and not len(match(tuning, tools).active):
        return Weights()
    return tuning.weights


def warnings(tuning: Tuning, matched: Matched, model: str | None = None) -> list[str]:
    """What a user should hear when a tuning is applied to a catalog: changed tools (scored
    zero-shot), tools it knows that the catalog lacks, another embedding model."""
    shown = tuning.source or "the tuning"
    out = []
    if matched.changed:
        out.append(f"{shown}: {plural(matched.changed, 'tool')} changed since the tuning was made; "
                   f"{'it is' if matched.changed == 1 else 'they are'} scored zero-shot")
    if matched.missing:
        out.append(f"{shown}: {plural(matched.missing, 'tool')} of the tuning "
                   f"{'is' if matched.missing == 1 else 'are'} not in this catalog")
    if tuning.tools and not len(matched.active):
        out.append(f"{shown} was made for another catalog: none of its tools is here "
                   "unchanged; every tool is scored zero-shot")
    if model is not None and model != tuning.model and tuning.weights.usage_weight:
        out.append(f"{shown} was made with the embedding model {tuning.model}, not {model}; "
                   "its usage vectors are not used")
    return out
