"""The regex scorer: the pattern table, linear-time matching, keyword fallback."""

from __future__ import annotations

import re

import pytest

from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.text import parameter_texts


def found(demo, pattern, limit=5):
    return rank(build_scorer("regex", demo.tools), pattern, limit=limit)


def text_of(tool):
    params = " ".join(f"{n} {d}" for n, d in parameter_texts(tool.parameters))
    return f"{tool.name}\n{tool.description}\n{params}"


def test_a_word_finds_the_tools_with_it_in_the_name_first(demo):
    names = [s.tool.name for s in found(demo, "weather")]
    assert names[:2] == ["get_weather", "weather_forecast"]
    assert all("weather" in n for n in names[:4])


def test_a_pattern_finds_one_word_followed_by_another(demo):
    results = found(demo, "database.*query", limit=None)
    assert results
    assert all(re.search("(?i)database.*query", text_of(s.tool)) for s in results)


def test_an_inline_case_flag_is_accepted(demo):
    results = found(demo, "(?i)slack")
    assert results
    assert {s.tool.server for s in results} == {"slack"}


def test_a_prefix_pattern_ranks_the_names_that_start_with_it(demo):
    names = [s.tool.name for s in found(demo, "get_.*")]
    assert len(names) == 5
    assert all(n.startswith("get_") for n in names)


def test_alternatives_find_either_word(demo):
    results = found(demo, "file|folder", limit=None)
    assert any("folder" in text_of(s.tool).lower() for s in results)
    assert all(re.search("(?i)file|folder", text_of(s.tool)) for s in results)


def test_matching_ignores_case(demo):
    assert [s.tool.name for s in found(demo, "WEATHER")] == \
        [s.tool.name for s in found(demo, "weather")]


def test_a_line_anchor_holds_at_the_start_of_a_name(demo):
    names = [s.tool.name for s in found(demo, "^send_", limit=None)]
    assert names[:2] == ["send_email", "send_message"] or \
        names[:2] == ["send_message", "send_email"]


def test_the_score_says_where_the_pattern_matched(demo):
    scorer = build_scorer("regex", demo.tools)
    by_name = {s.tool.name: s for s in rank(scorer, "weather")}
    assert by_name["get_weather"].details["fields"][0] == "name"
    assert by_name["get_weather"].score > by_name["geocode_location"].score
    assert by_name["geocode_location"].details["fields"] == ["description"]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("pattern", ["(a+)+$", "(a|aa)*b", "(x+x+)+y", "(.*a){12}b"])
def test_a_catastrophic_pattern_returns_promptly(pattern):
    tools = [Tool(name=f"tool_{i}", description="a" * 3000 + "!",
                  parameters={"type": "object",
                              "properties": {"x" * 40: {"description": "x" * 3000}}})
             for i in range(300)]
    scorer = build_scorer("regex", tools)
    assert rank(scorer, pattern) == []


def test_an_invalid_pattern_falls_back_to_keywords_and_says_why(demo):
    regex = build_scorer("regex", demo.tools)
    assert regex.problem("missing (").startswith("invalid regex pattern: missing )")
    assert regex.scores("missing (") == build_scorer("keyword", demo.tools).scores("missing (")
    top = rank(regex, "missing (", limit=1)[0]
    assert top.details["fallback"] == "keyword"
    assert top.reason.startswith("keyword fallback (invalid regex pattern")


def test_lookaround_is_refused_because_matching_must_stay_linear(demo):
    regex = build_scorer("regex", demo.tools)
    assert "RE2" in regex.problem("weather(?=_forecast)")
    assert [s.tool.name for s in rank(regex, "weather(?=_forecast)", limit=1)] == \
        [s.tool.name for s in rank(build_scorer("keyword", demo.tools), "weather forecast",
                                   limit=1)]


def test_an_empty_pattern_finds_nothing(demo):
    assert found(demo, "  ") == []


def _tools(*descriptions):
    return [Tool(name=f"tool_{i}", description=d) for i, d in enumerate(descriptions)]


@pytest.mark.parametrize("query", [
    "list the files in a folder", "Files in a folder.", "files?", "colou?r", "fold.r",
    "a folder$", "^list", "fil+es", "kelvin", "long sum", "the files in", "in a fold",
    "list the", "s in a",
])
def test_plain_words_and_light_patterns_match_as_re2_does(query):
    # plain words and a sentence with a full stop or a quantifier are found by their words
    # first, then checked; the result is RE2's, the Kelvin sign and the long s included
    texts = ["List the files in a folder.", "list the FILES in a folder\nand more",
             "colour and color", "files in a folders", "nothing here", "a file in a fold r"]
    if query in ("kelvin", "long sum"):  # a field holding either is read by RE2 alone
        texts += ["\u212aelvin degrees", "long \u017fum"]
    tools = _tools(*texts)
    expected = {t.name for t in tools  # Python's re folds the Kelvin sign and long s too
                if re.search(f"(?im){query}", f"{t.name}\n{t.description}")}
    scorer = build_scorer("regex", tools)
    assert {s.tool.name for s in rank(scorer, query, limit=None)} == expected
    scorer.index_words()  # as serve does once its first search is answered: the same results
    assert {s.tool.name for s in rank(scorer, query, limit=None)} == expected
    assert expected


def test_a_sentence_matched_by_many_texts_is_found_in_every_one():
    tools = _tools(*[f"Get the weather for city {i}." for i in range(2500)], "no match")
    scorer = build_scorer("regex", tools)
    assert len(rank(scorer, "weather for city.", limit=None)) == 2500
    scorer.index_words()
    assert len(rank(scorer, "weather for city.", limit=None)) == 2500
    assert len(rank(scorer, "the weather for", limit=None)) == 2500
