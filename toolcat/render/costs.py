"""Token costs, and how each count was made.

OpenAI's encodings are public, so counts for OpenAI models are exact (for the text toolcat
sends; the API adds a few formatting tokens of its own around tools). Anthropic, Gemini,
Mistral, Ollama and Bedrock models have no tokenizer toolcat can run offline, so their counts
are estimates that use o200k_base as a proxy, plus the fixed overhead a provider documents for
tool use (Anthropic's hidden tool-use system prompt). Every count carries its Method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolcat.model import Json, Tool, compact_json
from toolcat.providers.tokens import DEFAULT_ENCODING, ENCODINGS, count_tokens, definition_text

OPENAI = ("openai", "openai-responses")
_CL100K_MODELS = ("gpt-4", "gpt-3.5", "text-embedding-3", "text-embedding-ada")
_NO_TOKENIZER = {
    "anthropic": "Anthropic publishes no tokenizer for current Claude models",
    "bedrock": "Bedrock's models have no tokenizer toolcat can run offline",
    "gemini": "Gemini's local tokenizer needs Gemma tokenizer files toolcat does not download",
    "mistral": "Mistral's tokenizers (mistral-common) are not part of toolcat",
    "ollama": "the tokenizer depends on the model Ollama serves",
}

# Anthropic's tool-use system prompt, added when a request has tools (tool-use overview,
# "Pricing"; provider-formats.md section 10): (row, model id fragments, auto/none, any/tool).
ANTHROPIC_OVERHEAD: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    ("Claude Haiku 3.5", ("3-5-haiku", "haiku-3-5"), 264, 340),
    ("Claude Opus 3", ("3-opus", "opus-3"), 530, 281),
    ("Claude Sonnet 3", ("3-sonnet",), 159, 235),
    ("Claude Haiku 3", ("3-haiku",), 264, 340),
    ("Claude Opus 4.5, Opus 4.1, Opus 4, Sonnet 4.5, Sonnet 4, Sonnet 3.7, Haiku 4.5",
     ("opus-4", "sonnet-4", "haiku-4", "3-7-sonnet", "sonnet-3-7"), 346, 313),
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


def is_openai_model(model: str) -> bool:
    name = model.lower().removeprefix("openai/")
    return name.startswith(("gpt-", "o1", "o3", "o4", "chatgpt-", "text-embedding-", "ft:gpt"))


def encoding_for(model: str | None) -> str:
    """tiktoken's encoding for an OpenAI model id (o200k_base for every current model)."""
    if model and is_openai_model(model):
        name = model.lower().removeprefix("openai/").removeprefix("ft:")
        if name.startswith(_CL100K_MODELS) and not name.startswith(("gpt-4o", "gpt-4.")):
            return "cl100k_base"
    return DEFAULT_ENCODING


def anthropic_overhead(model: str | None) -> tuple[int, str]:
    """Tokens of Anthropic's tool-use system prompt (tool_choice auto) for `model`."""
    name = (model or "").lower()
    for row, fragments, auto, _ in ANTHROPIC_OVERHEAD:
        if any(f in name for f in fragments):
            return auto, f"Anthropic's tool-use system prompt for {row} (tool_choice auto)"
    row, _, auto, _ = ANTHROPIC_OVERHEAD[-1]
    which = f"{model} is not in Anthropic's table" if model else "no model named"
    return auto, (f"Anthropic's tool-use system prompt (tool_choice auto); {which}, so the "
                  f"figure of current models ({row}) is used")


def method_for(provider: str | None, model: str | None = None,
               encoding: str | None = None) -> Method:
    """How tokens are counted for a request to `provider` (None: no provider) and `model`."""
    chosen = encoding or encoding_for(model)
    if chosen not in ENCODINGS:
        count_tokens("", chosen)  # raises the UsageError listing the known encodings
    if provider in OPENAI or (provider is None and (not model or is_openai_model(model))):
        return Method(chosen, True, f"{chosen} is the encoding of "
                      f"{model or 'current OpenAI models'}; OpenAI adds a few formatting "
                      "tokens around each tool that are not counted")
    claude = bool(model) and "claude" in str(model).lower()
    reason = _NO_TOKENIZER.get(provider or ("anthropic" if claude else ""),
                               f"the tokenizer of {model} is not known")
    overhead, overhead_basis = 0, ""
    if provider == "anthropic" or (claude and provider in (None, "bedrock")):
        overhead, overhead_basis = anthropic_overhead(model)
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
    from toolcat.providers import PROVIDERS

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
