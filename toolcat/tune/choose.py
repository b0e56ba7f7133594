"""Choosing a tuning's weights on requests the usage was not built from.

A grid of weights is scored in two held-out checks:

- traffic: a random fifth of the requests, drawn as the traffic is drawn (recurring and new
  tools in their real proportions): what the weights are chosen for (mean nDCG@10);
- unseen tools: every request of a random quarter of the used tools, the usage built from the
  requests of the other tools (new or rare tools have no usage to lean on): what they may lose
  against zero-shot is bounded by UNSEEN_BOUND, not forbidden.

The best candidate on traffic is kept only when its gain is clear (at least TOLERANCE, two
standard errors) and holds on fresh draws of both checks that took no part in choosing it:
the best of some seven hundred candidates on one sample is partly that sample's luck.
Otherwise the tuning keeps the zero-shot weights (its usage then changes nothing), as it does
with too few requests to check anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from toolcat.search.tuning import Weights
from toolcat.tune.held import Held
from toolcat.tune.material import Material, matched_for

VALIDATION_SHARE = 0.2  # of the requests, held out in the traffic check
UNSEEN_SHARE = 0.25  # of the used tools, held out in the unseen-tools check
MAX_VALIDATION = 2000  # requests scored per check (a sample beyond)
MIN_CHECK = 10  # fewer held-out requests than this make no check
TOLERANCE = 0.005  # the least gain in nDCG@10 worth a change (half a point)
UNSEEN_BOUND = 0.02  # the most nDCG@10 a tuning may cost requests of tools without usage
REPEATS = 3  # draws of the checks when they hold few requests
LARGE_CHECK = 1000  # held-out requests from which one draw is enough
GRID = {
    "semantic_weight": (8.0, 12.0, 16.0, 20.0),
    "usage_weight": (0.0, 8.0, 16.0, 32.0, 64.0),
    "usage_floor": (0.7, 0.6, 0.5, 0.3),  # ties go to the later: the stronger usage
    "term_weight": (0.0, 0.5, 1.0),
    "lift": (0.5, 1.0),
    "mix": (0.0, 0.25, 0.5, 0.75),  # Tool2Vec: with the additive usage at its middle weights
    "calibration": (0.0, 0.5, 1.0),  # per-tool bias (toolcat.tune.calibration): likewise
    "negative_weight": (0.0, 8.0, 32.0),  # with every candidate, when logs said what was shown
}
MIXED_USAGE = (0.0, 16.0, 32.0)  # the additive usage weights tried with each mix (floor 0.5)
ZERO_SHOT = Weights()
SEED = 17


def candidates(negatives: bool = False) -> Iterator[Weights]:
    """The grid; with `negatives` (some requests declined a tool with usage), each candidate
    also with every negative weight."""
    for weights in _grid():
        yield weights
        if negatives:
            for negative in GRID["negative_weight"][1:]:
                yield replace(weights, negative_weight=negative)


def _grid() -> Iterator[Weights]:
    for semantic in GRID["semantic_weight"]:
        for term in GRID["term_weight"]:
            yield Weights(semantic, 0.0, 0.0, term)
            for lift in GRID["lift"]:
                for usage in GRID["usage_weight"][1:]:
                    for floor in GRID["usage_floor"]:
                        yield Weights(semantic, usage, floor, term, lift)
            for mix in GRID["mix"][1:]:
                for usage in MIXED_USAGE:
                    for lift in GRID["lift"] if usage else GRID["lift"][-1:]:
                        yield Weights(semantic, usage, 0.5 if usage else 0.0, term, lift, mix)
            for calibration in GRID["calibration"][1:]:
                for usage in MIXED_USAGE:
                    for lift in GRID["lift"] if usage else GRID["lift"][-1:]:
                        yield Weights(semantic, usage, 0.5 if usage else 0.0, term, lift,
                                      calibration=calibration)


def family(weights: Weights) -> str:
    """The family a candidate belongs to: the best of each is tried in turn (`choose`)."""
    return "mix" if weights.mix else "calibration" if weights.calibration else "additive"


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
    best: dict[str, tuple[Weights, float, list[np.ndarray]]] = {}  # by `family`
    negatives = any(material.requests[i].declined for i in train)
    for weights in candidates(negatives):
        rows = [h.scored(weights).ndcg for _, h in checks]
        if unseen and -_mean_gain(rows, zero, unseen) > UNSEEN_BOUND / 2:
            continue
        gain = _mean_gain(rows, zero, traffic)
        kind = family(weights)
        if gain > 0 and gain >= best.get(kind, (ZERO_SHOT, 0.0))[1] - 1e-12:
            best[kind] = (weights, gain, rows)  # ties: the stronger usage, listed later
    # the best of each family in turn, by gain: a Tool2Vec mix (or a calibration) whose loss
    # on unseen tools does not hold on fresh draws leaves the next family its chance
    for weights, gain, rows in sorted(best.values(), key=lambda b: -b[1]):
        if gain >= TOLERANCE \
                and _significant([checks[j] for j in traffic], [rows[j] for j in traffic],
                                 [zero[j] for j in traffic]) \
                and _confirmed(material, train, weights, rng, repeats):
            return Choice(weights, weights.zero_shot, True, _by_kind(checks, zero, rows))
    return Choice(ZERO_SHOT, True, True, _by_kind(checks, zero, zero))


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
    return {kind: summary(np.concatenate(b), np.concatenate(a))
            for kind, (b, a) in parts.items()}


def summary(before: np.ndarray, after: np.ndarray) -> dict[str, Any]:
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

