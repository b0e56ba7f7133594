"""Google Gemini: `tools: [{functionDeclarations: [{name, description, parameters |
parametersJsonSchema}]}]`.

`parameters` is Gemini's OpenAPI-style subset (upper-case types, `nullable`); it is read into
plain JSON Schema (the file keeps the original in `raw`). Tools are written with
`parametersJsonSchema`, which carries the canonical schema unchanged.
"""

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

KEYS = {"name", "description", "parameters", "parametersJsonSchema"}
_RENAMED = {"defs": "$defs", "ref": "$ref"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "parametersJsonSchema" in item else 0


def subset_to_json_schema(schema: Json) -> Json:
    """Gemini's OpenAPI-style Schema as standard JSON Schema (a new object)."""
    if isinstance(schema, list):
        return [subset_to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Json] = {}
    for key, value in schema.items():
        key = _RENAMED.get(key, key)
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {k: subset_to_json_schema(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = subset_to_json_schema(value)
        elif key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            out[key] = f"#/$defs/{value}"
        elif key != "nullable":
            out[key] = value
    if schema.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    if "parametersJsonSchema" in item:
        if "parameters" in item:
            raise ctx.fail("'parameters' and 'parametersJsonSchema' cannot be combined",
                           "parameters")
        parameters = fields.schema("parametersJsonSchema")
        pointer = ctx.pointer_to("parametersJsonSchema")
    else:
        parameters = subset_to_json_schema(fields.schema("parameters"))
        pointer = ctx.pointer_to("parameters")
    return Tool(
        name=fields.name(),
        description=fields.text("description"),
        parameters=parameters,
        server=ctx.default_server,
        source=ctx.default_source,
        extra=fields.rest(KEYS),
        raw=item,
        origin=ctx.ref(),
        schema_pointer=pointer,
        shape="gemini",
    )


def write_tool(tool: Tool) -> Written:
    return {
        **drop_none({
            "name": tool.name,
            "description": tool.description or None,
            "parametersJsonSchema": tool.parameters,
        }),
        **own_extra(tool, "gemini"),
    }, []


PROVIDER = Provider(
    name="gemini",
    label="Google Gemini",
    carries=BASE_FIELDS,
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": [{"functionDeclarations": items}]},
    limits=Limits(name_pattern=r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$", max_tools=512),
)
