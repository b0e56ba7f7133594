"""The safety of an OpenAPI operation comes from its method and from what the operation says:
GET reads, DELETE destroys, and a POST is not a DELETE: unknown (asked about at run time)
unless its name reads as a read (a POST search endpoint) or its `x-mcp-annotations` state
otherwise. The import keeps what serve needs to call each operation, and a server URL that is
not http(s) is refused where it is written (docs/catalogs.md, docs/safety.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

DOCUMENT = """\
openapi: 3.1.0
info: {title: Records API, version: "1"}
servers:
  - url: "https://{region}.records.example/v2"
    variables: {region: {default: eu, enum: [eu, us]}}
paths:
  /records:
    get: {operationId: listRecords, summary: List the records.}
    post: {operationId: createRecord, summary: Create a record.}
  /records/search:
    post: {operationId: searchRecords, summary: Search records by text.}
  /records/query:
    post: {summary: Query the records with a filter expression.}
  /records/fetch-or-create:
    post: {operationId: getOrCreateRecord, summary: Get a record or create it.}
  /records/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: Accept, in: header, schema: {type: string}}
      - {name: Host, in: header, schema: {type: string}}
      - {name: session, in: cookie, schema: {type: string}}
    put: {operationId: replaceRecord, summary: Replace a record.}
    patch:
      operationId: tagRecord
      summary: Add a tag to a record.
      x-mcp-annotations: {destructiveHint: false}
    delete: {operationId: deleteRecord, summary: Delete a record.}
  /records/{id}/purge:
    get:
      operationId: purgeRecord
      summary: Purge a record (a GET that destroys, and says so).
      x-mcp-annotations: {readOnlyHint: false, destructiveHint: true}
"""
EXPECTED = {
    "listRecords": ("safe", "readOnlyHint: true"),
    "createRecord": ("unknown", "safety not stated: readOnlyHint: false, no destructiveHint"),
    "searchRecords": ("safe", "readOnlyHint: true"),
    "post_records_query": ("safe", "readOnlyHint: true"),
    "getOrCreateRecord": ("unknown",
                          "safety not stated: readOnlyHint: false, no destructiveHint"),
    "replaceRecord": ("unknown", "safety not stated: readOnlyHint: false, no destructiveHint"),
    "tagRecord": ("safe", "destructiveHint: false"),
    "deleteRecord": ("unsafe", "destructiveHint: true"),
    "purgeRecord": ("unsafe", "destructiveHint: true"),
}


@pytest.fixture
def document(tmp_path: Path) -> Path:
    path = tmp_path / "records.yaml"
    path.write_text(DOCUMENT)
    return path


def _safety(run, path: Path) -> dict[str, tuple[str, str]]:
    listed = json.loads(run("list", "-c", str(path), "--json").stdout)["tools"]
    return {t["name"]: (t["safety"], t["safety_reason"]) for t in listed}


def test_safety_follows_the_method_and_what_the_operation_says(run, document):
    assert _safety(run, document) == EXPECTED


def test_a_converted_catalog_keeps_the_safety_and_the_wiring(run, document, tmp_path):
    converted = tmp_path / "records-toolcat.yaml"
    done = run("convert", "-c", str(document), "--to", "toolcat", "-o", str(converted))
    assert done.exit_code == 0, done.stderr
    assert _safety(run, converted) == EXPECTED
    shown = json.loads(run("show", "-c", str(converted), "replaceRecord", "--json").stdout)
    assert shown["extra"]["openapi"] == {
        "method": "put", "path": "/records/{id}",
        "parameters": [{"name": "id", "in": "path"}, {"name": "session", "in": "cookie"}]}
    # Accept and Host are the request's own headers, not arguments
    assert set(shown["parameters"]["properties"]) == {"id", "session"}


def test_the_servers_address_has_its_variables_defaults(run, document):
    converted = yaml.safe_load(run("convert", "-c", str(document), "--to", "toolcat").stdout)
    assert converted["servers"] == [
        {"name": "Records API", "openapi": {"url": "https://eu.records.example/v2"}}]


@pytest.mark.parametrize(("url", "line", "column", "message"), [
    ("ftp://records.example/v2", 4, 10,
     "the API's server URL 'ftp://records.example/v2' is not http or https: toolcat calls "
     "HTTP APIs only"),
    ("https://{tenant}.records.example", 4, 10,
     "the server URL's variable 'tenant' has no default"),
])
def test_a_server_url_serve_could_not_call_is_refused_where_it_is_written(
        run, document, url, line, column, message):
    document.write_text(DOCUMENT.replace('"https://{region}.records.example/v2"', url))
    result = run("list", "-c", str(document))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"toolcat: error: {document}:{line}:{column}: {message}"
