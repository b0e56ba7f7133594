"""The tools read from a large catalog file, remembered by the file's content, so reading the
same file again costs one hash and one unpickling instead of a parse and a reader's pass.

Reading 43,000 tools costs three times `json.load` (parsing, then every tool read into the
canonical model); a command on a catalog it has seen (`toolcat pick` in a loop, an editor
asking again) pays it every time. When a file of at least `MIN_SIZE` characters is read a
second time, what reading it gave (its tools, the servers it declares, the problems it holds)
is written to `cache_dir()/read/` under the SHA-256 of: the file's text and name, the options
that change what is read (`shape`, the default source), the providers registered, and the
versions of toolcat and of this format. Any change to one of them is another key, so the file
is read again.

Positions inside a tool are not stored: they are found, as before, when first asked for, from
the file's text (a JSON text is indexed lazily; a YAML text is parsed again the first time
one is needed, as lint does). Each tool's own line is stored for a YAML file, whose parse
found it anyway, and found when asked for in a JSON file. A file that may hold a `$ref` is
not remembered: what it reads depends on other files.

An entry is a pickle read by an unpickler that builds only toolcat's own model classes and
plain data, so a cache folder someone else could write cannot run code through it. An entry
that cannot be read is ignored and rewritten; one that cannot be written costs nothing but
the time saved.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcat import __version__
from toolcat.model import LoadIssue, PendingSourceRef, Server, SourceRef, Tool
from toolcat.providers import PROVIDERS
from toolcat.source.cache import cache_dir, mark_used, store

FORMAT = 1
MIN_SIZE = 1 << 20  # smaller files are read in milliseconds: not worth a file in the cache
KEEP = 8  # files remembered, the most recently used; an entry is about the size of its file
# what an entry may build besides plain data (tuples, lists, dicts, strings, numbers)
_CLASSES = {("toolcat.model", cls.__name__): cls for cls in (Tool, Server, SourceRef, LoadIssue)}


@dataclass(frozen=True)
class FileRead:
    """What reading one catalog file gave."""

    tools: tuple[Tool, ...]
    servers: tuple[Server, ...]  # declared in the file, in order
    issues: tuple[LoadIssue, ...]
    # the file is strict JSON, so its positions come from a JsonIndex of its text (made
    # without parsing); other files are parsed again when a position is first needed
    strict_json: bool


def key(text: str, digest: str, shown: str, shape: str | None, default_source: str
        ) -> str | None:
    """The key of what reading `text` (whose SHA-256 is `digest`) from the file `shown`
    gives, or None when the text is too small to be worth remembering."""
    if len(text) < MIN_SIZE:
        return None
    return hashlib.sha256("\0".join((
        f"toolcat {__version__} read {FORMAT}", digest, shown, shape or "", default_source,
        ",".join(sorted(PROVIDERS)))).encode("utf-8", "surrogatepass")).hexdigest()


def _path(entry: str, part: str) -> Path:
    return cache_dir() / "read" / f"{entry}-{part}"


def recall(entry: str, shown: str,
           locate: Callable[[str], tuple[int, int]]) -> FileRead | None:
    """What reading the file `shown` gave when its key was `entry`, its tools' positions
    found through `locate`; None when no entry is kept or it cannot be read."""
    path = _path(entry, "read.pickle")
    try:
        with path.open("rb") as handle:
            found = _Unpickler(handle, shown, locate).load()
    except Exception:  # missing, truncated, garbage, a class not allowed: read the file instead
        return None
    if not isinstance(found, FileRead):
        return None
    mark_used(path)
    return found


def remember(entry: str, shown: str, read: Callable[[], FileRead]) -> None:
    """Keep what reading the file `shown` gave (`read()`) under `entry`, the second time the
    same text is read: storing 43,000 tools costs half a second, which a file read once (lint
    in CI) would pay for nothing. The first read leaves an empty marker."""
    seen = _path(entry, "seen")
    if not seen.exists():
        store(seen, lambda handle: None, KEEP)
        return
    buffer = io.BytesIO()
    try:
        found = read()
        _Pickler(buffer, shown, lazy=found.strict_json).dump(found)
    except Exception:  # a value pickle cannot store: the file is read every time, as before
        return
    payload = buffer.getbuffer()
    store(_path(entry, "read.pickle"), lambda handle: handle.write(payload), KEEP)


class _Pickler(pickle.Pickler):
    """In a strict JSON file, stores a tool's unlocated origin as its pointer alone: finding
    every line of 43,000 tools would cost more than the reading the entry saves, and a JSON
    text finds one line quickly. Other files (YAML) had every position found while parsing:
    their origins are stored with line and column, so that showing where a picked tool is
    defined does not parse the file again."""

    def __init__(self, handle: io.BytesIO, shown: str, lazy: bool) -> None:
        super().__init__(handle, protocol=pickle.HIGHEST_PROTOCOL)
        self._shown = shown
        self._lazy = lazy

    def persistent_id(self, obj: Any) -> str | None:
        if self._lazy and type(obj) is PendingSourceRef and obj.file == self._shown:
            return obj.pointer
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, handle: Any, shown: str,
                 locate: Callable[[str], tuple[int, int]]) -> None:
        super().__init__(handle)
        self._shown = shown
        self._locate = locate

    def persistent_load(self, pid: Any) -> PendingSourceRef:
        if not isinstance(pid, str):
            raise pickle.UnpicklingError("unexpected persistent id")
        return PendingSourceRef(self._shown, pid, self._locate)

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "FileRead"):
            return FileRead
        if (module, name) in _CLASSES:
            return _CLASSES[module, name]
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a read cache")
