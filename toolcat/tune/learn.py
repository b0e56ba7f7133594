"""Learning a tuning: usage vectors and terms from requests, weights chosen on held-out ones.

What is learned (applied by `toolcat.search.tuning`): for every tool that requests used, the
mean embedding of those requests and their stems; and four weights: the semantic weight of
the hybrid score, the weight of similarity to a tool's past requests and the cosine floor
under which that similarity counts nothing, and the weight of their words.

The weights are chosen on requests the usage was not built from, in two held-out checks:

- recurring: a random fifth of the requests, the usage built from the rest (the tools of most
  real traffic recur);
- unseen tools: every request of a random quarter of the used tools, the usage built from the
  requests of the other tools (new tools, or rare ones, have no usage to lean on).

Among the weights that do not lower nDCG@10 on unseen tools against zero-shot, and whose usage
evidence costs unseen tools at most half of what the fitted semantic weight alone gains them
(usage boosts the tools it knows, which takes ranks from the others; the margin keeps that
side above zero-shot when the checks' noise is against it), the one with the best nDCG@10
over both checks is kept only when its gain is clear (at least half a point, two standard
errors) and holds on fresh draws of both checks that took no part in choosing it: the best of
some two hundred candidates on one sample is partly that sample's luck. Otherwise the tuning
keeps the zero-shot weights (its usage then changes nothing), as it does with too few requests
to check anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolcat.model import Catalog
from toolcat.search.hybrid import HybridScorer, squash
from toolcat.search.pick import MIN_SCORE
from toolcat.search.text import stems
from toolcat.search.tuning import (
    MAX_TERMS,
    Matched,
    ToolUsage,
    Tuning,
    Weights,
    bounded,
    build_matched,
    query_digest,
    term_evidence,
    tool_key,
    usage_evidence,
    usage_similarity,
)
from toolcat.tune.chitchat import CHITCHAT
from toolcat.tune.usage import Request, Usage

CHAT = "chitchat"  # the kind of the built-in requests no tool fits (toolcat.tune.chitchat)

VALIDATION_SHARE = 0.2  # of the requests, held out in the recurring check
UNSEEN_SHARE = 0.25  # of the used tools, held out in the unseen-tools check
BATCH = 4096  # requests scored zero-shot at a time (each batch reads the embedding cache)
MAX_VALIDATION = 2000  # requests scored per check (a sample beyond)
MIN_CHECK = 10  # fewer held-out requests than this make no check
TOLERANCE = 0.005  # the least gain in nDCG@10 worth a change (half a point)
UNSEEN_BOUND = 0.02  # the most nDCG@10 a tuning may cost requests of tools without usage
MAX_TURNED_AWAY = 0.02  # of held-out requests that need a tool, the most the threshold drops
THRESHOLD_FOLDS = 5  # the threshold's positives are scored by usage built without them
MARGIN = 0.5  # the threshold stays under half the score that all but 2% of needed tools reach:
# new requests worded unlike the ones it was fitted on score lower
REPEATS = 3  # draws of the checks when they hold few requests
LARGE_CHECK = 1000  # held-out requests from which one draw is enough
GRID = {
    "semantic_weight": (8.0, 12.0, 16.0, 20.0),
    "usage_weight": (0.0, 8.0, 16.0, 32.0, 64.0),
    "usage_floor": (0.7, 0.6, 0.5, 0.3),  # ties go to the later: the stronger usage
    "term_weight": (0.0, 0.5, 1.0),
    "lift": (0.5, 1.0),
}
ZERO_SHOT = Weights()
SEED = 17


@dataclass
class Material:
    """Requests of one catalog with what scoring them needs, computed once: the hybrid's
    zero-shot evidence per tool (at its semantic weight `weight`) and the clipped cosine that
    weight multiplies, so another semantic weight is `base + (w - weight) * cosine`; request
    vectors and digests."""

    catalog: Catalog
    requests: tuple[Request, ...]  # the catalog's example requests come last
    base: np.ndarray
    cosine: np.ndarray
    weight: float
    vectors: np.ndarray
    model: str
    digests: list[bytes] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.catalog.tools)

    @property
    def measured(self) -> list[int]:
        """The requests that are measured: every one but the author's examples, which are
        always learned from (they are part of the catalog, not of its traffic), and the
        chit-chat that the threshold is fitted on."""
        return [i for i, r in enumerate(self.requests) if r.kind not in ("example", CHAT)]

    @property
    def chitchat(self) -> list[int]:
        return [i for i, r in enumerate(self.requests) if r.kind == CHAT]

    @property
    def examples(self) -> list[int]:
        return [i for i, r in enumerate(self.requests) if r.kind == "example"]

    def positives(self, indices: Sequence[int]) -> list[int]:
        return [i for i in indices if self.requests[i].groups]


def prepare(catalog: Catalog, usage: Usage, hybrid: HybridScorer) -> Material:
    """Score every request zero-shot once (the hybrid must be over `catalog.tools`)."""
    from toolcat.search.embeddings import embed_texts

    requests = tuple(r for r in usage.requests if r.kind != "example") + \
        tuple(r for r in usage.requests if r.kind == "example") + \
        tuple(Request(text, (), CHAT) for text in CHITCHAT)
    texts = [r.text for r in requests]
    embedder = hybrid.embedder
    vectors = embed_texts(embedder, texts, cache=hybrid.cache)[0]
    size = len(catalog.tools)
    base = np.zeros((len(texts), size))
    cosine = np.zeros((len(texts), size))
    for start in range(0, len(texts), BATCH):  # the hybrid's own evidence, at its weight
        chunk = texts[start:start + BATCH]
        base[start:start + BATCH] = hybrid.evidence(chunk, cached=True)
        cosine[start:start + BATCH] = np.clip(
            hybrid.semantic.similarity(chunk, cached=True), 0.0, None)
    return Material(catalog, requests, base, cosine, hybrid.weight, vectors, embedder.ident,
                    [query_digest(r.text) for r in requests
                     if r.kind not in ("example", CHAT)])


# ---- usage ------------------------------------------------------------------------------


def tool_usages(material: Material, train: Sequence[int]) -> tuple[np.ndarray, list[ToolUsage]]:
    """The usage of every tool that the `train` requests used: tool indices in catalog
    order, and their usages."""
    from toolcat.tune.file import quantized

    sources = [(material.requests[i], material.vectors[i]) for i in train]
    sums: dict[int, np.ndarray] = {}
    counts: dict[int, int] = {}
    terms: dict[int, dict[str, int]] = {}
    for request, vector in sources:
        words = dict.fromkeys(stems(request.text))
        for tool in request.tools:
            if tool in sums:
                sums[tool] = sums[tool] + vector
            else:
                sums[tool] = vector.astype(np.float64)
            counts[tool] = counts.get(tool, 0) + 1
            known = terms.setdefault(tool, {})
            for word in words:
                known[word] = known.get(word, 0) + 1
    tools = material.catalog.tools
    indices = np.array(sorted(sums), dtype=np.int64)
    usages = []
    for i in indices.tolist():
        norm = float(np.linalg.norm(sums[i])) or 1.0
        kept = sorted(terms[i].items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_TERMS]
        usages.append(ToolUsage(tool_key(tools[i]), counts[i],
                                quantized((sums[i] / norm).astype(np.float32)), dict(kept)))
    return indices, usages


def matched_for(material: Material, train: Sequence[int]) -> Matched:
    indices, usages = tool_usages(material, train)
    return build_matched(material.size, indices, usages)


# ---- scoring held-out requests ----------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """Per-request nDCG@10 and Recall@5 of the requests that need a tool."""

    ndcg: np.ndarray
    recall: np.ndarray

    @property
    def mean(self) -> tuple[float, float]:
        if not len(self.ndcg):
            return 0.0, 0.0
        return float(self.ndcg.mean()), float(self.recall.mean())


class Held:
    """Held-out requests with their usage-independent parts ready, to score many weights."""

    def __init__(self, material: Material, matched: Matched, held: Sequence[int]) -> None:
        self.material = material
        self.matched = matched
        self.held = list(held)
        self.positives = material.positives(self.held)  # the rows `scored` measures
        self.base = material.base[self.held]
        self.cosine = material.cosine[self.held]
        self.similarity = usage_similarity(matched, material.vectors[self.held])
        self._terms: np.ndarray | None = None

    @property
    def terms(self) -> np.ndarray:
        if self._terms is None:
            self._terms = np.stack([term_evidence(self.matched, self.material.requests[i].text)
                                    for i in self.held]) if self.held \
                else np.zeros((0, self.material.size))
        return self._terms

    def evidence(self, weights: Weights) -> np.ndarray:
        """Every tool's evidence under `weights`, usage within the bound (as TunedScorer)."""
        usage = usage_evidence(self.matched, weights, self.similarity,
                               self.terms if weights.term_weight else None)
        shift = weights.semantic_weight - self.material.weight
        own = self.base + shift * self.cosine if shift else self.base
        return np.asarray(own + bounded(usage, own, weights.lift))

    def kinds(self) -> dict[str, np.ndarray]:
        """Which rows of `scored` are of requests whose tools all have usage ("recurring")
        and which need a tool without any ("new tools")."""
        known = set(self.matched.active.tolist())
        recurring = np.array([set(self.material.requests[i].tools) <= known
                              for i in self.positives], dtype=bool)
        return {"recurring": recurring, "new tools": ~recurring}

    def scored(self, weights: Weights) -> Scored:
        groups = [self.material.requests[i].groups for i in self.held]
        return ranking_metrics(self.evidence(weights), groups)


def ranking_metrics(evidence: np.ndarray, groups: Sequence[tuple[tuple[int, ...], ...]],
                    depth: int = 10) -> Scored:
    """nDCG@10 and Recall@5 of each row that needs a tool, as `toolcat bench` computes them:
    tools with no evidence are not ranked, ties keep catalog order, and a group of tools
    counts once, at its best-ranked member."""
    rows = [i for i, g in enumerate(groups) if g]
    ndcg = np.zeros(len(rows))
    recall = np.zeros(len(rows))
    if not rows or not evidence.shape[1]:
        return Scored(ndcg, recall)
    values = evidence[rows]
    k = min(depth, values.shape[1])
    top = np.argpartition(-values, k - 1, axis=1)[:, :k]
    picked = np.take_along_axis(values, top, axis=1)
    order = np.lexsort((top, -picked), axis=1)
    top = np.take_along_axis(top, order, axis=1)
    picked = np.take_along_axis(picked, order, axis=1)
    discount = 1 / np.log2(np.arange(2, depth + 2))
    for j, row in enumerate(rows):
        member = {tool: g for g, group in enumerate(groups[row]) for tool in group}
        hit: set[int] = set()
        dcg = found5 = 0.0
        for position, (tool, value) in enumerate(zip(top[j].tolist(), picked[j].tolist(),
                                                     strict=True)):
            if value <= 0:
                break
            g = member.get(tool)
            if g is not None and g not in hit:
                hit.add(g)
                dcg += discount[position]
                found5 += position < 5
        wanted = len(groups[row])
        ndcg[j] = dcg / discount[:min(wanted, depth)].sum()
        recall[j] = found5 / wanted
    return Scored(ndcg, recall)


# ---- choosing the weights ---------------------------------------------------------------


def candidates() -> Iterator[Weights]:
    for semantic in GRID["semantic_weight"]:
        for term in GRID["term_weight"]:
            yield Weights(semantic, 0.0, 0.0, term)
            for lift in GRID["lift"]:
                for usage in GRID["usage_weight"][1:]:
                    for floor in GRID["usage_floor"]:
                        yield Weights(semantic, usage, floor, term, lift)


@dataclass(frozen=True)
class Choice:
    """The chosen weights and what the held-out checks measured."""

    weights: Weights
    fallback: bool  # zero-shot weights: no clear gain, or too few requests to check one
    checked: bool  # False: too few requests to check anything
    checks: dict[str, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"weights": self.weights.to_json(), "fallback": self.fallback,
                "checked": self.checked, "unseen_bound": UNSEEN_BOUND, "checks": self.checks}


def hold_out(train: Sequence[int], rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A random share of `train` held out, and the rest: a fifth, or enough for a check while
    three quarters remain to learn from."""
    order = rng.permutation(len(train))
    cut = max(1, int(len(train) * VALIDATION_SHARE), min(MIN_CHECK, len(train) // 4))
    return [train[i] for i in order[:cut]], [train[i] for i in order[cut:]]


def splits(material: Material, train: Sequence[int], rng: np.random.Generator,
           traffic: bool = True) -> dict[str, tuple[list[int], list[int]]]:
    """The held-out checks over `train`: name -> (usage requests, held-out requests).

    - traffic: a random fifth, drawn as the traffic is (recurring and new tools in their
      real proportions); what the weights are chosen for;
    - unseen tools: every request of a random quarter of the used tools (requests of tools
      without usage); what they may lose is bounded by UNSEEN_BOUND."""
    out = {}
    held, rest = hold_out(train, rng)
    if traffic and len(material.positives(held)) >= MIN_CHECK:
        out["traffic"] = (rest, held[:MAX_VALIDATION])
    used = sorted({t for i in train for t in material.requests[i].tools})
    unseen = set(rng.permutation(used)[:max(1, int(len(used) * UNSEEN_SHARE))].tolist())
    held_unseen = [i for i in train if material.requests[i].tools
                   and set(material.requests[i].tools) <= unseen]
    rest_unseen = [i for i in train if not set(material.requests[i].tools) & unseen]
    if len(held_unseen) >= MIN_CHECK and rest_unseen:
        order = rng.permutation(len(held_unseen))[:MAX_VALIDATION]
        out["unseen tools"] = (rest_unseen, [held_unseen[i] for i in sorted(order.tolist())])
    return out


def choose(material: Material, train: Sequence[int], seed: int = SEED) -> Choice:
    """The weights for a tuning built from the `train` requests (see the module docstring).

    Every candidate is scored on the held-out requests of both checks (drawn REPEATS times
    when they are few). Among those whose loss on unseen tools is within half of
    UNSEEN_BOUND (the other half is left to the checks' noise), the best by nDCG@10 on the
    traffic check wins only when its gain over zero-shot is clear: at least TOLERANCE, two
    standard errors above zero over the distinct held-out requests, and confirmed on fresh
    draws of the checks that took no part in the choice (a gain on traffic, a loss on unseen
    tools within UNSEEN_BOUND). Otherwise the tuning keeps the zero-shot weights."""
    rng = np.random.default_rng(seed)
    checks: list[tuple[str, Held]] = []
    first = splits(material, train, rng)
    repeats = REPEATS if sum(len(out) for _, out in first.values()) < LARGE_CHECK else 1
    for r in range(REPEATS):  # which tools are unseen sways that check: always three draws
        drawn = first if r == 0 else splits(material, train, rng, traffic=r < repeats)
        checks += [(name, Held(material, matched_for(material, rest), out))
                   for name, (rest, out) in drawn.items()]
    traffic = [j for j, (name, _) in enumerate(checks) if name == "traffic"]
    if not traffic:
        return Choice(ZERO_SHOT, True, False, {})
    unseen = [j for j, (name, _) in enumerate(checks) if name == "unseen tools"]
    zero = [h.scored(ZERO_SHOT).ndcg for _, h in checks]
    best, best_gain, best_rows = ZERO_SHOT, 0.0, zero
    for weights in candidates():
        rows = [h.scored(weights).ndcg for _, h in checks]
        if unseen and -_mean_gain(rows, zero, unseen) > UNSEEN_BOUND / 2:
            continue
        gain = _mean_gain(rows, zero, traffic)
        if gain >= best_gain - 1e-12 and gain > 0:  # ties: the stronger usage, listed later
            best, best_gain, best_rows = weights, gain, rows
    clear = best_gain >= TOLERANCE \
        and _significant([checks[j] for j in traffic], [best_rows[j] for j in traffic],
                         [zero[j] for j in traffic]) \
        and _confirmed(material, train, best, rng, repeats)
    chosen = best if clear else ZERO_SHOT
    return Choice(chosen, chosen.zero_shot, True,
                  _by_kind(checks, zero, best_rows if clear else zero))


def _by_kind(checks: Sequence[tuple[str, Held]], zero: Sequence[np.ndarray],
             tuned: Sequence[np.ndarray]) -> dict[str, dict[str, Any]]:
    """nDCG@10 of the checks, zero-shot and tuned: the traffic check per kind of request
    (recurring, new tools) and the unseen-tools check."""
    parts: dict[str, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for (name, held), before, after in zip(checks, zero, tuned, strict=True):
        masks = held.kinds() if name == "traffic" else {name: np.ones(len(before), bool)}
        if name == "traffic":
            masks = {"traffic": np.ones(len(before), bool), **masks}
        for kind, mask in masks.items():
            entry = parts.setdefault(kind, ([], []))
            entry[0].append(before[mask])
            entry[1].append(after[mask])
    return {kind: _summary(np.concatenate(b), np.concatenate(a))
            for kind, (b, a) in parts.items()}


def _summary(before: np.ndarray, after: np.ndarray) -> dict[str, Any]:
    if not len(before):
        return {"requests": 0}
    return {"requests": len(before), "zero_shot_ndcg@10": round(float(before.mean()), 4),
            "tuned_ndcg@10": round(float(after.mean()), 4)}


def _confirmed(material: Material, train: Sequence[int], weights: Weights,
               rng: np.random.Generator, repeats: int) -> bool:
    """Whether `weights` still gain on traffic, and lose at most UNSEEN_BOUND on unseen
    tools (over three draws of them), on fresh draws of the checks, which took no part in
    choosing them: the best of many candidates on one sample is partly that sample's luck."""
    gains: list[np.ndarray] = []
    losses: list[np.ndarray] = []
    for r in range(REPEATS):
        for name, (rest, out) in splits(material, train, rng, traffic=r < repeats).items():
            held = Held(material, matched_for(material, rest), out)
            gain = held.scored(weights).ndcg - held.scored(ZERO_SHOT).ndcg
            (losses if name == "unseen tools" else gains).append(gain)
    if losses and -float(np.concatenate(losses).mean()) > UNSEEN_BOUND:
        return False
    return bool(gains) and float(np.concatenate(gains).mean()) > 0


def _mean_gain(rows: Sequence[np.ndarray], base: Sequence[np.ndarray],
               which: Sequence[int]) -> float:
    return float(np.mean(np.concatenate([rows[j] - base[j] for j in which])))


def _significant(checks: Sequence[tuple[str, Held]], rows: Sequence[np.ndarray],
                 zero: Sequence[np.ndarray]) -> bool:
    """Whether the gain per distinct held-out request is two standard errors above zero."""
    per_request: dict[int, list[float]] = {}
    for (_, held), after, before in zip(checks, rows, zero, strict=True):
        for request, diff in zip(held.positives, (after - before).tolist(), strict=True):
            per_request.setdefault(request, []).append(diff)
    diffs = np.array([np.mean(v) for v in per_request.values()])
    if len(diffs) < 2:
        return False
    spread = float(diffs.std(ddof=1))
    if spread == 0:
        return bool(diffs.mean() > 0)
    return bool(diffs.mean() / (spread / math.sqrt(len(diffs))) >= 2.0)


def fit_threshold(material: Material, train: Sequence[int], weights: Weights,
                  seed: int = SEED) -> float | None:
    """pick's "no tool fits" threshold, fitted on held-out requests.

    The requests no tool fits are the built-in chit-chat (toolcat.tune.chitchat) and the
    training requests labeled with no tool; the threshold is just above the best score any
    of them gives a tool, but never above MARGIN times the score that all but MAX_TURNED_AWAY
    of the tools requests need reach (one of each group, each request scored by usage built
    without it, in five folds). None (pick's default stays) with fewer than five requests
    that need a tool, or when the fit would lower pick's default."""
    negative = [i for i in train if not material.requests[i].groups] + material.chitchat
    positive = material.positives(train)
    if len(positive) < 5 or not negative:
        return None
    order = np.random.default_rng(seed + 1).permutation(len(positive))
    own: list[float] = []
    top = 0.0
    for part in range(THRESHOLD_FOLDS):
        held = [positive[j] for j in order[part::THRESHOLD_FOLDS].tolist()]
        left_out = set(held)
        rest = [i for i in train if i not in left_out]
        check = Held(material, matched_for(material, rest), held)
        scores = squash(check.evidence(weights))
        own += [max(scores[j, t] for t in group)  # each tool needed, at its best member
                for j, i in enumerate(held) for group in material.requests[i].groups]
        if part == 0:
            top = float(squash(Held(material, check.matched, negative)
                               .evidence(weights)).max())
    highest = MARGIN * float(np.quantile(own, MAX_TURNED_AWAY))  # all but that share, halved
    fitted = min(highest, top + 1e-4)
    return round(min(fitted, 1.0), 4) if fitted > MIN_SCORE else None


def learn(material: Material, seed: int = SEED) -> Tuning:
    """A tuning from every request of `material` (and the catalog's example requests)."""
    train = material.measured + material.examples
    choice = choose(material, train, seed)
    indices, usages = tool_usages(material, train)
    tools = material.catalog.tools
    report = {"requests": len(material.measured), "examples": len(material.examples),
              "tools_with_usage": len(usages), **choice.to_json()}
    return Tuning(material.model, choice.weights,
                  {tools[i].qualified_name: u for i, u in zip(indices.tolist(), usages,
                                                               strict=True)},
                  fit_threshold(material, train, choice.weights, seed),
                  frozenset(material.digests), report)


@dataclass(frozen=True)
class Evaluation:
    """Figures on test requests for a tuning learned from other requests: nDCG@10 and
    Recall@5 zero-shot and tuned, which rows are of which kind, and the no-tool requests'
    top scores (for the false-accept rate at each threshold)."""

    zero: Scored
    tuned: Scored
    kinds: dict[str, np.ndarray]  # kind -> mask over the rows of zero/tuned
    choice: Choice
    threshold: float  # pick's threshold with the tuning (its fitted one, else MIN_SCORE)
    no_tool_zero: np.ndarray  # best score of each no-tool test request, zero-shot
    no_tool_tuned: np.ndarray  # ... tuned
    needed_zero: np.ndarray  # score of each tool test requests need (a group's best), zero-shot
    needed_tuned: np.ndarray  # ... tuned

    @property
    def false_accept(self) -> tuple[float, float]:
        """The share of no-tool test requests pick shows a tool for: zero-shot at MIN_SCORE,
        tuned at the tuning's threshold (nan without such requests)."""
        if not len(self.no_tool_zero):
            return math.nan, math.nan
        return (float(np.mean(self.no_tool_zero >= MIN_SCORE)),
                float(np.mean(self.no_tool_tuned >= self.threshold)))


def evaluate(material: Material, train: Sequence[int], test: Sequence[int],
             seed: int = SEED, negatives: Sequence[int] = ()) -> Evaluation:
    """Zero-shot and tuned figures on `test` for a tuning learned from `train` alone;
    `negatives`: requests no tool fits to measure the false-accept rate on (besides the
    no-tool requests of `test`)."""
    choice = choose(material, train, seed)
    threshold = fit_threshold(material, train, choice.weights, seed)
    held = Held(material, matched_for(material, train), test)
    no_tool = [i for i in test if not material.requests[i].groups] + list(negatives)
    none = Held(material, held.matched, no_tool)
    return Evaluation(held.scored(ZERO_SHOT), held.scored(choice.weights), held.kinds(),
                      choice, MIN_SCORE if threshold is None else threshold,
                      _top(none, ZERO_SHOT), _top(none, choice.weights),
                      _needed(held, ZERO_SHOT), _needed(held, choice.weights))


def _needed(held: Held, weights: Weights) -> np.ndarray:
    """The score of each tool the held-out requests need (a group's best member)."""
    if not held.held:
        return np.zeros(0)
    scores = squash(held.evidence(weights))
    return np.array([max(scores[j, t] for t in group)
                     for j, i in enumerate(held.held)
                     for group in held.material.requests[i].groups])


def _top(held: Held, weights: Weights) -> np.ndarray:
    if not held.held:
        return np.zeros(0)
    return np.asarray(squash(held.evidence(weights)).max(axis=1))


def folds(material: Material, k: int, seed: int = SEED) -> list[list[int]]:
    """`k` folds of the measured requests; requests with the same text (case and spacing
    aside) share a fold, so no fold is scored on a request its tuning learned from."""
    by_text: dict[bytes, list[int]] = {}
    for i, digest in zip(material.measured, material.digests, strict=True):
        by_text.setdefault(digest, []).append(i)
    keys = list(by_text)
    order = np.random.default_rng(seed).permutation(len(keys))
    out: list[list[int]] = [[] for _ in range(k)]
    for n, j in enumerate(order.tolist()):
        out[n % k].extend(by_text[keys[j]])
    return [sorted(f) for f in out]


@dataclass(frozen=True)
class CrossValidation:
    """k-fold figures before (zero-shot) and after tuning, over every held-out request, and
    per kind of request: recurring (its tools have usage in the fold's tuning), new tools
    (some have none), no tool (the false-accept rate)."""

    k: int
    requests: int
    before: tuple[float, float]  # nDCG@10, Recall@5
    after: tuple[float, float]
    fallbacks: int  # folds whose tuning kept the zero-shot weights
    choices: tuple[Choice, ...]
    kinds: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"k": self.k, "requests": self.requests,
                "before": {"ndcg@10": round(self.before[0], 4),
                           "recall@5": round(self.before[1], 4)},
                "after": {"ndcg@10": round(self.after[0], 4),
                          "recall@5": round(self.after[1], 4)},
                "kinds": self.kinds, "unseen_bound": UNSEEN_BOUND,
                "fallback_folds": self.fallbacks,
                "folds": [c.to_json() for c in self.choices]}


def cross_validate(material: Material, k: int, seed: int = SEED) -> CrossValidation:
    """k-fold cross-validation: each fold is scored by a tuning learned from the others."""
    parts = folds(material, k, seed)
    runs = []
    for n, test in enumerate(parts):
        train = [i for m, part in enumerate(parts) if m != n for i in part] + \
            material.examples
        runs.append(evaluate(material, train, test, seed + n))
    return CrossValidation(k, sum(len(r.zero.ndcg) for r in runs),
                           _pooled([r.zero for r in runs]), _pooled([r.tuned for r in runs]),
                           sum(r.choice.fallback for r in runs),
                           tuple(r.choice for r in runs), by_kind(runs))


def by_kind(runs: Sequence[Evaluation]) -> dict[str, dict[str, Any]]:
    """nDCG@10 zero-shot and tuned per kind of request, and the false-accept rate on the
    requests no tool fits, pooled over `runs`."""
    out: dict[str, dict[str, Any]] = {}
    for kind in ("recurring", "new tools"):
        before = np.concatenate([r.zero.ndcg[r.kinds[kind]] for r in runs])
        after = np.concatenate([r.tuned.ndcg[r.kinds[kind]] for r in runs])
        out[kind] = _summary(before, after)
    before = np.concatenate([r.no_tool_zero >= MIN_SCORE for r in runs])
    after = np.concatenate([r.no_tool_tuned >= r.threshold for r in runs])
    # the other side of the threshold: needed tools it hides
    hidden_before = np.concatenate([r.needed_zero < MIN_SCORE for r in runs])
    hidden_after = np.concatenate([r.needed_tuned < r.threshold for r in runs])
    out["no tool"] = {"requests": len(before)} if not len(before) else {
        "requests": len(before), "zero_shot_false_accept": round(float(before.mean()), 4),
        "tuned_false_accept": round(float(after.mean()), 4),
        "thresholds": [round(r.threshold, 4) for r in runs]}
    if len(hidden_before):
        out["no tool"].update(zero_shot_hidden=round(float(hidden_before.mean()), 4),
                              tuned_hidden=round(float(hidden_after.mean()), 4))
    return out


def _pooled(scored: Sequence[Scored]) -> tuple[float, float]:
    ndcg = np.concatenate([s.ndcg for s in scored])
    recall = np.concatenate([s.recall for s in scored])
    return (float(ndcg.mean()), float(recall.mean())) if len(ndcg) else (math.nan, math.nan)


__all__ = ["CrossValidation", "Evaluation", "Material", "cross_validate", "evaluate", "learn",
           "prepare"]
