"""toolcat's own catalog format: `servers:` and `tools:`, every field of the canonical tool.

    servers:
      - name: weather
        description: Current conditions and forecasts
    tools:
      - name: get_weather
        server: weather          # defaults to the file's only server, else the file name
        description: Get current weather conditions for a city or location
        parameters: {type: object, properties: {...}, required: [...]}
        tags: [weather]
        level: 2
        safe: true
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolcat.model import KINDS, NO_SCHEMA_MODES, SOURCES, Safety, Server, Tool
from toolcat.providers.contract import Provider
from toolcat.providers.mcp import annotated_safety
from toolcat.providers.reading import EXAMPLE_REQUEST_KEYS, Fields, ReadContext, at_path
from toolcat.providers.types import Json
from toolcat.providers.writing import Written

KEYS = {"name", "description", "parameters", "server", "kind", "source", "level", "tags",
        "category", "priority", "safe", "strict", "allow_no_schema", "no_schema_mode",
        "defer_loading", "cost", "constraints", "annotations", "examples", "example_requests",
        "implementation"}
DEFAULTS = Tool(name="")


def claims(item: Mapping[str, Json]) -> int:
    if "name" not in item or item.get("type") == "function":
        return 0
    return 2 if (KEYS - {"name", "description", "parameters"}) & item.keys() else 1


# a tool with only these keys keeps every other field's default (the usual case in a big
# catalog): read without asking for the twenty absent ones
PLAIN_KEYS = frozenset({"name", "description", "parameters", "server"})


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    if item.keys() <= PLAIN_KEYS and ctx.default_source != "mcp":
        return ctx.tool(item, "toolcat", ctx.pointer_to("parameters"), **_plain(fields, ctx))
    level = fields.integer("level", DEFAULTS.level)
    if level < 1:
        raise ctx.fail("'level' must be 1 (core) or more", "level")
    source = fields.choice("source", SOURCES, ctx.default_source) or ctx.default_source
    annotations = fields.mapping("annotations")
    safety: Safety = "safe" if fields.flag("safe", True) else "unsafe"
    reason = ""
    if "safe" not in item and (source == "mcp" or "openapi" in item):
        # an imported MCP tool, or an OpenAPI operation (whose import wrote hints from its
        # method, toolcat.catalog.openapi): its annotations decide (unknown when they say
        # nothing)
        safety, reason = annotated_safety(annotations)
    return ctx.tool(
        item, "toolcat", ctx.pointer_to("parameters"),
        **_plain(fields, ctx),
        kind=fields.choice("kind", KINDS, DEFAULTS.kind) or DEFAULTS.kind,
        source=source,
        level=level,
        tags=fields.strings("tags"),
        category=fields.optional_text("category"),
        priority=fields.integer("priority", DEFAULTS.priority),
        safety=safety,
        safety_reason=reason,
        strict=fields.flag("strict"),
        allow_no_schema=bool(fields.flag("allow_no_schema", False)),
        no_schema_mode=fields.choice("no_schema_mode", NO_SCHEMA_MODES, None),
        defer_loading=fields.flag("defer_loading"),
        cost=fields.mapping("cost"),
        constraints=fields.mapping("constraints"),
        annotations=annotations,
        examples=fields.values("examples"),
        example_requests=fields.strings("example_requests"),
        implementation=fields.mapping("implementation"),
        extra=fields.rest(KEYS if "parameters" in item else KEYS | {"arguments"}),
    )


def _safe_written(tool: Tool) -> bool:
    """Whether `safe:` is written: for a state someone stated, not for one read from MCP
    annotations or given by toolcat.yaml's mcp policy (read again, so the policy applies),
    nor for the default (safe outside MCP)."""
    if tool.safety == "unknown" or tool.safety_reason:
        return False
    return tool.unsafe or tool.source == "mcp"


def _plain(fields: Fields, ctx: ReadContext) -> dict[str, Json]:
    parameters = fields.schema("parameters")
    if parameters is None and "arguments" in fields.item:
        parameters = arguments_schema(fields.item["arguments"], ctx)
    return {"name": fields.name(), "description": fields.text("description"),
            "parameters": parameters,
            "server": fields.text("server") or ctx.default_server}


def arguments_schema(arguments: Json, ctx: ReadContext) -> dict[str, Json]:
    """The JSON Schema of a Docker MCP catalog tool's `arguments` list (docker/mcp-gateway
    `ToolArgument`: `{name, type, items?, desc, optional?}`), as the gateway builds it."""
    if not isinstance(arguments, list):
        raise ctx.fail("'arguments' must be a list of {name, type, desc}", "arguments")
    properties: dict[str, Json] = {}
    required = []
    for i, argument in enumerate(arguments):
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            raise ctx.fail("each argument must be a mapping with a name", "arguments", i)
        fields = Fields(argument, ctx, ("arguments", i))
        schema: dict[str, Json] = {"type": fields.text("type") or "string"}
        if fields.text("desc"):
            schema["description"] = fields.text("desc")
        items = fields.mapping("items")
        if items is not None:
            schema["items"] = dict(items)
        properties[argument["name"]] = schema
        if not fields.flag("optional", False):
            required.append(argument["name"])
    return {"type": "object", "properties": properties, "required": required}


def write_tool(tool: Tool) -> Written:
    out: dict[str, Json] = {"name": tool.name}
    if tool.server:
        out["server"] = tool.server
    out["description"] = tool.description
    if tool.parameters is not None:
        out["parameters"] = tool.parameters
    for key in ("kind", "source", "level", "category", "priority", "safe", "strict",
                "allow_no_schema", "no_schema_mode", "defer_loading", "cost", "constraints",
                "annotations", "implementation"):
        if key == "safe":
            if _safe_written(tool):
                out["safe"] = tool.safe
            continue
        value = getattr(tool, key)
        if value != getattr(DEFAULTS, key):
            out[key] = value
    if tool.tags:
        out["tags"] = list(tool.tags)
    if tool.examples:
        out["examples"] = list(tool.examples)
    if tool.example_requests and not _elsewhere(tool):
        out["example_requests"] = list(tool.example_requests)
    out.update(tool.extra)
    return out, []


def _elsewhere(tool: Tool) -> bool:
    """Whether the tool's example requests sit under a key its extras write back anyway."""
    return any(at_path(tool.extra, path) is not None for path in EXAMPLE_REQUEST_KEYS)


def write_server(server: Server) -> dict[str, Json]:
    out: dict[str, Json] = {"name": server.name}
    if server.description:
        out["description"] = server.description
    if not server.enabled:
        out["enabled"] = False
    out.update(server.extra)
    return out


def wrap(items: list[dict[str, Json]], servers: Sequence[Server]) -> Json:
    used = dict.fromkeys(item["server"] for item in items if item.get("server"))
    declared = [write_server(s) for s in servers if s.name in used]
    declared += [{"name": name} for name in used if name not in {s.name for s in servers}]
    return {"servers": declared, "tools": items}


PROVIDER = Provider(
    name="toolcat",
    label="toolcat catalog",
    carries=frozenset({"name", "description", "parameters", "server", "kind", "source",
                       "level", "tags", "category", "priority", "safe", "strict",
                       "allow_no_schema", "no_schema_mode", "defer_loading", "cost",
                       "constraints", "annotations", "examples", "example_requests",
                       "implementation"}),
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=wrap,
    yaml_native=True,
)
