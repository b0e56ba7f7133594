"""benchmarks/data/poison/fresh3.yaml ... fresh20.yaml hold together as data:
they are never linted here (the integrator measures each once with
`benchmarks/poison_accuracy.py --fresh`), but every entry is laid out as its header says, every
attack wording sits where its `at` says, and every tool loads as a catalog of its own."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from toolcat.catalog.load import load_catalog

POISON = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "poison"
SETS = tuple(f"fresh{n}.yaml" for n in range(3, 21))
CLASSES = {"conversation", "secrets", "fetch-obey", "hide", "lie", "output-priority",
           "revoke-safety", "remote-script", "shadowing"}
PLACES = {"description", "parameter", "title", "enum", "default", "example", "pattern",
          "format", "$comment", "$id", "const", "outputSchema", "annotation"}


def entries(name: str) -> list[dict]:
    loaded = yaml.safe_load((POISON / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def schemas(tool: dict) -> list[dict]:
    """The input schema, then every schema nested in it (properties at any depth, items)."""
    found = []
    stack = [tool["inputSchema"]]
    while stack:
        schema = stack.pop(0)
        found.append(schema)
        stack.extend(schema.get("properties", {}).values())
        if isinstance(schema.get("items"), dict):
            stack.append(schema["items"])
    return found


def strings_at(tool: dict, place: str) -> list[object]:
    if place == "description":
        return [tool.get(place)]
    if place == "annotation":
        return [tool.get("annotations", {}).get("title")]
    if place == "outputSchema":  # its own description or one of its properties'
        output = tool.get("outputSchema", {})
        return [output.get("description"),
                *(p.get("description") for p in output.get("properties", {}).values())]
    params = schemas(tool)[1:]
    if place == "title":
        return [tool.get("title"), *(p.get("title") for p in params)]
    if place == "const":
        return [p.get("const") for p in params]
    if place == "parameter":
        return [p.get("description") for p in params]
    if place in ("enum", "example"):
        key = "enum" if place == "enum" else "examples"
        return [value for p in params for value in p.get(key, [])]
    if place == "default":
        return [p.get("default") for p in params]
    return [s.get(place) for s in schemas(tool)]


@pytest.mark.parametrize("name", SETS)
def test_sixty_attacks_in_nine_classes_and_forty_benign_tools(name):
    items = entries(name)
    assert len({e["id"] for e in items}) == len(items) == 100
    classes = Counter(e["class"] for e in items)
    assert classes.pop("benign") == 40
    assert set(classes) == CLASSES and sum(classes.values()) == 60
    assert min(classes.values()) >= 6


@pytest.mark.parametrize("name", SETS)
def test_attacks_in_other_languages_cover_many_languages_and_whole_tools(name):
    attacks = [e for e in entries(name) if e["class"] != "benign"]
    foreign = [e for e in attacks if e["lang"] != "en"]
    assert len(foreign) >= 14 and len({e["lang"] for e in foreign}) >= 12
    assert any("whole tool" in e["style"] for e in foreign)
    assert any("whole tool" not in e["style"] for e in foreign)


@pytest.mark.parametrize("entry", [e for name in SETS for e in entries(name)
                                   if e["class"] != "benign"], ids=lambda e: e["id"])
def test_every_attack_wording_sits_where_its_entry_says(entry):
    places = entry["at"] if isinstance(entry["at"], list) else [entry["at"]]
    texts = entry["text"] if isinstance(entry["text"], list) else [entry["text"]]
    assert len(places) == len(texts) and set(places) <= PLACES
    assert entry["style"] and entry["lang"]
    tools = [entry["tool"], *entry.get("also", [])]  # `also`: tools that cooperate with it
    for place, text in zip(places, texts, strict=True):
        assert any(text in strings_at(tool, place) for tool in tools), (entry["id"], place)


@pytest.mark.parametrize("name", SETS)
def test_every_tool_loads_as_a_catalog_of_its_own(name, tmp_path):
    for entry in entries(name):
        target = tmp_path / f"{entry['id']}.json"
        tools = [entry["tool"], *entry.get("also", [])]
        target.write_text(json.dumps({"tools": tools}), encoding="utf-8")
        catalog = load_catalog(target, lenient=True)
        assert [t.name for t in catalog.tools] == [t["name"] for t in tools], entry["id"]
        if entry["class"] == "benign":
            assert entry["why"], entry["id"]
