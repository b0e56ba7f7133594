"""Where the shared labeled sets are: `$TOOLCAT_BENCHDATA`, else `shared/benchdata` beside the
checkout or beside any folder above it (a git worktree sits deeper than the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _find() -> Path:
    if os.environ.get("TOOLCAT_BENCHDATA"):
        return Path(os.environ["TOOLCAT_BENCHDATA"])
    for folder in REPO.parents:
        if (folder / "shared" / "benchdata").is_dir():
            return folder / "shared" / "benchdata"
    return REPO.parent / "shared" / "benchdata"  # named in the error of whoever reads it


BENCHDATA = _find()
