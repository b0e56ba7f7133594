"""Seed 004's gateway: tool discovery applied to the request the agent would send.

The gateway sits between the agent and the model provider and only sees the request's `tools[]`
(built-ins and catalog tools alike). Strategies:

- passthrough: the request is unchanged.
- relevance: score every tool (expanded +1000, always_keep +100, recently used +100, exact
  name in the query +50, +10 per query token it shares), keep the best `keep` tools where
  keep = max(min(int(total * target_ratio), max_tools), min_tools), force-keep always_keep and
  expanded tools; skipped when total <= min_tools or keep >= total. No search tool.
- tool-search and api: defer every tool and show only the phantom search tool (plus the tools
  earlier searches reinjected); the phantom loop resolves searches (see toolcat.resolve.session).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toolcat.model import Tool
from toolcat.resolve.model import Decision, GatewayOutcome
from toolcat.resolve.profile import Gateway
from toolcat.search.text import terms

WEIGHT_EXPANDED = 1000
WEIGHT_ALWAYS_KEEP = 100
WEIGHT_RECENTLY_USED = 100
WEIGHT_NAME_IN_QUERY = 50
WEIGHT_TOKEN = 10
SHORT_WORD = 3  # tokens shorter than this are ignored by the overlap score


def phantom_tool(gateway: Gateway) -> Tool:
    """The search tool the gateway injects and consumes (never reaches the client)."""
    limit = gateway.max_search_results
    return Tool(
        name=gateway.search_tool_name,
        description=(
            "Search the tools that are not loaded yet and load the matches, so they can be "
            "called on the next turn. The query is a regular expression, matched without "
            "regard to case against tool names, descriptions and parameters; at most "
            f"{limit} tools are returned."),
        parameters={
            "type": "object",
            "properties": {"query": {
                "type": "string",
                "description": "Regular expression or keywords for the tool you need, e.g. "
                "\"weather|forecast\"."}},
            "required": ["query"],
        },
        server="gateway",
        source="virtual",
        category="discovery",
        level=1,
    )


def _tokens(text: str) -> set[str]:
    return {w for w in terms(text) if len(w) >= SHORT_WORD}


def relevance_points(tool: Tool, query: str, *, always_keep: Sequence[str],
                     expanded: Sequence[str], recently_used: Sequence[str]
                     ) -> tuple[int, list[str]]:
    """Seed 004's score of one tool for `query`, with the parts that make it up."""
    points, parts = 0, []
    key = tool.qualified_name
    if key in expanded:
        points += WEIGHT_EXPANDED
        parts.append(f"expanded by an earlier search +{WEIGHT_EXPANDED}")
    if tool.name in always_keep or key in always_keep:
        points += WEIGHT_ALWAYS_KEEP
        parts.append(f"always_keep +{WEIGHT_ALWAYS_KEEP}")
    if key in recently_used:
        points += WEIGHT_RECENTLY_USED
        parts.append(f"recently used +{WEIGHT_RECENTLY_USED}")
    if tool.name.lower() in query.lower():
        points += WEIGHT_NAME_IN_QUERY
        parts.append(f"name in the query +{WEIGHT_NAME_IN_QUERY}")
    shared = sorted(_tokens(query) & _tokens(f"{tool.name} {tool.description}"))
    if shared:
        points += WEIGHT_TOKEN * len(shared)
        noun = "token" if len(shared) == 1 else "tokens"
        parts.append(f"{len(shared)} shared query {noun} ({', '.join(shared)}) "
                     f"+{WEIGHT_TOKEN * len(shared)}")
    return points, parts


@dataclass(frozen=True)
class GatewayResult:
    """The request after the gateway and each tool's fate (status, rule, reason by key)."""

    visible: tuple[Tool, ...]
    deferred: tuple[Tool, ...]
    dropped: tuple[Tool, ...]
    phantom: Tool | None
    fates: Mapping[str, tuple[str, str, str]]
    outcome: GatewayOutcome
    decision: Decision


def run_gateway(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
                query: str, *, expanded: Sequence[str] = (),
                recently_used: Sequence[str] = ()) -> GatewayResult:
    """Apply the profile's gateway strategy to the request's tools."""
    strategy = gateway.strategy
    flag = _fallback_decision(gateway)
    if strategy == "passthrough" or not request:
        rule = "gateway-passthrough" if strategy == "passthrough" else "gateway-no-tools"
        reason = ("the request is forwarded unchanged" if request
                  else "the request carries no tools")
        return _unchanged(gateway, request, rule, reason, flag)
    if strategy == "relevance":
        return _relevance(gateway, request, names, query, expanded, recently_used, flag)
    return _deferring(gateway, request, names, expanded, flag)


def _fallback_decision(gateway: Gateway) -> Decision:
    asked = gateway.enable_search_fallback
    effective = gateway.search_fallback
    if gateway.strategy in ("relevance", "tool-search", "api"):
        forced = "forced false for relevance" if not effective else \
            f"forced true for {gateway.strategy}"
        asked_text = "" if asked is None else f" (the profile asked for {str(asked).lower()})"
        reason = forced + asked_text
    else:
        reason = "as the profile sets it" if asked is not None else "off by default"
    return Decision("enable_search_fallback", str(effective).lower(),
                    "gateway-search-fallback", reason)


def _unchanged(gateway: Gateway, request: Sequence[Tool], rule: str, reason: str,
               flag: Decision) -> GatewayResult:
    outcome = GatewayOutcome(gateway.strategy, len(request), None, len(request), 0,
                             gateway.search_fallback, None, reason)
    decision = Decision(f"gateway: {gateway.strategy}", f"{len(request)} kept", rule, reason,
                        (flag,))
    fates = {t.qualified_name: ("visible", rule, reason) for t in request}
    return GatewayResult(tuple(request), (), (), None, fates, outcome, decision)


def _relevance(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
               query: str, expanded: Sequence[str], recently_used: Sequence[str],
               flag: Decision) -> GatewayResult:
    total = len(request)
    keep = gateway.keep_count(total)
    by_ratio = int(total * gateway.target_ratio)
    formula = (f"int({total} x {gateway.target_ratio:g}) = {by_ratio}; "
               f"min({by_ratio}, max_tools {gateway.max_tools}) = "
               f"{min(by_ratio, gateway.max_tools)}; max(that, min_tools {gateway.min_tools}) "
               f"= {keep}")
    count = Decision("keep count", str(keep), "gateway-keep-count", formula)
    if total <= gateway.min_tools or keep >= total:
        rule = "gateway-skip-min-tools" if total <= gateway.min_tools else \
            "gateway-skip-keep-all"
        reason = (f"total_tools {total} <= min_tools {gateway.min_tools}"
                  if total <= gateway.min_tools else f"keep {keep} >= total_tools {total}")
        result = _unchanged(gateway, request, rule, f"filtering skipped: {reason}", flag)
        decision = Decision(f"gateway: {gateway.strategy}", f"{total} kept", rule,
                            f"filtering skipped: {reason}", (flag, count))
        outcome = GatewayOutcome(gateway.strategy, total, keep, total, 0, False, None,
                                 f"filtering skipped: {reason}")
        return GatewayResult(result.visible, (), (), None, result.fates, outcome, decision)
    scored = []
    for i, tool in enumerate(request):
        points, parts = relevance_points(tool, query, always_keep=gateway.always_keep,
                                         expanded=expanded, recently_used=recently_used)
        scored.append((points, i, tool, parts))
    scored.sort(key=lambda item: (-item[0], item[1]))
    kept_keys: set[str] = set()
    fates: dict[str, tuple[str, str, str]] = {}
    children = [flag, count]
    for position, (points, _, tool, parts) in enumerate(scored, 1):
        key = tool.qualified_name
        why = f"score {points}" + (f": {'; '.join(parts)}" if parts else " (no evidence)")
        forced = key in expanded or tool.name in gateway.always_keep or \
            key in gateway.always_keep
        if position <= keep:
            fate = ("visible", "gateway-kept", f"rank {position} of {total}, {why}")
        elif forced:
            fate = ("visible", "gateway-force-kept", f"rank {position} of {total}, {why}")
        else:
            fate = ("excluded", "gateway-dropped", f"rank {position} of {total}, {why}")
        if fate[0] == "visible":
            kept_keys.add(key)
        fates[key] = fate
        children.append(Decision(names.get(key, tool.name), *fate))
    kept = tuple(t for t in request if t.qualified_name in kept_keys)
    dropped = tuple(t for t in request if t.qualified_name not in kept_keys)
    reason = f"kept {len(kept)} of {total} by relevance"
    outcome = GatewayOutcome(gateway.strategy, total, keep, len(kept), len(dropped), False,
                             None, reason)
    decision = Decision(f"gateway: {gateway.strategy}", f"{len(kept)} kept", None, reason,
                        tuple(children))
    return GatewayResult(kept, (), dropped, None, fates, outcome, decision)


def _deferring(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
               expanded: Sequence[str], flag: Decision) -> GatewayResult:
    phantom = phantom_tool(gateway)
    fates: dict[str, tuple[str, str, str]] = {}
    children = [flag, Decision(phantom.name, "visible", "gateway-phantom",
                               "injected in place of the request's tools")]
    for tool in request:
        key = tool.qualified_name
        if key in expanded:
            fate = ("visible", "gateway-expanded", "found by an earlier gateway search")
        else:
            fate = ("deferred", "gateway-deferred", f"found with {phantom.name}")
        fates[key] = fate
        children.append(Decision(names.get(key, tool.name), *fate))
    if gateway.strategy == "api":
        endpoint = gateway.api.endpoint
        note = (f"searches ask {endpoint} (timeout {gateway.api.timeout:g} s); an error, a "
                "timeout or a meaningless answer restores all deferred tools (fail open)"
                if endpoint else "no endpoint is configured: the first search will fail open "
                "and restore all deferred tools")
        if gateway.provider:
            note += f"; provider {gateway.provider}"
        children.append(Decision("api endpoint", endpoint or "missing", "gateway-api-endpoint",
                                 note))
    shown = tuple(t for t in request if fates[t.qualified_name][0] == "visible")
    deferred = tuple(t for t in request if fates[t.qualified_name][0] == "deferred")
    reason = (f"{len(deferred)} of {len(request)} tools deferred behind {phantom.name}"
              + (f"; {len(shown)} reinjected" if shown else ""))
    outcome = GatewayOutcome(gateway.strategy, len(request), None, len(shown), len(deferred),
                             True, phantom.name, reason)
    decision = Decision(f"gateway: {gateway.strategy}", f"{len(shown)} kept", None, reason,
                        tuple(children))
    return GatewayResult((phantom, *shown), deferred, (), phantom, fates, outcome, decision)
