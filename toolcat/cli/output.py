"""Printing and writing: the only module that touches stdout, stderr and output files."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console

from toolcat.errors import UsageError

console = Console(highlight=False, soft_wrap=False)
err_console = Console(stderr=True, highlight=False)


def print_json(data: Any) -> None:
    """JSON on stdout, unstyled, for scripts."""
    print(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False))


def warn(message: str) -> None:
    err_console.print(f"[yellow]warning:[/] {message}", markup=True, highlight=False,
                      soft_wrap=True)


def note(message: str) -> None:
    err_console.print(message, markup=False, highlight=False, soft_wrap=True)


def write_output(path: Path, text: str | bytes, *, protect: Iterable[str | Path] = ()) -> None:
    """Write atomically: a failed or interrupted write leaves the old file as it was.

    Refuses to overwrite any of the `protect` paths (the command's own inputs).
    """
    target = path.resolve()
    if any(Path(p).resolve() == target for p in protect):
        raise UsageError(f"{path} is one of the inputs; refusing to overwrite it")
    if target.is_dir():
        raise UsageError(f"{path} is a directory")
    if not target.parent.is_dir():
        raise UsageError(f"{path}: folder {target.parent} does not exist")
    data = text.encode() if isinstance(text, str) else text
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if target.exists():
            Path(temp).chmod(target.stat().st_mode & 0o777)
        else:
            Path(temp).chmod(0o644)
        Path(temp).replace(target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
