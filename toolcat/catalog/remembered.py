"""The tools read from a large catalog file, remembered by the file's content, so reading the
same file again costs one hash and one JSON decode instead of a parse and a reader's pass.

Reading 43,000 tools costs three times `json.load` (parsing, then every tool read into the
canonical model); a command on a catalog it has seen (`toolcat pick` in a loop, an editor
asking again) pays it every time. When a file of at least `MIN_SIZE` characters is read a
second time, what reading it gave (its tools, the servers it declares, the problems it holds)
is written to `cache_dir()/read/` under the SHA-256 of: the file's text and name, the options
that change what is read (`shape`, the default source), the providers registered, and the
versions of toolcat and of this format. Any change to one of them is another key, so the file
is read again.

A file whose `$ref`s stay inside it is remembered like any other. A file whose `$ref`s reach
other files is remembered with what they reached: each file's resolved path and the SHA-256
of its content (or why it could not be read), the file's base URI and the allowed roots.
The entry is used only while all of them are still the same; the referenced files are then
read (they are small) so that the catalog holds them as reading would.

Positions inside a tool are not stored: they are found, as before, when first asked for, from
the file's text (a JSON text is indexed lazily; a YAML text is parsed again the first time
one is needed, as lint does). Each tool's own line is stored for a YAML file, whose parse
found it anyway, and found when asked for in a JSON file.

An entry is plain JSON (a list of field values per tool, in the model's field order, then
each tool's definition as its own JSON text, decoded when the tool's definition, description
or parameters are first read), sealed and size-bounded by toolcat.source.cache: JSON cannot
express shared or cyclic structure, so what reading an entry costs is linear in its size,
and an entry someone else wrote is refused before it is parsed. What is stored is decoded
again and compared with what was read before it is written: a value JSON cannot carry
exactly is never remembered.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from itertools import accumulate, chain, repeat
from pathlib import Path
from typing import Any, Literal

from toolcat import __version__
from toolcat.errors import CatalogError
from toolcat.model import Deferred, LoadIssue, PendingSourceRef, Server, SourceRef, Tool
from toolcat.providers import PROVIDERS
from toolcat.source import cache
from toolcat.source.checked import text_digest
from toolcat.source.files import read_text

FORMAT = 7  # 2: sealed JSON instead of a pickle; files with `$ref`s remembered too;
# 3: definitions kept as text, decoded when first read; each tool's offset in the text;
# 4: the tools' fields stored column by column, so that they are read a field at a time
# 5: safety in three states (`safety`, `safety_reason`) instead of `safe` and its reason
# 6: OpenAPI operations keep their JSON success body's schema as `outputSchema`
# 7: an OpenAPI operation's form body is its `body`; OpenAPI 2.0 documents are read
MIN_SIZE = 1 << 20  # smaller files are read in milliseconds: not worth a file in the cache
KEEP = 8  # files remembered, the most recently used; an entry is about the size of its file
_FIELDS = tuple(f.name for f in fields(Tool))
_TUPLES = frozenset(i for i, name in enumerate(_FIELDS)
                    if name in ("tags", "examples", "example_requests"))
_ORIGIN = _FIELDS.index("origin")
_RAW = _FIELDS.index("raw")


@dataclass(frozen=True)
class Reached:
    """What the `$ref`s of a file reached in other files, as it was when the file was read."""

    base: str  # the URI the file's references resolve against
    roots: tuple[str, ...]  # the extra folders references may reach
    # (file URI, its resolved path, the SHA-256 of its text or why it cannot be read, whether
    # reading put it into the catalog's documents)
    files: tuple[tuple[str, str, str, bool], ...]
    checked: tuple[str, ...]  # documents whose own references this file's reading checked


@dataclass(frozen=True)
class FileRead:
    """What reading one catalog file gave."""

    tools: tuple[Tool, ...]
    servers: tuple[Server, ...]  # declared in the file, in order
    issues: tuple[LoadIssue, ...]
    # the file is strict JSON, so its positions come from a JsonIndex of its text (made
    # without parsing); other files are parsed again when a position is first needed
    strict_json: bool
    reached: Reached | None = None  # None: no `$ref` of the file left it
    # the offset in the text of each tool whose origin is found lazily, by its pointer
    offsets: dict[str, int] | None = field(default=None, compare=False)


def key(text: str | bytes | bytearray, digest: str, shown: str, shape: str | None,
        default_source: str) -> str | None:
    """The key of what reading `text` (its bytes or its text, whose SHA-256 is `digest`)
    from the file `shown` gives, or None when it is too small to be worth remembering."""
    if len(text) < MIN_SIZE:
        return None
    return hashlib.sha256("\0".join((
        f"toolcat {__version__} read {FORMAT}", digest, shown, shape or "", default_source,
        ",".join(sorted(PROVIDERS)))).encode("utf-8", "surrogatepass")).hexdigest()


def _path(entry: str, part: str) -> Path:
    return cache.cache_dir() / "read" / f"{entry}-{part}"


def _limit(text: str | bytes | bytearray) -> int:
    """The largest entry a file of this text can give (each tool's fields and its origin,
    beside the text's own values)."""
    return 4 * len(text) + (16 << 20)


def recall(entry: str, shown: str, text: str | bytes | bytearray,
           locate: Callable[[str], tuple[int, int]]) -> FileRead | None:
    """What reading the file `shown` (holding `text`, or these bytes) gave when its key was
    `entry`, its tools' positions found through `locate`; None when no usable entry is
    kept."""
    return cache.recall(_path(entry, "read.json"), _limit(text),
                        lambda payload: _decode(payload, shown, locate), "read cache entry")


def still_holds(reached: Reached, base: str, roots: Sequence[Path], checked: set[str]
                ) -> bool:
    """Whether the files a remembered read's `$ref`s reached are as they were: same base,
    same roots, same paths and content, and none of them checked already in this load
    (which would have left their problems out of this file's reading)."""
    if reached.base != base or tuple(str(r) for r in roots) != reached.roots or \
            checked.intersection(reached.checked):
        return False
    return all(snapshot(uri) == (real, digest) for uri, real, digest, _ in reached.files)


def snapshot(uri: str) -> tuple[str, str]:
    """The resolved path of the file at a `file:` URI and the SHA-256 of its text (or why it
    cannot be read)."""
    from toolcat.source.refs import uri_path

    path = uri_path(uri)
    if path is None:
        return "", "not a local file"
    try:
        real = str(path.resolve())
    except (OSError, RuntimeError) as exc:
        return "", f"cannot be resolved: {exc}"
    try:
        return real, text_digest(read_text(path))
    except CatalogError as exc:
        return real, f"cannot be read: {exc}"


def remember(entry: str, shown: str, read: Callable[[], FileRead],
             offset: Callable[[str], int | None] | None = None) -> None:
    """Keep what reading the file `shown` gave (`read()`) under `entry`, the second time the
    same text is read: storing 43,000 tools costs half a second, which a file read once (lint
    in CI) would pay for nothing. The first read leaves an empty marker. `offset(pointer)`
    gives where each tool is in a strict JSON text, kept so that a recalled tool's line is
    found without stepping over the tools before it."""
    seen = _path(entry, "seen")
    if not seen.exists():
        cache.store(seen, lambda handle: None, KEEP)
        return
    try:
        found = read()
        payload = _encode(found, shown, offset)
        # what is written must read back as what was read, or it is not written
        if not _same(_decode(memoryview(payload), shown, lambda pointer: (0, 0)), found):
            return
    except (TypeError, ValueError, RecursionError):  # a value JSON cannot store exactly
        return
    cache.store(_path(entry, "read.json"), lambda handle: handle.write(payload), KEEP)


# --- the entry's layout -------------------------------------------------------------------
# HEAD (12 ASCII digits: the header's length), the header, then each tool's definition
# (`raw`) as compact JSON, one after the other. The header:
# {"format": FORMAT, "strict_json": bool, "count": tools, "columns": [column, ...],
#  "constants": [value, ...], "tools": [[value, ...], ...], "servers": [...], "issues": [...],
#  "reached": null | {...}, "offsets": null | [...]}
# A tool has its field values in the model's order (tuples as lists; its origin a JSON
# pointer when found lazily from a strict JSON text, else [file, line, column, pointer]; its
# `raw` the length of its definition's text), then the fields it shares with `raw` (the very
# same object, as a reader gives them): a list of [field index, raw key, ...], those fields
# left null. A column whose value is the same plain scalar (or empty list or mapping) in
# every tool is stored once in `constants`; `tools` holds the other columns, in order, each
# a list of one value per tool: the tools are made a field at a time (Tool.from_columns),
# each field one pass in C over them.
# A recalled tool's definition, and the description and parameters it shares, are decoded
# when first read (toolcat.model.Deferred): `pick` on 43,000 tools decodes the few it shows,
# and decoding the header costs a tenth of decoding the whole catalog.

_SHAREABLE = tuple(_FIELDS.index(name) for name in ("description", "parameters"))
_WIDTH = len(_FIELDS) + 1  # the fields, then what they share with `raw`
HEAD = 12


def _encode(found: FileRead, shown: str,
            offset: Callable[[str], int | None] | None = None) -> bytes:
    lazy = found.strict_json
    rows = []
    definitions = []
    offsets: list[int] = []
    for tool in found.tools:
        row: list[Any] = list(tool.__getstate__())
        row[_ORIGIN] = _place(tool.origin, shown, lazy)
        if type(row[_ORIGIN]) is str and offset is not None:
            offsets.append(offset(row[_ORIGIN]) or -1)
        shared: list[Any] = []
        raw = tool.raw
        for index in _SHAREABLE:
            value = row[index]
            if value is not None and not isinstance(value, bool):
                key = next((k for k, v in raw.items() if v is value), None)
                if key is not None:
                    shared += (index, key)
                    row[index] = None
        for index in _TUPLES:
            row[index] = list(row[index])
        definition = json.dumps(raw, separators=(",", ":")).encode()
        definitions.append(definition)
        row[_RAW] = len(definition)
        row.append(shared)
        rows.append(row)
    constant = [j for j in range(_WIDTH) if rows and _same_everywhere(rows, j)]
    columns = [j for j in range(_WIDTH) if j not in constant]
    reached = found.reached
    document = {
        "format": FORMAT, "strict_json": found.strict_json, "count": len(rows),
        "columns": columns, "constants": [rows[0][j] for j in constant] if rows else [],
        "tools": [[row[j] for row in rows] for j in columns],
        "servers": [[s.name, s.description, s.enabled, _place(s.origin, shown, False),
                     s.extra] for s in found.servers],
        "issues": [[i.code, i.message, _place(i.where, shown, False), i.severity]
                   for i in found.issues],
        "reached": None if reached is None else {
            "base": reached.base, "roots": reached.roots, "files": reached.files,
            "checked": reached.checked},
        # one per tool whose origin is a pointer, in order, when all were found
        "offsets": offsets if offsets and len(offsets) == sum(
            type(row[_ORIGIN]) is str for row in rows) else None,
    }
    header = json.dumps(document, separators=(",", ":")).encode()
    return b"".join([b"%0*d" % (HEAD, len(header)), header, *definitions])


def _decode_definition(text: memoryview, start: int, end: int, tool: Tool) -> Any:
    raw = json.loads(bytes(text[start:end]))
    if type(raw) is not dict:  # the entry was sealed by this user: only a bug gets here
        raise CatalogError(f"the remembered definition of {tool.name!r} is damaged; "
                           f"remove {cache.cache_dir() / 'read'} to read the file again")
    return raw


def _in_raw(key: str) -> Deferred:
    """A recalled tool's field that is the very object its `raw` holds under `key`."""
    return Deferred(partial(_from_raw, key))


def _from_raw(key: str, tool: Tool) -> Any:
    try:
        return tool.raw[key]
    except KeyError:
        raise CatalogError(f"the remembered definition of {tool.name!r} lacks {key!r}; "
                           f"remove {cache.cache_dir() / 'read'} to read the file again"
                           ) from None


def _same_everywhere(rows: list[list[Any]], j: int) -> bool:
    """Whether column `j` holds the same value in every row, compared exactly: a plain
    scalar of one type (1 and True differ), or a list of such scalars, or an empty mapping."""
    first = rows[0][j]
    return _plain(first) and all(_exactly(row[j], first) for row in rows)


def _plain(value: Any) -> bool:
    if type(value) is list:
        return all(type(item) in (str, int, bool) or item is None for item in value)
    return type(value) in (str, int, bool) or value is None or value == {}


def _exactly(value: Any, first: Any) -> bool:
    if type(value) is not type(first) or value != first:
        return False
    return type(value) is not list or \
        all(type(a) is type(b) for a, b in zip(value, first, strict=True))


def _place(ref: SourceRef | None, shown: str, lazy: bool) -> Any:
    if ref is None:
        return None
    if lazy and type(ref) is PendingSourceRef and ref.file == shown:
        return ref.pointer
    return [ref.file, ref.line, ref.column, ref.pointer]


def _decode(payload: memoryview, shown: str,
            locate: Callable[[str], tuple[int, int]]) -> FileRead:
    size = int(bytes(payload[:HEAD]))
    _expect(0 < size <= len(payload) - HEAD, "header")
    document = json.loads(bytes(payload[HEAD:HEAD + size]))
    text = payload[HEAD + size:]
    _expect(isinstance(document, dict) and document.get("format") == FORMAT, "format")
    strict, count, values = document["strict_json"], document["count"], document["tools"]
    varying, constants = document["columns"], document["constants"]
    servers, issues = document["servers"], document["issues"]
    _expect(isinstance(strict, bool) and type(count) is int and count >= 0
            and isinstance(servers, list) and isinstance(issues, list)
            and isinstance(varying, list) and isinstance(constants, list)
            and isinstance(values, list) and all(type(j) is int for j in varying)
            and sorted(set(varying)) == varying and _RAW in varying, "layout")
    fixed = [j for j in range(_WIDTH) if j not in varying]
    _expect(len(fixed) + len(varying) == _WIDTH and len(constants) == len(fixed)
            and len(values) == len(varying)
            and all(type(column) is list and len(column) == count for column in values),
            "columns")
    # each field's values: a list (one per tool) where they vary, a value where they do not
    columns: dict[int, list[Any]] = dict(zip(varying, values, strict=True))
    same: dict[int, Any] = dict(zip(fixed, constants, strict=True))
    _share(columns, same, count)
    columns[_RAW] = _definitions(text, columns[_RAW])
    for i in _TUPLES:
        if i in same:
            _expect(type(same[i]) is list, "a list field")
            same[i] = tuple(same[i])
        else:
            _expect(all(type(v) is list for v in columns[i]), "a list field")
            columns[i] = list(map(tuple, columns[i]))
    names = columns.get(0) or [same.get(0)] * count
    _expect(all(type(name) is str for name in names), "a tool's name")
    origins = columns[_ORIGIN] if _ORIGIN in columns else [same.pop(_ORIGIN)] * count
    pointers = [origin for origin in origins if type(origin) is str]
    if len(pointers) == count:  # every origin found lazily, from the text of a JSON file
        columns[_ORIGIN] = PendingSourceRef.many(shown, pointers, locate)
    else:
        columns[_ORIGIN] = [PendingSourceRef(shown, origin, locate) if type(origin) is str
                            else _ref(origin) for origin in origins]
    stored = document.get("offsets")
    _expect(stored is None or (isinstance(stored, list)
                               and all(type(n) is int for n in stored)), "offsets")
    offsets = dict(zip(pointers, chain(stored, repeat(-1)), strict=False)) if stored \
        else None
    tools = Tool.from_columns(count, [columns[j] if j in columns else repeat(same[j], count)
                                      for j in range(len(_FIELDS))])
    return FileRead(
        tuple(tools),
        tuple(Server(_text(n), _text(d), bool(e), _ref(o), _mapping(x))
              for n, d, e, o, x in servers),
        tuple(LoadIssue(_text(c), _text(m), _ref(w), _severity(s)) for c, m, w, s in issues),
        strict, _reached(document["reached"]), offsets)


def _share(columns: dict[int, list[Any]], same: dict[int, Any], count: int) -> None:
    """Put in place the fields the tools share with their definitions: a field left null
    that `raw` holds under a key becomes that key's value, decoded when first read."""
    sharing = _WIDTH - 1
    if sharing in same:  # the tools share the same fields: one Deferred serves them all
        shared = same.pop(sharing)
        _expect(isinstance(shared, list) and len(shared) % 2 == 0, "a shared field")
        pairs = list(zip(shared[::2], shared[1::2], strict=True))
        if all(j in _SHAREABLE and type(key) is str and j in same and same[j] is None
               for j, key in pairs):
            for j, key in pairs:
                same[j] = _in_raw(key)
            return
        per_tool = [shared] * count
    else:
        per_tool = columns.pop(sharing)
    for j in _SHAREABLE:  # each tool's own (the slow way: a loop over the tools)
        if j in same:
            columns[j] = [same.pop(j)] * count
    in_raw: dict[Any, Deferred] = {}
    for i, shared in enumerate(per_tool):
        _expect(type(shared) is list and len(shared) % 2 == 0, "a shared field")
        for n in range(0, len(shared), 2):
            j, key = shared[n], shared[n + 1]
            _expect(j in _SHAREABLE and type(key) is str, "a shared field")
            columns[j][i] = in_raw.get(key) or in_raw.setdefault(key, _in_raw(key))


def _definitions(text: memoryview, lengths: list[Any]) -> list[Deferred]:
    """Each tool's `raw`, decoded when first read, from the lengths of the definitions that
    follow one another in `text`."""
    _expect(all(type(n) is int and n > 0 for n in lengths) and sum(lengths) == len(text),
            "the definitions")
    ends = list(accumulate(lengths))
    return list(map(Deferred, map(partial, repeat(_decode_definition), repeat(text),
                                  [0, *ends[:-1]], ends)))


def _reached(value: Any) -> Reached | None:
    if value is None:
        return None
    _expect(isinstance(value, dict), "reached files")
    files = tuple((_text(u), _text(r), _text(d), bool(loaded))
                  for u, r, d, loaded in value["files"])
    return Reached(_text(value["base"]), tuple(_text(r) for r in value["roots"]), files,
                   tuple(_text(c) for c in value["checked"]))


def _severity(value: Any) -> Literal["error", "warning"]:
    _expect(value in ("error", "warning"), "a severity")
    return "warning" if value == "warning" else "error"


def _ref(value: Any) -> SourceRef | None:
    if value is None:
        return None
    file, line, column, pointer = value
    _expect(isinstance(line, int) and isinstance(column, int), "a position")
    return SourceRef(_text(file), line, column, _text(pointer))


def _text(value: Any) -> str:
    _expect(isinstance(value, str), "a text")
    return str(value)


def _mapping(value: Any) -> dict[str, Any]:
    _expect(isinstance(value, dict), "a mapping")
    return dict(value)


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"{what} is not as toolcat writes it")


def _same(decoded: FileRead, found: FileRead) -> bool:
    """Whether `decoded` holds exactly what `found` does (tuples and lists told apart, every
    key a string, no NaN); origins compared by file and pointer, which fix their place."""
    def state(tool: Tool) -> tuple[Any, ...]:
        values = list(tool.__getstate__())
        origin = values[_ORIGIN]
        values[_ORIGIN] = origin and (origin.file, origin.pointer)
        return tuple(values)

    return (len(decoded.tools) == len(found.tools)
            and all(state(a) == state(b) for a, b in zip(decoded.tools, found.tools,
                                                         strict=True))
            and decoded.servers == found.servers and decoded.issues == found.issues
            and decoded.reached == found.reached)
