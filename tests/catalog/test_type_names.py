"""Foreign type names (`dict`, `float`, ...) are mapped in JSON files too, where the loader
skips the mapping walk for files known to hold only JSON Schema's type names."""

from __future__ import annotations

import json

import pytest

from toolcat.catalog.load import load_catalog

PLAIN = {"name": "plain", "parameters": {"type": "object", "properties": {
    "n": {"type": "integer"}}}}
FOREIGN = {"name": "bfcl", "parameters": {"type": "dict", "properties": {
    "x": {"type": "float"}, "tags": {"type": "tuple", "items": {"type": "String"}}}}}


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_one_foreign_tool_among_plain_ones_is_mapped_and_warned(tmp_path, suffix):
    path = tmp_path / f"tools{suffix}"
    tools = [PLAIN | {"name": f"plain{i}"} for i in range(3)] + [FOREIGN]
    text = json.dumps(tools, indent=1)  # JSON is YAML too
    path.write_text(text)
    catalog = load_catalog(path)
    bfcl = catalog.get("bfcl")
    assert bfcl.parameters["type"] == "object"
    assert bfcl.parameters["properties"]["x"]["type"] == "number"
    assert bfcl.parameters["properties"]["tags"]["items"]["type"] == "string"
    assert bfcl.raw["parameters"]["type"] == "dict"  # the file's own text is kept
    assert catalog.get("plain0").parameters == PLAIN["parameters"]
    warnings = [i for i in catalog.issues if i.code == "type-names"]
    assert len(warnings) == 1 and "dict→object (×1)" in warnings[0].message
    # at the first type mapped (issue 30: not at the tool): the line of `"type": "dict"`
    first = text.index('"type": "dict"')
    assert warnings[0].where.line == text.count("\n", 0, first) + 1
    assert warnings[0].where.pointer == "/3/parameters/type"


def test_a_file_of_json_schema_types_only_gives_no_warning(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([PLAIN, PLAIN | {"name": "other"}]))
    catalog = load_catalog(path)
    assert not [i for i in catalog.issues if i.code == "type-names"]
    assert catalog.get("other").parameters is catalog.get("other").raw["parameters"]
