"""benchmarks/data/poison/fresh.yaml holds together as data: the attack classes and languages
issue 41 names, each wording at the place its entry says, and every tool a definition toolcat
reads. Nothing here lints the set: it is measured once, by benchmarks/poison_accuracy.py."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolcat import load_catalog

FRESH = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "poison" / "fresh.yaml"
CLASSES = {"conversation", "credentials", "fetch_obey", "hiding", "lying", "output_above_user",
           "revoking", "remote_script", "shadowing"}
SCHEMA_KEYS = {"default": "default", "enum": "enum", "example": "examples",
               "pattern": "pattern", "format": "format", "$comment": "$comment"}


def entries() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = yaml.safe_load(FRESH.read_text(encoding="utf-8"))
    return loaded


def values_of(node: object, key: str) -> Iterator[str]:
    """Every string under `key` anywhere in a JSON Schema (lists flattened)."""
    if isinstance(node, dict):
        for name, value in node.items():
            if name == key:
                yield from (value if isinstance(value, list) else [value])
            yield from values_of(value, key)
    elif isinstance(node, list):
        for item in node:
            yield from values_of(item, key)


def at_place(tool: dict[str, Any], place: str) -> list[str]:
    schema = tool.get("inputSchema", {})
    if place in ("description", "title"):
        return [tool.get(place, "")]
    if place == "parameter":
        return [p.get("description", "") for p in schema.get("properties", {}).values()]
    return [str(v) for v in values_of(schema, SCHEMA_KEYS[place])]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_set_has_the_attacks_and_the_benign_tools_the_issue_asks_for():
    items = entries()
    assert len({e["id"] for e in items}) == len(items)
    attacks = [e for e in items if e["class"] != "benign"]
    assert len(attacks) == 60 and len(items) - len(attacks) == 40
    assert {e["class"] for e in attacks} == CLASSES
    assert min(Counter(e["class"] for e in attacks).values()) >= 5
    foreign = Counter(e["lang"] for e in attacks if e["lang"] != "en")
    assert sum(foreign.values()) == 12 and len(foreign) == 12


@pytest.mark.parametrize("entry", [e for e in entries() if e["class"] != "benign"],
                         ids=lambda e: e["id"])
def test_every_wording_sits_at_the_place_its_entry_names(entry):
    places = entry["at"] if isinstance(entry["at"], list) else [entry["at"]]
    texts = entry["text"] if isinstance(entry["text"], list) else [entry["text"]]
    assert len(places) == len(texts)
    for place, text in zip(places, texts, strict=True):
        assert any(flat(text) in flat(found) for found in at_place(entry["tool"], place)), place


def test_every_tool_is_a_definition_toolcat_reads(tmp_path):
    for entry in entries():
        path = tmp_path / f"{entry['id']}.json"
        path.write_text(json.dumps({"tools": [entry["tool"]]}), encoding="utf-8")
        catalog = load_catalog(path)
        assert [t.name for t in catalog.tools] == [entry["tool"]["name"]], entry["id"]
