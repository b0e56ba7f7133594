"""The gateway's strategies, the keep-count formula, the relevance weights, the
forced enable_search_fallback and the phantom search tool."""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.resolution.conftest import fate
from toolcat.resolution.profile import Gateway

# the agent sends every catalog tool (13: 14 minus the disabled legacy server) and no built-in
AGENT = "builtins: []\nmcp: {defer: false, max_in_prompt: all}\nallow_unsafe: true\n"
TOTAL = 13


def gateway(text: str) -> str:
    return AGENT + "gateway:\n" + "\n".join("  " + line for line in dedent(text).splitlines())


@pytest.mark.parametrize(("total", "ratio", "low", "high", "keep"), [
    (100, 0.8, 5, 25, 25),   # int(80) capped by max_tools
    (20, 0.5, 5, 25, 10),    # the ratio decides
    (10, 0.2, 5, 25, 5),     # raised to min_tools
    (13, 0.8, 5, 25, 10),    # int(10.4) = 10
    (7, 0.99, 1, 3, 3),
])
def test_the_keep_count_formula(total, ratio, low, high, keep):
    settings = Gateway(strategy="relevance", target_ratio=ratio, min_tools=low, max_tools=high)
    assert settings.keep_count(total) == keep


def test_relevance_keeps_the_keep_count_and_drops_the_rest(resolved):
    r = resolved(gateway("{strategy: relevance, target_ratio: 0.5, min_tools: 2}"))
    assert r.gateway is not None
    assert (r.gateway.total, r.gateway.keep, r.gateway.kept) == (TOTAL, 6, 6)
    assert len(r.visible) == 6
    assert {r.verdict(n).rule for n in r.names("visible")} == {"gateway-kept"}
    dropped = [v for v in r.verdicts if v.rule == "gateway-dropped"]
    assert len(dropped) == TOTAL - 6 and {v.status for v in dropped} == {"excluded"}
    keep = r.trace.find("keep count")[0]
    assert (keep.outcome, keep.rule) == ("6", "gateway-keep-count")
    assert keep.reason.startswith("int(13 x 0.5) = 6")


def test_relevance_skips_filtering_when_total_is_at_most_min_tools(resolved):
    r = resolved(gateway("{strategy: relevance, min_tools: 13}"))
    assert len(r.visible) == TOTAL and r.gateway.kept == TOTAL
    assert r.trace.find("gateway: relevance")[0].rule == "gateway-skip-min-tools"
    assert fate(r, "send_message") == ("visible", "normal-mode")


def test_relevance_skips_filtering_when_the_keep_count_covers_every_tool(resolved):
    r = resolved(gateway("{strategy: relevance, target_ratio: 1.0}"))
    assert len(r.visible) == TOTAL
    assert r.trace.find("gateway: relevance")[0].rule == "gateway-skip-keep-all"


def test_relevance_weights_always_keep_the_name_and_shared_tokens(resolved):
    r = resolved(gateway("""
        strategy: relevance
        target_ratio: 0.25
        min_tools: 1
        always_keep: [delete_repository]
        """), query="send_message about the weather forecast")
    # delete_repository 100 (always_keep); send_message 50 (name) + 20 (send, message);
    # weather_forecast 20 (weather, forecast); get_weather 10 (weather)
    assert r.names("visible") == ["weather_forecast", "send_message", "delete_repository"]
    assert r.verdict("delete_repository").reason == "rank 1 of 13, 100 points: always kept +100"
    assert r.verdict("send_message").reason == \
        "rank 2 of 13, 70 points: named in the query +50, query tokens +20"
    assert fate(r, "get_weather") == ("excluded", "gateway-dropped")
    assert r.verdict("get_weather").reason == "rank 4 of 13, 10 points: query tokens +10"


def test_relevance_force_keeps_always_keep_tools_past_the_keep_count(resolved):
    r = resolved(gateway("""
        strategy: relevance
        target_ratio: 0.1
        min_tools: 1
        always_keep: [list_issues, list_channels, create_issue]
        """), query="weather")
    assert r.gateway.keep == 1
    assert set(r.names("visible")) == {"list_issues", "list_channels", "create_issue"}
    assert [r.verdict(n).rule for n in ("list_channels", "list_issues", "create_issue")] == [
        "gateway-kept", "gateway-force-kept", "gateway-force-kept"]


def test_enable_search_fallback_is_forced_false_for_relevance(resolved):
    r = resolved(gateway("{strategy: relevance, enable_search_fallback: true, min_tools: 1, "
                         "target_ratio: 0.5}"))
    assert r.gateway.search_fallback is False and r.gateway.search_tool is None
    assert "gateway_search_tools" not in r.names("visible")
    flag = r.trace.find("enable_search_fallback")[0]
    assert (flag.outcome, flag.rule) == ("false", "gateway-search-fallback")
    assert flag.reason == "forced false for relevance (the profile asked for true)"
    assert r.deferred == ()


@pytest.mark.parametrize("strategy", ["tool-search", "api"])
def test_enable_search_fallback_is_forced_true_for_tool_search_and_api(resolved, strategy):
    r = resolved(gateway(f"{{strategy: {strategy}, enable_search_fallback: false}}"))
    assert r.gateway.search_fallback is True
    assert r.names("visible") == ["gateway_search_tools"]
    assert fate(r, "gateway_search_tools") == ("visible", "gateway-phantom")
    flag = r.trace.find("enable_search_fallback")[0]
    assert flag.reason == f"forced true for {strategy} (the profile asked for false)"


def test_tool_search_defers_every_tool_behind_the_phantom_tool(resolved):
    r = resolved(gateway("{strategy: tool-search, search_tool_name: find_tools, "
                         "max_search_results: 3}"))
    assert r.names("visible") == ["find_tools"]
    assert len(r.deferred) == TOTAL
    assert {(v.rule, v.via) for v in r.verdicts if v.status == "deferred"} == {
        ("gateway-deferred", "find_tools")}
    phantom = r.visible[0]
    assert phantom.parameters["required"] == ["query"]
    assert "at most 3 tools" in phantom.description
    assert r.tokens.visible < r.tokens.all


def test_the_gateway_sees_built_ins_and_keeps_deferred_tools_reachable(resolved):
    r = resolved("model: {size_b: 70}\ngateway: {strategy: tool-search}")
    # the agent showed tool_search and two weather tools; the gateway defers all three
    assert r.names("visible") == ["gateway_search_tools"]
    assert fate(r, "tool_search") == ("deferred", "gateway-deferred")
    # tools the agent deferred stay discoverable through tool_search, itself behind the phantom
    assert fate(r, "send_message") == ("deferred", "auto-search-no-match")


def test_a_relevance_gateway_that_drops_tool_search_makes_deferred_tools_unreachable(resolved):
    r = resolved("model: {size_b: 70}\ngateway: {strategy: relevance, min_tools: 1, "
                 "target_ratio: 0.5}")
    assert r.names("visible") == ["get_weather"]
    assert fate(r, "tool_search") == ("excluded", "gateway-dropped")
    assert fate(r, "send_message") == ("excluded", "undiscoverable")


def test_passthrough_and_a_disabled_gateway_change_nothing(resolved):
    plain = resolved(AGENT)
    passthrough = resolved(gateway("{strategy: passthrough}"))
    disabled = resolved(gateway("{strategy: tool-search, enabled: false}"))
    assert plain.names("visible") == passthrough.names("visible") == disabled.names("visible")
    assert passthrough.trace.find("gateway: passthrough")[0].rule == "gateway-passthrough"
    assert disabled.trace.find("gateway")[0].rule == "gateway-disabled"
    assert disabled.gateway is None and passthrough.gateway.strategy == "passthrough"


def test_relevance_with_a_scorer_stops_where_the_fit_ends():
    """With a toolcat scorer as evidence (the running gateway's), a tool within the keep
    count whose fit is far under the best one's is left out, as pick and resolve cut; a tool
    the session or the query names is kept whatever its fit."""
    from tests.conftest import CATALOGS
    from toolcat.catalog.load import load_catalog
    from toolcat.resolution.gateway import run_gateway
    from toolcat.search import build_scorer

    tools = [t for t in load_catalog(CATALOGS).tools
             if t.server in ("weather", "slack", "email")]
    settings = Gateway(strategy="relevance", target_ratio=0.5, min_tools=1, max_tools=10)
    query = "send an email to Bob"
    result = run_gateway(settings, tools, {}, query, evidence=build_scorer("bm25", tools))
    assert result.outcome.keep == 10
    past = [name for name, (status, rule, _) in result.fates.items()
            if rule == "gateway-past-fit"]
    assert past and all(result.fates[n][0] == "excluded" for n in past)
    shown = [t.name for t in result.visible]
    assert shown[0] == "send_email" and len(shown) == 10 - len(past)
    assert result.outcome.kept == len(shown)
    ranks = {name: int(reason.split()[1]) for name, (_, _, reason) in result.fates.items()}
    assert max(ranks[t.qualified_name] for t in result.visible) < min(ranks[n] for n in past)
    # without a scorer (the seed's shared words, as resolve replays it) the keep count rules
    seed = run_gateway(settings, tools, {}, query)
    assert len(seed.visible) == 10
    # named in the session: kept whatever its fit
    used = run_gateway(settings, tools, {}, query, recently_used=["slack:delete_message"],
                       evidence=build_scorer("bm25", tools))
    assert "delete_message" in [t.name for t in used.visible]
