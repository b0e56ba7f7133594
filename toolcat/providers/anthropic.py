"""Anthropic Messages: `tools: [{name, description, input_schema, strict, defer_loading,
input_examples, cache_control}]`."""

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
    object_schema,
    own_extra,
)

KEYS = {"name", "description", "input_schema", "strict", "defer_loading", "input_examples"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "input_schema" in item else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    return Tool(
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("input_schema"),
        strict=fields.flag("strict"),
        defer_loading=fields.flag("defer_loading"),
        examples=fields.values("input_examples"),
        server=ctx.default_server,
        source=ctx.default_source,
        extra=fields.rest(KEYS),
        raw=item,
        origin=ctx.ref(),
        schema_pointer=ctx.pointer_to("input_schema"),
        shape="anthropic",
    )


def write_tool(tool: Tool) -> Written:
    notes: list[str] = []
    written = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "input_schema": object_schema(tool, notes, "Anthropic"),
        "strict": tool.strict,
        "defer_loading": tool.defer_loading,
        "input_examples": list(tool.examples) or None,
    })
    return {**written, **own_extra(tool, "anthropic")}, notes


PROVIDER = Provider(
    name="anthropic",
    label="Anthropic Messages",
    carries=BASE_FIELDS | {"strict", "defer_loading", "examples"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(notes=("at most 20 strict tools per request",)),
)
