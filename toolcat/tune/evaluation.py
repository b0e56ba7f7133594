"""Honest figures for a tuning: test requests scored by a tuning learned from others only
(`evaluate`), k-fold cross-validation (`cross_validate`), per kind of request."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolcat.search.abstain import Abstention, contrast, shows_nothing
from toolcat.search.hybrid import midpoint_of, squash
from toolcat.search.pick import MIN_SCORE
from toolcat.search.tuning import Weights
from toolcat.tune.abstain import fit_abstention
from toolcat.tune.choose import SEED, UNSEEN_BOUND, ZERO_SHOT, Choice, choose, summary
from toolcat.tune.held import Held, Scored
from toolcat.tune.material import Material, matched_for
from toolcat.tune.threshold import fit_threshold


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
    no_tool_away: np.ndarray  # which no-tool test requests the abstention turns away
    needed_away: np.ndarray  # which test requests that need a tool it turns away
    needed_best: np.ndarray  # the best score of any tool for each of them, tuned
    abstention: Abstention | None = None

    @property
    def accepted(self) -> np.ndarray:
        """Which no-tool test requests pick shows a tool for with the tuning: those not
        turned away (`shows_nothing`: a score at its threshold, and not turned away by its
        abstention)."""
        return ~shows_nothing(self.no_tool_tuned, self.threshold, self.no_tool_away)

    @property
    def needed_turned_away(self) -> np.ndarray:
        """Which test requests that need a tool pick shows no tool for with the tuning (the
        same definition: under its threshold, or turned away by its abstention)."""
        return shows_nothing(self.needed_best, self.threshold, self.needed_away)


def evaluate(material: Material, train: Sequence[int], test: Sequence[int],
             seed: int = SEED, negatives: Sequence[int] = ()) -> Evaluation:
    """Zero-shot and tuned figures on `test` for a tuning learned from `train` alone;
    `negatives`: requests no tool fits to measure the false-accept rate on (besides the
    no-tool requests of `test`)."""
    choice = choose(material, train, seed)
    threshold = fit_threshold(material, train, choice.weights, seed)
    abstention = fit_abstention(material, train, seed)
    held = Held(material, matched_for(material, train), test)
    no_tool = [i for i in test if not material.requests[i].groups] + list(negatives)
    none = Held(material, held.matched, no_tool)
    need = Held(material, held.matched, held.positives)
    return Evaluation(held.scored(ZERO_SHOT), held.scored(choice.weights), held.kinds(),
                      choice, MIN_SCORE if threshold is None else threshold,
                      _top(none, ZERO_SHOT), _top(none, choice.weights),
                      _needed(held, ZERO_SHOT), _needed(held, choice.weights),
                      away(none, abstention),
                      away(need, abstention), _top(need, choice.weights), abstention)


def away(held: Held, abstention: Abstention | None) -> np.ndarray:
    """Which of the held-out requests the abstention turns away, as TunedScorer does (the
    tools' text vectors and the usage vectors of `held`'s tuning)."""
    tools = held.material.tool_vectors
    if abstention is None or tools is None or not held.held:
        return np.zeros(len(held.held), dtype=bool)
    usage = held.matched.vectors
    evidence = tools if usage is None else np.concatenate([tools, usage])
    far = contrast(abstention.vectors, evidence, held.material.vectors[held.held])
    return np.asarray(far > abstention.margin)


def _needed(held: Held, weights: Weights) -> np.ndarray:
    """The score of each tool the held-out requests need (a group's best member)."""
    if not held.held:
        return np.zeros(0)
    scores = squash(held.evidence(weights), midpoint_of(held.material.model))
    return np.array([max(scores[j, t] for t in group)
                     for j, i in enumerate(held.held)
                     for group in held.material.requests[i].groups])


def _top(held: Held, weights: Weights) -> np.ndarray:
    if not held.held:
        return np.zeros(0)
    return np.asarray(squash(held.evidence(weights), midpoint_of(held.material.model)).max(axis=1))


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
        out[kind] = summary(before, after)
    before = np.concatenate([r.no_tool_zero >= MIN_SCORE for r in runs])
    after = np.concatenate([r.accepted for r in runs])
    by_score = np.concatenate([r.no_tool_tuned >= r.threshold for r in runs])
    # the other side of the threshold: needed tools it hides, requests turned away
    hidden_before = np.concatenate([r.needed_zero < MIN_SCORE for r in runs])
    hidden_after = np.concatenate([r.needed_tuned < r.threshold for r in runs])
    turned = np.concatenate([r.needed_turned_away for r in runs])
    out["no tool"] = {"requests": len(before)} if not len(before) else {
        "requests": len(before), "zero_shot_false_accept": round(float(before.mean()), 4),
        "tuned_false_accept": round(float(after.mean()), 4),
        "threshold_false_accept": round(float(by_score.mean()), 4),
        "thresholds": [round(r.threshold, 4) for r in runs],
        "margins": [None if r.abstention is None else r.abstention.margin for r in runs]}
    if len(hidden_before):
        out["no tool"].update(zero_shot_hidden=round(float(hidden_before.mean()), 4),
                              tuned_hidden=round(float(hidden_after.mean()), 4))
    if len(turned):
        out["no tool"]["turned_away"] = round(float(turned.mean()), 4)
    return out


def _pooled(scored: Sequence[Scored]) -> tuple[float, float]:
    ndcg = np.concatenate([s.ndcg for s in scored])
    recall = np.concatenate([s.recall for s in scored])
    return (float(ndcg.mean()), float(recall.mean())) if len(ndcg) else (math.nan, math.nan)




def no_tool_scores(material: Material, train: Sequence[int], requests: Sequence[int],
                   weights: Weights, abstention: Abstention | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The best score any tool gets for each of `requests` (ones no tool fits), zero-shot and
    under `weights` with usage built from `train` (against a threshold, the false accepts),
    and which of them `abstention` turns away."""
    held = Held(material, matched_for(material, train), requests)
    return _top(held, ZERO_SHOT), _top(held, weights), away(held, abstention)
