"""An OpenAPI operation's JSON success body becomes the tool's MCP `outputSchema` when every
success response declares the same one: an object's schema as it is (a `$ref` to one
inlined, so the top says `type: object`), any other wrapped under `result`, and none when a
success has no JSON body or two differ (docs/catalogs.md#openapi-3-documents)."""

from __future__ import annotations

from pathlib import Path

from toolcat import load_catalog

DOCUMENT = """\
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "https://shop.example/v1"}]
components:
  schemas:
    Item:
      type: object
      properties: {id: {type: string}, parts: {type: array, items: ITEM}}
    Note: {type: string, nullable: true}
paths:
  /items/{id}:
    get:
      operationId: getItem
      responses:
        "200": {description: it, content: {application/json: {schema: ITEM}}}
    put:
      operationId: putItem
      responses:
        "200": {description: it, content: {application/json: {schema: ITEM}}}
        "204": {description: nothing to say}
  /items:
    get:
      operationId: listItems
      responses:
        "200": {description: all, content: {application/json: {schema: {type: array, items: ITEM}}}}
  /note:
    get:
      operationId: readNote
      responses:
        "200": {description: it, content: {application/json: {schema: NOTE}}}
        "203": {description: cached, content: {application/json: {schema: {type: integer}}}}
  /count:
    get:
      operationId: countItems
      responses:
        "200": {description: n, content: {application/vnd.shop+json: {schema: {type: integer}}}}
        "4XX": {description: no, content: {application/json: {schema: {type: object}}}}
"""


def _schemas(tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "shop.yaml"
    path.write_text(DOCUMENT.replace("ITEM", '{$ref: "#/components/schemas/Item"}')
                    .replace("NOTE", '{$ref: "#/components/schemas/Note"}'))
    return {t.name: t.extra.get("outputSchema") for t in load_catalog([path]).tools}


def test_an_objects_schema_is_kept_and_a_ref_to_one_inlined_with_its_defs(tmp_path):
    item = _schemas(tmp_path)["getItem"]
    assert isinstance(item, dict) and item["type"] == "object"
    assert item["properties"]["parts"]["items"] == {"$ref": "#/$defs/Item"}  # recursive
    assert item["$defs"]["Item"]["properties"]["id"] == {"type": "string"}


def test_other_schemas_are_wrapped_under_result(tmp_path):
    schemas = _schemas(tmp_path)
    assert schemas["listItems"] == {
        "type": "object", "required": ["result"],
        "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
        "$defs": schemas["listItems"]["$defs"]}  # type: ignore[index]
    assert schemas["countItems"] == {"type": "object", "required": ["result"],
                                     "properties": {"result": {"type": "integer"}}}


def test_no_schema_when_a_success_has_no_json_body_or_two_differ(tmp_path):
    schemas = _schemas(tmp_path)
    assert schemas["putItem"] is None  # a 204 beside the 200
    assert schemas["readNote"] is None  # 200 and 203 describe different bodies
