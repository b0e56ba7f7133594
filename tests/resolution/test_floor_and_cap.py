"""The relevance floor in resolve's automatic search, and the caps by model size settled
against normal mode, each visible in the trace under its own rule."""

from __future__ import annotations

import json

import pytest

from tests.resolution.conftest import fate


@pytest.fixture(autouse=True)
def shared_embeddings(isolated, monkeypatch, tmp_path_factory):
    """The default profile uses toolcat's default scorer (hybrid with the semantic extra): one
    embedding cache for the module encodes the demo catalog once."""
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "embeddings"))


# a request no tool fits that only the floor turns away: the zero-shot abstention does not
# judge a request in another language, and "tell me a joke", under minilm-tools over the
# floor (0.084 at its midpoint 5.918), is turned away by the abstention (the next test's rule)
JOKE = "raconte-moi une blague, s'il te plaît"


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_request_no_tool_fits_shows_no_catalog_tool_as_pick_says(run):
    data = json.loads(run("resolve", JOKE, "--json").stdout)
    assert [t["name"] for t in data["visible"]] == ["tool_search"]
    floored = [t for t in data["deferred"] if t["rule"] == "below-min-score"]
    assert floored, "the scorer gives every tool some score; the floor defers them"
    # scores are shown to 6 decimals: a tool with next to no similarity shows 0.0
    assert all(0 <= t["score"] < 0.05 for t in floored)
    assert sum(t["score"] > 0 for t in floored) > len(floored) / 2
    assert "under mcp.min_score 0.05" in floored[0]["reason"]
    picked = json.loads(run("pick", JOKE, "--json").stdout)
    assert picked["picks"] == [] and picked["min_score"] == 0.05


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_floor_keeps_the_tools_that_fit(run):
    data = json.loads(run("resolve", "what's the weather in Tokyo", "--json").stdout)
    shown = [t["name"] for t in data["visible"] if not t["builtin"]]
    assert "get_weather" in shown
    assert all(t["score"] >= 0.05 for t in data["visible"] if not t["builtin"])


def test_the_floor_is_set_in_the_profile(resolved):
    assert resolved("model: {size_b: 70}").profile.mcp.min_score == 0.05
    r = resolved("model: {size_b: 70}\nmcp: {min_score: 0.0}", query="weather in Tokyo")
    assert r.verdicts and not [v for v in r.verdicts if v.rule == "below-min-score"]
    high = resolved("model: {size_b: 70}\nmcp: {min_score: 0.99}", query="weather in Tokyo")
    assert fate(high, "get_weather") == ("deferred", "below-min-score")
    automatic = high.trace.find("automatic search")[0]
    assert "score >= mcp.min_score 0.99" in automatic.reason


def test_a_bad_floor_names_its_position(run, write):
    profile = write("mcp:\n  min_score: 2\n")
    result = run("resolve", "weather", "-p", str(profile))
    assert result.exit_code == 2
    assert f"{profile}:2:14" in result.stderr and "<= 1" in result.stderr


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_normal_mode_shows_every_tool_of_the_demo_catalog_for_a_small_model(run, write):
    profile = write("model: {size_b: 3}\nmcp: {defer: false}\n")
    data = json.loads(run("resolve", "weather", "-p", str(profile), "--json").stdout)
    assert (data["cap"]["limit"], data["cap"]["rule"]) == (None, "cap-normal-mode")
    assert {t["rule"] for t in data["visible"]} == {"normal-mode"}
    assert data["deferred"] == []
    assert {t["rule"] for t in data["excluded"] if not t["builtin"]} == {"unsafe"}


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_cap_that_cuts_is_its_own_rule_in_text_and_json(run, write):
    profile = write("model: {size_b: 3}\nmcp: {defer: false, max_in_prompt: 3}\nbuiltins: []\n")
    data = json.loads(run("resolve", "weather", "-p", str(profile), "--json").stdout)
    assert len(data["visible"]) == 3
    cut = [t for t in data["excluded"] if t["rule"] == "over-cap"]
    assert len(cut) == 62 - 3  # 72 tools, 10 unsafe
    assert "the cap is 3" in cut[0]["reason"] and "tool_search is not available" in \
        cut[0]["reason"]
    assert not [t for t in data["excluded"] if t["rule"] == "undiscoverable"]
    text = run("resolve", "weather", "-p", str(profile)).stdout
    assert "over-cap: " in text and "[undiscoverable]" not in text


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_automatic_search_keeps_seed_000s_cap_by_size(run):
    data = json.loads(run("resolve", "weather", "-p", "small-model", "--json").stdout)
    assert (data["cap"]["limit"], data["cap"]["rule"]) == (2, "cap-by-size")
    assert len([t for t in data["visible"] if not t["builtin"]]) == 2
    assert any(t["rule"] == "over-cap" for t in data["deferred"])


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_zero_shot_abstention_turns_a_request_away_with_picks_reason(run):
    """Without a tuning, resolve's automatic search turns away what `pick` turns away, and
    each tool it leaves deferred carries pick's reason (the part of the zero-shot
    abstention that decided, and the model)."""
    picked = json.loads(run("pick", "hello", "--json").stdout)
    assert picked["picks"] == [] and "zero-shot" in picked["message"], picked["message"]
    data = json.loads(run("resolve", "hello", "--json").stdout)
    assert [t["name"] for t in data["visible"]] == ["tool_search"]
    away = [t for t in data["deferred"] if not t["builtin"]]
    assert away and {t["rule"] for t in away} == {"auto-search-turned-away"}
    assert {t["reason"] for t in away} == {picked["message"]}
    kept = json.loads(run("resolve", "what's the weather in Tokyo", "--json").stdout)
    assert "get_weather" in [t["name"] for t in kept["visible"]]
