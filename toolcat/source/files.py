"""Read one YAML, JSON, JSONC or JSON Lines file into plain Python data plus a position index.

Every failure is a CatalogError naming file:line:column where the parser knows it. Input is
strict: a key given twice in one mapping, NaN or Infinity, nesting deeper than MAX_DEPTH,
strings longer than MAX_STRING and lone surrogates (a `\\ud800` escape JSON decodes into a
code point no UTF-8 text can hold) are refused, so no later stage (a recursive validator, a
tokenizer, a printer) meets them.

YAML is parsed into events by libyaml (when present) and composed here without recursion,
which records positions, bounds nesting before anything deep is built, and bounds alias
expansion, so an alias bomb is refused instead of exhausting memory.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from toolcat.errors import CatalogError
from toolcat.model import SourceRef
from toolcat.source import checked
from toolcat.source.positions import (
    JsonIndex,
    MappedIndex,
    PositionIndex,
    duplicate_key,
    escape,
    token_at_depth,
)

YAML_SUFFIXES = (".yaml", ".yml")
JSON_SUFFIXES = (".json", ".jsonc")
JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")
# what a catalog folder is searched for (JSON Lines files there are usually query sets)
CATALOG_SUFFIXES = (*YAML_SUFFIXES, ".json")

MAX_DEPTH = 64  # nested mappings/lists; real tool schemas stay under 12
MAX_STRING = 1_000_000  # characters in one string or key
MAX_FILE_BYTES = 512 * 2**20  # one catalog file; 43,000 real tools take about 60 MiB
READ_PIECE = 2**22
# Aliases may make a YAML document at most ALIAS_RATIO times the nodes and characters the
# file holds, and never add more than ALIAS_EXTRA_NODES nodes or ALIAS_EXTRA_CHARS characters.
ALIAS_RATIO = 100
ALIAS_EXTRA_NODES = 1_000_000
ALIAS_EXTRA_CHARS = 10_000_000

# What JSON's `\\udNNN` escapes decode to when they are not a valid pair: not a character,
# so printing, writing or encoding the text fails. Any other code point is writable.
_SURROGATE = re.compile("[\ud800-\udfff]")
# The only way a JSON text (UTF-8, decoded strictly) holds one: an escape \uD800-\uDFFF.
# A text without any has nothing to look for (a scan of 20 MB takes 20 ms; looking at every
# string of 43,000 tools took a fifth more than the rest of the walk).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_JSON_SCALARS = (str, int, float, bool, type(None))
_FLATTENER = yaml.SafeLoader("")
_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class ParsedFile:
    path: str
    data: Any
    index: PositionIndex
    has_refs: bool = True  # False when the text has no "$ref" at all: nothing to check
    # every string value of a `type` key in the document, when known (strict JSON); the
    # loader maps foreign type names (`dict`, ...) only in files that may hold one
    type_names: frozenset[str] | None = None
    # False when the text cannot hold example requests (docs/tune.md): no key to look for
    has_examples: bool = True


STDIN = "-"
STDIN_PATH = Path("/dev/stdin")


def named_path(argument: str | Path) -> Path:
    """The file a command-line argument names: `-` is standard input (unless a file of that
    name is in the working folder)."""
    if str(argument) == STDIN and not Path(STDIN).exists():
        return STDIN_PATH
    return Path(argument)


def read_text(path: Path) -> str:
    shown = str(path)
    if _SURROGATE.search(shown):  # bytes of the name Python could not decode (surrogateescape)
        raise CatalogError("the file name is not UTF-8 text, and toolcat writes file names in "
                           "its output: rename the file", where=SourceRef(shown))
    if not path.exists():
        raise CatalogError("no such file", where=SourceRef(shown))
    if path.is_dir():
        raise CatalogError("is a directory, not a file", where=SourceRef(shown))
    try:
        raw = _read_bounded(path, shown)
    except OSError as exc:
        raise CatalogError(f"cannot read: {exc.strerror}", where=SourceRef(shown)) from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CatalogError("not UTF-8 text", where=SourceRef(shown, line, column)) from exc


def _read_bounded(path: Path, shown: str) -> bytes | bytearray:
    """The bytes of `path`, read so that an endless or binary stream (`/dev/zero`, a device, a
    pipe that never ends) stops at MAX_FILE_BYTES or at its first NUL byte, which no JSON or
    YAML text holds, instead of filling memory.

    Raises:
        CatalogError: the file is larger than MAX_FILE_BYTES or holds a NUL byte.
    """
    raw: bytes | bytearray
    with path.open("rb") as handle:
        if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # its size is known: one read
            raw = handle.read(MAX_FILE_BYTES + 1)
            _check_piece(raw, b"", shown)
        else:
            raw = bytearray()
            while len(raw) <= MAX_FILE_BYTES and (piece := handle.read(READ_PIECE)):
                _check_piece(piece, raw if b"\0" in piece else b"", shown)
                raw += piece
    if len(raw) > MAX_FILE_BYTES:
        raise CatalogError(f"larger than {MAX_FILE_BYTES // 2**20} MiB, the most toolcat "
                           "reads from one file; split the catalog into several files",
                           where=SourceRef(shown))
    return raw


# UTF-32 first: its little-endian mark begins with UTF-16's
_WIDE_BOMS = ((b"\xff\xfe\0\0", "UTF-32"), (b"\0\0\xfe\xff", "UTF-32"),
              (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def _check_piece(piece: bytes, before: bytes | bytearray, shown: str) -> None:
    """A CatalogError at the first NUL byte of `piece`, which follows the bytes `before`."""
    nul = piece.find(b"\0")
    if nul < 0:
        return
    if not before:
        for mark, encoding in _WIDE_BOMS:
            if piece.startswith(mark):  # its ASCII letters hold NUL bytes: say what it is
                raise CatalogError(f"{encoding} text (it starts with a {encoding} byte-order "
                                   "mark); toolcat reads UTF-8: convert the file to UTF-8",
                                   where=SourceRef(shown, 1, 1))
    raw = bytes(before) + piece[:nul]
    line = raw.count(b"\n") + 1
    column = len(raw) - (raw.rfind(b"\n") + 1) + 1
    raise CatalogError("binary data (a NUL byte), not JSON or YAML text",
                       where=SourceRef(shown, line, column))


def parse_file(path: Path, text: str | None = None, digest: str | None = None) -> ParsedFile:
    """Parse a file by its suffix: YAML for .yaml/.yml, JSON Lines for .jsonl/.ndjson, JSON
    (comments and trailing commas allowed, as in VS Code's mcp.json) for .json/.jsonc, else
    JSON if it looks like JSON. `text` is the file's text when it was read already, `digest`
    its checked.text_digest when taken already."""
    text = read_text(path) if text is None else text
    if path.suffix.lower() in JSON_LINES_SUFFIXES:
        return parse_json_lines(text, str(path))
    return parse_text(text, str(path), yaml_syntax=_is_yaml(path, text), digest=digest)


def parse_text(text: str, shown: str, *, yaml_syntax: bool,
               digest: str | None = None) -> ParsedFile:
    if not text.strip():
        raise CatalogError("file is empty", where=SourceRef(shown))
    if yaml_syntax:
        data, positions = _parse_yaml(text, shown)
        return _parsed(shown, data, MappedIndex(positions), text)
    type_names: set[str] = set()
    try:
        data, index = _parse_json(text, shown, type_names=type_names, digest=digest)
    except CatalogError as strict:
        data, index = _lenient_json(text, shown, strict)
        return _parsed(shown, data, index, text)
    return _parsed(shown, data, index, text, frozenset(type_names))


def _parsed(shown: str, data: Any, index: PositionIndex, text: str,
            type_names: frozenset[str] | None = None) -> ParsedFile:
    """A ParsedFile with what its text tells about it (whether it may hold `$ref`s or example
    requests), so readers skip what cannot be there."""
    return ParsedFile(shown, data, index, _may_refer(text), type_names, _may_hold_examples(text))


# "$ref" as written, an escape of one of its characters (JSON \u, YAML \x \u \U), or a YAML
# escaped line break, which joins a double-quoted key written on two lines; other escapes
# (accented letters in descriptions, common in real catalogs) cannot spell it
_REF_ESCAPE = re.compile(r"\\(?:x|u00|U000000)(?:24|72|65|66)|\\\r?\n")


def _may_hold_examples(text: str) -> bool:
    """Whether a key holding example requests (`example_requests`, `x-example-requests`) may
    be in the text; a JSON escape of an ASCII character may spell one."""
    return ("example_requests" in text or "example-requests" in text
            or _ASCII_ESCAPE.search(text) is not None)


_ASCII_ESCAPE = re.compile(r"\\(?:u00|x)[2-7][0-9A-Fa-f]")  # JSON and YAML escapes


def _may_refer(text: str) -> bool:
    """Whether the text may hold a `$ref` key (when not, no reference needs checking)."""
    return "$ref" in text or _REF_ESCAPE.search(text) is not None


def check_value(value: Any, shown: str, index: PositionIndex | None = None,
                type_names: set[str] | None = None, *, surrogates: bool = True) -> None:
    """Raise a CatalogError at the place of value_problem's problem, if there is one."""
    found = value_problem(value, type_names, surrogates=surrogates)
    if found:
        problem, pointer = found
        where = SourceRef(shown, *index.locate(pointer), pointer) if index else \
            SourceRef(shown, pointer=pointer)
        raise CatalogError(problem, where=where)


def value_problem(value: Any, type_names: set[str] | None = None, *,
                  surrogates: bool = True) -> tuple[str, str] | None:
    """(problem, JSON pointer) of the first place where a JSON value nests deeper than
    MAX_DEPTH, holds a string (or key) longer than MAX_STRING or holding a lone surrogate, or
    a non-finite number; else None. `type_names`, when given, receives every string value of
    a `type` key on the way (or UNKNOWN_TYPES when the fast walk did not see them all).
    `surrogates=False` skips looking for lone surrogates, for a value parsed from a JSON
    text that holds no escape that could make one.

    For values that did not come through parse_file, such as the arguments of a tool call."""
    if _within_limits(value, type_names, surrogates):
        return None
    if type_names is not None:
        type_names.add(UNKNOWN_TYPES)
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, at, depth = stack.pop()
        problem = _bad_scalar(item)
        if problem is None and isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                problem = f"nested deeper than {MAX_DEPTH} levels"
            elif isinstance(item, dict):
                for key, sub in item.items():
                    child = f"{at}/{escape(str(key))}"
                    if isinstance(key, str) and (problem := _bad_text(key)):
                        return problem, child + "#key"
                    stack.append((sub, child, depth + 1))
            else:
                stack.extend((sub, f"{at}/{i}", depth + 1) for i, sub in enumerate(item))
        if problem:
            return problem, at
    return None


UNKNOWN_TYPES = "?"  # not a JSON Schema type name: the loader checks every schema


def _within_limits(value: Any, type_names: set[str] | None = None,
                   surrogates: bool = True) -> bool:
    """Whether value_problem would find nothing: one pass that builds no pointers (the walk
    that names the place runs only when something is wrong)."""
    stack = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        kind = type(node)
        if kind is dict:
            if depth >= MAX_DEPTH:
                return False
            if type_names is not None:
                named = node.get("type")
                if type(named) is str:
                    type_names.add(named)
            for key in node:
                if isinstance(key, str) and (len(key) > MAX_STRING or (
                        surrogates and not key.isascii() and _SURROGATE.search(key))):
                    return False
            children = node.values()
        elif kind is list:
            if depth >= MAX_DEPTH:
                return False
            children = node
        else:
            children = (node,)
            depth -= 1  # a lone scalar is checked below at the depth of its parent
        for child in children:
            kind = type(child)
            if kind is str:
                if len(child) > MAX_STRING or (surrogates and not child.isascii()
                                               and _SURROGATE.search(child)):
                    return False
            elif kind is dict or kind is list:
                push((child, depth + 1))
            elif kind is float:
                if not math.isfinite(child):
                    return False
            elif kind not in _PLAIN:
                return False  # a subclass or another type: the careful walk decides
    return True


_PLAIN = frozenset({int, bool, type(None)})


def _bad_scalar(item: Any) -> str | None:
    if isinstance(item, str):
        return _bad_text(item)
    if isinstance(item, float) and not math.isfinite(item):
        return "NaN and Infinity are not JSON numbers"
    return None


def _bad_text(text: str) -> str | None:
    """What is wrong with a string or key: too long, or holding a lone surrogate."""
    if len(text) > MAX_STRING:
        return _too_long(text)
    if not text.isascii() and (found := _SURROGATE.search(text)):
        return (f"a lone surrogate ({ascii(found.group())[1:-1]} escape) is not a Unicode "
                "character; no UTF-8 text can hold it")
    return None


def _too_long(text: str) -> str:
    return f"a string of {len(text):,} characters; the limit is {MAX_STRING:,}"


def _is_yaml(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in YAML_SUFFIXES:
        return True
    if suffix in JSON_SUFFIXES:
        return False
    return text.lstrip()[:1] not in ("{", "[")


# --- JSON -------------------------------------------------------------------------------------

class _Duplicate(Exception):
    pass


class _Constant(Exception):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Duplicate
    return out


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def _parse_json(text: str, shown: str, line: int = 0, type_names: set[str] | None = None,
                digest: str | None = None) -> tuple[Any, PositionIndex]:
    """Strict JSON; `line` is added to reported lines (a line of a JSON Lines file);
    `type_names` as for value_problem; `digest` the text's, when taken already."""
    index = JsonIndex(text)
    key = checked.key(text, digest) if not line else None
    known = checked.recall(key) if key else None
    if known is not None:  # this very text passed every check below before
        if type_names is not None:
            type_names |= known
        return json.loads(text), index
    try:
        data = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise CatalogError(f"invalid JSON: {exc.msg}",
                           where=SourceRef(shown, exc.lineno + line, exc.colno)) from exc
    except _Duplicate as exc:
        first, second, key = duplicate_key(text)
        l1, c1 = _line_col(text, first)
        l2, c2 = _line_col(text, second)
        raise CatalogError(f"key '{key}' given twice in one object, at {l1 + line}:{c1} "
                           f"and here", where=SourceRef(shown, l2 + line, c2)) from exc
    except _Constant as exc:
        offset = _bare_token(text, str(exc))
        raise CatalogError(f"{exc} is not a JSON number; NaN and Infinity are refused",
                           where=SourceRef(shown, *_shift(_line_col(text, offset), line))
                           ) from exc
    except RecursionError as exc:
        offset = token_at_depth(text, MAX_DEPTH + 1)
        raise CatalogError(f"nested deeper than {MAX_DEPTH} levels",
                           where=SourceRef(shown, *_shift(_line_col(text, offset), line))
                           ) from exc
    except ValueError as exc:  # an integer with more digits than Python converts
        match = re.search(r"(?<!\d)\d{4000,}", text)  # runs tried from their start: linear
        where = _line_col(text, match.start()) if match else (1, 1)
        raise CatalogError(f"invalid JSON number: {exc}".split(";")[0],
                           where=SourceRef(shown, *_shift(where, line))) from exc
    seen = type_names if type_names is not None else set()
    check_value(data, shown, _Shifted(index, line) if line else index, seen,
                surrogates=_SURROGATE_ESCAPE.search(text) is not None)
    if key:
        checked.remember(key, seen)
    return data, index


def _shift(position: tuple[int, int], lines: int) -> tuple[int, int]:
    return position[0] + lines, position[1]


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _bare_token(text: str, token: str) -> int:
    """Offset of `token` outside any JSON string (0 when absent)."""
    for match in re.finditer(r'"[^"\\]*(?:\\.[^"\\]*)*"|' + re.escape(token), text):
        if match.group() == token:
            return match.start()
    return 0


class _Shifted:
    """Positions of one line of a JSON Lines file, `lines` lines down the file."""

    def __init__(self, index: PositionIndex, lines: int) -> None:
        self.index, self.lines = index, lines

    def locate(self, pointer: str) -> tuple[int, int]:
        return _shift(self.index.locate(pointer), self.lines)


# JSONC: comments and trailing commas become blanks, so every position stays where it was.
# Comments go first, so that a comma followed by a comment and then `}` is seen as trailing.
_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_JSONC_COMMENTS = re.compile(_STRING + r'|//[^\n]*|/\*[^*]*(?:\*+[^*/][^*]*)*(?:\*+/)?')
_JSONC_COMMAS = re.compile(_STRING + r'|,(?=\s*[}\]])')


def _lenient_json(text: str, shown: str, strict: CatalogError) -> tuple[Any, PositionIndex]:
    """JSONC (comments, trailing commas), or JSON Lines in a .json file (BFCL's function
    files); the strict error when the text is neither."""
    if "Extra data" in strict.message and strict.where and (strict.where.line or 0) > 1:
        try:
            parsed = parse_json_lines(text, shown)
        except CatalogError as lines:
            raise (strict if lines.message.startswith("invalid JSON") else lines) from None
        return parsed.data, parsed.index
    blanked = _JSONC_COMMAS.sub(_blank, _JSONC_COMMENTS.sub(_blank, text))
    if blanked == text or not strict.message.startswith("invalid JSON"):
        raise strict
    try:
        return _parse_json(blanked, shown)
    except CatalogError as lenient:
        raise (strict if lenient.message.startswith("invalid JSON") else lenient) from None


def _blank(match: re.Match[str]) -> str:
    token = match.group()
    if token.startswith('"'):
        return token
    return re.sub(r"[^\n]", " ", token)


def parse_json_lines(text: str, shown: str) -> ParsedFile:
    """One JSON value per line (blank lines skipped), as a list."""
    items: list[Any] = []
    lines: dict[int, PositionIndex] = {}
    for number, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        value, index = _parse_json(line, shown, number)
        lines[len(items)] = _Shifted(index, number)
        items.append(value)
    if not items:
        raise CatalogError("file is empty", where=SourceRef(shown))
    return _parsed(shown, items, _LinesIndex(lines), text)


class _LinesIndex:
    def __init__(self, lines: dict[int, PositionIndex]) -> None:
        self._lines = lines

    def locate(self, pointer: str) -> tuple[int, int]:
        first, _, rest = pointer.removeprefix("/").partition("/")
        if not first.isdigit() or int(first) not in self._lines:
            return (1, 1)
        return self._lines[int(first)].locate("/" + rest if rest else "")


# --- YAML -------------------------------------------------------------------------------------

def _parse_yaml(text: str, shown: str) -> tuple[Any, dict[str, tuple[int, int]]]:
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
                where = SourceRef(shown, *_line_col(text, offset))
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
            problem = _bad_text(key)
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
            raise CatalogError(f"invalid YAML value: {exc}".split(";")[0],
                               where=_where(self.shown, node)) from exc
        problem = _bad_scalar(value)
        if problem:
            raise CatalogError(problem, where=_where(self.shown, node))
        # dates, binary and the like have no JSON form: keep the text as written
        return value if isinstance(value, _JSON_SCALARS) else node.value
