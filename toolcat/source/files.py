"""Read one YAML, JSON, JSONC or JSON Lines file into plain Python data plus a position index.

Every failure is a CatalogError naming file:line:column where the parser knows it. The file is
read bounded (source.limits: at most MAX_FILE_BYTES, no NUL byte, UTF-8), then parsed by its
syntax: source.json_text for JSON, JSONC and each line of JSON Lines, source.yaml_text for
YAML; both hold the value to the same limits.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcat.errors import CatalogError
from toolcat.model import SourceRef
from toolcat.source.json_text import json_lines, lenient_json, parse_json
from toolcat.source.limits import MAX_FILE_BYTES, READ_PIECE, SURROGATE
from toolcat.source.positions import MappedIndex, PositionIndex
from toolcat.source.yaml_text import parse_yaml

YAML_SUFFIXES = (".yaml", ".yml")


JSON_SUFFIXES = (".json", ".jsonc")


JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")


# what a catalog folder is searched for (JSON Lines files there are usually query sets)
CATALOG_SUFFIXES = (*YAML_SUFFIXES, ".json")


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
    return decode_text(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes | bytearray:
    """The bytes of a file, read as `read_text` reads it (the same checks and limits) but
    not decoded yet: a catalog remembered by its content needs only their digest."""
    shown = str(path)
    if SURROGATE.search(shown):  # bytes of the name Python could not decode (surrogateescape)
        raise CatalogError("the file name is not UTF-8 text, and toolcat writes file names in "
                           "its output: rename the file", where=SourceRef(shown))
    if not path.exists():
        raise CatalogError("no such file", where=SourceRef(shown))
    if path.is_dir():
        raise CatalogError("is a directory, not a file", where=SourceRef(shown))
    try:
        return _read_bounded(path, shown)
    except OSError as exc:
        raise CatalogError(f"cannot read: {exc.strerror}", where=SourceRef(shown)) from exc


def decode_text(raw: bytes | bytearray, shown: str) -> str:
    """The text of the bytes `raw` of the file `shown` (UTF-8, a leading BOM dropped)."""
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
        data, positions = parse_yaml(text, shown)
        return _parsed(shown, data, MappedIndex(positions), text)
    type_names: set[str] = set()
    try:
        data, index = parse_json(text, shown, type_names=type_names, digest=digest)
    except CatalogError as strict:
        data, index = lenient_json(text, shown, strict)
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


def _is_yaml(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in YAML_SUFFIXES:
        return True
    if suffix in JSON_SUFFIXES:
        return False
    return text.lstrip()[:1] not in ("{", "[")


def parse_json_lines(text: str, shown: str) -> ParsedFile:
    """One JSON value per line (blank lines skipped), as a list."""
    items, index = json_lines(text, shown)
    return _parsed(shown, items, index, text)
