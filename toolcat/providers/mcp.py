"""MCP `tools/list` results: `{tools: [{name, title, description, inputSchema, outputSchema,
annotations}]}`.

Safety follows the MCP specification's defaults for tool annotations (schema.ts
`ToolAnnotations`): `readOnlyHint` false, `destructiveHint` true (meaningful only when the tool
is not read-only), `idempotentHint` false, `openWorldHint` true. So a tool is safe when it says
`readOnlyHint: true` or `destructiveHint: false`, and a tool that says neither, annotated or
not, may destroy: unsafe. toolcat.yaml's `mcp: {unannotated: safe}` trusts such tools instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from toolcat.model import Tool
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.names import NameRule
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.types import Json
from toolcat.providers.writing import Note, Notes, Written, drop_none, object_schema, own_extra
from toolcat.source.fields import FieldReader

KEYS = {"name", "description", "inputSchema", "annotations"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "inputSchema" in item else 0


UNANNOTATED = "no readOnlyHint or destructiveHint: MCP default"
UNANNOTATED_POLICIES = ("unsafe", "safe")
UNSTATED = ("safety not stated: no destructiveHint written, so MCP clients treat the tool as "
            "possibly destructive (write `safe: true` or `safe: false` to say which)")


def annotated_safety(annotations: Mapping[str, Json] | None) -> tuple[bool, str]:
    """(safe, why) for a tool with these MCP annotations, by the specification's defaults."""
    hints = annotations or {}
    if hints.get("readOnlyHint") is True:
        return True, "readOnlyHint: true"
    if hints.get("destructiveHint") is False:
        return True, "destructiveHint: false"
    if hints.get("destructiveHint") is True:
        return False, "destructiveHint: true"
    return False, UNANNOTATED if annotations else "no annotations: MCP default"


def trust_unannotated(tools: Sequence[Tool], policy: str) -> tuple[Tool, ...]:
    """`tools` with those whose safety is the MCP default made safe when `policy` is "safe"
    (toolcat.yaml `mcp: {unannotated: safe}`)."""
    if policy == "unsafe":
        return tuple(tools)
    return tuple(replace(t, safe=True, safety=f"{t.safety}, trusted by mcp.unannotated")
                 if t.safety.endswith("MCP default") else t for t in tools)


def unannotated_setting(section: Mapping[str, Json], read: FieldReader | None = None) -> str:
    """`mcp: {unannotated: unsafe | safe}` of toolcat.yaml (default: unsafe, as the spec),
    read by `read` (the configuration file's reader), which places a mistake at its line."""
    read = read or FieldReader("toolcat.yaml")
    read.known_keys("/mcp", section, ("unannotated",))
    return read.choice("/mcp/unannotated", section.get("unannotated", "unsafe"),
                       UNANNOTATED_POLICIES)


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    annotations = fields.mapping("annotations")
    safe, why = annotated_safety(annotations)
    return ctx.tool(
        item, "mcp", ctx.pointer_to("inputSchema"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("inputSchema"),
        annotations=annotations,
        safe=safe,
        safety=why,
        source="mcp",
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    annotations = dict(tool.annotations or {})
    if tool.safe != annotated_safety(tool.annotations)[0]:
        if tool.safety_stated:
            # say what toolcat knows, so an MCP client reading the file decides the same
            if not tool.safe:
                annotations.pop("readOnlyHint", None)
            annotations["destructiveHint"] = not tool.safe
        else:
            # safe only by default: no hint, so a client assumes it may destroy (the spec)
            notes.append(Note(f"{tool.name}: {UNSTATED}", UNSTATED, tool.qualified_name))
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
