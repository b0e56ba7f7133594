"""The compact form of a search answer (`serve --answers compact`): the same tools as the
JSON answer, written as markdown a model reads directly. Each tool is a heading with its
name, its description, and one line per parameter (`- `name` (type, required): what it
is`, nested objects indented), the schema keywords a caller must respect kept on the line;
what only a machine reads (the JSON Schema's own syntax, icons, execution hints) is left out.
In call mode, where each found tool comes with its whole definition, it takes about a third of
the JSON's tokens (docs/serve.md gives the figures).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

ANSWERS = ("json", "compact")  # what `serve --answers` takes
MAX_DEPTH = 3  # nesting shown as indented lines; deeper schemas are shown as compact JSON
# call mode's message points at the inputSchema, which this form writes as its Arguments
SCHEMA_WORDS, LISTED_WORDS = "that follow its inputSchema", "as its Arguments list them"
SHOWN = ("type", "description", "properties", "required", "items", "enum", "default",
         "title", "anyOf", "oneOf", "additionalProperties", "$schema", "$defs", "definitions")
HINTS = (("readOnlyHint", True, "read-only"), ("destructiveHint", True, "destructive"),
         ("idempotentHint", True, "idempotent"), ("openWorldHint", False, "closed world"))


def markdown_answer(response: Mapping[str, Any]) -> str:
    """A search answer (`{found, tools, message, ...}`) as markdown."""
    lines = [str(response.get("message", "")).replace(SCHEMA_WORDS, LISTED_WORDS)]
    for key in ("note", "tuning", "error"):
        if response.get(key):
            lines.append(f"{key.capitalize()}: {response[key]}")
    for entry in response.get("tools", ()):
        lines += ["", *tool_lines(entry)]
    return "\n".join(lines).strip() + "\n"


def tool_lines(entry: Mapping[str, Any]) -> list[str]:
    """One found tool: `## name (hints)`, its description, its parameters, what it returns."""
    hints = entry.get("annotations") or {}
    said = [label for key, value, label in HINTS if hints.get(key) is value]
    lines = [f"## {entry['name']}" + (f" ({', '.join(said)})" if said else "")]
    description = " ".join(str(entry.get("description") or "").split())
    if description:
        lines.append(description)
    schema = entry.get("inputSchema")
    if isinstance(schema, Mapping):
        params = property_lines(schema, 0)
        lines += ["Arguments:", *params] if params else ["Arguments: none."]
    defined = isinstance(schema, Mapping) and (schema.get("$defs") or schema.get("definitions"))
    if defined:
        lines.append(f"Definitions ($ref): {_literal(defined)}")
    output = entry.get("outputSchema")
    if isinstance(output, Mapping) and isinstance(output.get("properties"), Mapping):
        lines.append("Returns structured content: " + ", ".join(
            f"`{name}` ({type_of(sub)})" for name, sub in output["properties"].items()))
    return lines


def property_lines(schema: Mapping[str, Any], depth: int) -> list[str]:
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return []
    required = set(schema.get("required") or ())
    indent = "  " * depth
    lines = []
    for name, sub in properties.items():
        if not isinstance(sub, Mapping):
            lines.append(f"{indent}- `{name}`" + (" (required)" if name in required else ""))
            continue
        facts = [type_of(sub)] + (["required"] if name in required else [])
        if isinstance(sub.get("enum"), list):
            facts.append("one of " + ", ".join(_literal(v) for v in sub["enum"]))
        if "default" in sub:
            facts.append(f"default {_literal(sub['default'])}")
        items = sub.get("items")
        if isinstance(items, Mapping) and "properties" not in items:
            if isinstance(items.get("enum"), list):
                facts.append("each one of " + ", ".join(_literal(v) for v in items["enum"]))
            if items.get("description"):
                facts.append("each: " + " ".join(str(items["description"]).split()))
        rest = {k: v for k, v in sub.items() if k not in SHOWN}
        facts += [f"{k} {_literal(v)}" for k, v in rest.items()]
        description = " ".join(str(sub.get("description") or "").split())
        lines.append(f"{indent}- `{name}` ({', '.join(facts)})"
                     + (f": {description}" if description else ""))
        nested = sub.get("items") if sub.get("type") == "array" else sub
        if isinstance(nested, Mapping) and isinstance(nested.get("properties"), Mapping):
            if depth + 1 < MAX_DEPTH:
                lines += property_lines(nested, depth + 1)
            else:
                lines.append(f"{indent}  schema: {_literal(nested)}")
    return lines


def type_of(schema: Mapping[str, Any]) -> str:
    """A schema's type in words: `string`, `array of integer`, `string or null`."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return "array of " + type_of(items) if isinstance(items, Mapping) else "array"
    if isinstance(kind, str):
        return kind
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            return " or ".join(type_of(o) if isinstance(o, Mapping) else "any" for o in options)
    return "any"


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
