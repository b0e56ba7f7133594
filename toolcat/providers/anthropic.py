"""Anthropic Messages: `tools: [{name, description, input_schema, strict, defer_loading,
input_examples, cache_control}]`.

A request has `system`, `messages` and `tools`; deferred tools are sent with
`defer_loading: true`, next to the BM25 tool search server tool when the request has no tool
search of its own (at least one tool must not be deferred). A profile's provider_search names
the server tool's variant (`tool_search_tool_regex_20251119` or `..._bm25_20251119`), or has a
client-side search answer with `tool_reference` blocks (`reference_result`), which load the
tools they name at the end of the conversation and leave the cached prefix as it was; such a
request has the top-level `cache_control` breakpoint, without which Anthropic caches nothing.

A response carries its calls as `content[]` blocks `{type: "tool_use", id, name, input}`,
where `input` is an object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.openai import STRICT_FORMATS as OPENAI_STRICT_FORMATS
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.replies import locate, named_call
from toolcat.providers.targets import LintTarget, StrictRules
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import (
    Note,
    Notes,
    RequestInput,
    Written,
    drop_none,
    object_schema,
    own_extra,
    planned_tools,
    with_deferred,
    with_model,
)

TOOL_SEARCH = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
SEARCH_VARIANTS = ("bm25", "regex")
CACHE_CONTROL = {"type": "ephemeral"}
# Anthropic answers 400 "Tool '...' cannot have both defer_loading=true and cache_control set.
# Tools with defer_loading cannot use prompt caching." (anthropics/claude-code issue 86743;
# "Tool use with prompt caching": deferred tools are not in the cached prefix)
DEFERRED_UNCACHED = ("cache_control", "Anthropic rejects a deferred tool with cache_control "
                     "(400: tools with defer_loading cannot use prompt caching)")


def search_tool(variant: str) -> dict[str, Json]:
    """Anthropic's tool search server tool of `variant` (bm25 or regex)."""
    return {"type": f"tool_search_tool_{variant}_20251119", "name": f"tool_search_tool_{variant}"}


def reference_result(tool_use_id: str,
                     found: list[tuple[dict[str, Json] | None, dict[str, Json]]]
                     ) -> dict[str, Json]:
    """The tool_result a client-side tool search answers with: one `tool_reference` block per
    tool found, which the API expands into the tool's definition where the block stands."""
    return {"type": "tool_result", "tool_use_id": tool_use_id,
            "content": [{"type": "tool_reference", "tool_name": item["name"]}
                        for _, item in found]}

KEYS = {"name", "description", "input_schema", "strict", "defer_loading", "input_examples"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "input_schema" in item else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    return ctx.tool(
        item, "anthropic", ctx.pointer_to("input_schema"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("input_schema"),
        strict=fields.flag("strict"),
        defer_loading=fields.flag("defer_loading"),
        examples=fields.values("input_examples"),
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    extra = own_extra(tool, "anthropic")
    if tool.defer_loading is True and "cache_control" in extra:
        del extra["cache_control"]
        notes.append(Note(f"{tool.name}: deferred, so its cache_control was left out ("
                          f"{DEFERRED_UNCACHED[1]})", "deferred tools lose their cache_control "
                          "(Anthropic rejects both on one tool)", tool.name))
    written = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "input_schema": object_schema(tool, notes, "Anthropic"),
        "strict": tool.strict,
        "defer_loading": tool.defer_loading,
        "input_examples": list(tool.examples) or None,
    })
    return {**written, **extra}, notes


def kept_breakpoint(tools: list[dict[str, Json]], deferred: Sequence[Tool]) -> None:
    """When a deferred tool had the catalog's cache_control, which it cannot keep, the
    breakpoint moves to the last tool that can carry one (not deferred), so the tools the
    catalog meant to cache still are; with no such tool, no tool is marked."""
    lost = any("cache_control" in own_extra(t, "anthropic") for t in deferred)
    if not lost or any("cache_control" in item for item in tools):
        return
    cacheable = [item for item in tools if item.get("defer_loading") is not True
                 and "name" in item and "type" not in item]
    if cacheable:
        cacheable[-1]["cache_control"] = dict(CACHE_CONTROL)


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["system"] = req.system
    body["messages"] = [{"role": "user", "content": req.query}]
    if req.plan is None:
        tools = with_deferred(req, write_tool, TOOL_SEARCH,
                              f"{TOOL_SEARCH['name']} server tool", notes)
    else:
        shown, deferred = planned_tools(req, write_tool, notes)
        tools = [*shown, *deferred]
        if req.plan.native is not None:
            tools.append(search_tool(req.plan.native))
            notes.append(f"{len(deferred)} tools are deferred (defer_loading) behind Anthropic's "
                         f"tool_search_tool_{req.plan.native} server tool")
        elif deferred:
            notes.append(f"{len(deferred)} tools are deferred (defer_loading); the request's own "
                         "search answers with tool_reference blocks to load them")
    if tools:
        kept_breakpoint(tools, req.deferred)
        body["tools"] = tools
    if req.plan is not None:
        # Anthropic caches only up to a breakpoint; the top-level one marks the last cacheable
        # block, so the tools, the system prompt and the conversation so far are cached
        body["cache_control"] = dict(CACHE_CONTROL)
    return with_model(req, body), notes


def upfront(item: dict[str, Json]) -> dict[str, Json] | None:
    """A deferred tool is not in the prompt until a tool_reference loads it (tool use with
    prompt caching: "Deferred tools are not included in the system-prompt prefix")."""
    return None if item.get("defer_loading") is True else item


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, ("content/*", "*"), "Anthropic Messages")
    return [named_call(block, "name", "input", pointer, call_id=block.get("id"))
            for block, pointer in found
            if isinstance(block, dict) and block.get("type") == "tool_use"]


STRICT_FORMATS = OPENAI_STRICT_FORMATS | {"uri"}

_UNSUPPORTED = "unsupported by strict tool use [Anthropic structured outputs, JSON Schema " \
               "limitations, via third-party summaries; provider-formats.md §8.2]"
STRICT = StrictRules(
    label="Anthropic strict tool use",
    rejected={
        **dict.fromkeys(("minimum", "maximum", "multipleOf", "minLength", "maxLength",
                         "maxItems"), _UNSUPPORTED),
        **dict.fromkeys(("exclusiveMinimum", "exclusiveMaximum"),
                        "[inference] the SDK's transform moves it out of the schema into the "
                        "description"),
    },
    formats=STRICT_FORMATS,
    closed_objects=True,
    recursion=False,
    max_min_items=1,
    max_strict_tools=20,
    max_optional_params=24,
    max_union_params=16,
    source="platform.claude.com structured outputs; anthropic-sdk-python "
           "lib/_parse/_transform.py (provider-formats.md §8.2)",
)

# Anthropic's tool-use system prompt, added when a request has tools (tool-use overview,
# "Pricing"; provider-formats.md section 10): (row, model id fragments, auto/none, any/tool).
TOOL_USE_OVERHEAD: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    ("Claude Haiku 3.5", ("3-5-haiku", "haiku-3-5"), 264, 340),
    ("Claude Opus 3", ("3-opus", "opus-3"), 530, 281),
    ("Claude Sonnet 3", ("3-sonnet",), 159, 235),
    ("Claude Haiku 3", ("3-haiku",), 264, 340),
    ("Claude Opus 4.5, Opus 4.1, Opus 4, Sonnet 4.5, Sonnet 4, Sonnet 3.7, Haiku 4.5",
     ("opus-4", "sonnet-4", "haiku-4", "3-7-sonnet", "sonnet-3-7"), 346, 313),
)


def tool_use_overhead(model: str | None) -> tuple[int, str]:
    """Tokens of Anthropic's tool-use system prompt (tool_choice auto) for `model`."""
    name = (model or "").lower()
    for row, fragments, auto, _ in TOOL_USE_OVERHEAD:
        if any(f in name for f in fragments):
            return auto, f"Anthropic's tool-use system prompt for {row} (tool_choice auto)"
    row, _, auto, _ = TOOL_USE_OVERHEAD[-1]
    which = f"{model} is not in Anthropic's table" if model else "no model named"
    return auto, (f"Anthropic's tool-use system prompt (tool_choice auto); {which}, so the "
                  f"figure of current models ({row}) is used")


def is_model(model: str) -> bool:
    """Whether `model` names a Claude model (as Anthropic, Bedrock and others spell its id)."""
    return "claude" in model.lower()


TOKENS = TokenRule(
    basis="Anthropic publishes no tokenizer for current Claude models",
    models=is_model,
    overhead=tool_use_overhead,
)

PROVIDER = Provider(
    name="anthropic",
    label="Anthropic Messages",
    carries=BASE_FIELDS | {"strict", "defer_loading", "examples"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(notes=("at most 20 strict tools per request",)),
    request=request,
    parse_calls=parse_calls,
    defers=True,
    native_search=SEARCH_VARIANTS,
    references=True,
    upfront=upfront,
    loaded=reference_result,
    lint_targets=(LintTarget(name="anthropic", label="Anthropic Messages", strict=STRICT,
                              deferred_without=DEFERRED_UNCACHED),),
    tokens=TOKENS,
)
