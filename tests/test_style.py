"""The code base stays ruff clean: CI fails on a lint error like on a failing test."""

from __future__ import annotations

import shutil
import subprocess

from tests.conftest import REPO


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff")
    assert ruff, "ruff is part of the test extra"
    result = subprocess.run([ruff, "check", "--no-cache", str(REPO)], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
