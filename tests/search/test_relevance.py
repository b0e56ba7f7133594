"""The gateway weights, normalised as points / (points + 50)."""

from __future__ import annotations

import pytest

from toolcat.search import build_scorer, rank


def score_of(scorer, query, name):
    return dict(zip((t.name for t in scorer.tools), scorer.scores(query), strict=True))[name]


def test_each_reason_adds_its_seed_004_points(demo):
    scorer = build_scorer("relevance", demo.tools, expanded=["send_message"],
                          always_keep=["read_file"], recently_used=["weather:get_weather"])
    query = "call get_weather for Tokyo"
    assert score_of(scorer, query, "send_message") == pytest.approx(1000 / 1050)
    assert score_of(scorer, query, "read_file") == pytest.approx(100 / 150)
    weather = rank(scorer, query, limit=3)[1]
    assert weather.tool.name == "get_weather"
    assert weather.details["points"] == {"recently_used": 100, "exact_name": 50,
                                         "token_overlap": 10}
    assert weather.score == pytest.approx(160 / 210)


def test_each_query_token_found_in_the_tool_is_worth_ten_points(demo):
    scorer = build_scorer("relevance", demo.tools)
    assert score_of(scorer, "weather forecast", "weather_forecast") == pytest.approx(20 / 70)
    assert score_of(scorer, "weather forecast", "send_message") == 0


def test_expanded_tools_lead_then_kept_and_recent_ones_then_the_query(demo):
    scorer = build_scorer("relevance", demo.tools, expanded=["list_files"],
                          always_keep=["drop_table"])
    assert [s.tool.name for s in rank(scorer, "hourly breakdown", limit=3)] == [
        "list_files", "drop_table", "weather_forecast"]
