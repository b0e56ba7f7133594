"""The metric functions on cases small enough to compute by hand."""

from __future__ import annotations

import math

import pytest

from toolcat.bench.metrics import (
    abstention,
    evaluate,
    group_qrels,
    hit_at,
    mean_metrics,
    metric_names,
    ndcg_at,
    percentile,
    precision_at,
    recall_at,
    reciprocal_rank,
)

RANKING = ["x", "a", "y", "b"]
RELEVANT = {"a", "b"}


def test_hit_recall_and_precision_count_relevant_tools_in_the_top_k():
    assert hit_at(RELEVANT, RANKING, 1) == 0
    assert hit_at(RELEVANT, RANKING, 2) == 1
    assert [recall_at(RELEVANT, RANKING, k) for k in (1, 2, 3, 4)] == [0, 0.5, 0.5, 1]
    assert [precision_at(RELEVANT, RANKING, k) for k in (1, 2, 4)] == [0, 0.5, 0.5]


def test_precision_divides_by_k_even_when_fewer_tools_are_ranked():
    assert precision_at(RELEVANT, ["a"], 5) == pytest.approx(0.2)


def test_reciprocal_rank_is_one_over_the_first_relevant_rank():
    assert reciprocal_rank(RELEVANT, RANKING) == 0.5
    assert reciprocal_rank(RELEVANT, ["x", "y"]) == 0
    assert reciprocal_rank(RELEVANT, []) == 0


def test_ndcg_discounts_by_log2_of_rank_plus_one():
    # DCG = 1/log2(3) + 1/log2(5); ideal DCG = 1 + 1/log2(3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg_at(RELEVANT, RANKING, 4) == pytest.approx(expected)
    assert ndcg_at(RELEVANT, RANKING, 2) == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3)))


def test_ndcg_ideal_counts_only_as_many_relevant_tools_as_fit_in_k():
    three = {"a", "b", "c"}
    assert ndcg_at(three, ["a", "x", "y"], 1) == 1
    assert ndcg_at(three, ["a", "x", "y"], 3) == pytest.approx(1 / (1 + 1 / math.log2(3) + 0.5))


def test_evaluate_reads_the_standard_qrels_and_run_shapes():
    qrels = {"q1": {"a": 1, "b": 1, "z": 0}, "q2": {"c": 2}, "q3": {"d": 0}}
    run = {"q1": {"x": 0.9, "a": 0.8, "y": 0.4, "b": 0.2}}
    per_query = evaluate(qrels, run, [1, 4])
    assert sorted(per_query) == ["q1", "q2"]  # q3 has no relevant tool
    assert per_query["q1"] == {
        "hit@1": 0, "recall@1": 0, "recall@4": 1, "precision@1": 0, "precision@4": 0.5,
        "mrr": 0.5, "ndcg@1": 0, "ndcg@4": pytest.approx(ndcg_at(RELEVANT, RANKING, 4))}
    assert set(per_query["q2"].values()) == {0}  # missing from the run: ranked nothing
    assert mean_metrics(per_query.values())["mrr"] == 0.25
    assert list(per_query["q1"]) == metric_names([1, 4])


def test_evaluate_keeps_the_run_order_for_tied_scores():
    per_query = evaluate({"q": {"b": 1}}, {"q": {"a": 0.5, "b": 0.5}}, [1])
    assert per_query["q"]["mrr"] == 0.5


def test_a_group_counts_once_through_its_best_ranked_member():
    groups = [("a", "b"), ("c",)]
    qrels = group_qrels(groups, ["b", "a", "c"])
    assert qrels == {"b": 1, "c": 1}
    assert recall_at(qrels, ["b", "a", "c"], 2) == 0.5  # a is b's alternative: no credit
    assert ndcg_at(qrels, ["b", "a", "c"], 3) == pytest.approx(
        1.5 / (1 + 1 / math.log2(3)))


def test_a_group_nobody_ranked_is_represented_by_its_first_member():
    assert group_qrels([("a", "b")], ["x"]) == {"a": 1}
    assert group_qrels([("a",), ("b",)], []) == {"a": 1, "b": 1}


def test_abstention_precision_recall_and_false_accept_read_one_set_of_turned_away():
    qrels = {"q1": {"a": 1}, "q2": {}, "q3": {"z": 0}}
    assert abstention(qrels, {"q1", "q2"}) == {"abstention_precision": 0.5,
                                               "abstention_recall": 0.5, "false_accept": 0.5}


def test_abstention_is_undefined_when_there_is_nothing_to_divide_by():
    assert abstention({"q1": {"a": 1}}, set()) == {
        "abstention_precision": None, "abstention_recall": None, "false_accept": None}


def test_percentile_interpolates_between_ranks():
    assert percentile([4, 1, 3, 2], 50) == 2.5
    assert percentile([1, 2, 3, 4], 95) == pytest.approx(3.85)
    assert percentile([7], 95) == 7
    assert percentile([], 50) == 0
