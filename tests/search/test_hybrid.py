"""The hybrid scorer: lexical and semantic evidence on one scale."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS
from toolcat.search import build_scorer, rank, score_many
from toolcat.search.semantic import LENGTH_WEIGHT, length_weight

pytestmark = pytest.mark.semantic


def recall_at_5(scorer, queries):
    names = [t.name for t in scorer.tools]
    total = 0.0
    for scores, wanted in zip(score_many(scorer, [q for q, _ in queries]),
                              (w for _, w in queries), strict=True):
        best = sorted(range(len(names)), key=lambda i: (-scores[i], i))[:5]
        total += len(wanted & {names[i] for i in best if scores[i] > 0}) / len(wanted)
    return total / len(queries)


def test_hybrid_finds_at_least_as_much_as_either_part_on_the_demo_queries(demo, shared_cache):
    with (CATALOGS / "demo-queries.jsonl").open(encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle]
    queries = [(i["query"], set(i["relevant"])) for i in items if i["relevant"]]
    found = {name: recall_at_5(build_scorer(name, demo.tools), queries)
             for name in ("bm25", "semantic", "hybrid")}
    assert found["hybrid"] >= max(found["bm25"], found["semantic"])


def test_a_request_no_tool_is_about_scores_under_the_default_threshold(demo, shared_cache):
    scorer = build_scorer("hybrid", demo.tools, model="all-MiniLM-L6-v2")
    for query in ("bake a chocolate cake", "tell me a joke"):
        assert max(scorer.scores(query)) < 0.05


def test_under_the_default_model_a_request_no_tool_is_about_gets_no_tool(demo, shared_cache):
    """Under minilm-tools "bake a chocolate cake" (2.41 nats) and "tell me a joke" (2.67)
    score over the floor at its midpoint 5.918 (0.063 and 0.084): what a user sees is the
    same, an empty pick, because the zero-shot abstention turns them away (a kind of service
    no tool is about; no word in any tool and nearer to small talk)."""
    from toolcat.search.pick import pick

    scorer = build_scorer("hybrid", demo.tools)
    for query in ("bake a chocolate cake", "tell me a joke"):
        found = pick(query, demo, scorer=scorer)
        assert found.picks == () and found.message.startswith("no tool fits"), found.message


def test_the_reason_weighs_lexical_against_semantic_evidence(demo, shared_cache):
    best = rank(build_scorer("hybrid", demo.tools), "drop the users table", limit=1)[0]
    assert best.tool.name == "drop_table"
    details = best.details
    assert details["matched"]["drop"][0] == "name"
    assert details["lexical_evidence"] > 0 and 0 < details["cosine"] < 1
    # each figure says what it is: BM25F's terms, the cosine and the weight it is scaled by
    assert best.reason.startswith(f"lexical {details['lexical_evidence']:.1f} (BM25F of the "
                                  "terms drop")
    assert (f" + semantic {details['semantic_evidence']:.1f} (cosine {details['cosine']:.2f} "
            "× 12)") in best.reason


def test_a_long_request_weighs_its_cosine_more(demo, shared_cache):
    # sixteen words: a doubling past eight, LENGTH_WEIGHT more nats per unit of cosine
    request = ("I would like you to please drop the old users table from the database we "
               "have")
    assert length_weight(request) == LENGTH_WEIGHT
    assert length_weight("drop the users table") == 0.0
    scorer = build_scorer("hybrid", demo.tools)
    best = rank(scorer, request, limit=1)[0]
    assert best.tool.name == "drop_table"
    weight = 12 + LENGTH_WEIGHT
    assert f"(cosine {best.details['cosine']:.2f} × {weight:g})" in best.reason
    assert best.details["semantic_evidence"] == pytest.approx(
        weight * best.details["cosine"], abs=1e-5)
    # the abstention's floors in nats read the evidence at the weight they were chosen under
    lengthened = scorer.evidence([request])[0]
    alike = scorer.evidence([request], by_length=False)[0]
    best_at = int(lengthened.argmax())
    assert lengthened[best_at] > alike[best_at]
    assert lengthened[best_at] - alike[best_at] == pytest.approx(
        LENGTH_WEIGHT * best.details["cosine"], abs=1e-5)
