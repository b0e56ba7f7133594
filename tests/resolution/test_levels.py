"""Core tools, capability tags with skill-group expansion, the allowed_tools
whitelist (allowed_tools ∩ (core ∪ matched)) and simple-task pruning."""

from __future__ import annotations

from textwrap import dedent

from tests.resolution.conftest import fate

SHOW_ALL = "mcp: {defer: false, max_in_prompt: all}\nbuiltins: []\n"


def catalog_visible(r):
    return set(r.names("visible"))


def test_core_tools_are_always_included(resolved):
    r = resolved(SHOW_ALL + "levels: {}")
    assert catalog_visible(r) == {"get_weather", "search_messages"}
    assert fate(r, "get_weather") == ("visible", "level-core")
    assert fate(r, "send_message") == ("excluded", "level-no-capability")


def test_capability_tags_select_tools_after_skill_group_expansion(resolved):
    r = resolved(SHOW_ALL + dedent("""
        levels:
          required_capabilities: [forecast]
          skill_groups: {team: [messaging, issues], files: [files]}
          relevant_skill_groups: [team]
        """))
    assert catalog_visible(r) == {"get_weather", "search_messages", "weather_forecast",
                                  "send_message", "list_channels", "create_issue",
                                  "list_issues"}
    assert fate(r, "create_issue") == ("visible", "normal-mode")
    assert any(n.rule == "level-capability" and n.outcome == "selected"
               for n in r.trace.find("create_issue"))
    assert fate(r, "read_workspace_file") == ("excluded", "level-no-capability")
    expansion = r.trace.find("capabilities")[0]
    assert expansion.outcome == "forecast, messaging, issues"
    assert "skill group team -> messaging, issues" in expansion.reason


def test_the_whitelist_intersects_core_and_matched_tools(resolved):
    r = resolved(SHOW_ALL + dedent("""
        levels:
          required_capabilities: [messaging]
          allowed_tools: [get_weather, send_message, create_issue]
        """))
    # core ∩ whitelist and matched ∩ whitelist survive
    assert catalog_visible(r) == {"get_weather", "send_message"}
    # a core tool outside the whitelist is dropped
    assert fate(r, "search_messages") == ("excluded", "level-whitelist")
    # a matched tool outside the whitelist is dropped
    assert fate(r, "list_channels") == ("excluded", "level-whitelist")
    # the whitelist never adds a tool that neither level selected
    assert fate(r, "create_issue") == ("excluded", "level-no-capability")


def test_a_simple_task_keeps_only_the_simple_task_tools(resolved):
    r = resolved(SHOW_ALL + dedent("""
        levels:
          required_capabilities: [messaging, weather]
          complexity: simple
          simple_task_tools: [search_messages, send_message]
        """))
    assert catalog_visible(r) == {"search_messages", "send_message"}
    assert fate(r, "get_weather") == ("excluded", "simple-task-pruned")
    assert fate(r, "list_channels") == ("excluded", "simple-task-pruned")


def test_a_simple_task_without_a_list_keeps_the_core_tools(resolved):
    r = resolved(SHOW_ALL + "levels: {required_capabilities: [messaging], complexity: simple}")
    assert catalog_visible(r) == {"get_weather", "search_messages"}
    assert "core tools" in r.verdict("send_message").reason


def test_the_profile_overrides_which_tools_are_core(resolved):
    r = resolved(SHOW_ALL + "levels: {core_tools: [list_issues]}")
    assert catalog_visible(r) == {"list_issues"}
    assert fate(r, "get_weather") == ("excluded", "level-no-capability")


def test_core_tools_are_shown_even_when_catalog_tools_are_deferred(resolved):
    r = resolved("builtins: [tool_search]\nmodel: {size_b: 70}\nlevels: "
                 "{required_capabilities: [issues]}", query="open an issue")
    assert fate(r, "search_messages") == ("visible", "level-core")
    assert fate(r, "create_issue") == ("visible", "auto-search-match")
    assert fate(r, "list_issues") == ("deferred", "auto-search-no-match")
