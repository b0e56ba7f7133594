"""OpenAI Responses: flat function tools `{type: "function", name, description, parameters,
strict, defer_loading}`.

A request has `instructions` (the system prompt), `input` and `tools`; deferred tools are sent
with `defer_loading: true`, next to a `tool_search` tool when the request has no tool search of
its own. A response carries its calls as `output[]` items `{type: "function_call", call_id, name,
arguments}`, where `arguments` is a JSON string.
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
    own_extra,
    with_deferred,
    with_model,
)
from toolcat.providers.openai import TOKENS

KEYS = {"type", "name", "description", "parameters", "strict", "defer_loading"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if item.get("type") == "function" and "name" in item and "function" not in item \
        else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    return ctx.tool(
        item, "openai-responses", ctx.pointer_to("parameters"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("parameters"),
        strict=fields.flag("strict"),
        defer_loading=fields.flag("defer_loading"),
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    """A flat function tool. `name`, `parameters` and `strict` are required by the SDK's
    FunctionToolParam, and the API reads a missing `strict` as true (then rejects every schema
    with an optional field), so `strict` is always written: false unless the tool says so."""
    return {
        "type": "function",
        "name": tool.name,
        **drop_none({"description": tool.description or None}),
        "parameters": tool.parameters,
        "strict": bool(tool.strict),
        **drop_none({"defer_loading": tool.defer_loading}),
        **own_extra(tool, "openai-responses"),
    }, []


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["instructions"] = req.system
    body["input"] = [{"role": "user", "content": req.query}]
    tools = with_deferred(req, write_tool, {"type": "tool_search"}, "hosted tool_search tool",
                          notes)
    if tools:
        body["tools"] = tools
    return with_model(req, body), notes


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, ("output/*", "*"), "OpenAI Responses")
    return [named_call(item, "name", "arguments", pointer, call_id=item.get("call_id"))
            for item, pointer in found
            if isinstance(item, dict) and item.get("type") == "function_call"]


PROVIDER = Provider(
    name="openai-responses",
    label="OpenAI Responses",
    carries=BASE_FIELDS | {"strict", "defer_loading"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(),
    request=request,
    parse_calls=parse_calls,
    defers=True,
    tokens=TOKENS,  # the same models as Chat Completions
)
