"""`$ref`: local and file references resolve; cycles and remote references are refused."""

from __future__ import annotations

import jsonschema
import pytest

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.errors import CatalogError
from toolcat.source.refs import base_uri_for, bundle

REFS = DATA / "refs"


def test_local_refs_and_anchors_resolve_and_recursion_is_allowed():
    catalog = load_catalog(REFS / "local.yaml")
    assert catalog.issues == ()
    assert catalog.tools[0].parameters["properties"]["root"] == {"$ref": "#/$defs/node"}


def test_file_refs_load_the_files_next_to_the_catalog():
    catalog = load_catalog(REFS / "file-ref.yaml")
    uris = sorted(catalog.documents)
    assert [u.rsplit("/", 2)[-2:] for u in uris] == [["schemas", "common.json"],
                                                     ["schemas", "common.yaml"]]


def test_bundle_moves_file_refs_into_defs_and_validates_like_the_original():
    catalog = load_catalog(REFS / "file-ref.yaml")
    tool = catalog.tools[0]
    bundled = bundle(tool.parameters, base_uri_for(tool.origin.file), catalog.documents)
    assert bundled is not tool.parameters
    assert "$defs" not in tool.parameters
    assert bundled["properties"]["address"] == {"$ref": "#/$defs/common_$defs_address"}
    assert bundled["$defs"]["common_$defs_address"]["properties"]["country"] == {
        "$ref": "#/$defs/common_$defs_country"}
    validator = jsonschema.Draft202012Validator(bundled)
    good = {"name": "Ana", "address": {"street": "Rua", "country": "PT"}, "tags": ["x"]}
    bad = {"name": "Ana", "address": {"country": "FR"}, "tags": [1]}
    assert validator.is_valid(good)
    assert sorted(e.json_path for e in validator.iter_errors(bad)) == [
        "$.address.country", "$.tags[0]"]


def test_bundle_leaves_a_schema_without_file_refs_untouched():
    catalog = load_catalog(REFS / "local.yaml")
    tool = catalog.tools[0]
    assert bundle(tool.parameters, base_uri_for(tool.origin.file), {}) is tool.parameters


@pytest.mark.parametrize(("name", "message"), [
    ("cycle.yaml", "cycle.yaml:7:13: $ref cycle: #/$defs/a -> #/$defs/b -> #/$defs/a"),
    ("remote.yaml", "remote.yaml:8:11: remote $ref 'https://example.com/schemas/x.json' is "
                    "never fetched; copy the schema next to the catalog or into $defs"),
    ("missing.yaml", "missing.yaml:7:13: $ref '#/$defs/absent' points nowhere"),
])
def test_bad_refs_are_errors_at_their_position(name, message):
    with pytest.raises(CatalogError) as caught:
        load_catalog(REFS / name)
    assert str(caught.value) == f"{REFS}/{message}"


def test_missing_ref_file_is_named():
    with pytest.raises(CatalogError, match=r"schemas/absent.json.*no such file"):
        load_catalog(REFS / "missing-file.yaml")


def test_lenient_loading_keeps_ref_problems_as_issues():
    catalog = load_catalog([REFS / "remote.yaml", REFS / "cycle.yaml"], lenient=True)
    assert [(i.code, i.where.line) for i in catalog.issues] == [
        ("remote-ref", 8), ("ref-cycle", 7), ("ref-cycle", 9), ("ref-cycle", 10)]
    assert [t.name for t in catalog.tools] == ["fetch_it", "loop"]
