"""Token costs, and how each count was made.

OpenAI's encodings are public, so counts for models that use them are exact (for the text
toolcat sends). Other models have no tokenizer toolcat can run offline, so their counts are
estimates that use o200k_base as a proxy, plus the fixed overhead a provider documents for
tool use (Anthropic's hidden tool-use system prompt). Which is which, why, and the overhead
are each provider's own facts (`Provider.tokens`, a TokenRule); every count carries its Method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.model import Json, Tool, compact_json
from toolcat.providers import PROVIDERS
from toolcat.providers.tokens import (
    DEFAULT_ENCODING,
    ENCODINGS,
    TokenRule,
    count_tokens,
    definition_text,
)


@dataclass(frozen=True)
class Method:
    """How tokens are counted for one target: the encoding, whether that is the target's own
    tokenizer (exact) or a proxy (estimate), why, and the fixed overhead added per request."""

    encoding: str
    exact: bool
    basis: str
    overhead: int = 0
    overhead_basis: str = ""

    @property
    def label(self) -> str:
        return f"exact {self.encoding}" if self.exact else f"estimate via {self.encoding}"

    def to_json(self) -> dict[str, Json]:
        return {"label": self.label, "exact": self.exact, "encoding": self.encoding,
                "basis": self.basis, "overhead": self.overhead,
                "overhead_basis": self.overhead_basis}


def model_rule(model: str) -> TokenRule | None:
    """The token rule of the first provider, in registry order, that `model` is a model of."""
    return next((p.tokens for p in PROVIDERS.values()
                 if p.tokens.models is not None and p.tokens.models(model)), None)


def token_rule(provider: str | None, model: str | None = None) -> TokenRule:
    """The token rule of `provider`; with no provider, of the provider `model` belongs to, and
    with neither, the exact rule of the default encoding's models."""
    if provider is not None:
        return PROVIDERS[provider].tokens if provider in PROVIDERS else TokenRule()
    if model:
        return model_rule(model) or TokenRule()
    return next(p.tokens for p in PROVIDERS.values() if p.tokens.exact)


def encoding_for(model: str | None) -> str:
    """The encoding of `model` when its provider's tokenizer is one of OpenAI's public
    encodings; o200k_base otherwise (every current OpenAI model's)."""
    rule = model_rule(model) if model else None
    return rule.encoding(model) if rule and rule.encoding and model else DEFAULT_ENCODING


def method_for(provider: str | None, model: str | None = None,
               encoding: str | None = None) -> Method:
    """How tokens are counted for a request to `provider` (None: no provider) and `model`."""
    chosen = encoding or encoding_for(model)
    if chosen not in ENCODINGS:
        count_tokens("", chosen)  # raises the UsageError listing the known encodings
    rule = token_rule(provider, model)
    if rule.exact:
        return Method(chosen, True, f"{chosen} is the encoding of "
                      f"{model or 'current OpenAI models'}; {rule.basis}")
    reason = rule.basis or f"the tokenizer of {model} is not known"
    overhead, overhead_basis = rule.overhead(model) if rule.overhead else (0, "")
    return Method(chosen, False, f"{reason}; the {chosen} count is used as a proxy",
                  overhead, overhead_basis)


@dataclass(frozen=True)
class TokenCount:
    """Tokens of a rendered request: the system prompt, the tools array, the fixed overhead."""

    system: int
    tools: int
    overhead: int
    method: Method

    @property
    def total(self) -> int:
        return self.system + self.tools + self.overhead

    def to_json(self) -> dict[str, Json]:
        return {"system": self.system, "tools": self.tools, "overhead": self.overhead,
                "total": self.total, "method": self.method.to_json()}


def count_request(system: str, tool_items: Sequence[Json], method: Method) -> TokenCount:
    """Tokens of a system prompt and the tools array items (each as compact JSON)."""
    tools = sum(count_tokens(compact_json(item), method.encoding) for item in tool_items)
    overhead = method.overhead if tool_items else 0
    return TokenCount(count_tokens(system, method.encoding), tools, overhead, method)


@dataclass(frozen=True)
class ToolCost:
    tool: Tool
    tokens: int


@dataclass(frozen=True)
class ServerCost:
    name: str
    tools: int
    tokens: int


@dataclass(frozen=True)
class CatalogCost:
    """What each tool's definition costs, largest first, per server and in total."""

    tools: tuple[ToolCost, ...]
    servers: tuple[ServerCost, ...]
    method: Method
    shape: str  # how each definition was written: "canonical" or a provider name

    @property
    def total(self) -> int:
        return sum(c.tokens for c in self.tools)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method.to_json(),
            "shape": self.shape,
            "total": self.total,
            "tools": [{"name": c.tool.name, "qualified_name": c.tool.qualified_name,
                       "server": c.tool.server, "tokens": c.tokens} for c in self.tools],
            "servers": [{"name": s.name, "tools": s.tools, "tokens": s.tokens}
                        for s in self.servers],
        }

    def tokens_of(self, tools: Sequence[Tool]) -> int:
        """The summed cost of `tools`, counted the same way whether they are listed here or
        not (built-in tools are not in the catalog)."""
        known = {c.tool.qualified_name: c.tokens for c in self.tools}
        return sum(known[t.qualified_name] if t.qualified_name in known
                   else tool_tokens(t, self.method, self.shape) for t in tools)


def tool_text(tool: Tool, shape: str = "canonical") -> str:
    """The compact JSON of a tool as `shape` (a provider's requests, or `{name, description,
    parameters}`) carries it."""
    if shape == "canonical":
        return definition_text(tool)
    return compact_json(PROVIDERS[shape].tool_for_request(tool)[0])


def tool_tokens(tool: Tool, method: Method, shape: str = "canonical") -> int:
    return count_tokens(tool_text(tool, shape), method.encoding)


def catalog_cost(tools: Sequence[Tool], method: Method,
                 shape: str = "canonical") -> CatalogCost:
    """Every tool's cost as `shape` writes it, largest first, and the servers' totals."""
    costs = sorted((ToolCost(t, tool_tokens(t, method, shape)) for t in tools),
                   key=lambda c: (-c.tokens, c.tool.qualified_name))
    servers: dict[str, list[int]] = {}
    for cost in costs:
        servers.setdefault(cost.tool.server, []).append(cost.tokens)
    per_server = sorted((ServerCost(name, len(v), sum(v)) for name, v in servers.items()),
                        key=lambda s: (-s.tokens, s.name))
    return CatalogCost(tuple(costs), tuple(per_server), method, shape)


@dataclass(frozen=True)
class Saving:
    """What showing only `visible` costs against showing everything: every catalog tool plus
    the visible tools that are not in the catalog (built-ins, a gateway's search tool)."""

    visible: int
    all: int

    @property
    def saved(self) -> int:
        return self.all - self.visible

    @property
    def share(self) -> float:
        return self.saved / self.all if self.all else 0.0


def visible_saving(cost: CatalogCost, visible: Sequence[Tool]) -> Saving:
    """The saving of a visible set, priced the way `cost` prices the catalog."""
    in_catalog = {c.tool.qualified_name for c in cost.tools}
    extra = [t for t in visible if t.qualified_name not in in_catalog]
    return Saving(cost.tokens_of(visible), cost.total + cost.tokens_of(extra))
