"""JSON text (and JSONC, VS Code's comments and trailing commas) into plain data with positions.

Strict: a key given twice in one object, NaN or Infinity, and every limit of source.limits are
refused with the line and column. The C `json` module parses; positions come from
source.positions' index, built when first asked for.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolcat.errors import CatalogError
from toolcat.model import SourceRef
from toolcat.source import checked
from toolcat.source.limits import MAX_DEPTH, SURROGATE_ESCAPE, check_value
from toolcat.source.positions import JsonIndex, PositionIndex, duplicate_key, token_at_depth


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


def parse_json(text: str, shown: str, line: int = 0, type_names: set[str] | None = None,
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
        l1, c1 = line_col(text, first)
        l2, c2 = line_col(text, second)
        raise CatalogError(f"key '{key}' given twice in one object, at {l1 + line}:{c1} "
                           f"and here", where=SourceRef(shown, l2 + line, c2)) from exc
    except _Constant as exc:
        offset = _bare_token(text, str(exc))
        raise CatalogError(f"{exc} is not a JSON number; NaN and Infinity are refused",
                           where=SourceRef(shown, *shift(line_col(text, offset), line))
                           ) from exc
    except RecursionError as exc:
        offset = token_at_depth(text, MAX_DEPTH + 1)
        raise CatalogError(f"nested deeper than {MAX_DEPTH} levels",
                           where=SourceRef(shown, *shift(line_col(text, offset), line))
                           ) from exc
    except ValueError as exc:  # an integer with more digits than Python converts
        match = re.search(r"(?<!\d)\d{4000,}", text)  # runs tried from their start: linear
        where = line_col(text, match.start()) if match else (1, 1)
        raise CatalogError(f"invalid JSON number: {exc}".split(";")[0],
                           where=SourceRef(shown, *shift(where, line))) from exc
    seen = type_names if type_names is not None else set()
    check_value(data, shown, Shifted(index, line) if line else index, seen,
                surrogates=SURROGATE_ESCAPE.search(text) is not None)
    if key:
        checked.remember(key, seen)
    return data, index


def shift(position: tuple[int, int], lines: int) -> tuple[int, int]:
    return position[0] + lines, position[1]


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _bare_token(text: str, token: str) -> int:
    """Offset of `token` outside any JSON string (0 when absent)."""
    for match in re.finditer(r'"[^"\\]*(?:\\.[^"\\]*)*"|' + re.escape(token), text):
        if match.group() == token:
            return match.start()
    return 0


class Shifted:
    """Positions of one line of a JSON Lines file, `lines` lines down the file."""

    def __init__(self, index: PositionIndex, lines: int) -> None:
        self.index, self.lines = index, lines

    def locate(self, pointer: str) -> tuple[int, int]:
        return shift(self.index.locate(pointer), self.lines)


# JSONC: comments and trailing commas become blanks, so every position stays where it was.
# Comments go first, so that a comma followed by a comment and then `}` is seen as trailing.
_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'


_JSONC_COMMENTS = re.compile(_STRING + r'|//[^\n]*|/\*[^*]*(?:\*+[^*/][^*]*)*(?:\*+/)?')


_JSONC_COMMAS = re.compile(_STRING + r'|,(?=\s*[}\]])')


def lenient_json(text: str, shown: str, strict: CatalogError) -> tuple[Any, PositionIndex]:
    """JSONC (comments, trailing commas), or JSON Lines in a .json file (BFCL's function
    files); the strict error when the text is neither."""
    if "Extra data" in strict.message and strict.where and (strict.where.line or 0) > 1:
        try:
            return json_lines(text, shown)
        except CatalogError as lines:
            raise (strict if lines.message.startswith("invalid JSON") else lines) from None
    blanked = _JSONC_COMMAS.sub(_blank, _JSONC_COMMENTS.sub(_blank, text))
    if blanked == text or not strict.message.startswith("invalid JSON"):
        raise strict
    try:
        return parse_json(blanked, shown)
    except CatalogError as lenient:
        raise (strict if lenient.message.startswith("invalid JSON") else lenient) from None


def _blank(match: re.Match[str]) -> str:
    token = match.group()
    if token.startswith('"'):
        return token
    return re.sub(r"[^\n]", " ", token)


def json_lines(text: str, shown: str) -> tuple[list[Any], PositionIndex]:
    """One JSON value per line (blank lines skipped), as a list, with the positions of each."""
    items: list[Any] = []
    lines: dict[int, PositionIndex] = {}
    for number, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        value, index = parse_json(line, shown, number)
        lines[len(items)] = Shifted(index, number)
        items.append(value)
    if not items:
        raise CatalogError("file is empty", where=SourceRef(shown))
    return items, _LinesIndex(lines)


class _LinesIndex:
    def __init__(self, lines: dict[int, PositionIndex]) -> None:
        self._lines = lines

    def locate(self, pointer: str) -> tuple[int, int]:
        first, _, rest = pointer.removeprefix("/").partition("/")
        if not first.isdigit() or int(first) not in self._lines:
            return (1, 1)
        return self._lines[int(first)].locate("/" + rest if rest else "")
