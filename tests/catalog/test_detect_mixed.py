"""A file mixing shapes is read in the shape most of its items claim, counted item by item
(items alike are asked once, so the count must still weigh every item)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.errors import CatalogError

SCHEMA = {"type": "object", "properties": {}}


def shapes_listed(path: Path) -> set[str]:
    return {tool.shape for tool in load_catalog(path)}


def write(folder: Path, items: list[dict]) -> Path:
    path = folder / "mixed.json"
    path.write_text(json.dumps(items))
    return path


def test_the_shape_of_most_items_wins_whatever_comes_first(tmp_path):
    anthropic = [{"name": f"a{i}", "input_schema": SCHEMA} for i in range(2)]
    mcp = [{"name": f"m{i}", "inputSchema": SCHEMA} for i in range(3)]
    assert shapes_listed(write(tmp_path, anthropic + mcp)) == {"mcp"}
    assert shapes_listed(write(tmp_path, mcp[:1] + anthropic)) == {"anthropic"}


def test_items_with_the_same_keys_but_another_type_are_counted_apart(tmp_path):
    capability = {"type": "TOOL", "name": "c", "parameters": SCHEMA}
    responses = [{"type": "function", "name": f"r{i}", "parameters": SCHEMA} for i in range(2)]
    # capability claims 4 for its item, the Responses shape 3 for each of its two
    assert shapes_listed(write(tmp_path, [capability, *responses])) == {"openai-responses"}
    # two capability items outweigh one Responses item, which capability then refuses
    mostly_capability = write(tmp_path, [capability, capability | {"name": "d"}, responses[0]])
    with pytest.raises(CatalogError, match="'type' must be one of TOOL, SKILL, CODE"):
        load_catalog(mostly_capability)
