"""Retrieval metrics as pure functions over the standard shapes of IR evaluation.

    qrels: dict[query_id, dict[tool_name, relevance]]   (relevance > 0 means relevant)
    run:   dict[query_id, dict[tool_name, score]]       (higher is better)

Conventions (those of trec_eval, so ir-measures and pytrec_eval give the same numbers):
binary relevance; Recall@k = relevant in the top k / relevant; Precision@k = relevant in the
top k / k, even when fewer than k tools were returned; MRR over the whole ranking; nDCG@k with
gain 1 and discount log2(rank + 1), divided by the ideal DCG over min(|relevant|, k) tools.
Ranking metrics are means over the queries with at least one relevant tool; queries with none
are judged by abstention instead. A run sorted by score keeps its own order for ties.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float]]

ABSTENTION_METRICS = ("abstention_precision", "abstention_recall", "false_accept")


def ranked(scores: Mapping[str, float]) -> list[str]:
    """Tool names by descending score; ties keep the order of `scores`."""
    return sorted(scores, key=lambda name: -scores[name])


def relevant_names(judged: Mapping[str, int]) -> set[str]:
    return {name for name, relevance in judged.items() if relevance > 0}


def hit_at(relevant: Collection[str], ranking: Sequence[str], k: int = 1) -> float:
    """1 when a relevant tool is in the top k."""
    return float(any(name in relevant for name in ranking[:k]))


def recall_at(relevant: Collection[str], ranking: Sequence[str], k: int) -> float:
    """The share of the relevant tools found in the top k."""
    return sum(name in relevant for name in ranking[:k]) / len(relevant)


def precision_at(relevant: Collection[str], ranking: Sequence[str], k: int) -> float:
    """The share of the top k slots that hold a relevant tool."""
    return sum(name in relevant for name in ranking[:k]) / k


def reciprocal_rank(relevant: Collection[str], ranking: Sequence[str]) -> float:
    """1 / the rank of the first relevant tool; 0 when none is ranked."""
    for position, name in enumerate(ranking, 1):
        if name in relevant:
            return 1 / position
    return 0.0


def ndcg_at(relevant: Collection[str], ranking: Sequence[str], k: int) -> float:
    """Normalized discounted cumulative gain of the top k (binary gains)."""
    dcg = sum(1 / math.log2(position + 1)
              for position, name in enumerate(ranking[:k], 1) if name in relevant)
    ideal = sum(1 / math.log2(position + 1) for position in range(1, min(len(relevant), k) + 1))
    return dcg / ideal


def metric_names(ks: Sequence[int]) -> list[str]:
    """The ranking metrics for the cut-offs `ks`, in report order."""
    return (["hit@1"] + [f"recall@{k}" for k in ks] + [f"precision@{k}" for k in ks]
            + ["mrr"] + [f"ndcg@{k}" for k in ks])


def query_metrics(relevant: Collection[str], ranking: Sequence[str],
                  ks: Sequence[int]) -> dict[str, float]:
    """Every ranking metric of one query (`relevant` must not be empty)."""
    values = {"hit@1": hit_at(relevant, ranking, 1)}
    values.update({f"recall@{k}": recall_at(relevant, ranking, k) for k in ks})
    values.update({f"precision@{k}": precision_at(relevant, ranking, k) for k in ks})
    values["mrr"] = reciprocal_rank(relevant, ranking)
    values.update({f"ndcg@{k}": ndcg_at(relevant, ranking, k) for k in ks})
    return values


def evaluate(qrels: Qrels, run: Run, ks: Sequence[int]) -> dict[str, dict[str, float]]:
    """Per-query metrics `{query_id: {metric: value}}` of every query in `qrels` that has a
    relevant tool; a query missing from `run` ranked nothing."""
    out = {}
    for qid, judged in qrels.items():
        relevant = relevant_names(judged)
        if relevant:
            out[qid] = query_metrics(relevant, ranked(run.get(qid, {})), ks)
    return out


def mean_metrics(per_query: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The mean of each metric over queries (an empty input gives an empty result)."""
    rows = list(per_query)
    if not rows:
        return {}
    return {name: sum(row[name] for row in rows) / len(rows) for name in rows[0]}


def abstention(qrels: Qrels, away: Collection[str]) -> dict[str, float | None]:
    """How well a scorer says "no tool fits", from the queries it turned away (`away`: pick
    would show no tool for them; `toolcat.search.abstain.shows_nothing`). Precision: the
    share of the turned-away queries that needed no tool; recall: the share of the queries
    that need no tool it turned away; false_accept: the share of those it did not (1 -
    recall). None when undefined (nothing to divide by)."""
    turned = {qid for qid in qrels if qid in away}
    no_tool = {qid for qid, judged in qrels.items() if not relevant_names(judged)}
    right = len(turned & no_tool)
    return {
        "abstention_precision": right / len(turned) if turned else None,
        "abstention_recall": right / len(no_tool) if no_tool else None,
        "false_accept": (len(no_tool) - right) / len(no_tool) if no_tool else None,
    }


def group_qrels(groups: Sequence[Collection[str]], ranking: Sequence[str]) -> dict[str, int]:
    """The qrels of one query whose tools come in groups where any member will do.

    Each group is represented by its best-ranked member (else its first member), so a group
    counts once, like one relevant tool, and its other members earn nothing. Plain labels are
    groups of one, and give exactly the standard qrels.
    """
    position: dict[str, int] = {}
    for i, name in enumerate(ranking):
        position.setdefault(name, i)
    qrels = {}
    for group in groups:
        members = list(group)
        best = min(members, key=lambda n: position.get(n, len(ranking) + members.index(n)))
        qrels[best] = 1
    return qrels


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between closest ranks."""
    if not values:
        return 0.0
    ordered = sorted(values)
    at = (len(ordered) - 1) * q / 100
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)
