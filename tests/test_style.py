"""The code base stays ruff clean: CI fails on a lint error like on a failing test."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_ruff_finds_nothing():
    # ruff of the test extra, run through this interpreter: no PATH lookup
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(REPO)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
