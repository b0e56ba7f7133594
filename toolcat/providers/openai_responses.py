"""OpenAI Responses: flat function tools `{type: "function", name, description, parameters,
strict, defer_loading}`."""

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

KEYS = {"type", "name", "description", "parameters", "strict", "defer_loading"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if item.get("type") == "function" and "name" in item and "function" not in item \
        else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    return Tool(
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("parameters"),
        strict=fields.flag("strict"),
        defer_loading=fields.flag("defer_loading"),
        server=ctx.default_server,
        source=ctx.default_source,
        extra=fields.rest(KEYS),
        raw=item,
        origin=ctx.ref(),
        schema_pointer=ctx.pointer_to("parameters"),
        shape="openai-responses",
    )


def write_tool(tool: Tool) -> Written:
    return {
        "type": "function",
        **drop_none({
            "name": tool.name,
            "description": tool.description or None,
            "parameters": tool.parameters,
            "strict": tool.strict,
            "defer_loading": tool.defer_loading,
        }),
        **own_extra(tool, "openai-responses"),
    }, []


PROVIDER = Provider(
    name="openai-responses",
    label="OpenAI Responses",
    carries=BASE_FIELDS | {"strict", "defer_loading"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(),
)
