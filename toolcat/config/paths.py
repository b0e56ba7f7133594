"""Where toolcat's files live: the bundled catalogs (inside the wheel, or beside the package
in a checkout) and the cache; and how a cache file is written."""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

_PACKAGE = Path(__file__).resolve().parent.parent  # toolcat/, beside catalogs/ in a checkout


def bundled(*parts: str) -> Path:
    """A path under the shipped `catalogs/` folder."""
    for root in (_PACKAGE / "_catalogs", _PACKAGE.parent / "catalogs"):
        if root.is_dir():
            return root.joinpath(*parts)
    raise FileNotFoundError("the bundled catalogs/ folder is missing from this installation")


def demo_catalog() -> Path:
    return bundled()


def builtins_catalog() -> Path:
    return bundled("builtins", "builtins.yaml")


CACHE_ENV = "TOOLCAT_CACHE_DIR"
# what reading a damaged cache file raises (numpy .npy/.npz: truncated, garbage, wrong shape)
UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def cache_dir() -> Path:
    """Where toolcat keeps what it can rebuild (search indexes, embeddings):
    `$TOOLCAT_CACHE_DIR`, else `~/.cache/toolcat`."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "toolcat")


def write_atomically(target: Path, write: Callable[[BinaryIO], None]) -> None:
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
