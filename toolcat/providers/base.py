"""What every wire format module provides, and the small helpers they share.

A provider module knows its format both ways: it reads tool definitions from it (`read_tool`),
writes a tool in it (`write_tool`), wraps written tools into the format's container (`wrap`),
and states which canonical fields it can carry, so conversions know what survives a round trip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolcat.catalog.positions import PositionIndex, join
from toolcat.errors import CatalogError
from toolcat.model import Server, SourceRef, Tool

Json = Any


@dataclass(frozen=True)
class ReadContext:
    """Where an item sits, so errors and tools can point back at the file."""

    file: str
    pointer: str
    index: PositionIndex
    default_server: str = ""
    default_source: str = "custom"

    def ref(self, *tokens: str | int) -> SourceRef:
        pointer = join(self.pointer, *tokens)
        line, column = self.index.locate(pointer)
        return SourceRef(self.file, line, column, pointer)

    def pointer_to(self, *tokens: str | int) -> str:
        return join(self.pointer, *tokens)

    def fail(self, message: str, *tokens: str | int) -> CatalogError:
        return CatalogError(message, where=self.ref(*tokens))


@dataclass(frozen=True)
class Limits:
    """Documented limits of a provider (see ../shared/reference/provider-formats.md)."""

    name_pattern: str = r"^[a-zA-Z0-9_-]{1,64}$"
    max_tools: int | None = None
    description_required: bool = False
    parameters_required: bool = False
    notes: tuple[str, ...] = ()

    def name_ok(self, name: str) -> bool:
        return re.fullmatch(self.name_pattern, name) is not None


Written = tuple[dict[str, Json], list[str]]


@dataclass(frozen=True)
class Provider:
    """One wire format. `claims` scores how much an item looks like this format (0 = not)."""

    name: str
    label: str
    carries: frozenset[str]
    claims: Callable[[Mapping[str, Json]], int]
    read_tool: Callable[[Mapping[str, Json], ReadContext], Tool]
    write_tool: Callable[[Tool], Written]
    wrap: Callable[[list[dict[str, Json]], Sequence[Server]], Json]
    limits: Limits = field(default_factory=Limits)
    yaml_native: bool = False


BASE_FIELDS = frozenset({"name", "description", "parameters"})


class Fields:
    """Typed access to the keys of one raw item; a wrong type is a CatalogError at its key."""

    def __init__(self, item: Mapping[str, Json], ctx: ReadContext, prefix: tuple = ()) -> None:
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

    def schema(self, key: str) -> Mapping[str, Json] | None:
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

    def choice(self, key: str, allowed: tuple[str, ...], default: str | None) -> str | None:
        value = self.item.get(key, default)
        if value is not None and value not in allowed:
            raise self._fail(key, "one of " + ", ".join(allowed))
        return value

    def rest(self, known: set[str]) -> dict[str, Json]:
        return {k: v for k, v in self.item.items() if k not in known}


def own_extra(tool: Tool, shape: str) -> dict[str, Json]:
    """Unknown keys read from this same shape, re-emitted so a same-shape round trip is exact."""
    return dict(tool.extra) if tool.shape == shape else {}


def object_schema(tool: Tool, notes: list[str], provider: str) -> Json:
    """The tool's schema, or an empty object schema (noted) where the format requires one."""
    if tool.parameters is not None:
        return tool.parameters
    notes.append(f"{tool.name}: has no parameters schema; {provider} requires one, "
                 "so an empty object schema was written")
    return {"type": "object", "properties": {}}


def drop_none(mapping: dict[str, Json]) -> dict[str, Json]:
    return {k: v for k, v in mapping.items() if v is not None}
