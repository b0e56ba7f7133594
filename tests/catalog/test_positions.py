"""Every tool and every node of its schema maps back to file, line and column."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.source.positions import JsonIndex, KeyLocator, scan_json

POS = DATA / "positions"


def test_yaml_tool_and_schema_positions():
    catalog = load_catalog(POS / "tools.yaml")
    first, second = catalog.tools
    assert (first.origin.line, first.origin.column) == (2, 5)
    assert (second.origin.line, second.origin.column) == (10, 5)
    where = catalog.locate(first, "/properties/city/description")
    assert (where.line, where.column) == (9, 24)
    assert where.pointer == "/tools/0/parameters/properties/city/description"
    assert (catalog.locate(second, "/properties/n").line,
            catalog.locate(second, "/properties/n").column) == (12, 48)


def test_json_tool_and_schema_positions():
    catalog = load_catalog(POS / "tools.json")
    first, second = catalog.tools
    assert (first.origin.line, first.origin.column) == (3, 5)
    assert (second.origin.line, second.origin.column) == (6, 5)
    city = catalog.locate(first, "/properties/city")
    assert (city.line, city.column) == (5, 44)
    n_type = catalog.locate(second, "/properties/n/type")
    assert (n_type.line, n_type.column) == (8, 69)


def test_a_missing_node_falls_back_to_its_nearest_ancestor():
    catalog = load_catalog(POS / "tools.json")
    where = catalog.locate(catalog.tools[1], "/properties/absent/type")
    assert (where.line, where.column) == (8, 54)


@pytest.mark.parametrize("text", [
    '{"a": [1, {"b": "x\\"y", "c/d": null}], "e~f": {"": true}}',
    '[{"k": "\\u00e9"}, [], {}, [[[-1.5e3]]]]',
])
def test_json_scan_finds_every_value(text):
    offsets = scan_json(text)
    data = json.loads(text)

    def pointers(node, at=""):
        yield at
        items = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        for key, value in items:
            token = str(key).replace("~", "~0").replace("/", "~1")
            yield from pointers(value, f"{at}/{token}")

    for pointer in pointers(data):
        assert pointer in offsets
        value_text = text[offsets[pointer]:]
        assert json.JSONDecoder().raw_decode(value_text)[0] == eval_pointer(data, pointer)


def eval_pointer(data, pointer):
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        data = data[int(token)] if isinstance(data, list) else data[token]
    return data


@pytest.mark.parametrize("text", [
    '{"a": [1, {"b": "x\\"y", "c/d": null}], "e~f": {"": true}}',
    '[{"k": "\\u00e9"}, [], {}, [[[-1.5e3]]]]',
    ' \n [ \n 1 , \n {"x" : [ ] ,\n "y":\n{"z": "\\n"}} ]\n',
    '{"a": 1, "a": {"b": 2}}',
])
def test_lookups_on_demand_agree_with_the_full_scan(text):
    """JsonIndex reads only the containers on a looked-up path; it must find what the full
    token scan finds, keys, missing nodes and duplicate keys (the last one wins) included."""
    offsets = scan_json(text)
    lines = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def expected(pointer):
        while pointer not in offsets:
            pointer = pointer.rsplit("/", 1)[0]
        line = sum(1 for start in lines if start <= offsets[pointer])
        return line, offsets[pointer] - lines[line - 1] + 1

    index = JsonIndex(text)
    values = [p for p in offsets if not p.endswith("#key")]
    asked = [*reversed(values), *(p for p in offsets if p.endswith("#key")),
             *(f"{p}/absent/0" for p in values)]
    for pointer in asked:
        assert index.locate(pointer) == expected(pointer), pointer
    # all at once, as lint places its findings: the same places, in the order asked
    assert JsonIndex(text).locate_many(asked) == [expected(p) for p in asked]
    assert index.locate_many(asked[::-1]) == [expected(p) for p in asked[::-1]]
    keyed = [p for p in values if p + "#key" in offsets]
    assert KeyLocator(JsonIndex(text)).locate_many(keyed) == [expected(p + "#key") for p in keyed]


def test_array_items_found_in_any_order_while_stepping_only_as_far_as_asked():
    """An array is stepped through lazily: items asked out of order, again, past the end
    and inside an item must all be where the full scan puts them."""
    text = "[\n" + ",\n".join(f' {{"name": "t{i}", "p": [{i}, {{"q": {i}}}]}}'
                              for i in range(50)) + "\n]\n"
    offsets = scan_json(text)
    index = JsonIndex(text)
    for pointer in ["/7", "/3", "/30/p/1/q", "/3", "/49", "/0/name#key", "/12/p/0"]:
        at = offsets[pointer]
        line = text.count("\n", 0, at) + 1
        assert index.locate(pointer) == (line, at - (text.rfind("\n", 0, at) + 1) + 1), pointer
    assert index.locate("/50") == (1, 1)  # past the end: the array itself
