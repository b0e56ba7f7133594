"""What changed between two catalogs, tool by tool: tools added, removed and changed, and for a
changed tool, which fields, where in its schema, and a word diff of its description.

Tools are paired by `server:name`; those left over are paired by name alone when the name is
unique in both catalogs, so a file renamed (its tools' server defaults to the file name) or a tool
moved to another server shows as a change of `server`, not as a removal and an addition.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Literal

from toolcat.model import Catalog, Tool
from toolcat.source.positions import escape

WordOp = Literal["equal", "delete", "insert"]

# Compared in this order; the first three, with the name, are what a model is shown.
FIELDS = ("description", "parameters", "annotations", "server", "safety", "kind",
          "source", "level", "tags", "category", "priority", "strict", "allow_no_schema",
          "no_schema_mode", "defer_loading", "cost", "constraints", "examples",
          "example_requests", "implementation", "extra")
MODEL_FACING = frozenset({"name", "description", "parameters", "annotations"})
_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")


class Absent:
    """The value at a path that one side does not have (a property added or removed)."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT = Absent()


@dataclass(frozen=True)
class ValueChange:
    """The values at one JSON pointer of a field, before and after; either may be ABSENT."""

    path: str
    old: Any
    new: Any

    def to_json(self) -> dict[str, Any]:
        """`{path, old, new}`, without `old` (or `new`) when that side has no value there."""
        out: dict[str, Any] = {"path": self.path}
        if self.old is not ABSENT:
            out["old"] = self.old
        if self.new is not ABSENT:
            out["new"] = self.new
        return out


@dataclass(frozen=True)
class FieldChange:
    """One changed field. `words` is the word diff of a description; `values` the old and
    new values at each JSON pointer of the schema (or annotation) nodes that differ."""

    field: str
    old: Any
    new: Any
    words: tuple[tuple[WordOp, str], ...] = ()
    values: tuple[ValueChange, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        """The JSON pointers of the nodes that differ ("" for the whole value)."""
        return tuple(v.path for v in self.values)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "model_facing": self.field in MODEL_FACING,
                               "old": self.old, "new": self.new}
        if self.field == "description":
            out["words"] = [{"op": op, "text": text} for op, text in self.words]
        if self.field in ("parameters", "annotations", "cost", "constraints",
                          "implementation", "extra"):
            out["paths"] = list(self.paths)
            out["values"] = [v.to_json() for v in self.values]
        return out


@dataclass(frozen=True)
class ToolChange:
    old: Tool
    new: Tool
    changes: tuple[FieldChange, ...]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(c.field for c in self.changes)


@dataclass(frozen=True)
class CatalogDiff:
    added: tuple[Tool, ...]
    removed: tuple[Tool, ...]
    changed: tuple[ToolChange, ...]
    unchanged: int

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def to_json(self, old: str, new: str) -> dict[str, Any]:
        """`toolcat diff --json`: `old` and `new` name the two sides."""
        def brief(tool: Tool) -> dict[str, Any]:
            return {"name": tool.name, "server": tool.server,
                    "qualified_name": tool.qualified_name, "description": tool.description}

        return {
            "old": old,
            "new": new,
            "same": self.same,
            "added": [brief(t) for t in self.added],
            "removed": [brief(t) for t in self.removed],
            "changed": [{**brief(c.new), "fields": list(c.fields),
                         "changes": [f.to_json() for f in c.changes]} for c in self.changed],
            "unchanged": self.unchanged,
        }


def diff_catalogs(old: Catalog | Iterable[Tool], new: Catalog | Iterable[Tool]) -> CatalogDiff:
    """Added, removed and changed tools from `old` to `new`, in `new`'s order (removed: `old`'s).
    """
    old_tools, new_tools = list(old), list(new)
    by_key = {t.qualified_name: t for t in old_tools}
    pairs: list[tuple[Tool, Tool]] = []
    unpaired_new: list[Tool] = []
    for tool in new_tools:
        match = by_key.pop(tool.qualified_name, None)
        if match is None:
            unpaired_new.append(tool)
        else:
            pairs.append((match, tool))
    old_names = Counter(t.name for t in old_tools)
    new_names = Counter(t.name for t in new_tools)
    old_by_name = {t.name: t for t in by_key.values()}
    added = []
    for tool in unpaired_new:
        if old_names[tool.name] == 1 and new_names[tool.name] == 1 and tool.name in old_by_name:
            match = old_by_name[tool.name]
            del by_key[match.qualified_name]
            pairs.append((match, tool))
        else:
            added.append(tool)
    order = {id(t): i for i, t in enumerate(new_tools)}
    pairs.sort(key=lambda pair: order[id(pair[1])])
    changed = []
    for before, after in pairs:
        changes = tool_changes(before, after)
        if changes:
            changed.append(ToolChange(before, after, changes))
    return CatalogDiff(tuple(added), tuple(by_key.values()), tuple(changed),
                       len(pairs) - len(changed))


def tool_changes(old: Tool, new: Tool) -> tuple[FieldChange, ...]:
    """Every field that differs between two versions of a tool."""
    out = []
    for name in FIELDS:
        before, after = _value(old, name), _value(new, name)
        if before == after:
            continue
        words = tuple(word_diff(before or "", after or "")) if name == "description" else ()
        values = tuple(changed_values(before, after)) if isinstance(before, dict) or isinstance(
            after, dict) else ()
        out.append(FieldChange(name, before, after, words, values))
    return tuple(out)


def _value(tool: Tool, name: str) -> Any:
    value = getattr(tool, name)
    if isinstance(value, tuple):
        return list(value)
    if name == "extra":
        return dict(value)
    return value


def word_diff(old: str, new: str) -> list[tuple[WordOp, str]]:
    """The word diff of two texts: runs of equal, deleted and inserted text, in order.
    Words, single punctuation marks and runs of white space are the units."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    ops: list[tuple[WordOp, str]] = []

    def add(op: WordOp, tokens: list[str]) -> None:
        if not tokens:
            return
        if ops and ops[-1][0] == op:
            ops[-1] = (op, ops[-1][1] + "".join(tokens))
        else:
            ops.append((op, "".join(tokens)))

    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("equal", a[i1:i2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return ops


def changed_values(old: Any, new: Any) -> list[ValueChange]:
    """The deepest nodes where two JSON values differ, with the value on each side (ABSENT
    where a side has none), in document order: `old`'s keys first, then those only `new` has.
    Iterative, so a deep schema cannot exhaust the stack; linear in the sizes of both."""
    out: list[ValueChange] = []
    stack: list[tuple[Any, Any, str]] = [(old, new, "")]
    while stack:
        a, b, pointer = stack.pop()
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            keys = list(a) + [k for k in b if k not in a]
            stack.extend((a.get(k, ABSENT), b.get(k, ABSENT), f"{pointer}/{escape(str(k))}")
                         for k in reversed(keys))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            stack.extend((x, y, f"{pointer}/{i}")
                         for i, (x, y) in reversed(list(enumerate(zip(a, b, strict=True)))))
        else:
            out.append(ValueChange(pointer, a, b))
    return out
