"""Tool search mode's immediately available tools, pre-discovered and special
category tools, and each row of its filtering table."""

from __future__ import annotations

import pytest

from tests.resolution.conftest import fate

MODE = "tool_search_mode: {enabled: true}\n"
DISCOVERY = ["search_tools", "add_tool", "show_all_tools"]
OFFLOADING = ["search_large_output", "read_large_output", "query_large_output"]
SPECIAL = ["page_oncall", "submit_report"]


def test_discovery_and_context_offloading_tools_are_available_at_once(resolved):
    r = resolved(MODE)
    assert r.tool_search_mode
    assert r.names("visible") == [*DISCOVERY, *OFFLOADING, *SPECIAL]
    assert {fate(r, n) for n in DISCOVERY} == {("visible", "tool-search-mode-discovery")}
    assert {fate(r, n) for n in OFFLOADING} == {("visible", "tool-search-mode-offloading")}


def test_every_other_catalog_tool_waits_for_search_tools(resolved):
    r = resolved(MODE)
    assert fate(r, "get_weather") == ("deferred", "tool-search-mode-deferred")
    assert r.verdict("get_weather").via == "search_tools"


def test_the_discovery_tools_exist_only_in_tool_search_mode(resolved):
    r = resolved("builtins: [search_tools, add_tool, tool_search]")
    assert fate(r, "search_tools") == ("excluded", "builtin-needs-tool-search-mode")
    assert fate(r, "add_tool") == ("excluded", "builtin-needs-tool-search-mode")


def test_pre_discovered_tools_are_available_without_searching(resolved):
    r = resolved("tool_search_mode: {enabled: true, pre_discovered: [send_message, "
                 "'weather:*']}")
    for name in ("send_message", "get_weather", "weather_forecast", "get_air_quality"):
        assert fate(r, name) == ("visible", "pre-discovered")
    assert fate(r, "list_channels") == ("deferred", "tool-search-mode-deferred")


def test_special_category_tools_are_always_available_and_bypass_the_filters(resolved):
    r = resolved(MODE + "builtins: [final_answer, ask_human]\n"
                 "filters: {servers: {allow: [weather]}, builtins: {deny: [ask_human]}}")
    for name in ("page_oncall", "submit_report", "final_answer", "ask_human"):
        assert fate(r, name) == ("visible", "special-category")
    assert fate(r, "send_message") == ("excluded", "not-selected")


def test_special_category_built_ins_must_still_be_enabled(resolved):
    assert fate(resolved(MODE), "final_answer") == ("excluded", "builtin-not-enabled")


def test_outside_tool_search_mode_special_categories_are_ordinary_tools(resolved):
    r = resolved("filters: {servers: {allow: [weather]}}")
    assert fate(r, "page_oncall") == ("excluded", "not-selected")


def test_a_pre_discovered_tool_that_the_filters_exclude_stays_excluded(resolved):
    r = resolved("tool_search_mode: {enabled: true, pre_discovered: [send_message]}\n"
                 "filters: {servers: {allow: [weather]}}")
    assert fate(r, "send_message") == ("excluded", "not-selected")
    pins = r.trace.find("send_message")
    assert any("pre-discovered, but" in node.reason for node in pins)


WEATHER = {"get_weather", "weather_forecast", "get_air_quality"}
SLACK = {"send_message", "search_messages", "list_channels"}
GITHUB = {"create_issue", "list_issues", "delete_repository"}
WORKSPACE = {"read_workspace_file", "write_workspace_file"}


@pytest.mark.parametrize(("filters", "discoverable", "rule"), [
    pytest.param("{}", WEATHER | SLACK | GITHUB | WORKSPACE, "no-filter", id="no filtering"),
    pytest.param("{servers: {allow: [github, slack]}}", SLACK | GITHUB, "server-selected",
                 id="selectedServers only"),
    pytest.param("{tools: {allow: ['workspace:read_workspace_file']}}",
                 {"read_workspace_file"}, "tool-selected", id="selectedTools only"),
    pytest.param("{servers: {allow: [github, slack]}, "
                 "tools: {allow: ['workspace:read_workspace_file']}}",
                 SLACK | GITHUB | {"read_workspace_file"}, None, id="both: either matches"),
    pytest.param("{tools: {allow: ['weather:*']}}", WEATHER, "tool-selected",
                 id="server:* pattern"),
])
def test_the_filtering_table(resolved, filters, discoverable, rule):
    r = resolved(MODE + f"allow_unsafe: true\nfilters: {filters}")  # delete_repository
    deferred = {v.name for v in r.verdicts if v.status == "deferred"}
    assert deferred == discoverable
    everything = WEATHER | SLACK | GITHUB | WORKSPACE
    for name in everything - discoverable:
        assert fate(r, name) == ("excluded", "not-selected")
    if rule:
        assert {r.verdict(n).status for n in discoverable} == {"deferred"}
        assert {node.rule for n in discoverable for node in r.trace.find(n)
                if node.outcome == "eligible"} <= {rule}
    assert r.names("visible")[-2:] == SPECIAL  # special categories always available


def test_both_filters_say_which_list_selected_each_tool(resolved):
    r = resolved(MODE + "filters: {servers: {allow: [slack]}, "
                 "tools: {allow: ['workspace:read_workspace_file']}}")
    rules = {node.subject: node.rule for node in r.trace.walk() if node.outcome == "eligible"}
    assert rules["send_message"] == "server-selected"
    assert rules["read_workspace_file"] == "tool-selected"
    assert "write_workspace_file" not in rules


def test_categories_are_the_servers_of_discoverable_tools_with_their_descriptions(resolved):
    r = resolved(MODE + "filters: {servers: {allow: [github, slack]}}")
    assert [(c.name, c.description) for c in r.categories] == [
        ("slack", "Team messaging"), ("github", "Repository management")]
