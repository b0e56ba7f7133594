"""MCP `tools/list` results: `{tools: [{name, title, description, inputSchema, outputSchema,
annotations}]}`.

Safety comes from the tool annotations a server states (schema.ts `ToolAnnotations`): a tool
is safe when it says `readOnlyHint: true` or `destructiveHint: false`, unsafe when it says
`destructiveHint: true`, and unknown when it says neither. The specification's defaults
(`destructiveHint` true) exist to drive confirmations, not to hide tools: an unknown tool is
picked and marked, and serve asks before calling it (docs/safety.md). `mcp: {unannotated:
safe}` treats such tools as safe (no question at run time), `unsafe` as the specification's
default (left out, as toolcat did before); this module is the one place that reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from toolcat.model import Safety, Tool
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.names import NameRule
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.types import Json
from toolcat.providers.writing import Note, Notes, Written, drop_none, object_schema, own_extra
from toolcat.source.fields import FieldReader

KEYS = {"name", "description", "inputSchema", "annotations"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "inputSchema" in item else 0


UNANNOTATED_POLICIES: tuple[Safety, ...] = ("unknown", "safe", "unsafe")
UNSTATED = ("safety not stated: no readOnlyHint or destructiveHint written, so its safety is "
            "unknown to MCP clients (write `safe: true` or `safe: false` to say which)")


def annotated_safety(annotations: Mapping[str, Json] | None) -> tuple[Safety, str]:
    """(state, why) for a tool with these MCP annotations: what its server stated."""
    hints = annotations or {}
    if hints.get("readOnlyHint") is True:
        return "safe", "readOnlyHint: true"
    if hints.get("destructiveHint") is False:
        return "safe", "destructiveHint: false"
    if hints.get("destructiveHint") is True:
        return "unsafe", "destructiveHint: true"
    if hints.get("readOnlyHint") is False:  # it may write, and says not how much
        return "unknown", "safety not stated: readOnlyHint: false, no destructiveHint"
    return "unknown", ("safety not stated: no readOnlyHint or destructiveHint" if annotations
                       else "safety not stated: no annotations")


def trust_unannotated(tools: Sequence[Tool], policy: str) -> tuple[Tool, ...]:
    """`tools` with those whose safety nobody stated given the state `policy` names
    (toolcat.yaml `mcp: {unannotated: safe | unsafe}`); "unknown" leaves them as they are."""
    if policy == "unknown":
        return tuple(tools)
    state: Safety = "safe" if policy == "safe" else "unsafe"
    return tuple(replace(t, safety=state, safety_reason=f"{t.safety_reason}, treated as "
                         f"{state} by mcp.unannotated") if t.safety == "unknown" else t
                 for t in tools)


def unannotated_setting(section: Mapping[str, Json], read: FieldReader | None = None) -> str:
    """`mcp: {unannotated: unknown | safe | unsafe}` of toolcat.yaml (default: unknown),
    read by `read` (the configuration file's reader), which places a mistake at its line."""
    read = read or FieldReader("toolcat.yaml")
    read.known_keys("/mcp", section, ("unannotated",))
    return read.choice("/mcp/unannotated", section.get("unannotated", "unknown"),
                       UNANNOTATED_POLICIES)


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    annotations = fields.mapping("annotations")
    safety, why = annotated_safety(annotations)
    return ctx.tool(
        item, "mcp", ctx.pointer_to("inputSchema"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("inputSchema"),
        annotations=annotations,
        safety=safety,
        safety_reason=why,
        source="mcp",
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    annotations = dict(tool.annotations or {})
    if tool.safety != annotated_safety(tool.annotations)[0] and tool.safety != "unknown":
        if tool.safety_stated:
            # say what toolcat knows, so an MCP client reading the file decides the same
            if tool.unsafe:
                annotations.pop("readOnlyHint", None)
            annotations["destructiveHint"] = tool.unsafe
        else:
            # a state nobody stated (safe by default, or by a policy): no hint is written
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
