"""run_bench through the Python API: rankings, groups, abstention, cost and categories."""

from __future__ import annotations

import pytest

from tests.conftest import CATALOGS
from toolcat.bench import load_queries, resolve_labels, run_bench
from toolcat.bench.queries import LabeledQuery, QuerySet
from toolcat.catalog.load import load_catalog
from toolcat.errors import UsageError
from toolcat.providers.tokens import definition_tokens
from toolcat.search import SCORERS, build_scorer, rank


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def demo_queries(demo):
    queries, unknown = resolve_labels(load_queries(CATALOGS / "demo-queries.jsonl"), demo)
    assert not unknown
    return queries


@pytest.fixture(scope="module")
def demo_report(demo, demo_queries):
    return run_bench(demo, demo_queries, ["keyword"])


def one_query_set(*queries):
    return QuerySet(tuple(queries), "inline")


@pytest.mark.parametrize("min_score", [0.0, 0.3])
def test_rankings_are_those_of_search_rank(demo, demo_queries, min_score):
    report = run_bench(demo, demo_queries, ["keyword"], min_score=min_score)
    scorer = build_scorer("keyword", demo.tools)
    for query, outcome in zip(demo_queries, report.scorers[0].outcomes, strict=True):
        expected = rank(scorer, query.text, limit=10, min_score=min_score, explain=False)
        assert [name for name, _ in outcome.ranking] == [s.tool.name for s in expected]


def test_the_report_covers_every_query_and_metric(demo_report):
    run = demo_report.scorers[0]
    assert len(run.outcomes) == 109
    assert list(run.metrics) == demo_report.metric_names()
    assert demo_report.metric_names()[-3:] == ["abstention_precision", "abstention_recall",
                                               "false_accept"]
    assert all(0 <= v <= 1 for v in run.metrics.values())


def test_any_member_of_a_group_satisfies_it(demo):
    text = "read the contents of a file"
    top = rank(build_scorer("keyword", demo.tools), text, explain=False)[0].tool.name
    other = "read_file" if top != "read_file" else "get_file_contents"
    grouped = one_query_set(LabeledQuery("g", text, ((other, top),)))
    both = one_query_set(LabeledQuery("b", text, ((other,), (top,))))
    g = run_bench(demo, grouped, ["keyword"], ks=[1]).scorers[0]
    b = run_bench(demo, both, ["keyword"], ks=[1]).scorers[0]
    assert (g.metrics["recall@1"], g.metrics["hit@1"], g.outcomes[0].missed) == (1, 1, False)
    assert (b.metrics["recall@1"], b.outcomes[0].missed) == (0.5, True)
    assert g.outcomes[0].ranks == (1,)


def test_a_high_minimum_score_makes_the_scorer_abstain(demo, demo_queries):
    strict = run_bench(demo, demo_queries, ["keyword"], min_score=1.0).scorers[0]
    loose = run_bench(demo, demo_queries, ["keyword"]).scorers[0]
    assert strict.metrics["abstention_recall"] == 1
    assert strict.metrics["abstention_recall"] > loose.metrics["abstention_recall"]
    assert strict.metrics["recall@10"] < loose.metrics["recall@10"]  # the price of the bar
    no_tool = next(o for o in strict.outcomes if o.id == "q104")
    assert (no_tool.ranking, no_tool.missed, no_tool.tokens) == ((), False, 0)


def test_tokens_are_those_of_the_picked_definitions(demo, demo_report):
    run = demo_report.scorers[0]
    by_name = {t.name: t for t in demo.tools}
    first = run.outcomes[0]
    assert first.tokens == sum(definition_tokens(by_name[n]) for n, _ in first.ranking[:10])
    assert demo_report.catalog.tokens == sum(definition_tokens(t) for t in demo.tools)
    assert run.tokens[10] == sum(o.tokens for o in run.outcomes) / len(run.outcomes)
    assert run.tokens[1] < run.tokens[10] < demo_report.catalog.tokens


def test_categories_split_the_queries(demo_report):
    categories = demo_report.scorers[0].categories
    assert sum(c["queries"] for c in categories.values()) == 109
    assert list(categories["none"]["metrics"]) == ["abstention_precision", "abstention_recall",
                                                   "false_accept"]
    assert "recall@10" in categories["weather"]["metrics"]


def test_cost_is_measured(demo_report):
    run = demo_report.scorers[0]
    assert run.latency.samples == 109
    assert 0 < run.latency.p50_ms <= run.latency.p95_ms
    assert run.build_s > 0 and run.run_s > 0


def test_a_label_the_catalog_lacks_counts_as_a_miss(demo):
    queries, unknown = resolve_labels(one_query_set(
        LabeledQuery("a", "current weather conditions in Oslo", (("get_weather",), ("umbrella",)))),
        demo)
    run = run_bench(demo, queries, ["keyword"], unknown_labels=[u.name for u in unknown])
    assert run.unknown_labels == ("umbrella",)
    assert run.scorers[0].outcomes[0].ranks[1] is None
    assert run.scorers[0].metrics["recall@10"] == 0.5


@pytest.mark.parametrize(("options", "message"), [
    ({"scorers": ["nope"]}, f"unknown scorer 'nope'; known: {', '.join(SCORERS)}"),
    ({"scorers": ["keyword", "keyword"]}, "scorer keyword is listed twice"),
    ({"scorers": []}, "give at least one scorer"),
    ({"ks": [0]}, "at least 1, not 0"),
    ({"min_score": 1.5}, "--min-score must be between 0 and 1"),
])
def test_bad_settings_are_usage_errors(demo, demo_queries, options, message):
    kwargs = {"scorers": ["keyword"], **options}
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        run_bench(demo, demo_queries, kwargs.pop("scorers"), **kwargs)


def test_cut_offs_are_sorted_and_deduplicated(demo, demo_queries):
    report = run_bench(demo, demo_queries, ["keyword"], ks=[5, 1, 5])
    assert report.ks == (1, 5)
    assert max(len(o.ranking) for o in report.scorers[0].outcomes) == 5


def test_the_public_api_runs_a_benchmark():
    import toolcat

    catalog = toolcat.load_catalog(CATALOGS)
    queries, _ = resolve_labels(toolcat.load_queries(CATALOGS / "demo-queries.jsonl"), catalog)
    report = toolcat.run_bench(catalog, queries, ["bm25"], ks=[5])
    assert isinstance(report, toolcat.BenchReport)
    assert 0.5 < report.scorer("bm25").metrics["recall@5"] < 1
