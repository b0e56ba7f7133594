"""The merged draft 2020-12 meta-schema judges schemas exactly as the official one does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.conftest import BENCHDATA, CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.lint.metaschema import DRAFT_2020_12, merged_2020_12, schema_errors, surely_valid

BROKEN = [
    {"type": "strin"},
    {"type": ["string", "string"]},
    {"type": []},
    {"properties": {"a": {"type": 3}}},
    {"properties": []},
    {"required": "a"},
    {"required": ["a", "a"]},
    {"items": [{"type": "string"}]},
    {"prefixItems": []},
    {"anyOf": []},
    {"allOf": [{"type": "nope"}]},
    {"not": 3},
    {"minLength": -1},
    {"maxItems": 1.5},
    {"multipleOf": 0},
    {"enum": "a"},
    {"$defs": {"x": {"minimum": "1"}}},
    {"definitions": {"x": {"maximum": "9"}}},
    {"dependentRequired": {"a": [1]}},
    {"additionalProperties": {"properties": {"b": {"$ref": 5}}}},
    {"if": {"type": "x"}, "then": {"items": {"uniqueItems": "yes"}}},
    {"$anchor": "1bad"},
    {"contentSchema": {"type": 1}},
    {"$vocabulary": {"x": "yes"}},
    {"unevaluatedProperties": {"type": "x"}},
    {"propertyNames": {"pattern": 4}},
    {"dependencies": {"a": 5, "b": ["c", 1], "d": {"type": "x"}}},
    True,
    {"type": "object", "properties": {"a": {"type": "string", "enum": ["x"], "default": 1}}},
]


def messages(validator: Draft202012Validator, schema) -> set[tuple[tuple, str]]:
    """Distinct (path, message) pairs: the official meta-schema repeats an error once per
    vocabulary that checks the keyword's type; the merged one says it once."""
    return {(tuple(e.absolute_path), e.message) for e in validator.iter_errors(schema)}


@pytest.mark.parametrize("schema", BROKEN, ids=range(len(BROKEN)))
def test_merged_meta_schema_reports_what_the_official_one_reports(schema):
    official = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    merged = Draft202012Validator(merged_2020_12())
    assert messages(merged, schema) == messages(official, schema)


def test_merged_meta_schema_accepts_every_bundled_schema_like_the_official_one():
    official = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    merged = Draft202012Validator(merged_2020_12())
    catalog = load_catalog([CATALOGS, CATALOGS / "builtins" / "builtins.yaml",
                            CATALOGS / "examples"], lenient=True)
    for tool in catalog.tools:
        if tool.parameters is None:
            continue
        assert merged.is_valid(tool.parameters) == official.is_valid(tool.parameters) is True


def test_the_schema_names_its_own_draft():
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#",
              "items": [{"type": "string"}], "dependencies": {"a": ["b"]}}
    assert list(schema_errors(draft7)) == []
    assert [p for p, _ in schema_errors({**draft7, "$schema":
                                         "https://json-schema.org/draft/2020-12/schema"})] \
        == ["/items"]


def test_an_unknown_or_malformed_schema_uri_is_one_error():
    assert list(schema_errors({"$schema": "https://example.com/my-draft", "type": "x"})) == [
        ("/$schema", "unknown $schema 'https://example.com/my-draft': not a JSON Schema "
                     "draft toolcat knows")]
    assert [p for p, _ in schema_errors({"$schema": 7})] == ["/$schema"]


# --- the fast verdict (jsonschema-rs) agrees with jsonschema's ----------------------------------

KEYWORDS = ["type", "properties", "items", "prefixItems", "required", "enum", "const", "anyOf",
            "oneOf", "allOf", "not", "minimum", "maximum", "minLength", "maxItems", "pattern",
            "format", "$ref", "$defs", "additionalProperties", "default", "description",
            "multipleOf", "dependentRequired", "uniqueItems", "$schema", "$anchor", "if",
            "contentSchema", "propertyNames", "title", "examples", "x-custom"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
        ["string", "object", "array", "integer", "number", "boolean", "null", "strin", "#",
         "#/$defs/x", "^a+$", "(", "date-time", DRAFT_2020_12, "a"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(KEYWORDS) | st.text(max_size=3), inner, max_size=5),
    max_leaves=20)


def python_verdict(schema: object) -> bool:
    return Draft202012Validator(merged_2020_12()).is_valid(schema)


@given(json_values)
@settings(max_examples=400, deadline=None)
def test_the_fast_verdict_is_jsonschemas_on_generated_schemas(schema: object) -> None:
    if isinstance(schema, dict) and schema.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
        assert not surely_valid(schema)  # another draft: always left to jsonschema
        return
    assert surely_valid(schema) == python_verdict(schema)


@pytest.mark.parametrize("schema", BROKEN, ids=range(len(BROKEN)))
def test_the_fast_verdict_is_jsonschemas_on_the_written_schemas(schema: object) -> None:
    assert surely_valid(schema) == python_verdict(schema)
    assert bool(list(schema_errors(schema))) != surely_valid(schema)


@pytest.mark.slow
@pytest.mark.skipif(not BENCHDATA.is_dir(), reason="../shared/benchdata is not beside the repo")
def test_the_fast_verdict_is_jsonschemas_on_every_benchmark_schema() -> None:
    sources = [BENCHDATA / name / "catalog.json" for name in ("bfcl_v4", "seal_tools",
                                                              "metatool")]
    catalog = load_catalog([*sources, CATALOGS, CATALOGS / "examples"], lenient=True)
    schemas = [t.parameters for t in catalog.tools if t.parameters is not None]
    assert len(schemas) > 5000
    assert [surely_valid(s) for s in schemas] == [python_verdict(s) for s in schemas]
