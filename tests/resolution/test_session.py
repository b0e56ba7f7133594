"""Scripted discovery sessions: search_tools / add_tool / show_all_tools with their
response shapes, tool_search, the phantom loop with its limit of 5, user turns,
and steps files."""

from __future__ import annotations

import pytest

from toolcat.errors import ConfigError
from toolcat.resolution import Session, load_script

MODE = "tool_search_mode: {enabled: true}\n"


@pytest.fixture
def session(catalog, profile):
    def start(text: str, query: str = "weather in Tokyo") -> Session:
        return Session(catalog, profile(text), query)

    return start


def test_a_tool_search_mode_session_step_by_step(session):
    s = session(MODE + "filters: {servers: {allow: [weather, github]}}")
    assert "get_weather" not in s.resolution.names("visible")

    found = s.call("search_tools", {"query": "weather"})
    assert (found.rule, found.refused, found.added) == ("search-regex", False, ())
    assert found.response == {
        "found": 2,
        "tools": [
            {"name": "get_weather",
             "description": "Get current weather conditions for a city or location."},
            {"name": "weather_forecast",
             "description": "Get weather forecast for the next 7 days."},
        ],
        "message": "Found matching tools. Use 'add_tool' to load the ones you need.",
    }

    added = s.call("add_tool", {"tool_names": ["get_weather", "send_message"]})
    assert added.response["added"] == ["get_weather"]
    assert added.response["not_found"] == ["send_message"]  # filtered out: not discoverable
    assert added.added == ("get_weather",)
    assert s.resolution.verdict("get_weather").rule == "discovered"
    before = found.resolution.tokens.visible
    assert added.resolution.tokens.visible == before + added.resolution.verdict(
        "get_weather").tokens

    again = s.call("add_tool", {"tool_names": ["get_weather"]})
    assert again.response["already_available"] == ["get_weather"]

    listing = s.call("show_all_tools", {})
    assert listing.rule == "show-all-tools"
    assert listing.response["tools"] == sorted(listing.response["tools"])
    assert listing.response["total"] == len(listing.response["tools"])
    assert {"add_tool", "search_tools", "get_weather", "create_issue", "page_oncall"} <= \
        set(listing.response["tools"])
    assert "send_message" not in listing.response["tools"]

    called = s.call("get_weather", {"location": "Tokyo"})
    assert (called.rule, called.refused, called.response) == ("tool-call", False, None)
    assert [step.number for step in s.steps] == [1, 2, 3, 4, 5]


def test_search_tools_ignores_case_and_returns_the_best_five(session):
    s = session(MODE)
    found = s.call("search_tools", {"query": "SLACK"})
    assert found.rule == "search-regex"
    assert {t["name"] for t in found.response["tools"]} == {
        "send_message", "search_messages", "list_channels"}
    assert s.call("search_tools", {"query": "."}).response["found"] == 5


def test_search_tools_falls_back_to_fuzzy_search(session):
    step = session(MODE).call("search_tools", {"query": "wether"})
    assert step.rule == "search-fuzzy-fallback"
    assert step.response["tools"][0]["name"] == "get_weather"
    assert len(step.response["tools"]) <= 5


def test_search_tools_reports_no_match_in_seed_001s_shape(session):
    step = session(MODE).call("search_tools", {"query": "zzzzqqq"})
    assert step.response == {"found": 0, "tools": [],
                             "message": "No tools found matching the pattern"}


def test_search_tools_reports_an_invalid_regex(session):
    step = session(MODE).call("search_tools", {"query": "(unclosed"})
    assert step.rule == "search-invalid-regex"
    assert step.response == {
        "error": "invalid regex pattern: missing ), unterminated subpattern at position 0"}
    lookahead = session(MODE).call("search_tools", {"query": "weather(?=_)"})
    assert lookahead.response["error"].startswith(
        "invalid regex pattern: the pattern needs a feature RE2 lacks")


def test_a_call_to_a_tool_the_model_does_not_see_is_refused(session):
    s = session(MODE)
    step = s.call("create_issue", {"repo": "a/b", "title": "x"})
    assert (step.refused, step.rule) == (True, "call-unavailable")
    assert step.response == {"error": "tool 'create_issue' is not available"}
    assert "find it with search_tools" in step.note
    assert s.call("no_such_tool", {}).note == "there is no tool called no_such_tool"


def test_arguments_that_do_not_fit_the_schema_are_refused(session):
    step = session(MODE).call("add_tool", {"tool_names": "get_weather"})
    assert (step.refused, step.rule) == (True, "call-invalid")
    assert 'is not of type "array"' in step.response["error"]


def test_tool_search_loads_what_it_finds_by_relevance(session):
    s = session("model: {size_b: 3}", query="weather")
    assert s.resolution.names("visible") == ["tool_search", "get_weather", "weather_forecast"]
    step = s.call("tool_search", {"query": "slack channels message", "limit": 2})
    assert step.rule == "tool-search-call"
    # both share two of the three query terms; ties keep catalog order
    assert [t["name"] for t in step.response["tools"]] == ["send_message", "list_channels"]
    assert step.added == ("send_message", "list_channels")
    assert s.resolution.verdict("send_message").rule == "discovered"


def test_the_phantom_loop_stops_after_five_searches_in_a_row(session):
    s = session("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                "gateway: {strategy: tool-search, max_search_results: 2}")
    assert s.resolution.names("visible") == ["gateway_search_tools"]
    first = s.call("gateway_search_tools", {"query": "weather|forecast"})
    assert first.rule == "gateway-search-regex"
    assert first.added == ("get_weather", "weather_forecast")  # capped at 2
    assert s.resolution.verdict("get_weather").rule == "gateway-expanded"
    for query in ("issue", "channel", "file", "message"):
        assert not s.call("gateway_search_tools", {"query": query}).refused
    sixth = s.call("gateway_search_tools", {"query": "air"})
    assert (sixth.refused, sixth.rule, sixth.response) == (True, "phantom-loop-limit", None)
    assert "get_air_quality" not in s.resolution.names("visible")
    # a call the client sees ends the request: the next search starts a new loop
    s.call("get_weather", {"location": "Tokyo"})
    assert s.call("gateway_search_tools", {"query": "air"}).note.startswith("phantom loop 1")


def test_the_gateway_search_matches_parameters_falls_back_to_keywords_and_adds_always_keep(
        session):
    s = session("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                "gateway: {strategy: tool-search, always_keep: [list_channels]}")
    by_parameter = s.call("gateway_search_tools", {"query": "owner/name"})
    # delete_repository matches too, but it is unsafe: the agent never sent it
    assert set(by_parameter.added) == {"create_issue", "list_issues", "list_channels"}
    keyword = s.call("gateway_search_tools", {"query": "(weather"})
    assert keyword.rule == "gateway-search-keyword"
    assert "get_weather" in keyword.added


def test_a_user_turn_changes_the_query_and_recently_used_tools_stay(session):
    s = session("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                "gateway: {strategy: relevance, target_ratio: 0.2, min_tools: 2}",
                query="weather forecast for Tokyo")
    assert set(s.resolution.names("visible")) == {"weather_forecast", "get_weather"}
    s.call("get_weather", {"location": "Tokyo"})
    turn = s.say("open an issue in the github repository")
    assert turn.rule == "user-turn"
    visible = turn.resolution.names("visible")
    assert "get_weather" in visible  # recently used: +100
    assert "weather_forecast" not in visible
    assert "used recently +100" in turn.resolution.verdict("get_weather").reason


def test_a_steps_file_runs_from_top_to_bottom(catalog, profile, write):
    path = write("""\
        query: weather in Tokyo
        steps:
          - search_tools: {query: weather}
          - add_tool: {tool_names: [weather_forecast]}
          - user: and in Oslo?
          - show_all_tools:
        """, "session.yaml")
    script = load_script(path)
    assert script.query == "weather in Tokyo"
    assert [c.name for c in script.calls] == ["search_tools", "add_tool", "user",
                                              "show_all_tools"]
    assert script.calls[1].where.line == 4
    s = Session(catalog, profile(MODE), script.query)
    steps = s.run(script.calls)
    assert [step.rule for step in steps] == ["search-regex", "add-tool", "user-turn",
                                             "show-all-tools"]
    assert s.query == "and in Oslo?"


@pytest.mark.parametrize(("text", "line", "message"), [
    ("steps: []\n", 1, "'steps' must be a non-empty list"),
    ("query: x\nstep:\n  - a: {}\n", 2, "unknown setting 'step'"),
    ("steps:\n  - search_tools: {query: x}\n  - [add_tool]\n", 3, "each step must be one call"),
    ("steps:\n  - add_tool: [x]\n", 2, "the arguments of add_tool must be a mapping"),
    ("steps:\n  - user: {text: hi}\n", 2, "a user step is the text of the message"),
])
def test_a_bad_steps_file_names_the_line(write, text, line, message):
    with pytest.raises(ConfigError, match=message) as caught:
        load_script(write(text, "bad.yaml"))
    assert caught.value.where.line == line
