"""Large JSON files already found sound, remembered by their content, so reading them again
skips the checks.

Parsing a JSON catalog strictly (every object's keys checked for duplicates, NaN refused) and
walking it for the limits (depth, string length) cost about as much as parsing it: 0.25 s of
the 0.75 s it takes to read 43,000 tools. Both verdicts depend on the text alone. After a
file of at least MIN_SIZE characters passes, the SHA-256 of its text (with toolcat's version
and this format's) is written to `cache_dir()/checked/`, with the schema `type` names seen on
the way; a later read of the same text finds the entry and parses it with the plain C decoder.
A changed file has another digest, so it is checked again. An entry that cannot be read is
ignored, one that cannot be written costs nothing but the time saved.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from toolcat import __version__
from toolcat.source.cache import cache_dir, mark_used, store

FORMAT = 2  # 2: keyed by the SHA-256 of the text, the digest the loader already took
MIN_SIZE = 1 << 20  # smaller files parse in milliseconds: not worth a file in the cache
KEEP = 256  # verdicts kept, the most recently used: each edit of a large file adds one


def text_digest(text: str) -> str:
    """The SHA-256 of a text (what keys a file's verdict, its remembered read and its search
    index)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def key(text: str, digest: str | None = None) -> str | None:
    """The key of `text`'s verdict (`digest`: its text_digest, when taken already), or None
    when the text is too small to keep one."""
    if len(text) < MIN_SIZE:
        return None
    return hashlib.sha256(f"toolcat {__version__} checked {FORMAT}\0"
                          f"{digest or text_digest(text)}".encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / "checked" / f"{key}.json"


def recall(key: str) -> set[str] | None:
    """The schema `type` names of the sound text whose digest is `key`; None when no such
    text was checked (or its entry cannot be read)."""
    path = _path(key)
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    mark_used(path)
    return set(names)


def remember(key: str, type_names: set[str]) -> None:
    """Keep the verdict that the text whose digest is `key` is sound."""
    payload = json.dumps(sorted(type_names)).encode()
    store(_path(key), lambda handle: handle.write(payload), KEEP)
