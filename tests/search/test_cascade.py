"""The cascade: BM25F candidates re-ranked by the hybrid score, embedding only candidates."""

from __future__ import annotations

import json

import pytest

from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.hybrid import HybridScorer

pytestmark = pytest.mark.semantic


def test_pick_with_the_cascade_finds_and_explains_the_tool(run, shared_cache):
    data = json.loads(run("pick", "drop the users table", "--scorer", "cascade",
                          "--allow-unsafe", "--explain", "--json").stdout)
    best = data["picks"][0]
    assert best["name"] == "drop_table"
    details = best["provenance"]["details"]
    assert details["candidate"] is True and "tabl" in details["matched"]


def test_candidates_score_as_hybrid_scores_them_and_the_rest_zero(demo, shared_cache):
    cascade = build_scorer("cascade", demo.tools, candidates=5)
    hybrid = build_scorer("hybrid", demo.tools)
    assert isinstance(hybrid, HybridScorer)
    query = "send a message to the team channel"
    scores = cascade.scores(query)
    reference = hybrid.scores(query)
    nonzero = [i for i, s in enumerate(scores) if s > 0]
    assert 0 < len(nonzero) <= 5
    for i in nonzero:
        assert scores[i] == pytest.approx(reference[i], abs=1e-5)
    outside = next(i for i in range(len(scores)) if scores[i] == 0)
    assert cascade.explain(query, outside)[0] == "not among the 5 best BM25F candidates"


def test_only_candidates_are_ever_embedded(embedder, tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    tools = [Tool(name=f"report_{i}", description=f"Quarterly report number {i} for team {i}.")
             for i in range(400)]
    scorer = build_scorer("cascade", tools, candidates=8)
    assert scorer.encoded == 0  # nothing is encoded before a query asks
    assert len(rank(scorer, "report for team 17", limit=3)) == 3
    assert 0 < scorer.encoded <= 8
    again = build_scorer("cascade", tools, candidates=8)
    rank(again, "report for team 17", limit=3)
    assert again.encoded == 0  # the candidates' vectors came from the cache


def test_candidates_must_be_positive(demo, embedder):
    from toolcat.errors import UsageError

    with pytest.raises(UsageError, match="candidates must be at least 1"):
        build_scorer("cascade", demo.tools, candidates=0)
