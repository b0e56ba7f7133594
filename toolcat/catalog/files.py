"""Read one YAML or JSON file into plain Python data plus a position index.

Every failure is a CatalogError naming file:line:column where the parser knows it. YAML is
composed by libyaml (when present) and built here node by node, which records positions and
bounds alias expansion, so an alias bomb is refused instead of exhausting memory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from toolcat.catalog.positions import JsonIndex, MappedIndex, PositionIndex, escape
from toolcat.errors import CatalogError
from toolcat.model import SourceRef

YAML_SUFFIXES = (".yaml", ".yml")
JSON_SUFFIXES = (".json",)
CATALOG_SUFFIXES = YAML_SUFFIXES + JSON_SUFFIXES

# Expanding aliases may visit this many more nodes than the file has before it is refused.
ALIAS_EXPANSION_LIMIT = 100
ALIAS_EXPANSION_FLOOR = 1_000_000

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_JSON_SCALARS = (str, int, float, bool, type(None))
_FLATTENER = yaml.SafeLoader("")


@dataclass(frozen=True)
class ParsedFile:
    path: str
    data: Any
    index: PositionIndex
    has_refs: bool = True  # False when the text has no "$ref" at all: nothing to check


def read_text(path: Path) -> str:
    shown = str(path)
    if not path.exists():
        raise CatalogError("no such file", where=SourceRef(shown))
    if path.is_dir():
        raise CatalogError("is a directory, not a file", where=SourceRef(shown))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CatalogError(f"cannot read: {exc.strerror}", where=SourceRef(shown)) from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CatalogError("not UTF-8 text", where=SourceRef(shown, line, column)) from exc


def parse_file(path: Path) -> ParsedFile:
    """Parse a file by its suffix (YAML for .yaml/.yml, else JSON if it looks like JSON)."""
    text = read_text(path)
    return parse_text(text, str(path), yaml_syntax=_is_yaml(path, text))


def parse_text(text: str, shown: str, *, yaml_syntax: bool) -> ParsedFile:
    if not text.strip():
        raise CatalogError("file is empty", where=SourceRef(shown))
    if yaml_syntax:
        data, positions = _parse_yaml(text, shown)
        return ParsedFile(shown, data, MappedIndex(positions), "$ref" in text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogError(
            f"invalid JSON: {exc.msg}", where=SourceRef(shown, exc.lineno, exc.colno)
        ) from exc
    except RecursionError as exc:
        raise CatalogError("JSON nested too deeply", where=SourceRef(shown)) from exc
    return ParsedFile(shown, data, JsonIndex(text), "$ref" in text)


def _is_yaml(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in YAML_SUFFIXES:
        return True
    if suffix in JSON_SUFFIXES:
        return False
    return text.lstrip()[:1] not in ("{", "[")


def _parse_yaml(text: str, shown: str) -> tuple[Any, dict[str, tuple[int, int]]]:
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            raise CatalogError("file is empty", where=SourceRef(shown))
        return _YamlBuilder(loader, shown).build(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        where = SourceRef(shown, mark.line + 1, mark.column + 1) if mark else SourceRef(shown)
        raise CatalogError(f"invalid YAML: {problem}", where=where) from exc
    except yaml.YAMLError as exc:
        raise CatalogError(f"invalid YAML: {exc}", where=SourceRef(shown)) from exc
    except RecursionError as exc:
        raise CatalogError("YAML nested too deeply", where=SourceRef(shown)) from exc
    finally:
        loader.dispose()


class _YamlBuilder:
    """Builds Python data from a composed YAML node tree, recording each node's position."""

    def __init__(self, loader: Any, shown: str) -> None:
        self.loader = loader
        self.shown = shown
        self.positions: dict[str, tuple[int, int]] = {}

    def build(self, root: yaml.Node) -> tuple[Any, dict[str, tuple[int, int]]]:
        distinct, expanded = _sizes(root, self.shown)
        if expanded > max(ALIAS_EXPANSION_FLOOR, distinct * ALIAS_EXPANSION_LIMIT):
            raise CatalogError(
                f"YAML aliases expand {distinct:,} nodes to {expanded:,} (an alias bomb?); "
                "refused", where=_where(self.shown, root))
        return self._node(root, ""), self.positions

    def _node(self, node: yaml.Node, pointer: str) -> Any:
        self.positions[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            value = self.loader.construct_object(node, deep=True)
            # dates, binary and the like have no JSON form: keep the text as written
            return value if isinstance(value, _JSON_SCALARS) else node.value
        if isinstance(node, yaml.SequenceNode):
            return [self._node(child, f"{pointer}/{i}") for i, child in enumerate(node.value)]
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise CatalogError("mapping keys must be plain scalars",
                                   where=_where(self.shown, key_node))
            # keys are JSON object keys: the text as written (`on:` stays "on", not True)
            key = key_node.value
            child = f"{pointer}/{escape(key)}"
            self.positions[child + "#key"] = (key_node.start_mark.line + 1,
                                              key_node.start_mark.column + 1)
            out[key] = self._node(value_node, child)
        return out


def _where(shown: str, node: yaml.Node) -> SourceRef:
    return SourceRef(shown, node.start_mark.line + 1, node.start_mark.column + 1)


def _sizes(root: yaml.Node, shown: str) -> tuple[int, int]:
    """(distinct nodes, nodes once every alias is expanded), without expanding anything.

    Also flattens `<<` merge keys in place, and refuses an alias that contains itself.
    """
    expanded: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in expanded:
            return expanded[key]
        if key in active:
            raise CatalogError("YAML alias refers to itself", where=_where(shown, node))
        active.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            yaml.SafeLoader.flatten_mapping(_FLATTENER, node)
            total += sum(size(k) + size(v) for k, v in node.value)
        active.discard(key)
        expanded[key] = total
        return total

    total = size(root)
    return len(expanded), total
