"""YAML text into plain data with the position of every value.

YAML is parsed into events by libyaml (when present) and composed here without recursion,
which records positions, bounds nesting before anything deep is built, and bounds alias
expansion, so an alias bomb is refused instead of exhausting memory.
"""

from __future__ import annotations

from typing import Any

import yaml

from toolcat.errors import CatalogError
from toolcat.model import SourceRef
from toolcat.source.json_text import line_col
from toolcat.source.limits import (
    ALIAS_EXTRA_CHARS,
    ALIAS_EXTRA_NODES,
    ALIAS_RATIO,
    JSON_SCALARS,
    MAX_DEPTH,
    bad_scalar,
    bad_text,
)
from toolcat.source.positions import escape, token_at_depth

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_FLATTENER = yaml.SafeLoader("")


_MERGE_TAG = "tag:yaml.org,2002:merge"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


def parse_yaml(text: str, shown: str) -> tuple[Any, dict[str, tuple[int, int]]]:
    loader = _Loader(text)
    try:
        root, shared = _compose(loader, shown)
        if root is None:
            raise CatalogError("file is empty", where=SourceRef(shown))
        # without aliases and merge keys the tree is as large and deep as the file: no expansion
        merged = _measure(root, shown) if shared else {}
        return _YamlBuilder(loader, shown, merged).build(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        where = SourceRef(shown, mark.line + 1, mark.column + 1) if mark else SourceRef(shown)
        if "nesting depth" in problem:
            # libyaml (PyYAML 6.0.4 and later) stops flow collections 1,000 deep while it
            # scans ahead, before the events that find the 65th level reach the loop above
            offset = token_at_depth(text, MAX_DEPTH + 1)
            if offset:
                where = SourceRef(shown, *line_col(text, offset))
            raise CatalogError(f"nested deeper than {MAX_DEPTH} levels", where=where) from exc
        raise CatalogError(f"invalid YAML: {problem}", where=where) from exc
    except yaml.YAMLError as exc:
        raise CatalogError(f"invalid YAML: {exc}", where=SourceRef(shown)) from exc
    finally:
        loader.dispose()


def _compose(loader: Any, shown: str) -> tuple[yaml.Node | None, bool]:
    """The node tree of the file's single document, built from parser events in a loop, and
    whether it has aliases or merge keys (nodes that appear in more than one place)."""
    loader.get_event()  # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None, False
    loader.get_event()  # document start
    shared = False
    anchors: dict[str, yaml.Node] = {}
    # per open collection: [node, is a sequence, the mapping key waiting for its value]
    frames: list[list[Any]] = []
    node: yaml.Node
    get_event, resolve = loader.get_event, loader.resolve
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    ends = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    while True:
        event = get_event()
        kind = type(event)
        if kind is scalar_event:
            tag = event.tag
            if tag is None or tag == "!":
                tag = resolve(yaml.ScalarNode, event.value, event.implicit)
            start: Any = event.start_mark  # libyaml's own Mark class, unknown to the stubs
            node = yaml.ScalarNode(tag, event.value, start, event.end_mark, style=event.style)
            shared = shared or tag == _MERGE_TAG
            if event.anchor:
                anchors[event.anchor] = node
        elif kind in ends:
            node = frames.pop()[0]
            node.end_mark = event.end_mark
            if not frames:
                break
            continue
        elif kind is alias_event:
            if event.anchor not in anchors:
                raise CatalogError(f"invalid YAML: alias *{event.anchor} names no anchor",
                                   where=_mark(shown, event.start_mark))
            node = anchors[event.anchor]
            shared = True
        else:
            node = _new_collection(loader, event)
            if event.anchor:
                anchors[event.anchor] = node
        if frames:
            frame = frames[-1]
            if frame[1]:
                frame[0].value.append(node)
            elif frame[2] is None:
                frame[2] = node
            else:
                frame[0].value.append((frame[2], node))
                frame[2] = None
        if kind is scalar_event or kind is alias_event:
            if not frames:
                break
            continue
        if len(frames) >= MAX_DEPTH:
            raise CatalogError(f"nested deeper than {MAX_DEPTH} levels",
                               where=_mark(shown, event.start_mark))
        frames.append([node, kind is yaml.SequenceStartEvent, None])
    loader.get_event()  # document end
    if not loader.check_event(yaml.StreamEndEvent):
        event = loader.get_event()
        raise CatalogError("expected one YAML document, found another",
                           where=_mark(shown, event.start_mark))
    return node, shared


def _new_collection(loader: Any, event: Any) -> yaml.Node:
    kind = yaml.SequenceNode if isinstance(event, yaml.SequenceStartEvent) else yaml.MappingNode
    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(kind, None, event.implicit)
    return kind(tag, [], event.start_mark, None, flow_style=event.flow_style)


def _mark(shown: str, mark: Any) -> SourceRef:
    return SourceRef(shown, mark.line + 1, mark.column + 1)


def _where(shown: str, node: yaml.Node) -> SourceRef:
    return _mark(shown, node.start_mark)


def _measure(root: yaml.Node, shown: str) -> dict[int, int]:
    """Refuse alias expansion beyond the limits, and nesting that aliases make too deep,
    without expanding anything; flattens `<<` merge keys in place.

    Returns, per mapping with merge keys, how many of its pairs came from merging."""
    done: dict[int, tuple[int, int, int]] = {}  # node id -> (nodes, characters, depth)
    active: set[int] = set()
    merged: dict[int, int] = {}
    file_chars = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            parts = [done[id(child)] for child in _children(node)]
            depth = 1 + max((p[2] for p in parts), default=0)
            if depth > MAX_DEPTH:
                raise CatalogError(f"YAML aliases nest the document deeper than {MAX_DEPTH} "
                                   "levels", where=_where(shown, node))
            done[key] = (1 + sum(p[0] for p in parts), sum(p[1] for p in parts), depth)
            active.discard(key)
            continue
        if key in done:
            continue
        if key in active:
            raise CatalogError("YAML alias refers to itself", where=_where(shown, node))
        if isinstance(node, yaml.ScalarNode):
            done[key] = (1, len(node.value), 0)
            file_chars += len(node.value)
            continue
        active.add(key)
        if isinstance(node, yaml.MappingNode):
            _flatten(node, active, merged, shown)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(_children(node)))
    nodes, chars, _ = done[id(root)]
    distinct = len(done)
    for what, have, expanded, extra in (("nodes", distinct, nodes, ALIAS_EXTRA_NODES),
                                        ("characters", file_chars, chars, ALIAS_EXTRA_CHARS)):
        if expanded > max(have, 1) * ALIAS_RATIO or expanded > have + extra:
            raise CatalogError(
                f"YAML aliases expand {have:,} {what} to {expanded:,} (an alias bomb?); "
                f"refused", where=_where(shown, root))
    return merged


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        items: list[yaml.Node] = node.value  # typed Any by types-PyYAML
        return items
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _flatten(node: yaml.MappingNode, active: set[int], merged: dict[int, int],
             shown: str) -> None:
    sources = [value for key, value in node.value if key.tag == _MERGE_TAG]
    if not sources:
        return
    for source in sources:
        for part in (source.value if isinstance(source, yaml.SequenceNode) else [source]):
            if id(part) in active:
                raise CatalogError("YAML alias refers to itself", where=_where(shown, part))
    own = sum(1 for key, _ in node.value if key.tag != _MERGE_TAG)
    yaml.SafeLoader.flatten_mapping(_FLATTENER, node)
    merged[id(node)] = len(node.value) - own


class _YamlBuilder:
    """Builds Python data from a composed YAML node tree, recording each node's position."""

    def __init__(self, loader: Any, shown: str, merged: dict[int, int]) -> None:
        self.loader = loader
        self.shown = shown
        self.merged = merged
        self.positions: dict[str, tuple[int, int]] = {}

    def build(self, root: yaml.Node) -> tuple[Any, dict[str, tuple[int, int]]]:
        box: list[Any] = [None]
        stack: list[tuple[yaml.Node, str, Any, Any]] = [(root, "", box, 0)]
        while stack:
            node, pointer, parent, slot = stack.pop()
            self.positions[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
            if isinstance(node, yaml.ScalarNode):
                parent[slot] = self._scalar(node)
            elif isinstance(node, yaml.SequenceNode):
                parent[slot] = items = [None] * len(node.value)
                stack.extend((child, f"{pointer}/{i}", items, i)
                             for i, child in reversed(list(enumerate(node.value))))
            elif isinstance(node, yaml.MappingNode):
                out: dict[str, Any] = {}
                parent[slot] = out
                stack.extend(reversed(self._pairs(node, pointer, out)))
        return box[0], self.positions

    def _pairs(self, node: yaml.MappingNode, pointer: str,
               out: dict[str, Any]) -> list[tuple[yaml.Node, str, Any, Any]]:
        first_own = self.merged.get(id(node), 0)  # pairs before it came from `<<` merges
        own: dict[str, yaml.Node] = {}
        todo = []
        for i, (key_node, value_node) in enumerate(node.value):
            if not isinstance(key_node, yaml.ScalarNode):
                raise CatalogError("mapping keys must be plain scalars",
                                   where=_where(self.shown, key_node))
            # keys are JSON object keys: the text as written (`on:` stays "on", not True)
            key = key_node.value
            problem = bad_text(key)
            if problem:
                raise CatalogError(problem, where=_where(self.shown, key_node))
            if i >= first_own:
                if key in own:
                    mark = own[key].start_mark
                    raise CatalogError(
                        f"key '{key}' given twice in one mapping, at {mark.line + 1}:"
                        f"{mark.column + 1} and here", where=_where(self.shown, key_node))
                own[key] = key_node
            child = f"{pointer}/{escape(key)}"
            self.positions[child + "#key"] = (key_node.start_mark.line + 1,
                                              key_node.start_mark.column + 1)
            out[key] = None
            todo.append((value_node, child, out, key))
        return todo

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except ValueError as exc:  # an integer longer than Python converts, and the like
            if node.tag == _TIMESTAMP:
                # a date no calendar has ("2024-04-31T12:50:14+00:00" in Mollie's example):
                # kept as written, as every date is below (YAML 1.2 reads no dates at all)
                return node.value
            raise CatalogError(f"invalid YAML value: {exc}".split(";")[0],
                               where=_where(self.shown, node)) from exc
        problem = bad_scalar(value)
        if problem:
            raise CatalogError(problem, where=_where(self.shown, node))
        # dates, binary and the like have no JSON form: keep the text as written
        return value if isinstance(value, JSON_SCALARS) else node.value
