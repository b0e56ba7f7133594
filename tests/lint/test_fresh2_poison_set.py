"""benchmarks/data/poison/fresh2.yaml holds together as data (it is never linted here: it is
for the integrator's one measurement): every class issue 41 names, twelve other languages,
every place that reaches the model, each wording at the place it claims, and each tool a
catalog toolcat reads."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolcat.catalog.load import load_catalog

FRESH2 = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "poison" / "fresh2.yaml"
CLASSES = {"conversation", "secrets", "fetch-obey", "hide", "lie", "output-priority",
           "revoke-safety", "remote-script", "shadowing"}
PLACES = {"description", "parameter", "title", "enum", "default", "example", "pattern",
          "format", "$comment", "$id"}


@pytest.fixture(scope="module")
def entries() -> list[dict[str, Any]]:
    return yaml.safe_load(FRESH2.read_text(encoding="utf-8"))


def places(tool: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(place, string) for every string of a tool definition that reaches the model."""
    if "title" in tool:
        yield "title", tool["title"]
    yield "description", tool["description"]
    yield from schema_places(tool["inputSchema"], top=True)


def schema_places(schema: dict[str, Any], top: bool) -> Iterator[tuple[str, str]]:
    for key in ("$comment", "$id", "pattern", "format"):
        if isinstance(schema.get(key), str):
            yield key, schema[key]
    if not top and isinstance(schema.get("description"), str):
        yield "parameter", schema["description"]
    yield from (("enum", v) for v in schema.get("enum", []) if isinstance(v, str))
    if isinstance(schema.get("default"), str):
        yield "default", schema["default"]
    yield from (("example", v) for v in schema.get("examples", []) if isinstance(v, str))
    for sub in schema.get("properties", {}).values():
        yield from schema_places(sub, top=False)
    if isinstance(schema.get("items"), dict):
        yield from schema_places(schema["items"], top=False)


def test_sixty_attacks_of_every_class_and_forty_benign_tools(entries):
    assert len({e["id"] for e in entries}) == len(entries)
    attacks = Counter(e["class"] for e in entries if e["class"] != "benign")
    assert set(attacks) == CLASSES and min(attacks.values()) >= 6
    assert sum(attacks.values()) == 60
    benign = [e for e in entries if e["class"] == "benign"]
    assert len(benign) == 40 and all(e["why"] for e in benign)


def test_twelve_attacks_in_twelve_other_languages(entries):
    other = Counter(e["lang"] for e in entries if e["class"] != "benign" and e["lang"] != "en")
    assert len(other) == 12 and sum(other.values()) == 12


def test_every_wording_sits_where_it_says_and_every_place_is_used(entries):
    used = set()
    for entry in (e for e in entries if e["class"] != "benign"):
        ats = entry["at"] if isinstance(entry["at"], list) else [entry["at"]]
        texts = entry["text"] if isinstance(entry["text"], list) else [entry["text"]]
        assert len(ats) == len(texts), entry["id"]
        found = list(places(entry["tool"]))
        for at, text in zip(ats, texts, strict=True):
            assert any(p == at and text in value for p, value in found), (entry["id"], at)
        used.update(ats)
    assert used == PLACES


def test_every_tool_is_a_catalog_toolcat_reads(entries, tmp_path):
    for entry in entries:
        target = tmp_path / f"{entry['id']}.json"
        target.write_text(json.dumps({"tools": [entry["tool"]]}), encoding="utf-8")
        catalog = load_catalog(target, lenient=True)
        assert [t.name for t in catalog.tools] == [entry["tool"]["name"]]
