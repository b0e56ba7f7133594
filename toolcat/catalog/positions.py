"""Map JSON pointers of a parsed file back to 1-based line and column.

JSON is parsed by the C `json` module (fast) and positions come from a separate linear token scan
of the same text, run once per file on the first lookup. YAML positions are recorded while the
document is built from its composed node tree (see files.py).
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Protocol, TypeVar

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
    return pointer + "".join("/" + escape(str(t)) for t in tokens)


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


class JsonIndex:
    """Positions of a JSON text, scanned on the first lookup."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._offsets: dict[str, int] | None = None
        self._line_starts: list[int] | None = None

    def locate(self, pointer: str) -> tuple[int, int]:
        if self._offsets is None:
            self._offsets = scan_json(self._text)
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self._text)]
        offset = _nearest(self._offsets, pointer)
        if offset is None:
            return (1, 1)
        assert self._line_starts is not None
        line = bisect.bisect_right(self._line_starts, offset)
        return (line, offset - self._line_starts[line - 1] + 1)


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
    stack: list[list] = []
    top: list = []
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
