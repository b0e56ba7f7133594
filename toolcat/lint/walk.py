"""Walk a JSON Schema: every subschema with its JSON pointer, and every string in a value."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from toolcat.model import Tool
from toolcat.source.positions import escape, unescape

# keywords whose value is one subschema, a map of subschemas, or a list of them
SCHEMA_KEYWORDS = frozenset({"items", "contains", "additionalProperties", "propertyNames", "if",
                             "then", "else", "not", "unevaluatedItems", "unevaluatedProperties",
                             "additionalItems", "contentSchema"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs",
                         "definitions"})
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


@dataclass(frozen=True, slots=True)
class Node:
    """One subschema: where it is, what it is, and how it hangs from its parent."""

    pointer: str  # relative to the schema root; "" is the root
    schema: Mapping[str, Any]
    depth: int  # object/array nesting: the root is 0, each property or items one more
    via: str  # the keyword of the parent that holds it ("" for the root)
    property: str | None = None  # its name, when it is a property of an object


def walk(schema: Any) -> list[Node]:
    """Every object subschema of `schema`, parents before children (boolean schemas skipped)."""
    nodes: list[Node] = []
    if not isinstance(schema, dict):
        return nodes
    stack = [Node("", schema, 0, "")]
    while stack:
        node = stack.pop()
        nodes.append(node)
        children = []
        for key, value in node.schema.items():
            if key in SCHEMA_MAPS and isinstance(value, dict):
                step = 1 if key in ("properties", "patternProperties") else 0
                prop = key == "properties"
                children += [Node(f"{node.pointer}/{escape(key)}/{escape(name)}", sub,
                                  node.depth + step, key, name if prop else None)
                             for name, sub in value.items() if isinstance(sub, dict)]
            elif key in SCHEMA_LISTS and isinstance(value, list):
                step = 1 if key == "prefixItems" else 0
                children += [Node(f"{node.pointer}/{key}/{i}", sub, node.depth + step, key)
                             for i, sub in enumerate(value) if isinstance(sub, dict)]
            elif key in SCHEMA_KEYWORDS:
                step = 1 if key in ("items", "additionalProperties", "additionalItems",
                                    "unevaluatedItems", "unevaluatedProperties",
                                    "contains") else 0
                if isinstance(value, dict):
                    children.append(Node(f"{node.pointer}/{escape(key)}", value,
                                         node.depth + step, key))
                elif key == "items" and isinstance(value, list):  # draft-07 tuple form
                    children += [Node(f"{node.pointer}/items/{i}", sub, node.depth + 1, key)
                                 for i, sub in enumerate(value) if isinstance(sub, dict)]
        stack.extend(reversed(children))
    return nodes


def strings(value: Any, pointer: str = "") -> Iterator[tuple[str, str, bool]]:
    """Every string in a JSON value as (pointer, text, is_key): object keys count too."""
    stack = [(value, pointer)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            yield at, item, False
        elif isinstance(item, dict):
            for key, sub in item.items():
                child = f"{at}/{escape(str(key))}"
                yield child, str(key), True
                stack.append((sub, child))
        elif isinstance(item, list):
            stack.extend((sub, f"{at}/{i}") for i, sub in enumerate(item))


def type_names(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The names in a node's `type` (a string or a list), or () when it has none."""
    value = schema.get("type")
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(t for t in value if isinstance(t, str))
    return ()


def written_schema(tool: Tool) -> Any:
    """The parameters schema as the tool's entry has it in the file (`Tool.parameters` may be
    a mapped copy: foreign type names read as JSON Schema's); None when the entry has none."""
    if tool.origin is None or tool.schema_pointer is None:
        return tool.parameters
    relative = tool.schema_pointer.removeprefix(tool.origin.pointer)
    node: Any = tool.raw
    for token in relative.split("/")[1:]:
        if not isinstance(node, dict):
            return None
        node = node.get(unescape(token))
    return node
