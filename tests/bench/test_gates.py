"""Bars for --fail-under, and comparing a run with an earlier report."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS
from toolcat.bench import load_queries, resolve_labels, run_bench
from toolcat.bench.compare import compare, load_past, past_from_json
from toolcat.bench.gates import Bar, check_bars, parse_bar
from toolcat.catalog.load import load_catalog
from toolcat.errors import ConfigError, UsageError


@pytest.fixture(scope="module")
def report():
    catalog = load_catalog(CATALOGS)
    queries, _ = resolve_labels(load_queries(CATALOGS / "demo-queries.jsonl"), catalog)
    return run_bench(catalog, queries, ["keyword"], ks=[1, 5])


@pytest.mark.parametrize(("text", "bar"), [
    ("recall@5=0.85", Bar("recall@5", 0.85)),
    ("R@5=0.85", Bar("recall@5", 0.85)),
    ("P@1=0.5", Bar("precision@1", 0.5)),
    ("MRR=0.7", Bar("mrr", 0.7)),
    ("bm25:nDCG@10=0.8", Bar("ndcg@10", 0.8, "bm25")),
])
def test_bars_are_parsed_with_the_usual_spellings(text, bar):
    assert parse_bar(text) == bar


@pytest.mark.parametrize(("text", "message"), [
    ("recall@5", "takes METRIC=VALUE"),
    ("recall@5=high", "'high' is not a number"),
    ("recall@5=85", "between 0 and 1"),
])
def test_malformed_bars_are_usage_errors(text, message):
    with pytest.raises(UsageError, match=message):
        parse_bar(text)


def test_a_metric_under_its_bar_is_a_failure(report):
    recall = report.scorers[0].metrics["recall@5"]
    assert check_bars(report, [Bar("recall@5", recall)]) == []
    [failure] = check_bars(report, [Bar("recall@5", recall + 0.01), Bar("mrr", 0.0)])
    assert (failure.scorer, failure.metric, failure.value) == ("keyword", "recall@5", recall)
    assert str(failure) == f"keyword: recall@5 = {recall:.4f}, under {recall + 0.01:g}"


def test_a_bar_on_a_metric_the_run_lacks_is_a_usage_error(report):
    with pytest.raises(UsageError, match="this run has no metric 'recall@10'; it has hit@1, "):
        check_bars(report, [Bar("recall@10", 0.5)])
    with pytest.raises(UsageError, match="scorer 'bm25' is not in this run"):
        check_bars(report, [Bar("mrr", 0.5, "bm25")])


def test_comparing_a_run_with_itself_changes_nothing(report):
    comparison = compare(report, past_from_json(report.to_json(), "old.json"))
    [scorer] = comparison.scorers
    assert comparison.notes == ()
    assert {d.metric: d.delta for d in scorer.deltas} == dict.fromkeys(
        report.metric_names(), 0.0)
    assert (scorer.improved, scorer.regressed) == ((), ())


def test_comparing_finds_the_queries_that_flipped(report):
    outcomes = report.scorers[0].outcomes
    found = next(o.id for o in outcomes if not o.missed)
    missed = next(o.id for o in outcomes if o.missed)
    old = report.to_json()
    scorer = old["scorers"][0]
    for query in scorer["queries"]:  # the earlier run had these two the other way round
        if query["id"] in (found, missed):
            query["missed"] = query["id"] == found
    scorer["metrics"]["mrr"] -= 0.25
    [result] = compare(report, past_from_json(old, "old.json")).scorers
    assert (result.improved, result.regressed) == ((found,), (missed,))
    assert next(d for d in result.deltas if d.metric == "mrr").delta == pytest.approx(0.25)


def test_an_earlier_report_must_be_a_bench_report(tmp_path):
    path = tmp_path / "old.json"
    path.write_text('{"tools": []}')
    with pytest.raises(ConfigError, match="not a report of `toolcat bench --json`"):
        load_past(path)
    path.write_text("{")
    with pytest.raises(ConfigError, match=r"old\.json:1:2: invalid JSON"):
        load_past(path)
    path.write_text('{"format": "toolcat-bench/1",\n "note": "\\udc80"}')  # a lone surrogate
    with pytest.raises(ConfigError, match=r"old.json:2:\d+: .*surrogate"):
        load_past(path)
    path.write_text(json.dumps({"format": "toolcat-bench/1", "scorers": []}))
    with pytest.raises(ConfigError, match="bench report is incomplete"):
        load_past(path)


def test_a_tampered_earlier_report_is_an_error_at_the_value(tmp_path):
    path = tmp_path / "old.json"
    path.write_text('{"format": "toolcat-bench/1", "settings": {"k": [1, 5]},\n'
                    ' "catalog": {"fingerprint": "a"}, "query_set": {"fingerprint": "b"},\n'
                    ' "scorers": [{"name": "bm25", "metrics": {"ndcg@5": "high"}, '
                    '"queries": []}]}\n')
    with pytest.raises(ConfigError) as raised:
        load_past(path)
    assert str(raised.value).startswith(
        f"{path}:3:53: 'scorers.0.metrics.ndcg@5' must be a number")
