"""Fixtures for search tests: the demo catalog, loaded once."""

from __future__ import annotations

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog


@pytest.fixture(scope="session")
def demo() -> Catalog:
    return load_catalog(CATALOGS)
