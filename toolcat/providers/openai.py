"""OpenAI Chat Completions: `tools: [{type: "function", function: {name, description,
parameters, strict}}]`. Ollama and Mistral use the same wrapped shape."""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool
from toolcat.providers.base import (
    BASE_FIELDS,
    Fields,
    Json,
    Limits,
    Provider,
    ReadContext,
    Written,
    drop_none,
    own_extra,
)

FUNCTION_KEYS = {"name", "description", "parameters", "strict"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if item.get("type") == "function" and isinstance(item.get("function"), dict) else 0


def read_wrapped(item: Mapping[str, Json], ctx: ReadContext, shape: str) -> Tool:
    function = item.get("function")
    if not isinstance(function, dict):
        raise ctx.fail("'function' must be a mapping with the tool's name and parameters")
    fields = Fields(function, ctx, ("function",))
    extra = {k: v for k, v in item.items() if k not in ("type", "function")}
    extra.update(fields.rest(FUNCTION_KEYS))
    return Tool(
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("parameters"),
        strict=fields.flag("strict"),
        server=ctx.default_server,
        source=ctx.default_source,
        extra=extra,
        raw=item,
        origin=ctx.ref(),
        schema_pointer=ctx.pointer_to("function", "parameters"),
        shape=shape,
    )


def write_wrapped(tool: Tool, shape: str) -> Written:
    function = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "parameters": tool.parameters,
        "strict": tool.strict,
    })
    extra = own_extra(tool, shape)
    outer = {k: v for k, v in extra.items() if k not in FUNCTION_KEYS and k in tool.raw}
    function.update({k: v for k, v in extra.items() if k not in outer})
    return {"type": "function", "function": function, **outer}, []


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "openai")


def write_tool(tool: Tool) -> Written:
    return write_wrapped(tool, "openai")


PROVIDER = Provider(
    name="openai",
    label="OpenAI Chat Completions",
    carries=BASE_FIELDS | {"strict"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(max_tools=128),
)
