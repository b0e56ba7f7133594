"""The code base stays ruff clean and type-checks: CI fails on a lint or type error like on a
failing test."""

from __future__ import annotations

import subprocess

import pytest

# Both checkers (tests.conftest.STYLE_CHECKS) start when the tests are collected and run beside
# the other tests; `style_check` is the finished run of this test's one.


def test_ruff_finds_nothing(style_check: subprocess.CompletedProcess[str]) -> None:
    # ruff of the test extra, run through this interpreter (no PATH lookup) on the checkout
    result = style_check
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # a minute from a cold cache; seconds once .mypy_cache holds the last run
def test_mypy_finds_nothing(style_check: subprocess.CompletedProcess[str]) -> None:
    # mypy of the test extra with [tool.mypy] of pyproject.toml: strict on the package, the
    # few relaxations there each say why. Run from the checkout, so it checks this toolcat.
    result = style_check
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found")
