"""Reading a tool from a provider's format: where an item sits in its file (`ReadContext`), and
typed access to an item's keys (`Fields`), each wrong type a CatalogError at its key."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toolcat.errors import CatalogError
from toolcat.model import PendingSourceRef, Source, SourceRef, Tool
from toolcat.providers.types import Json, json_schema_types
from toolcat.source.positions import PositionIndex, join

S = TypeVar("S", bound=str)  # one of a fixed set of names (a Literal)


@dataclass(frozen=True)
class ReadContext:
    """Where an item sits, so errors and tools can point back at the file."""

    file: str
    pointer: str
    index: PositionIndex
    default_server: str = ""
    default_source: Source = "custom"
    # foreign type names (`dict`, `float`, ...) mapped while reading, counted by mapping
    mapped_types: Counter[str] = field(default_factory=Counter, compare=False)
    # False when the file is known to hold no foreign type name: schemas are taken as they are
    foreign_types: bool = True
    # False when the file's text cannot hold example requests: they are not looked for
    examples: bool = True

    def ref(self, *tokens: str | int) -> SourceRef:
        pointer = join(self.pointer, *tokens)
        line, column = self.index.locate(pointer)
        return SourceRef(self.file, line, column, pointer)

    def pointer_to(self, *tokens: str | int) -> str:
        return join(self.pointer, *tokens)

    def tool(self, item: Mapping[str, Json], shape: str, schema_pointer: str,
             **fields: Any) -> Tool:
        """A Tool read from `item` here: `fields` are what the shape carries; the server and
        source default to this file's, and raw, origin and the schema's place are filled in."""
        fields.setdefault("server", self.default_server)
        fields.setdefault("source", self.default_source)
        if self.examples and not fields.get("example_requests"):
            requests = self.example_requests(item)
            if requests:
                fields["example_requests"] = requests
        if self.foreign_types and fields.get("parameters") is not None:
            fields["parameters"], made = json_schema_types(fields["parameters"])
            self.mapped_types.update(made)
        origin = PendingSourceRef(self.file, self.pointer, self.index.locate)
        return Tool(raw=item, origin=origin, schema_pointer=schema_pointer, shape=shape,
                    **fields)

    def fail(self, message: str, *tokens: str | int) -> CatalogError:
        return CatalogError(message, where=self.ref(*tokens))

    def example_requests(self, item: Mapping[str, Json]) -> tuple[str, ...]:
        """Example requests an author wrote on a tool of any shape (docs/tune.md): the
        `x-example-requests` extension key, on the item or on the function it wraps, or the
        `io.toolcat/example_requests` key of an MCP tool's `_meta`."""
        for path in EXAMPLE_REQUEST_KEYS:
            value = at_path(item, path)
            if value is not None:
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(
                        isinstance(v, str) and v.strip() for v in value):
                    raise self.fail(f"'{path[-1]}' must be a list of requests (strings)",
                                    *path)
                return tuple(value)
        return ()


BASE_FIELDS = frozenset({"name", "description", "parameters"})


# where a shape without its own field keeps a tool's example requests (ReadContext)
EXAMPLE_REQUEST_KEYS: tuple[tuple[str, ...], ...] = (
    ("x-example-requests",), ("function", "x-example-requests"),
    ("toolSpec", "x-example-requests"), ("_meta", "io.toolcat/example_requests"))


IGNORE_KEY = "x-toolcat-ignore"  # lint rules a tool or server silences for itself


def at_path(item: Mapping[str, Json], path: Sequence[str]) -> Any:
    """The value at `path` (keys of nested mappings) in `item`, or None."""
    value: Any = item
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


class Fields:
    """Typed access to the keys of one raw item; a wrong type is a CatalogError at its key."""

    def __init__(self, item: Mapping[str, Json], ctx: ReadContext,
                 prefix: tuple[str | int, ...] = ()) -> None:
        self.item = item
        self.ctx = ctx
        self.prefix = prefix

    def _fail(self, key: str, expected: str) -> CatalogError:
        return self.ctx.fail(f"'{key}' must be {expected}", *self.prefix, key)

    def name(self, key: str = "name") -> str:
        value = self.item.get(key)
        if value is None or value == "":
            raise self.ctx.fail("tool has no name", *self.prefix)
        if not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    def text(self, key: str, default: str = "") -> str:
        value = self.item.get(key, default)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if self.item.get(key) is not None else None

    def flag(self, key: str, default: bool | None = None) -> bool | None:
        value = self.item.get(key, default)
        if value is not None and not isinstance(value, bool):
            raise self._fail(key, "true or false")
        return value

    def integer(self, key: str, default: int) -> int:
        value = self.item.get(key, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, "a whole number")
        return value

    def mapping(self, key: str) -> Mapping[str, Json] | None:
        value = self.item.get(key)
        if value is not None and not isinstance(value, dict):
            raise self._fail(key, "a mapping")
        return value

    def schema(self, key: str) -> Mapping[str, Json] | bool | None:
        value = self.item.get(key)
        if value is not None and not isinstance(value, (dict, bool)):
            raise self._fail(key, "a JSON Schema object")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.item.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, "a list of strings")
        return tuple(value)

    def values(self, key: str) -> tuple[Json, ...]:
        value = self.item.get(key)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._fail(key, "a list")
        return tuple(value)

    def choice(self, key: str, allowed: tuple[S, ...], default: S | None) -> S | None:
        value: S | None = self.item.get(key, default)
        if value is not None and value not in allowed:
            raise self._fail(key, "one of " + ", ".join(allowed))
        return value

    def rest(self, known: set[str]) -> dict[str, Json]:
        """The keys not in `known`, kept as they are; `x-toolcat-ignore` is type-checked."""
        if IGNORE_KEY in self.item and IGNORE_KEY not in known:
            value = self.item[IGNORE_KEY]
            if not isinstance(value, (str, list)) or (
                    isinstance(value, list) and not all(isinstance(v, str) for v in value)):
                raise self._fail(IGNORE_KEY, "a lint rule id or a list of rule ids")
        return {k: v for k, v in self.item.items() if k not in known}
