"""The gateway: tool discovery applied to the request the agent would send.

The gateway sits between the agent and the model provider and only sees the request's `tools[]`
(built-ins and catalog tools alike). Strategies:

- passthrough: the request is unchanged.
- relevance: score every tool with the `relevance` scorer (expanded +1000, always_keep +100,
  recently used +100, exact name in the query +50, +10 per query token it shares), keep the best
  `keep` tools where keep = max(min(int(total * target_ratio), max_tools), min_tools),
  force-keep always_keep and expanded tools; skipped when total <= min_tools or keep >= total.
  No search tool. With `evidence` (a toolcat scorer over the request's tools, as the running
  gateway uses), its score replaces the token overlap (toolcat.search.relevance).
- tool-search and api: defer every tool and show only the phantom search tool (plus the tools
  earlier searches reinjected); the phantom loop resolves searches (see toolcat.resolution.session)
  with `search_deferred` (tool-search) or the selector API (api).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import toolcat.resolution.api as api
from toolcat.model import Tool
from toolcat.resolution.decisions import Decision, GatewayOutcome, Status
from toolcat.resolution.profile import Gateway
from toolcat.search import rank
from toolcat.search.ranking import Scorer
from toolcat.wording import plural

# what the gateway decided for one tool: (status, rule, reason)
Fate = tuple[Status, str, str]


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


@dataclass(frozen=True)
class Found:
    """What a gateway search returned and how: `regex`, or `keyword` when the query is not a
    usable pattern (`problem` says why)."""

    tools: tuple[Tool, ...]
    method: Literal["regex", "keyword"]
    problem: str | None = None


def search_deferred(gateway: Gateway, deferred: Sequence[Tool], query: str) -> Found:
    """The tool-search backend: `(?i)` + the query over names, descriptions and
    parameters (keyword matching when it is not a usable pattern), the best
    `max_search_results`, plus the deferred always_keep tools."""
    from toolcat.search.regex import RegexScorer  # its problem() is regex's own, not a Scorer's

    scorer = RegexScorer(deferred)
    problem = scorer.problem(query)
    found = [s.tool for s in rank(scorer, query, limit=gateway.max_search_results,
                                  explain=False)]
    keys = {t.qualified_name for t in found}
    found += [t for t in deferred if t.qualified_name not in keys
              and (t.name in gateway.always_keep or t.qualified_name in gateway.always_keep)]
    return Found(tuple(found), "keyword" if problem else "regex", problem)


NO_MATCH_MESSAGE = "No tools found matching the pattern"
RESTORED_MESSAGE = "Tool search is unavailable; all deferred tools were restored."


@dataclass(frozen=True)
class Searched:
    """What one call of the gateway's search tool does: the deferred tools it reinjects, the
    trace rule and note, and the message for the model."""

    found: tuple[Tool, ...]
    rule: str
    note: str
    message: str


def gateway_search(gateway: Gateway, deferred: Sequence[Tool], query: str) -> Searched:
    """Answer a call of the search tool over the `deferred` tools: regex/keyword matching
    (tool-search) or the selector API (api), which fails open by restoring them all."""
    if gateway.strategy == "api":
        answer = api.select(gateway.api, pattern=query, top_k=gateway.max_search_results,
                            always_keep=gateway.always_keep, tools=deferred)
        if answer.failure:
            return Searched(tuple(deferred), "gateway-fail-open",
                            f"fail open: {answer.failure}; restored all {len(deferred)} "
                            "deferred tools", RESTORED_MESSAGE)
        found = tuple(t for t in deferred if t.qualified_name in answer.selected)
        note = f"the selector chose {plural(len(found), 'tool')}"
        if answer.ignored:
            note += f"; ignored names that are not deferred: {', '.join(answer.ignored)}"
        rule = "gateway-api-selected"
    else:
        result = search_deferred(gateway, deferred, query)
        found = result.tools
        rule = f"gateway-search-{result.method}"
        note = f"{result.method} matching found {plural(len(found), 'tool')}"
        if result.problem:
            note += f" ({result.problem})"
    message = (f"Loaded {plural(len(found), 'tool')}; they can be called now." if found
               else NO_MATCH_MESSAGE)
    return Searched(found, rule, note, message)


@dataclass(frozen=True)
class GatewayResult:
    """The request after the gateway and each tool's fate (status, rule, reason by key)."""

    visible: tuple[Tool, ...]
    deferred: tuple[Tool, ...]
    dropped: tuple[Tool, ...]
    phantom: Tool | None
    fates: Mapping[str, Fate]
    outcome: GatewayOutcome
    decision: Decision


def run_gateway(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
                query: str, *, expanded: Sequence[str] = (),
                recently_used: Sequence[str] = (), evidence: Scorer | None = None
                ) -> GatewayResult:
    """Apply the profile's gateway strategy to the request's tools (`evidence`: a scorer over
    `request` whose score replaces relevance's token overlap)."""
    strategy = gateway.strategy
    flag = _fallback_decision(gateway)
    if strategy == "passthrough" or not request:
        rule = "gateway-passthrough" if strategy == "passthrough" else "gateway-no-tools"
        reason = ("the request is forwarded unchanged" if request
                  else "the request carries no tools")
        return _unchanged(gateway, request, rule, reason, flag)
    if strategy == "relevance":
        return _relevance(gateway, request, names, query, expanded, recently_used, flag,
                          evidence)
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
    fates: dict[str, Fate] = {t.qualified_name: ("visible", rule, reason) for t in request}
    return GatewayResult(tuple(request), (), (), None, fates, outcome, decision)


def _relevance(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
               query: str, expanded: Sequence[str], recently_used: Sequence[str],
               flag: Decision, evidence: Scorer | None) -> GatewayResult:
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
    from toolcat.search.relevance import RelevanceScorer  # points() is its own, not a Scorer's

    scorer = RelevanceScorer(request, always_keep=gateway.always_keep, expanded=expanded,
                             recently_used=recently_used, evidence=evidence)
    scores = scorer.scores(query)
    order = sorted(range(total), key=lambda i: (-scores[i], i))
    fits = _fitting(evidence, query, total)
    ended = False
    kept_keys: set[str] = set()
    fates: dict[str, Fate] = {}
    children = [flag, count]
    for position, i in enumerate(order, 1):
        tool = request[i]
        points = scorer.points(query, i)
        why = f"{sum(points.values())} points" + (
            f": {scorer.explain(query, i)[0]}" if points else " (no evidence)")
        # where the fit ends the gateway stops (ranks are rounded points, so a later tool
        # may fit again); what the session or the query names is kept whatever its fit, and
        # its own fit (a tool_choice the request does not ask about) ends nothing
        named = bool(set(points) - {"match"})
        ended = ended or (not named and not fits[i])
        if position <= keep and (not ended or named):
            fate: Fate = ("visible", "gateway-kept", f"rank {position} of {total}, {why}")
        elif "expanded" in points or "always_keep" in points:
            fate = ("visible", "gateway-force-kept", f"rank {position} of {total}, {why}")
        elif position <= keep:
            fate = ("excluded", "gateway-past-fit", f"rank {position} of {total}, {why}")
        else:
            fate = ("excluded", "gateway-dropped", f"rank {position} of {total}, {why}")
        if fate[0] == "visible":
            kept_keys.add(tool.qualified_name)
        fates[tool.qualified_name] = fate
        children.append(Decision(names.get(tool.qualified_name, tool.name), *fate))
    kept = tuple(t for t in request if t.qualified_name in kept_keys)
    dropped = tuple(t for t in request if t.qualified_name not in kept_keys)
    reason = f"kept {len(kept)} of {total} by relevance"
    outcome = GatewayOutcome(gateway.strategy, total, keep, len(kept), len(dropped), False,
                             None, reason)
    decision = Decision(f"gateway: {gateway.strategy}", f"{len(kept)} kept", None, reason,
                        tuple(children))
    return GatewayResult(kept, (), dropped, None, fates, outcome, decision)


def _fitting(evidence: Scorer | None, query: str, total: int) -> list[bool]:
    """Which tools fit the query about as well as the best one by `evidence` (the cut,
    toolcat.search.cut); all of them when there is no evidence scorer (the seed's shared
    words, which say nothing of a fit)."""
    if evidence is None:
        return [True] * total
    import numpy as np

    from toolcat.search.cut import fitting

    found: list[bool] = fitting(np.asarray(evidence.scores(query), dtype=np.float64)).tolist()
    return found


def _deferring(gateway: Gateway, request: Sequence[Tool], names: Mapping[str, str],
               expanded: Sequence[str], flag: Decision) -> GatewayResult:
    phantom = phantom_tool(gateway)
    fates: dict[str, Fate] = {}
    children = [flag, Decision(phantom.name, "visible", "gateway-phantom",
                               "injected in place of the request's tools")]
    for tool in request:
        key = tool.qualified_name
        if key in expanded:
            fate: Fate = ("visible", "gateway-expanded", "found by an earlier gateway search")
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
