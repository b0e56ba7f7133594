"""The public sets converted into train/data (SOURCE.md in each folder) are catalogs toolcat
reads as they are, and every labeled request names tools of its catalog: a converter that
drifted from its source would train the model on requests whose tools are not there."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from toolcat.catalog.load import load_catalog

SETS = REPO / "train" / "data"


@pytest.mark.skipif(not SETS.is_dir(), reason="train/data is not in this checkout")
@pytest.mark.parametrize("name", ["restbench", "apibank", "toolbench", "toolalpaca_eval"])
def test_a_converted_set_is_a_catalog_with_its_requests_tools(name: str) -> None:
    folder = SETS / name
    tools = {t.name for t in load_catalog(str(folder / "catalog.json")).tools}
    rows = [json.loads(line) for line in (folder / "queries.jsonl").read_text().splitlines()]
    assert len(tools) >= 90 and len(rows) >= 150
    assert all(row["query"].strip() and row["relevant"] for row in rows)
    assert {n for row in rows for n in row["relevant"]} <= tools
    assert "licence" in (folder / "SOURCE.md").read_text().lower()
