"""Anthropic Messages: `tools: [{name, description, input_schema, strict, defer_loading,
input_examples, cache_control}]`.

A request has `system`, `messages` and `tools`; deferred tools are sent with
`defer_loading: true`, next to the BM25 tool search server tool when the request has no tool
search of its own (at least one tool must not be deferred). A response carries its calls as
`content[]` blocks `{type: "tool_use", id, name, input}`, where `input` is an object.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.base import (
    BASE_FIELDS,
    Fields,
    Json,
    Limits,
    Notes,
    Provider,
    ReadContext,
    RequestInput,
    Written,
    drop_none,
    locate,
    named_call,
    object_schema,
    own_extra,
    with_deferred,
    with_model,
)

TOOL_SEARCH = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}

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
    written = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "input_schema": object_schema(tool, notes, "Anthropic"),
        "strict": tool.strict,
        "defer_loading": tool.defer_loading,
        "input_examples": list(tool.examples) or None,
    })
    return {**written, **own_extra(tool, "anthropic")}, notes


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["system"] = req.system
    body["messages"] = [{"role": "user", "content": req.query}]
    tools = with_deferred(req, write_tool, TOOL_SEARCH, f"{TOOL_SEARCH['name']} server tool",
                          notes)
    if tools:
        body["tools"] = tools
    return with_model(req, body), notes


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, ("content/*", "*"), "Anthropic Messages")
    return [named_call(block, "name", "input", pointer, call_id=block.get("id"))
            for block, pointer in found
            if isinstance(block, dict) and block.get("type") == "tool_use"]


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
)
