"""Held-out requests scored under candidate weights, and the ranking metrics of `bench`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from toolcat.search.tuning import (
    Matched,
    Weights,
    bounded,
    calibration_factor,
    declined_penalty,
    mixed_gain,
    term_evidence,
    usage_evidence,
    usage_similarity,
)
from toolcat.tune.material import Material


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
        self._dots: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._declined: tuple[np.ndarray, np.ndarray] | None = None

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
                               self.terms if weights.term_weight else None,
                               self.mixed(weights) if weights.mix else None,
                               self.declined(weights) if weights.negative_weight else None)
        shift = weights.semantic_weight - self.material.weight
        own = np.maximum(self.base + shift * self.cosine, 0.0)  # as the hybrid floors it
        factor = calibration_factor(self.matched, weights)
        if factor is not None:
            usage = usage + factor * np.clip(own, 0.0, None)
        return np.asarray(np.maximum(own + bounded(usage, own, weights.lift), 0.0))

    def mixed(self, weights: Weights) -> np.ndarray | None:
        """The Tool2Vec gain of the tools with usage under `weights` (as TunedScorer)."""
        matched, tools = self.material_tools()
        if matched is None or tools is None:
            return None
        if self._dots is None:
            vectors = self.material.vectors[self.held]
            self._dots = (vectors @ tools.T, vectors @ matched.T, np.sum(tools * matched, 1))
        return mixed_gain(self.matched, weights.semantic_weight, weights.mix, *self._dots)

    def declined(self, weights: Weights) -> np.ndarray | None:
        """The penalty of the tools with usage from requests that declined them (as
        TunedScorer)."""
        _, tools = self.material_tools()
        if tools is None or self.matched.declined_vectors is None:
            return None
        if self._declined is None:
            vectors = self.material.vectors[self.held]
            self._declined = (vectors @ self.matched.declined_vectors.T, vectors @ tools.T)
        return declined_penalty(self.matched, weights.negative_weight, *self._declined,
                                self.similarity)

    def material_tools(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        tools = self.material.tool_vectors
        if tools is None or self.matched.particular is None:
            return None, None
        return self.matched.particular, tools[self.matched.active]

    def kinds(self) -> dict[str, np.ndarray]:
        """Which rows of `scored` are of requests whose tools all have usage ("recurring")
        and which need a tool without any ("new tools")."""
        known = set(self.matched.active.tolist())
        recurring = np.array([set(self.material.requests[i].tools) <= known
                              for i in self.positives], dtype=bool)
        return {"recurring": recurring, "new tools": ~recurring}

    def scored(self, weights: Weights) -> Scored:
        groups = [self.material.requests[i].groups for i in self.held]
        return ranking_metrics(self.evidence(weights), groups, self.material.priority)


TIE_ROOM = 10  # tools beyond the depth kept for tie-breaking at the cut


def ranking_metrics(evidence: np.ndarray, groups: Sequence[tuple[tuple[int, ...], ...]],
                    priority: np.ndarray | None = None, depth: int = 10) -> Scored:
    """nDCG@10 and Recall@5 of each row that needs a tool, as `toolcat bench` computes them
    (and `toolcat.search.base.rank` ranks): tools with no evidence are not ranked, equal
    evidence goes to the higher `priority` (one per tool; none: all equal), then catalog
    order, and a group of tools counts once, at its best-ranked member."""
    rows = [i for i, g in enumerate(groups) if g]
    ndcg = np.zeros(len(rows))
    recall = np.zeros(len(rows))
    if not rows or not evidence.shape[1]:
        return Scored(ndcg, recall)
    values = evidence[rows]
    k = min(depth + TIE_ROOM, values.shape[1])  # room for ties at the cut
    top = np.argpartition(-values, k - 1, axis=1)[:, :k]
    picked = np.take_along_axis(values, top, axis=1)
    rank = np.zeros(values.shape[1]) if priority is None else np.asarray(priority, float)
    order = np.lexsort((top, -rank[top], -picked), axis=1)[:, :depth]
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

