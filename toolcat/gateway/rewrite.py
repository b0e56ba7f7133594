"""One request's tools[] rewritten by the profile's gateway settings, with the code `resolve`
replays (toolcat.resolution.gateway.run_gateway): one implementation, two callers.

Only function tools take part; the provider's own tools (server tools, built-ins) stay as
they came. Kept tools keep their definitions byte for byte (the request's own JSON), in the
request's order; the search tool, when the strategy has one, comes last.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.gateway.apis import Api, Body
from toolcat.model import Tool
from toolcat.providers.tokens import count_tokens
from toolcat.resolution.gateway import GatewayResult, run_gateway
from toolcat.resolution.profile import Gateway
from toolcat.search.ranking import Scorer


@dataclass(frozen=True)
class Rewritten:
    """The request to send upstream and what the gateway did to it."""

    body: Body
    result: GatewayResult | None  # None: the request has no function tools
    tools_in: int
    tools_out: int
    unsafe: tuple[str, ...]  # names left out as unsafe
    deferred: tuple[Tool, ...]  # what the search tool searches (request and session)

    untouched: str = "gateway-no-tools"  # the rule when `result` is None

    @property
    def rule(self) -> str:
        """The trace rule that decided (resolve.md), or `gateway-STRATEGY` when the strategy
        rewrote the tools."""
        if self.result is None:
            return self.untouched
        return self.result.decision.rule or f"gateway-{self.result.outcome.strategy}"

    @property
    def phantom(self) -> str | None:
        return self.result.phantom.name if self.result and self.result.phantom else None


def tools_tokens(body: Mapping[str, Any]) -> int:
    """The tokens of a request's tools as JSON (o200k_base): what they cost the model."""
    import json

    tools = body.get("tools")
    return count_tokens(json.dumps(tools, ensure_ascii=False)) if tools else 0


def rewrite(api: Api, body: Body, gateway: Gateway, *, expanded: Sequence[str] = (),
            stored: Mapping[str, Mapping[str, Any]] | None = None,
            unsafe: Callable[[Tool], bool] = lambda tool: False,
            evidence: Callable[[Sequence[Tool]], Scorer | None] = lambda tools: None
            ) -> Rewritten:
    """`body` with its tools[] as the gateway shows them (`unsafe`: tools the profile leaves
    out; `evidence`: the scorer for relevance over the request's tools). `expanded`: the names
    the conversation's searches found; `stored`: the definitions it deferred earlier, by name
    (a copy: the rewrite runs beside other requests of the conversation)."""
    items = list(body.get("tools") or ())
    functions = [(i, api.read(item)) for i, item in enumerate(items) if api.is_function(item)]
    left_out = tuple(tool.name for _, tool in functions if unsafe(tool))
    functions = [(i, tool) for i, tool in functions if tool.name not in left_out]
    if not functions or not gateway.enabled:
        kept = [item for item in items if not api.is_function(item)
                or api.tool_name(item) not in left_out]
        out = {**body, "tools": kept} if left_out else body
        return Rewritten(out, None, len(items), len(kept), left_out, (),
                         "gateway-disabled" if functions else "gateway-no-tools")
    tools = [tool for _, tool in functions]
    names = {tool.name for tool in tools}
    # a tool the request's tool_choice names must reach the model: kept as if found
    forced = [n for n in (*expanded, api.chosen(body)) if n in names]
    result = run_gateway(gateway, tools, {}, api.query(body), expanded=forced,
                         recently_used=api.used(body),
                         evidence=evidence(tools) if gateway.strategy == "relevance" else None)
    shown = {tool.name for tool in result.visible}
    position = {i: tool.name for i, tool in functions}
    out_tools = [item for i, item in enumerate(items)
                 if (i not in position and not (api.is_function(item)
                                                and api.tool_name(item) in left_out))
                 or position.get(i) in shown]
    if result.phantom is not None:
        out_tools.append(api.write(result.phantom))
    deferred = list(result.deferred)
    if result.phantom is not None:
        known = {tool.name for tool in tools}
        deferred += [api.read(item) for name, item in (stored or {}).items()
                     if name not in known and name not in left_out]
    return Rewritten({**body, "tools": out_tools}, result, len(items), len(out_tools),
                     left_out, tuple(deferred))
