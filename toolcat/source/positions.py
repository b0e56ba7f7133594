"""Map JSON pointers of a parsed file back to 1-based line and column.

JSON is parsed by the C `json` module (fast) and positions come from a separate linear token scan
of the same text, run once per file on the first lookup. YAML positions are recorded while the
document is built from its composed node tree (see files.py).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator, Sequence
from json import decoder
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

# strings as an unrolled loop: a run of plain characters costs no backtracking memory, so a
# string of millions of characters is scanned in constant space
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]]|[^\s{}\[\]:,"]+')


def escape(token: str) -> str:
    """Escape one reference token of a JSON pointer (RFC 6901)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: str | int) -> str:
    for token in tokens:  # called for every tool and field read: a loop beats a generator
        text = token if type(token) is str else str(token)
        pointer += "/" + (escape(text) if "~" in text or "/" in text else text)
    return pointer


class PositionIndex(Protocol):
    def locate(self, pointer: str) -> tuple[int, int]:
        """(line, column) of the node at `pointer`, or of its nearest recorded ancestor."""
        ...


class MappedIndex:
    """Positions recorded up front: pointer -> (line, column)."""

    def __init__(self, positions: dict[str, tuple[int, int]]) -> None:
        self._positions = positions

    def locate(self, pointer: str) -> tuple[int, int]:
        return _nearest(self._positions, pointer) or (1, 1)

    def locate_many(self, pointers: Sequence[str]) -> list[tuple[int, int]]:
        return [self.locate(pointer) for pointer in pointers]


class LaterIndex:
    """A position index made when a position is first asked for."""

    def __init__(self, make: Callable[[], PositionIndex]) -> None:
        self._make = make
        self._index: PositionIndex | None = None

    def locate(self, pointer: str) -> tuple[int, int]:
        if self._index is None:
            self._index = self._make()
        return self._index.locate(pointer)

    def locate_many(self, pointers: Sequence[str]) -> list[tuple[int, int]]:
        if self._index is None:
            self._index = self._make()
        return locate_many(self._index, pointers)


class KeyLocator:
    """Finds the key of the member a pointer names (`pointer#key`) in `index`."""

    def __init__(self, index: PositionIndex) -> None:
        self._index = index

    def locate(self, pointer: str) -> tuple[int, int]:
        return self._index.locate(pointer + "#key")

    def locate_many(self, pointers: Sequence[str]) -> list[tuple[int, int]]:
        return locate_many(self._index, [pointer + "#key" for pointer in pointers])


class JsonIndex:
    """Positions of a JSON text, found when asked for.

    A lookup walks down the pointer one container at a time. The members of a container
    are found once, by the C decoder stepping from one member to the next (a container is
    read at about the speed of `json.loads`, and only the containers on a looked-up path
    are read), so locating every tool of a 43,000-tool file costs about one more parse of
    it, not a Python loop over every token. Line numbers count newlines from the nearest
    offset already located, so lookups in file order read the text once.
    """

    def __init__(self, text: str, known: dict[str, int] | None = None) -> None:
        """`known`: offsets of some pointers found before (a remembered read's tools), so
        that showing where a tool is defined does not step over the tools before it."""
        self._text = text
        self._known = known or {}
        # container offset -> (its members stepped over so far, the steps still to take)
        self._members: dict[int, tuple[dict[str, tuple[int, int]],
                                       Iterator[tuple[str, tuple[int, int]]] | None]] = {}
        #   members: token -> (offset of the key or -1, offset of the value)
        self._lines: list[int] = [0]  # offsets whose line is known, ascending ...
        self._line_of: list[int] = [1]  # ... their lines ...
        self._starts: list[int] = [0]  # ... and where those lines start
        self._root: int | None = None  # offset of the top value

    def locate(self, pointer: str) -> tuple[int, int]:
        offset = self.offset(pointer)
        return (1, 1) if offset is None else self._line_column(offset)

    def locate_many(self, pointers: Sequence[str]) -> list[tuple[int, int]]:
        """`locate` of each of `pointers`, their lines counted in one pass over the text in
        offset order (thousands of findings placed one by one searched and grew the list of
        known lines at every lookup)."""
        offsets = [self.offset(pointer) for pointer in pointers]
        text = self._text
        places: dict[int, tuple[int, int]] = {}
        line, start, at = 1, 0, 0
        for offset in sorted({offset for offset in offsets if offset is not None}):
            newlines = text.count("\n", at, offset)
            if newlines:
                line += newlines
                start = text.rfind("\n", at, offset) + 1
            places[offset] = (line, offset - start + 1)
            at = offset
        return [(1, 1) if offset is None else places[offset] for offset in offsets]

    def offset(self, pointer: str) -> int | None:
        """The offset of the node at `pointer` (`pointer#key`: of its key), or of its nearest
        ancestor; None for an empty text."""
        known = self._known.get(pointer)
        if known is not None and 0 <= known < len(self._text):
            return known
        if self._root is None:
            self._root = _past_blanks(self._text, 0)
        at = self._root
        if at >= len(self._text):
            return None
        want_key = pointer.endswith("#key")
        path = pointer[:-4] if want_key else pointer
        start, path = self._known_ancestor(path)
        at = at if start is None else start
        tokens = path.split("/")[1:]
        last = len(tokens) - 1
        for depth, token in enumerate(tokens):
            member = self._member(at, unescape(token) if "~" in token else token)
            if member is None:
                return at
            key, value = member
            if want_key and depth == last:
                return key if key >= 0 else at  # an array item has no key
            at = value
        return at

    def _known_ancestor(self, path: str) -> tuple[int | None, str]:
        """(the offset of the nearest ancestor of `path` known already, the rest of the path
        below it); (None, path) when none is: the walk down then starts at a tool's entry,
        not at the top, whose thousands of members it would step over first."""
        known, cut = self._known, path
        while known and "/" in cut:
            cut = cut[:cut.rindex("/")]
            found = known.get(cut)
            if found is not None and 0 <= found < len(self._text):
                return found, path[len(cut):]
        return None, path

    def _member(self, at: int, token: str) -> tuple[int, int] | None:
        """A member of the container at `at`. An array is stepped through only as far as the
        item asked for (the few tools `pick` shows need not cost a pass over the whole
        catalog); an object is read whole, so that of a key given twice the last one counts,
        as in the parsed data."""
        entry = self._members.get(at)
        if entry is None:
            steps = _members(self._text, at)
            entry = self._members[at] = ({}, steps) if self._text[at] == "[" else \
                (dict(steps), None)
        found, rest = entry
        hit = found.get(token)
        if hit is None and rest is not None:
            for name, member in rest:
                found[name] = member
                if name == token:
                    return member
            self._members[at] = (found, None)
        return hit

    def _line_column(self, offset: int) -> tuple[int, int]:
        """Newlines are counted from the nearest offset already located, before or after,
        so lookups in any order read each stretch of text about once (a minified file is one
        long line: its line start is never searched for again)."""
        text, lines, starts = self._text, self._lines, self._starts
        i = bisect.bisect_right(lines, offset) - 1
        if lines[i] == offset:
            return self._line_of[i], offset - starts[i] + 1
        after = i + 1 < len(lines) and lines[i + 1] - offset < offset - lines[i]
        if after:
            newlines = text.count("\n", offset, lines[i + 1])
            line = self._line_of[i + 1] - newlines
        else:
            newlines = text.count("\n", lines[i], offset)
            line = self._line_of[i] + newlines
        if after and not newlines:
            start = starts[i + 1]
        else:
            start = text.rfind("\n", lines[i], offset) + 1 or starts[i]
        lines.insert(i + 1, offset)
        self._line_of.insert(i + 1, line)
        starts.insert(i + 1, start)
        return line, offset - start + 1


_WHITESPACE = re.compile(r"[ \t\n\r]*")
# The decoder's own string scanner (the C one where built): typeshed leaves it out because it is
# not in json.decoder.__all__, though the module has exported it since Python 2.6.
_scanstring: Callable[[str, int], tuple[str, int]] = decoder.scanstring  # type: ignore[attr-defined]
# Values are stepped over, not kept: objects are not even built as dicts.
_SKIP = json.JSONDecoder(object_pairs_hook=lambda pairs: None).raw_decode


def _members(text: str, at: int) -> Iterator[tuple[str, tuple[int, int]]]:
    """The members of the container at `at` in order (the text is valid JSON: it was parsed
    already): (token, (offset of the key, or -1 in an array; offset of the value))."""
    opening = text[at]
    if opening not in "[{":
        return
    closing = "]" if opening == "[" else "}"
    skip = _past_blanks
    position = skip(text, at + 1)
    index = 0
    while text[position] != closing:
        if opening == "{":
            key_at = position
            key, position = _scanstring(text, position + 1)
            position = skip(text, skip(text, position) + 1)  # past the colon
            token = key
        else:
            key_at, token = -1, str(index)
            index += 1
        yield token, (key_at, position)
        position = skip(text, _SKIP(text, position)[1])
        if text[position] == ",":
            position = skip(text, position + 1)


def _past_blanks(text: str, at: int) -> int:
    """The offset of the first non-whitespace character from `at` (or the end)."""
    blanks = _WHITESPACE.match(text, at)
    return at if blanks is None else blanks.end()  # the pattern matches "" too: never None


def locate_many(index: PositionIndex, pointers: Sequence[str]) -> list[tuple[int, int]]:
    """`index.locate` of each of `pointers`, in one pass where the index can
    (`locate_many`)."""
    many: Callable[[Sequence[str]], list[tuple[int, int]]] | None = \
        getattr(index, "locate_many", None)
    if many is not None:
        return many(pointers)
    return [index.locate(pointer) for pointer in pointers]


def _nearest(positions: dict[str, T], pointer: str) -> T | None:
    while True:
        if pointer in positions:
            return positions[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


def scan_json(text: str) -> dict[str, int]:
    """Offsets of every value in a JSON text by pointer; an object key's own offset is
    recorded under `pointer + "#key"`. The text is assumed valid (it was parsed already)."""
    offsets: dict[str, int] = {}
    # each open container: [pointer, is_object, next_index, expecting_key, current_key_pointer]
    stack: list[list[Any]] = []
    top: list[Any] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == "}" or first == "]":
            stack.pop()
            top = stack[-1] if stack else []
            continue
        if top:
            if top[1]:
                if top[3]:
                    key = json.loads(token) if "\\" in token else token[1:-1]
                    top[4] = top[0] + "/" + escape(key)
                    offsets[top[4] + "#key"] = match.start()
                    top[3] = False
                    continue
                pointer = top[4]
                top[3] = True
            else:
                pointer = f"{top[0]}/{top[2]}"
                top[2] += 1
        else:
            pointer = ""
        offsets[pointer] = match.start()
        if first == "{":
            top = [pointer, True, 0, True, ""]
            stack.append(top)
        elif first == "[":
            top = [pointer, False, 0, False, ""]
            stack.append(top)
    return offsets


def duplicate_key(text: str) -> tuple[int, int, str]:
    """(offset of the first, offset of the second, key) of the first key given twice in one
    object of a JSON text; (0, 0, "") when there is none."""
    objects: list[dict[str, int] | None] = []  # per open container: keys seen (None: array)
    expecting_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "{[":
            objects.append({} if first == "{" else None)
            expecting_key = first == "{"
            continue
        if first in "}]":
            objects.pop()
            expecting_key = bool(objects) and objects[-1] is not None  # a value just ended
            continue
        seen = objects[-1] if objects else None
        if seen is None:
            continue
        if expecting_key:
            key = json.loads(token) if "\\" in token else token[1:-1]
            if key in seen:
                return seen[key], match.start(), key
            seen[key] = match.start()
        expecting_key = not expecting_key
    return 0, 0, ""


def token_at_depth(text: str, depth: int) -> int:
    """Offset of the first `{` or `[` opening the `depth`-th nested level of a JSON text."""
    level = 0
    for match in _TOKEN.finditer(text):
        first = match.group()[0]
        if first in "{[":
            level += 1
            if level >= depth:
                return match.start()
        elif first in "}]":
            level -= 1
    return 0
