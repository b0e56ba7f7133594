"""search_tools: regex first, fuzzy fallback, top 5, its response shape."""

from __future__ import annotations

import pytest

from toolcat.errors import UsageError
from toolcat.search.find import FOUND, NOT_FOUND, search_tools


def test_a_matching_pattern_is_answered_by_regex(demo):
    result = search_tools("weather", demo.tools)
    assert result.scorer == "regex"
    assert result.found == 5
    assert result.message == FOUND


def test_a_pattern_that_matches_nothing_falls_back_to_fuzzy_search(demo):
    result = search_tools("wether", demo.tools)
    assert result.scorer == "fuzzy"
    assert result.results[0].tool.name == "get_weather"


def test_the_response_has_seed_001s_shape(demo):
    data = search_tools("weather", demo.tools).to_json()
    assert list(data)[:3] == ["found", "tools", "message"]
    assert data["found"] == len(data["tools"]) == 5
    assert data["tools"][0]["name"] == "get_weather"
    assert data["tools"][0]["description"].startswith("Get current weather")


def test_nothing_found_says_so(demo):
    data = search_tools("xyzzy", demo.tools).to_json()
    assert (data["found"], data["tools"], data["message"]) == (0, [], NOT_FOUND)


def test_an_invalid_pattern_is_seed_001s_error(demo):
    result = search_tools("missing (", demo.tools)
    assert result.found == 0
    assert result.to_json() == {"error": "invalid regex pattern: missing ), unterminated "
                                "subpattern at position 8"}
    lookbehind = search_tools("(?<=get_)weather", demo.tools).to_json()
    assert lookbehind["error"].startswith("invalid regex pattern: the pattern needs a feature "
                                          "RE2 lacks")


def test_a_named_scorer_ranks_alone_up_to_the_limit(demo):
    result = search_tools("send msg", demo.tools, scorer="fuzzy", limit=2)
    assert (result.scorer, result.found) == ("fuzzy", 2)


def test_scorer_options_need_a_scorer(demo):
    with pytest.raises(UsageError):
        search_tools("weather", demo.tools, model="x")
