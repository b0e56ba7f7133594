"""The figures tune measures are the figures bench measures."""

from __future__ import annotations

import numpy as np

from toolcat.bench.metrics import group_qrels, query_metrics
from toolcat.tune.held import ranking_metrics


def test_tune_ranks_and_scores_queries_as_bench_does():
    rng = np.random.default_rng(3)
    tools = 30
    evidence = rng.random((200, tools)) * (rng.random((200, tools)) > 0.3)
    evidence[:, 5] = evidence[:, 6]  # equal priority: ties keep catalog order
    evidence[:, 9] = evidence[:, 8]  # a higher priority first, as search.base.rank
    priority = np.full(tools, 50)
    priority[9] = 80
    groups = []
    for _ in range(200):
        picked = rng.choice(tools, size=rng.integers(0, 5), replace=False).tolist()
        groups.append(tuple((t,) for t in picked[:2]) + ((tuple(picked[2:]),) if picked[2:]
                                                         else ()))
    found = ranking_metrics(evidence, groups, priority)
    expected_ndcg, expected_recall = [], []
    for row, group in zip(evidence, groups, strict=True):
        if not group:
            continue
        order = sorted((i for i in range(tools) if row[i] > 0),
                       key=lambda i: (-row[i], -priority[i]))
        names = [str(i) for i in order]
        named = [tuple(str(t) for t in g) for g in group]
        values = query_metrics(set(group_qrels(named, names)), names, (5, 10))
        expected_ndcg.append(values["ndcg@10"])
        expected_recall.append(values["recall@5"])
    assert np.allclose(found.ndcg, expected_ndcg)
    assert np.allclose(found.recall, expected_recall)
