"""Fixtures for the resolve tests: the small test catalog and profiles written to files."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog
from toolcat.resolution import Profile, Resolution, Resolver, load_profile

TOOLS = DATA / "resolve" / "tools.yaml"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog(TOOLS)


@pytest.fixture
def write(tmp_path: Path) -> Callable[..., Path]:
    """Write a dedented text file under tmp_path and return its path."""

    def make(text: str, name: str = "profile.yaml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return make


@pytest.fixture
def profile(write: Callable[..., Path]) -> Callable[[str], Profile]:
    """Load a profile from YAML text; the keyword scorer unless the text names one, so the
    expected rankings do not depend on the default scorer."""

    def load(text: str) -> Profile:
        loaded = load_profile(write(text))
        return loaded if loaded.scorer else replace(loaded, scorer="keyword")

    return load


@pytest.fixture
def resolved(catalog: Catalog, profile: Callable[[str], Profile]
             ) -> Callable[..., Resolution]:
    """Resolve a query for the test catalog under a profile given as YAML text."""

    def go(text: str = "{}", query: str = "weather in Tokyo") -> Resolution:
        return Resolver(catalog, profile(text)).resolve(query)

    return go


def fate(resolution: Resolution, name: str) -> tuple[str, str]:
    verdict = resolution.verdict(name)
    return verdict.status, verdict.rule
