"""The fuzzy scorer: substring, then word-level, then character similarity."""

from __future__ import annotations

from toolcat.search import build_scorer, rank
from toolcat.search.fuzzy import is_abbreviation


def top(demo, query, limit=3):
    return rank(build_scorer("fuzzy", demo.tools), query, limit=limit)


def test_a_misspelt_word_still_finds_the_tool(demo):
    best = top(demo, "wether")[0]
    assert best.tool.name == "get_weather"
    assert best.details == {"stage": "words", "matched": {"wether": "weather"}}


def test_an_abbreviated_word_finds_the_full_one(demo):
    best = top(demo, "send msg")[0]
    assert best.tool.name == "send_message"
    assert best.reason == "words matched: send, msg~message (2 of 2)"


def test_a_query_inside_a_name_ranks_that_tool_first(demo):
    best = top(demo, "request_review")[0]
    assert best.tool.name == "create_pull_request_review"
    assert best.details["stage"] == "substring"
    assert best.score >= 0.9


def test_the_stages_keep_their_order(demo):
    scorer = build_scorer("fuzzy", demo.tools)
    names = [t.name for t in demo.tools]
    substring = scorer.scores("get weather")[names.index("get_weather")]
    words = scorer.scores("weather get")[names.index("get_weather")]
    characters = scorer.scores("etweat")[names.index("get_weather")]
    assert substring >= 0.9 > 0.8 >= words > 0.5 >= characters > 0


def test_a_query_resembling_only_the_characters_of_a_name_is_a_weak_match(demo):
    best = top(demo, "etweat")[0]
    assert best.tool.name == "get_weather"
    assert best.details["stage"] == "characters"
    assert best.score < 0.5


def test_a_query_matching_nothing_finds_nothing(demo):
    assert top(demo, "xyzzy") == []


def test_abbreviations_keep_the_first_letter_and_the_order():
    assert is_abbreviation("msg", "message")
    assert is_abbreviation("cfg", "config")
    assert not is_abbreviation("gsm", "message")
    assert not is_abbreviation("message", "message")
