"""MCP `tools/list` results: `{tools: [{name, title, description, inputSchema, outputSchema,
annotations}]}`. `annotations.destructiveHint: true` makes a tool unsafe."""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool
from toolcat.providers.base import (
    BASE_FIELDS,
    Fields,
    Json,
    Limits,
    Notes,
    Provider,
    ReadContext,
    Written,
    drop_none,
    object_schema,
    own_extra,
)
from toolcat.providers.names import NameRule

KEYS = {"name", "description", "inputSchema", "annotations"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "inputSchema" in item else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    annotations = fields.mapping("annotations")
    destructive = bool(annotations and annotations.get("destructiveHint") is True)
    return ctx.tool(
        item, "mcp", ctx.pointer_to("inputSchema"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("inputSchema"),
        annotations=annotations,
        safe=not destructive,
        source="mcp",
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    annotations = dict(tool.annotations or {})
    if not tool.safe:
        annotations["destructiveHint"] = True
    elif annotations.get("destructiveHint") is True:
        annotations["destructiveHint"] = False
    written = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "inputSchema": object_schema(tool, notes, "MCP"),
        "annotations": annotations or None,
    })
    return {**written, **own_extra(tool, "mcp")}, notes


PROVIDER = Provider(
    name="mcp",
    label="MCP tools/list result",
    carries=BASE_FIELDS | {"safe"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(names=NameRule("A-Za-z0-9._-", max_length=128)),
)
