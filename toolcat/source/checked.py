"""Large JSON files already found sound, remembered by their content, so reading them again
skips the checks.

Parsing a JSON catalog strictly (every object's keys checked for duplicates, NaN refused) and
walking it for the limits (depth, string length) cost about as much as parsing it: 0.25 s of
the 0.75 s it takes to read 43,000 tools. Both verdicts depend on the text alone. After a
file of at least MIN_SIZE characters passes, the SHA-256 of its text (with toolcat's version
and this format's) names an entry in `cache_dir()/checked/`, holding the schema `type` names
seen on the way; a later read of the same text finds the entry and parses it with the plain
C decoder. A changed file has another digest, so it is checked again.

The verdict switches the strict checks off, so it is trusted only when its seal verifies
(toolcat.source.cache): a verdict planted by someone who can write the cache folder is
refused with one warning, and the file is checked as if it had never been seen.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from toolcat import __version__
from toolcat.source import cache

FORMAT = 3  # 2: keyed by the SHA-256 of the text, the digest the loader already took;
# 3: sealed entries (toolcat.source.cache)
MIN_SIZE = 1 << 20  # smaller files parse in milliseconds: not worth a file in the cache
KEEP = 256  # verdicts kept, the most recently used: each edit of a large file adds one
LIMIT = 1 << 16  # bytes of an entry: a list of type names


def text_digest(text: str) -> str:
    """The SHA-256 of a text (what keys a file's verdict, its remembered read and its search
    index)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def bytes_digest(raw: bytes | bytearray) -> str:
    """The text_digest of the text the UTF-8 bytes `raw` decode to (a leading BOM dropped),
    without decoding them: strict UTF-8 decoding and encoding undo each other, so the text
    encodes to these very bytes (bytes that do not decode never give a text to compare)."""
    view = memoryview(raw)
    return hashlib.sha256(view[3:] if raw[:3] == b"\xef\xbb\xbf" else view).hexdigest()


def key(text: str, digest: str | None = None) -> str | None:
    """The key of `text`'s verdict (`digest`: its text_digest, when taken already), or None
    when the text is too small to keep one."""
    if len(text) < MIN_SIZE:
        return None
    return hashlib.sha256(f"toolcat {__version__} checked {FORMAT}\0"
                          f"{digest or text_digest(text)}".encode()).hexdigest()


def _path(key: str) -> Path:
    return cache.cache_dir() / "checked" / f"{key}.json"


def _names(payload: memoryview) -> set[str]:
    names = json.loads(bytes(payload))
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("not a list of type names")
    return set(names)


def recall(key: str) -> set[str] | None:
    """The schema `type` names of the sound text whose digest is `key`; None when no such
    text was checked (or its entry cannot be trusted: then one warning)."""
    return cache.recall(_path(key), LIMIT, _names, "cached verdict")


def remember(key: str, type_names: set[str]) -> None:
    """Keep the verdict that the text whose digest is `key` is sound."""
    payload = json.dumps(sorted(type_names)).encode()
    cache.store(_path(key), lambda handle: handle.write(payload), KEEP)
