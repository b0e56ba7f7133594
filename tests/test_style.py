"""The code base stays ruff clean and type-checks: CI fails on a lint or type error like on a
failing test."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


def test_ruff_finds_nothing():
    # ruff of the test extra, run through this interpreter: no PATH lookup
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(REPO)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # a minute from a cold cache; seconds once .mypy_cache holds the last run
def test_mypy_finds_nothing():
    # mypy of the test extra with [tool.mypy] of pyproject.toml: strict on the package, the
    # few relaxations there each say why. Run from the checkout, so it checks this toolcat.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml")],
        cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found")
