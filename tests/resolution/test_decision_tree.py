"""The decision tree for built-ins and catalog (MCP) tools, deferral and the
automatic search, the cap by model size, and format selection with fallback."""

from __future__ import annotations

import pytest

from tests.resolution.conftest import fate
from toolcat.errors import ConfigError

LARGE = "model: {size_b: 70}\n"


# ---- built-ins --------------------------------------------------------------------------------


def test_a_builtin_not_in_builtins_is_excluded(resolved):
    r = resolved("builtins: [tool_search]")
    assert fate(r, "python_execution") == ("excluded", "builtin-not-enabled")
    assert fate(r, "final_answer") == ("excluded", "builtin-not-enabled")


@pytest.mark.parametrize("rule", ["{deny: [final_answer]}", "{allow: [tool_search]}"])
def test_a_builtin_refused_by_the_builtin_filter_is_excluded(resolved, rule):
    r = resolved(f"builtins: [tool_search, final_answer]\nfilters: {{builtins: {rule}}}")
    assert fate(r, "final_answer") == ("excluded", "builtin-filtered")
    assert fate(r, "tool_search") == ("visible", "builtin-enabled")


def test_python_execution_needs_the_code_format(resolved):
    without = resolved("builtins: [python_execution]\nformats: {enabled: [native, hermes]}")
    assert fate(without, "python_execution") == ("excluded", "builtin-needs-code-format")
    with_code = resolved("builtins: [python_execution]\nformats: {enabled: [native, code]}")
    assert fate(with_code, "python_execution") == ("visible", "builtin-enabled")


def test_tool_search_is_shown_only_while_catalog_tools_are_deferred(resolved):
    assert fate(resolved(LARGE), "tool_search") == ("visible", "builtin-enabled")
    nothing_left = resolved('filters: {tools: {deny: ["*:*"]}}')
    assert fate(nothing_left, "tool_search") == ("excluded", "builtin-no-deferred-tools")
    all_shown = resolved("mcp: {defer: false, max_in_prompt: all}")
    assert fate(all_shown, "tool_search") == ("excluded", "builtin-no-deferred-tools")


def test_search_schemas_and_execute_sql_need_an_enabled_database_source(resolved):
    builtins = "builtins: [search_schemas, execute_sql]\n"
    off = resolved(builtins + "database_sources: [{name: warehouse, enabled: false}]")
    assert fate(off, "search_schemas") == ("excluded", "builtin-no-database")
    assert fate(off, "execute_sql") == ("excluded", "builtin-no-database")
    on = resolved(builtins + "database_sources: [warehouse]")
    assert fate(on, "search_schemas") == ("visible", "builtin-enabled")
    assert fate(on, "execute_sql") == ("visible", "builtin-enabled")


# ---- catalog tools: which may be used at all ----------------------------------------------------


def test_a_tool_on_a_server_disabled_in_the_catalog_is_excluded(resolved):
    r = resolved(LARGE)
    assert fate(r, "old_search") == ("excluded", "server-disabled")
    assert "disabled by the catalog" in r.verdict("old_search").reason


def test_the_profile_enables_and_disables_servers(resolved):
    r = resolved(LARGE + "servers: {slack: {enabled: false}, legacy: {enabled: true}}")
    assert fate(r, "send_message") == ("excluded", "server-disabled")
    assert "disabled by the profile" in r.verdict("send_message").reason
    assert r.verdict("old_search").status == "deferred"


def test_server_and_tool_deny_lists_exclude_tools(resolved):
    r = resolved(LARGE + 'filters: {servers: {deny: [slack]}, tools: {deny: ["github:delete_*"]}}')
    assert fate(r, "send_message") == ("excluded", "server-denied")
    assert fate(r, "delete_repository") == ("excluded", "tool-denied")
    assert r.verdict("create_issue").status == "deferred"


# ---- deferral, the automatic search, the cap ----------------------------------------------------


def test_the_automatic_search_runs_when_a_filter_keeps_tool_search_from_the_model(resolved):
    r = resolved(LARGE + "filters: {builtins: {deny: [tool_search]}}", query="weather in Tokyo")
    assert r.names("visible") == ["get_weather", "weather_forecast"]
    assert fate(r, "tool_search") == ("excluded", "builtin-filtered")
    assert fate(r, "get_weather") == ("visible", "auto-search-match")
    assert fate(r, "create_issue") == ("excluded", "undiscoverable")
    [search] = [d for d in r.trace.walk() if d.subject == "automatic search"]
    assert "tool_search itself is kept from the model" in search.reason


def test_catalog_tools_are_deferred_and_the_automatic_search_materializes_relevant_ones(resolved):
    r = resolved(LARGE, query="weather in Tokyo")
    assert r.names("visible") == ["tool_search", "get_weather", "weather_forecast"]
    assert fate(r, "get_weather") == ("visible", "auto-search-match")
    assert fate(r, "send_message") == ("deferred", "auto-search-no-match")
    assert r.verdict("send_message").via == "tool_search"
    assert r.builtins == (r.visible[0],) and r.catalog_tools == r.visible[1:]


def test_visible_catalog_tools_are_ordered_by_relevance(resolved):
    r = resolved(LARGE, query="weather forecast for Tokyo")
    assert r.names("visible")[1:] == ["weather_forecast", "get_weather"]
    scores = [r.verdict(n).score for n in r.names("visible")[1:]]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]


def test_the_automatic_search_stops_where_the_fit_ends(resolved):
    # get_weather matches half the request, weather_forecast all of it: far under its fit
    r = resolved(LARGE, query="weather forecast")
    assert r.names("visible")[1:] == ["weather_forecast"]
    assert fate(r, "get_weather") == ("deferred", "past-fit")
    assert "where the fit ends" in r.verdict("get_weather").reason


@pytest.mark.parametrize(("size", "size_class", "cap"), [
    ("3", "small", 2), ("6.9", "small", 2), ("7", "medium", 5), ("30", "medium", 5),
    ("30.5", "large", 10), ("null", "unknown", 2)])
def test_the_cap_follows_the_model_size(resolved, size, size_class, cap):
    r = resolved(f"model: {{size_b: {size}}}")
    assert (r.cap.limit, r.cap.size_class) == (cap, size_class)


def test_relevant_tools_beyond_the_cap_stay_deferred(resolved):
    r = resolved("model: {size_b: 3}", query="weather forecast air quality")
    assert r.names("visible") == ["tool_search", "weather_forecast", "get_air_quality"]
    assert fate(r, "get_weather") == ("deferred", "over-cap")
    assert "rank 3" in r.verdict("get_weather").reason
    assert "the cap is 2" in r.verdict("get_weather").reason


def test_the_profile_sets_or_lifts_the_cap(resolved):
    assert resolved("mcp: {caps: {small: 1}}\nmodel: {size_b: 1}").cap.limit == 1
    one = resolved("mcp: {max_in_prompt: 1}\nmodel: {size_b: 70}")
    assert (one.cap.limit, one.cap.rule) == (1, "cap-profile")
    assert one.names("visible") == ["tool_search", "get_weather"]
    unlimited = resolved("mcp: {max_in_prompt: all}")
    assert (unlimited.cap.limit, unlimited.cap.rule) == (None, "cap-none")


def test_min_score_keeps_weak_matches_deferred(resolved):
    r = resolved(LARGE + "mcp: {min_score: 0.6}", query="weather forecast")
    assert r.names("visible") == ["tool_search", "weather_forecast"]
    assert fate(r, "get_weather") == ("deferred", "below-min-score")
    assert "under mcp.min_score 0.6" in r.verdict("get_weather").reason
    assert fate(r, "send_message") == ("deferred", "auto-search-no-match")


def test_without_the_automatic_search_catalog_tools_stay_deferred(resolved):
    r = resolved(LARGE + "mcp: {auto_search: false}")
    assert r.names("visible") == ["tool_search"]
    assert fate(r, "get_weather") == ("deferred", "auto-search-off")


def test_without_a_search_tool_deferred_tools_can_never_be_shown(resolved):
    r = resolved(LARGE + "builtins: [final_answer]")
    assert r.names("visible") == ["final_answer"]
    assert fate(r, "get_weather") == ("excluded", "undiscoverable")
    assert r.deferred == ()


def test_normal_mode_shows_every_catalog_tool_whatever_the_model_size(resolved, catalog):
    r = resolved("model: {size_b: 3}\nmcp: {defer: false}", query="weather forecast")
    assert (r.cap.limit, r.cap.rule) == (None, "cap-normal-mode")
    assert r.names("visible")[:2] == ["weather_forecast", "get_weather"]
    assert fate(r, "send_message") == ("visible", "normal-mode")
    assert fate(r, "tool_search") == ("excluded", "builtin-no-deferred-tools")
    # every eligible tool: not the disabled legacy server, not the unsafe delete_repository
    assert len(r.visible) == len(catalog.tools) - 2


def test_max_in_prompt_caps_normal_mode_and_the_cut_is_its_own_rule(resolved):
    r = resolved("model: {size_b: 3}\nmcp: {defer: false, max_in_prompt: 2}",
                 query="weather forecast")
    assert r.names("visible") == ["tool_search", "weather_forecast", "get_weather"]
    assert fate(r, "send_message") == ("deferred", "over-cap")
    no_search = resolved("mcp: {defer: false, max_in_prompt: 2}\nbuiltins: []",
                         query="weather forecast")
    assert fate(no_search, "send_message") == ("excluded", "over-cap")
    assert "the cap is 2" in no_search.verdict("send_message").reason
    assert not [v for v in no_search.verdicts if v.rule == "undiscoverable"]


def test_every_tool_has_exactly_one_verdict_and_one_list(resolved, catalog):
    r = resolved(LARGE)
    names = [v.name for v in r.verdicts]
    assert len(names) == len(set(names)) == 12 + len(catalog.tools)
    listed = [*r.visible, *r.deferred, *r.excluded]
    assert len(listed) == len(r.verdicts)


# ---- format selection ---------------------------------------------------------------------------


def test_the_primary_format_is_used_when_it_is_available(resolved):
    r = resolved("formats: {primary: hermes}")
    assert (r.format.name, r.format.fallback) == ("hermes", False)
    assert r.trace.find("format")[0].rule == "format-primary"


def test_native_falls_back_to_the_first_available_format_without_native_tool_calling(resolved):
    r = resolved("model: {tool_calling: false}\nformats: {primary: native, "
                 "enabled: [native, code, pythonic, json]}")
    assert (r.format.name, r.format.fallback) == ("pythonic", True)
    assert r.format.unavailable == {"native": "the model has no native tool calling",
                                    "code": "python_execution is not an enabled, allowed "
                                    "built-in"}
    assert "native is unavailable" in r.format.reason
    assert r.trace.find("format")[0].rule == "format-fallback"


def test_code_mode_needs_python_execution(resolved):
    assert resolved("formats: {primary: code}").format.name == "native"
    r = resolved("formats: {primary: code}\nbuiltins: [python_execution, tool_search]")
    assert (r.format.name, r.format.fallback) == ("code", False)


def test_a_primary_format_that_is_not_enabled_falls_back(resolved):
    r = resolved("formats: {primary: json, enabled: [mistral, hermes]}")
    assert (r.format.name, r.format.fallback) == ("mistral", True)


def test_a_profile_without_any_available_format_is_refused(profile):
    with pytest.raises(ConfigError, match="no enabled format is available") as caught:
        profile("model: {tool_calling: false}\nformats:\n  enabled: [native]\n")
    assert (caught.value.where.line, caught.value.where.column) == (3, 12)
