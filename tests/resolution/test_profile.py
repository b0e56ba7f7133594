"""Profiles: the bundled ones load, defaults are the documented ones, and every problem is an
error at file:line:column, including catalog names checked when the profile meets a catalog."""

from __future__ import annotations

import json

import pytest

from toolcat.errors import ConfigError
from toolcat.resolution import DEFAULT_PROFILE, Resolver, load_profile
from toolcat.resolution.profile_reader import bundled_profiles

SHIPPED = ["capability-levels", "gateway-api", "gateway-relevance", "gateway-tool-search",
           "large-model-native", "native-search", "small-model", "tool-search"]


def test_the_bundled_profiles_load_by_name():
    assert sorted(bundled_profiles()) == SHIPPED
    small = load_profile("small-model")
    assert (small.model.size_b, small.model.tool_calling) == (3.0, False)
    assert small.source.endswith("small-model.yaml")


def test_an_empty_mapping_gives_seed_000s_defaults(profile):
    p = profile("{}")
    assert p.builtins == ("tool_search",)
    assert (p.formats.primary, p.formats.enabled[0]) == ("native", "native")
    assert (p.mcp.defer, p.mcp.auto_search, p.mcp.caps.small, p.mcp.caps.medium,
            p.mcp.caps.large) == (True, True, 2, 5, 10)
    assert p.gateway is None and p.levels is None and not p.tool_search_mode.enabled
    assert p.name == "profile"


def test_tool_search_mode_brings_no_seed_000_builtin_by_default(profile):
    assert profile("tool_search_mode: {enabled: true}").builtins == ()


def test_the_default_profile_is_a_large_model_with_native_tool_calling():
    assert DEFAULT_PROFILE.model.tool_calling
    assert DEFAULT_PROFILE.model.size_class == "large"
    assert DEFAULT_PROFILE.formats.primary == "native"


def test_gateway_settings_and_their_defaults(profile):
    g = profile("gateway:\n  strategy: api\n  api: {endpoint: 'http://127.0.0.1:9/x', "
                "timeout: 500ms}\n").gateway
    assert (g.min_tools, g.max_tools, g.target_ratio, g.search_tool_name,
            g.max_search_results) == (5, 25, 0.8, "gateway_search_tools", 5)
    assert g.api.timeout == 0.5


def test_a_json_profile_works_too(write):
    path = write(json.dumps({"model": {"size_b": 14}, "scorer": "keyword"}), "p.json")
    assert load_profile(path).model.size_class == "medium"


@pytest.mark.parametrize(("text", "position", "message"), [
    ("name: x\ngatway: {strategy: relevance}\n", (2, 1), "unknown setting 'gatway'"),
    ("model:\n  size: 3\n", (2, 3), "unknown setting 'size' in 'model'"),
    ("model: {size_b: -3}\n", (1, 17), "'model.size_b' must be > 0"),
    ("model: {tool_calling: maybe}\n", (1, 23), "'model.tool_calling' must be true or false"),
    ("builtins: [tool_search, tool_serch]\n", (1, 25), "unknown built-in 'tool_serch'"),
    ("formats: {primary: xml}\n", (1, 20), "'formats.primary' must be one of"),
    ("gateway: {min_tools: 5}\n", (1, 10), "'gateway.strategy' is required"),
    ("gateway:\n  strategy: relevant\n", (2, 13), "must be one of passthrough, relevance"),
    ("gateway: {strategy: api, api: {timeout: soon}}\n", (1, 41), "must be a duration"),
    ("gateway: {strategy: api, api: {endpoint: ftp://x}}\n", (1, 42), "http:// or https://"),
    ("gateway: {strategy: relevance, target_ratio: 1.5}\n", (1, 46), "must be > 0 and <= 1"),
    ("gateway: {strategy: tool-search, search_tool_name: 'find tools'}\n", (1, 52),
     "must be 1-64 letters"),
    ("levels: {relevant_skill_groups: [analysis]}\n", (1, 34), "unknown skill group"),
    ("levels: {complexity: trivial}\n", (1, 22), "must be one of simple, medium, complex"),
    ("mcp: {max_in_prompt: lots}\n", (1, 22), "whole number or \"all\""),
    ("mcp: {caps: {huge: 50}}\n", (1, 14), "unknown setting 'huge' in 'mcp.caps'"),
    ("scorer: bm99\n", (1, 9), "'scorer' must be one of"),
    ("filters: {tools: {allow: get_weather}}\n", (1, 26), "must be a list of names"),
    ("database_sources: [{enabled: true}]\n", (1, 20), "a database source needs a name"),
    ("- just a list\n", (1, 1), "'profile' must be a mapping"),
    ("provider_search: {mode: nativ}\n", (1, 25),
     "'provider_search.mode' must be one of auto, native, local, native-or-local"),
    ("provider_search:\n  anthropic: semantic\n", (2, 14),
     "'provider_search.anthropic' must be one of bm25, regex"),
    ("provider_search: {openai: server}\n", (1, 27),
     "'provider_search.openai' must be one of hosted, client"),
    ("provider_search: {namespaces: yes please}\n", (1, 31),
     "'provider_search.namespaces' must be true or false"),
    ("provider_search: {discovery: append}\n", (1, 30),
     "'provider_search.discovery' must be one of keep-cache, rewrite"),
    ("provider_search: {variant: regex}\n", (1, 19),
     "unknown setting 'variant' in 'provider_search'"),
    ("provider_search: native\n", (1, 18), "'provider_search' must be a mapping"),
])
def test_an_invalid_profile_is_an_error_at_file_line_column(write, text, position, message):
    path = write(text)
    with pytest.raises(ConfigError, match=message) as caught:
        load_profile(path)
    where = caught.value.where
    assert (where.file, where.line, where.column) == (str(path), *position)


@pytest.mark.slow  # loads the embedding model (the default scorer)
@pytest.mark.parametrize(("text", "position", "message"), [
    ("filters:\n  tools:\n    allow: [get_wether]\n", (3, 13),
     "no tool 'get_wether' in the catalog"),
    ("filters: {servers: {deny: [slak]}}\n", (1, 28), "no server 'slak' in the catalog"),
    ("servers:\n  slak: {enabled: false}\n", (2, 3), "no server 'slak'"),
    ("tool_search_mode: {pre_discovered: ['nope:*']}\n", (1, 37), "no server 'nope'"),
    ("filters: {tools: {deny: ['nope*:drop_*']}}\n", (1, 26), "no server 'nope*'"),
    ("levels: {allowed_tools: [send_mesage]}\n", (1, 26), "no tool 'send_mesage'"),
    ("gateway: {strategy: relevance, always_keep: [reed_file]}\n", (1, 46), "no tool"),
])
def test_names_the_catalog_lacks_are_warnings_at_file_line_column(
        catalog, write, text, position, message):
    path = write(text)
    resolver = Resolver(catalog, load_profile(path))
    [warning] = resolver.warnings
    assert message in warning.message and "matches nothing here" in warning.message
    assert (warning.where.file, warning.where.line, warning.where.column) == (str(path),
                                                                              *position)
    [node] = [d for d in resolver.resolve("x").trace.children if d.rule == "profile-warning"]
    assert node.reason == warning.message


def test_max_tools_below_min_tools_keeps_min_tools_with_a_warning(catalog, write):
    path = write("gateway: {strategy: relevance, min_tools: 9, max_tools: 3}\n")
    resolver = Resolver(catalog, load_profile(path))
    [warning] = resolver.warnings
    assert (warning.where.line, warning.where.column) == (1, 57)
    assert "is below 'gateway.min_tools' (9); the gateway keeps 9 tools" in warning.message
    assert load_profile(path).gateway.keep_count(100) == 9


def test_a_wildcard_pattern_may_match_no_tool(catalog, profile):
    Resolver(catalog, profile("filters: {tools: {deny: ['*:drop_*', 'github:nuke_*']}}"))


def test_unknown_names_get_a_suggestion(catalog, profile):
    [warning] = Resolver(catalog, profile("filters: {tools: {allow: [get_wether]}}")).warnings
    assert "; did you mean get_weather" in warning.message


def test_always_keep_may_name_built_ins_and_the_phantom_tool(catalog, profile):
    assert Resolver(catalog, profile("gateway: {strategy: relevance, always_keep: "
                                     "[tool_search, gateway_search_tools]}")).warnings == ()


def test_scorer_options_the_scorer_does_not_take_are_an_error(catalog, profile):
    with pytest.raises(ConfigError, match="the keyword scorer takes no option k1") as caught:
        Resolver(catalog, profile("scorer: keyword\nscorer_options: {k1: 1.2}")).resolve("x")
    assert (caught.value.where.line, caught.value.where.column) == (2, 17)


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_without_a_scorer_the_profile_uses_toolcats_default(catalog, write):
    from toolcat.search import default_scorer

    resolver = Resolver(catalog, load_profile(write("{}")))
    assert resolver.scorer_name == default_scorer()[0]
    node = resolver.resolve("x").trace.find("scorer")[0]
    assert (node.outcome, node.rule) == (default_scorer()[0], "scorer")
