"""The session mechanics behind a relevance gateway: a tool the model's own search
loaded is expanded, so the gateway gives it +1000 for the rest of the session (relevance has
no search tool of its own), as `resolve --steps` shows."""

from __future__ import annotations

import json

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.resolution import Session, load_profile

TOOLS = str(DATA / "resolve" / "tools.yaml")
PROFILE = """\
scorer: keyword
model: {size_b: 70}
builtins: [tool_search]
gateway: {strategy: relevance, min_tools: 1, target_ratio: 0.7, max_tools: 2,
          always_keep: [tool_search]}
"""


def steps(run, write, *calls: str) -> dict:
    profile = write(PROFILE)
    script = write("query: weather in Tokyo\nsteps:\n" + "".join(f"  - {c}\n" for c in calls),
                   "steps.yaml")
    result = run("resolve", "-c", TOOLS, "-p", str(profile), "--steps", str(script), "--json")
    return json.loads(result.stdout)


def test_a_tool_loaded_by_a_search_gets_its_1000_and_stays(run, write):
    data = steps(run, write, "tool_search: {query: send a slack message}",
                 "send_message: {channel: '#ops', text: sunny}",
                 "user: and what about tomorrow?")
    assert [t["name"] for t in data["initial"]["visible"]] == ["tool_search", "get_weather"]
    search, call, turn = data["steps"]
    assert "expanded for the relevance gateway (+1000)" in search["note"]
    assert "send_message" in search["added"]
    # the gateway would drop send_message for a weather request; +1000 keeps it
    assert (call["rule"], call["refused"]) == ("tool-call", False)
    assert "send_message" in turn["visible"]  # sticky across user turns


def test_the_trace_names_the_expansion(run, write):
    profile = write(PROFILE)
    script = write("query: weather in Tokyo\nsteps:\n"
                   "  - tool_search: {query: send a slack message}\n", "steps.yaml")
    text = run("resolve", "-c", TOOLS, "-p", str(profile), "--steps", str(script)).stdout
    assert "expanded for the relevance gateway (+1000)" in text
    session = Session(load_catalog(TOOLS), load_profile(profile), "weather in Tokyo")
    session.call("tool_search", {"query": "send a slack message"})
    verdict = session.resolution.verdict("send_message")
    assert verdict.rule in ("gateway-kept", "gateway-force-kept")
    assert "expanded earlier +1000" in verdict.reason


def test_add_tool_after_search_tools_expands_too(catalog, profile):
    session = Session(catalog, profile(
        "tool_search_mode: {enabled: true}\n"
        "gateway: {strategy: relevance, min_tools: 1, target_ratio: 0.5, max_tools: 3}"),
        "weather in Tokyo")
    session.call("search_tools", {"query": "issue"})
    added = session.call("add_tool", {"tool_names": ["create_issue"]})
    assert "expanded for the relevance gateway (+1000)" in added.note
    assert "create_issue" in session.resolution.names("visible")
    assert "expanded earlier +1000" in session.resolution.verdict("create_issue").reason


def test_other_strategies_keep_their_own_expansions(catalog, profile):
    session = Session(catalog, profile("model: {size_b: 70}\ngateway: {strategy: passthrough}"),
                      "weather in Tokyo")
    step = session.call("tool_search", {"query": "send a slack message"})
    assert "expanded" not in step.note and session.state.expanded == ()
