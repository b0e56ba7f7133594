"""The cache: what toolcat can rebuild from the catalog (search indexes, embeddings, the
verdicts of large files already checked), kept between runs in `cache_dir()`; how a cache
file is written (atomically) and how a cache folder is kept small (`prune`)."""

from __future__ import annotations

import contextlib
import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

CACHE_ENV = "TOOLCAT_CACHE_DIR"
# what reading a damaged cache file raises (numpy .npy/.npz: truncated, garbage, wrong shape)
UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def cache_dir() -> Path:
    """Where toolcat keeps what it can rebuild (search indexes, embeddings):
    `$TOOLCAT_CACHE_DIR`, else `~/.cache/toolcat`."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "toolcat")


def write_atomically(target: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write `target` through `write(file)` so that a reader sees the old file or the whole
    new one, never a part: a temporary file beside it, then one rename. A failed write
    leaves no temporary file behind.

    Raises:
        OSError: the folder cannot be written.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        Path(temp).replace(target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def mark_used(path: Path) -> None:
    """Record that a cache file was just read, for `prune` (its modification time)."""
    with contextlib.suppress(OSError):
        os.utime(path)


def store(path: Path, write: Callable[[BinaryIO], object], keep: int) -> None:
    """Write a cache file atomically and keep its folder to the `keep` entries used last; a
    cache that cannot be written is no error."""
    with contextlib.suppress(OSError):
        write_atomically(path, write)
        prune(path.parent, keep)


def prune(folder: Path, keep: int) -> None:
    """Remove the files of all but the `keep` entries used most recently. An entry is the
    files whose names share what comes before the first `-` (a catalog's key and its parts);
    its last use is the newest modification time among them (a reader marks a use by touching
    the file it read)."""
    try:
        files = [f for f in folder.iterdir() if f.is_file() and not f.name.startswith(".")]
        last_used: dict[str, float] = {}
        for file in files:
            key = file.name.split("-", 1)[0]
            last_used[key] = max(last_used.get(key, 0.0), file.stat().st_mtime)
    except OSError:  # another process pruning or writing: leave it to the next write
        return
    stale = set(sorted(last_used, key=last_used.__getitem__, reverse=True)[keep:])
    for file in files:
        if file.name.split("-", 1)[0] in stale:
            file.unlink(missing_ok=True)
