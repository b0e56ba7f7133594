"""Every scorer of the registry on the demo catalog: the contract bench and resolve rely on."""

from __future__ import annotations

import pytest

from toolcat.errors import UsageError
from toolcat.search import SCORERS, SEMANTIC, build_scorer, default_scorer, rank, score_many

QUERIES = ["weather", "wether", "send msg", "get_.*", "open a pull request for my branch",
           "drop the users table", "which files changed in the last commit?",
           "schedule a meeting with Ana on Friday at 10", "missing (", "xyzzy"]
LEXICAL = [name for name in SCORERS if name not in SEMANTIC]
ALL = [*LEXICAL, *(pytest.param(n, marks=pytest.mark.semantic) for n in SEMANTIC)]


@pytest.fixture
def needs(request):
    """The shared embedding cache for the semantic scorers, nothing for the others."""
    def prepare(name):
        if name in SEMANTIC:
            request.getfixturevalue("shared_cache")
    return prepare


def test_the_registry_lists_every_scorer_of_the_issue():
    assert list(SCORERS) == ["regex", "keyword", "fuzzy", "bm25", "semantic", "hybrid",
                             "cascade", "relevance"]


@pytest.mark.parametrize("name", ALL)
def test_scores_are_one_number_in_0_to_1_per_tool(name, demo, needs):
    needs(name)
    scorer = build_scorer(name, demo.tools)
    assert scorer.name == name
    for query in QUERIES:
        scores = scorer.scores(query)
        assert len(scores) == len(demo.tools)
        assert all(0.0 <= s <= 1.0 for s in scores)


@pytest.mark.parametrize("name", ALL)
def test_ranking_is_the_same_on_every_build(name, demo, needs):
    needs(name)
    first, second = build_scorer(name, demo.tools), build_scorer(name, demo.tools)
    for query in QUERIES:
        assert [(s.tool.name, s.score) for s in rank(first, query, limit=10)] == \
            [(s.tool.name, s.score) for s in rank(second, query, limit=10)]


@pytest.mark.parametrize("name", ALL)
def test_every_ranked_tool_has_a_reason(name, demo, needs):
    needs(name)
    scorer = build_scorer(name, demo.tools)
    ranked = [s for q in QUERIES for s in rank(scorer, q, limit=5)]
    assert ranked
    assert all(s.reason and isinstance(s.details, dict) for s in ranked)


@pytest.mark.parametrize("name", ALL)
def test_batched_scores_match_one_at_a_time(name, demo, needs):
    needs(name)
    scorer = build_scorer(name, demo.tools)
    for batch, query in zip(score_many(scorer, QUERIES), QUERIES, strict=True):
        assert list(batch) == pytest.approx(list(scorer.scores(query)), abs=1e-5)


def test_an_unknown_scorer_is_a_usage_error_naming_the_known_ones(demo):
    with pytest.raises(UsageError) as error:
        build_scorer("nope", demo.tools)
    assert all(name in str(error.value) for name in SCORERS)


def test_an_option_a_scorer_does_not_take_is_a_usage_error(demo):
    with pytest.raises(UsageError):
        build_scorer("bm25", demo.tools, model="all-MiniLM-L6-v2")


def test_ranking_leaves_out_tools_that_scored_zero(demo):
    ranked = rank(build_scorer("keyword", demo.tools), "xyzzy")
    assert ranked == []


@pytest.mark.semantic
def test_the_default_scorer_is_hybrid_when_the_semantic_extra_is_installed(embedder):
    name, reason = default_scorer()
    assert name == "hybrid"
    assert reason
