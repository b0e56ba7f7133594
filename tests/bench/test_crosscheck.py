"""toolcat's metrics agree with trec_eval (run through ir-measures' pytrec_eval provider) on
real labeled sets: a slice of BFCL v4 and the demo queries."""

from __future__ import annotations

import ir_measures
import pytest
from ir_measures import RR, P, R, Success, nDCG

from tests.conftest import CATALOGS, DATA
from toolcat.bench import QuerySet, load_queries, resolve_labels, run_bench
from toolcat.bench.metrics import evaluate, mean_metrics
from toolcat.catalog.load import load_catalog
from toolcat.search import build_scorer, rank

KS = (1, 3, 5, 10)
MEASURES = {Success@1: "hit@1", RR: "mrr",
            **{R@k: f"recall@{k}" for k in KS}, **{P@k: f"precision@{k}" for k in KS},
            **{nDCG@k: f"ndcg@{k}" for k in KS}}
SETS = {
    "bfcl_v4 slice": (DATA / "bench" / "bfcl_v4" / "catalog.json",
                      DATA / "bench" / "bfcl_v4" / "queries.jsonl"),
    "demo": (CATALOGS, CATALOGS / "demo-queries.jsonl"),
}


def trec_eval(qrels, run):
    values = {measure: {} for measure in MEASURES}
    for row in ir_measures.pytrec_eval.iter_calc(list(MEASURES), qrels, run):
        values[row.measure][row.query_id] = row.value
    # trec_eval leaves out queries the run has nothing for: they ranked nothing, so score 0
    return {name: sum(values[m].get(q, 0.0) for q in qrels) / len(qrels)
            for m, name in MEASURES.items()}


def standard_shapes(catalog, queries, scorer_name):
    scorer = build_scorer(scorer_name, catalog.tools)
    qrels, run = {}, {}
    for query in queries:
        if not query.needs_tool:
            continue
        qrels[query.id] = dict.fromkeys(query.relevant, 1)
        ranked = rank(scorer, query.text, explain=False)
        if ranked:
            # strictly falling stand-in scores: trec_eval breaks ties by name, toolcat by
            # catalog order, and the ranking is what is being checked
            run[query.id] = {catalog.ident(s.tool): float(len(ranked) - i)
                             for i, s in enumerate(ranked)}
    return qrels, run


@pytest.fixture(scope="module", params=sorted(SETS))
def labeled(request):
    catalog_path, queries_path = SETS[request.param]
    catalog = load_catalog(catalog_path)
    queries, unknown = resolve_labels(load_queries(queries_path), catalog)
    assert not unknown
    return catalog, queries


@pytest.mark.parametrize("scorer", ["keyword", "bm25"])
def test_bench_metrics_equal_trec_eval_on_a_real_set(labeled, scorer):
    catalog, queries = labeled
    report = run_bench(catalog, queries, [scorer], ks=KS)
    qrels, run = standard_shapes(catalog, queries, scorer)
    expected = trec_eval(qrels, run)
    got = report.scorers[0].metrics
    assert {name: pytest.approx(value, abs=1e-12) for name, value in expected.items()} == {
        name: got[name] for name in expected}
    assert 0.2 < got["mrr"] < 1  # a real ranking, neither empty nor perfect


@pytest.mark.semantic
def test_the_batched_semantic_scorer_agrees_with_trec_eval(shared_cache):
    catalog = load_catalog(CATALOGS)
    queries, _ = resolve_labels(load_queries(CATALOGS / "demo-queries.jsonl"), catalog)
    # a third of the demo set: single calls of a neural model are the slow part here
    queries = QuerySet(queries.queries[::3], queries.source)
    report = run_bench(catalog, queries, ["semantic"], ks=KS)
    run = report.scorers[0]
    assert run.batched and run.latency.samples == len(queries)
    expected = trec_eval(*standard_shapes(catalog, queries, "semantic"))
    assert {name: pytest.approx(value, abs=1e-6) for name, value in expected.items()} == {
        name: run.metrics[name] for name in expected}
    assert 0.3 < run.metrics["mrr"] < 1


def test_evaluate_on_standard_shapes_equals_trec_eval(labeled):
    catalog, queries = labeled
    qrels, run = standard_shapes(catalog, queries, "keyword")
    ours = mean_metrics(evaluate(qrels, run, KS).values())
    expected = trec_eval(qrels, run)
    assert ours == pytest.approx(expected, abs=1e-12)
