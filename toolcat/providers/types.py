"""Type names that are not JSON Schema's, read as the JSON Schema types they mean.

Berkeley Function-Calling Leaderboard files (and tools written from Python, Java or JavaScript
signatures) say `dict`, `float`, `tuple`, `long`, `any`, `String`, `HashMap`, ... where JSON
Schema says `object`, `number`, `array`, `integer`, no type, `string`. Every provider rejects
those names, and a validator cannot compile them, so they are mapped when a file is read (the
file's own text stays in `Tool.raw`), with one warning per file that names each mapping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from toolcat.model import LoadIssue, SourceRef, Tool
from toolcat.wording import plural

Json = Any  # a JSON value as parsed

JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})

# lower-cased foreign name -> JSON Schema type (None: any value, so no `type` at all)
FOREIGN_TYPES: Mapping[str, str | None] = {
    "dict": "object", "map": "object", "hashmap": "object", "object": "object",
    "list": "array", "tuple": "array", "set": "array", "array": "array", "arraylist": "array",
    "float": "number", "double": "number", "number": "number",
    "int": "integer", "long": "integer", "short": "integer", "byte": "integer",
    "bigint": "integer", "integer": "integer",
    "str": "string", "char": "string", "string": "string",
    "bool": "boolean", "boolean": "boolean",
    "any": None,
}
# values of these keys are data, not schemas
_DATA_KEYS = frozenset({"enum", "const", "default", "examples", "example", "required"})


def json_schema_types(schema: Any) -> tuple[Any, Counter[str]]:
    """`schema` with foreign type names mapped (a new object; the input is untouched when
    nothing changes), and how many times each mapping (`dict→object`) was made."""
    made: Counter[str] = Counter()
    if not _has_foreign(schema):
        return schema, made  # the common case: one walk that builds nothing
    return _mapped(schema, made), made


def _has_foreign(schema: Any) -> bool:
    """Whether `schema` may hold a foreign type name (conservative: data keys included)."""
    stack = [schema]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if isinstance(kind, str) and kind not in JSON_TYPES and kind.lower() in FOREIGN_TYPES:
                return True
            for value in node.values():
                if isinstance(value, (dict, list)):
                    push(value)
        elif isinstance(node, list):
            for value in node:
                if isinstance(value, (dict, list)):
                    push(value)
    return False


def _mapped(node: Any, made: Counter[str]) -> Any:
    if isinstance(node, list):
        items = [_mapped(v, made) for v in node]
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    changed = False
    for key, value in node.items():
        if key == "type" and isinstance(value, str) and value not in JSON_TYPES \
                and value.lower() in FOREIGN_TYPES:
            new = FOREIGN_TYPES[value.lower()]
            made[f"{value}→{new or 'no type'}"] += 1
            changed = True
            if new is not None:
                out[key] = new
            continue
        mapped = value if key in _DATA_KEYS else _mapped(value, made)
        changed = changed or mapped is not value
        out[key] = mapped
    return out if changed else node


def foreign_types(schema: Any) -> list[tuple[str, str, str | None]]:
    """Each foreign type name in `schema` as written: (JSON pointer of its `type` key, the
    name, the JSON Schema type it is read as), in document order."""
    from toolcat.source.positions import escape

    found: list[tuple[str, str, str | None]] = []
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:
        node, at = stack.pop()
        children: list[tuple[Any, str]] = []
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "type" and isinstance(value, str) and value not in JSON_TYPES \
                        and value.lower() in FOREIGN_TYPES:
                    found.append((f"{at}/type", value, FOREIGN_TYPES[value.lower()]))
                elif key not in _DATA_KEYS and isinstance(value, (dict, list)):
                    children.append((value, f"{at}/{escape(str(key))}"))
        elif isinstance(node, list):
            children = [(value, f"{at}/{i}") for i, value in enumerate(node)
                        if isinstance(value, (dict, list))]
        stack.extend(reversed(children))
    return found


def mapped_note(made: Counter[str], tools: int) -> str:
    """The warning for one file: `3 tools use type names JSON Schema does not have; read as
    dict→object (×4), any→no type (×1)`."""
    listed = ", ".join(f"{what} (×{n})" for what, n in made.most_common())
    return (f"{plural(tools, 'tool')} use{'s' * (tools == 1)} type names JSON Schema does "
            "not have (BFCL/Python style); "
            f"read as {listed}")


class TypeNames:
    """The mappings made while reading one file, as one warning at its first such tool."""

    def __init__(self) -> None:
        self.made: Counter[str] = Counter()
        self.tools = 0
        self.first: SourceRef | None = None

    def add(self, tool: Tool, ctx: Any, written: Any = None) -> None:
        """Count what reading `tool` mapped; the warning points at the first mapped `type` of
        the file (found in `written`, the schema as the file has it)."""
        if ctx.mapped_types:
            self.made.update(ctx.mapped_types)
            self.tools += 1
            if self.first is None:
                places = foreign_types(written)
                if places and tool.schema_pointer is not None:
                    pointer = tool.schema_pointer + places[0][0]
                    line, column = ctx.index.locate(pointer)
                    self.first = SourceRef(ctx.file, line, column, pointer)
                else:
                    self.first = tool.origin

    def issues(self) -> list[LoadIssue]:
        if not self.made:
            return []
        return [LoadIssue("type-names", mapped_note(self.made, self.tools), self.first,
                          "warning")]
