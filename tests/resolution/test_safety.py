"""The safety rule everywhere a model is shown tools: resolve, render, tokens, the
gateway strategies and a session's searches leave out `safe: false` tools unless the profile
says `allow_unsafe: true` or the command gets `--allow-unsafe`; the trace names the rule."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA
from tests.resolution.conftest import fate
from toolcat.resolution import Session

TOOLS = str(DATA / "resolve" / "tools.yaml")  # delete_repository is safe: false
KEYWORD = "scorer: keyword\n"
REQUEST = "delete the repository acme/old"


def test_resolve_leaves_unsafe_tools_out_and_the_trace_names_the_rule(run, write):
    profile = write(KEYWORD + "model: {size_b: 70}")
    result = run("resolve", REQUEST, "-c", TOOLS, "-p", str(profile), "--json")
    data = json.loads(result.stdout)
    excluded = {t["name"]: t for t in data["excluded"]}
    assert excluded["delete_repository"]["rule"] == "unsafe"
    assert "allow_unsafe is off" in excluded["delete_repository"]["reason"]
    assert "delete_repository" not in [t["name"] for t in data["visible"] + data["deferred"]]
    text = run("resolve", REQUEST, "-c", TOOLS, "-p", str(profile)).stdout
    assert "unsafe: delete_repository" in text
    assert "delete_repository → excluded [unsafe]" in text


def test_allow_unsafe_in_the_profile_or_on_the_command_shows_them(run, write):
    plain = write(KEYWORD + "model: {size_b: 70}")
    allowing = write(KEYWORD + "model: {size_b: 70}\nallow_unsafe: true", "allowing.yaml")
    for args in (["-p", str(plain), "--allow-unsafe"], ["-p", str(allowing)]):
        data = json.loads(run("resolve", REQUEST, "-c", TOOLS, *args, "--json").stdout)
        shown = {t["name"]: t for t in data["visible"]}
        assert shown["delete_repository"]["rule"] == "auto-search-match"


def test_a_bad_allow_unsafe_value_names_its_position(run, write):
    profile = write("name: p\nallow_unsafe: sometimes\n")
    result = run("resolve", REQUEST, "-c", TOOLS, "-p", str(profile))
    assert result.exit_code == 2
    assert f"{profile}:2:15" in result.stderr and "true or false" in result.stderr


def test_render_and_tokens_leave_unsafe_tools_out_unless_allowed(run, write):
    profile = write(KEYWORD + "model: {size_b: 70}")
    args = ["-c", TOOLS, "-p", str(profile)]
    payload = json.loads(run("render", REQUEST, *args, "--provider", "openai").stdout)
    names = [t["function"]["name"] for t in payload["tools"]]
    # the best fit is left out, and the safe tools fit far worse: none stands in for it
    assert "delete_repository" not in names and "create_issue" not in names
    allowed = json.loads(run("render", REQUEST, *args, "--provider", "openai",
                             "--allow-unsafe").stdout)
    assert "delete_repository" in [t["function"]["name"] for t in allowed["tools"]]
    costs = json.loads(run("tokens", REQUEST, *args, "--json").stdout)
    assert "github:delete_repository" not in costs["visible"]["tools"]
    issue = json.loads(run("tokens", "open an issue about the login bug", *args,
                           "--json").stdout)
    assert "github:create_issue" in issue["visible"]["tools"]
    costs = json.loads(run("tokens", REQUEST, *args, "--json", "--allow-unsafe").stdout)
    assert "github:delete_repository" in costs["visible"]["tools"]


@pytest.mark.parametrize("strategy", ["passthrough", "relevance", "tool-search"])
def test_no_gateway_strategy_shows_or_defers_an_unsafe_tool(resolved, strategy):
    r = resolved("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                 f"gateway: {{strategy: {strategy}, min_tools: 1, always_keep: "
                 "[delete_repository]}", query=REQUEST)
    assert fate(r, "delete_repository") == ("excluded", "unsafe")
    allowed = resolved("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                       "allow_unsafe: true\n"
                       f"gateway: {{strategy: {strategy}, min_tools: 1, always_keep: "
                       "[delete_repository]}", query=REQUEST)
    assert allowed.verdict("delete_repository").status in ("visible", "deferred")


def test_searches_in_a_session_never_reveal_an_unsafe_tool(catalog, profile):
    session = Session(catalog, profile("tool_search_mode: {enabled: true}"), REQUEST)
    found = session.call("search_tools", {"query": "delete|repository"})
    assert "delete_repository" not in [t["name"] for t in found.response["tools"]]
    added = session.call("add_tool", {"tool_names": ["delete_repository"]})
    assert added.response["not_found"] == ["delete_repository"]
    listed = session.call("show_all_tools", {})
    assert "delete_repository" not in listed.response["tools"]
    gateway = Session(catalog, profile("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                                       "gateway: {strategy: tool-search}"), REQUEST)
    step = gateway.call("gateway_search_tools", {"query": "delete"})
    assert "delete_repository" not in step.added


def test_an_unsafe_builtin_named_in_builtins_is_shown_and_the_trace_says_so(resolved):
    r = resolved("builtins: [execute_sql]\ndatabase_sources: [warehouse]")
    verdict = r.verdict("execute_sql")
    assert (verdict.status, verdict.rule) == ("visible", "builtin-enabled")
    assert "marked unsafe, shown because builtins names it" in verdict.reason
