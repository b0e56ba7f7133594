"""OpenAPI import shares the component schemas its operations reach instead of copying them
(issue 40, item 12): a document whose every operation reaches a long chain of schemas loads in
time linear in its size, with each tool's schema still standing alone, and a document past the
bound is refused with one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


def chained_spec(operations: int, chain: int) -> dict[str, Any]:
    """`operations` POST operations whose bodies each reach all `chain` schemas S0 -> S1 -> ..."""
    schemas = {}
    for j in range(chain):
        properties: dict[str, Any] = {"v": {"type": "string", "description": f"Value {j}."}}
        if j + 1 < chain:
            properties["next"] = {"$ref": f"#/components/schemas/S{j + 1}"}
        schemas[f"S{j}"] = {"type": "object", "properties": properties}
    paths = {f"/things{i}": {"post": {
        "operationId": f"op{i}", "summary": f"Create thing number {i} for the user.",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/S0"}}}}}} for i in range(operations)}
    return {"openapi": "3.0.0", "info": {"title": "chain", "version": "1"}, "paths": paths,
            "components": {"schemas": schemas}}


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_operations_reaching_a_long_chain_load_in_linear_time(run, tmp_path: Path) -> None:
    # 900 operations x a 900-schema chain, 300 KB: minutes on the copying import (each
    # operation copied and checked the whole chain), a few seconds now
    spec = tmp_path / "chain.json"
    spec.write_text(json.dumps(chained_spec(900, 900)))
    listed = run("list", "-c", str(spec), "--json")
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.stdout)["count"] == 900
    shown = json.loads(run("show", "-c", str(spec), "op899", "--json").stdout)
    parameters = shown["parameters"]
    assert parameters["properties"]["body"] == {"$ref": "#/$defs/S0"}
    assert len(parameters["$defs"]) == 900  # still a schema that stands alone
    assert parameters["$defs"]["S898"]["properties"]["next"] == {"$ref": "#/$defs/S899"}


def test_a_reference_a_component_schema_breaks_is_reported_once_where_it_is_written(
        run, tmp_path: Path) -> None:
    spec = chained_spec(3, 3)
    spec["components"]["schemas"]["S2"]["properties"]["gone"] = {
        "$ref": "#/components/schemas/Gone"}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "Gone" in text)
    result = run("lint", "-c", str(path), "--json")
    errors = [f for f in json.loads(result.stdout)["findings"] if "points nowhere" in f["message"]]
    assert len(errors) == 1, errors  # not once per operation that reaches S2
    assert errors[0]["line"] == line
    assert errors[0]["pointer"] == "/components/schemas/S2/properties/gone"


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_document_past_the_bound_is_refused_with_one_line(run, tmp_path: Path) -> None:
    # 1,100 operations each reaching 1,000 schemas: 1.1 million slots, past the bound
    spec = tmp_path / "huge.json"
    spec.write_text(json.dumps(chained_spec(1100, 1000)))
    result = run("list", "-c", str(spec))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"toolcat: error: {spec}:"), result.stderr
    assert "split the document" in result.stderr


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_request_body_every_operation_reuses_is_shared_and_bounded(run, tmp_path: Path) -> None:
    def spec(operations: int) -> dict[str, Any]:
        fields = {f"f{j}": {"type": "string", "description": f"Field {j}."} for j in range(2000)}
        paths = {f"/t{i}": {"post": {"operationId": f"op{i}", "summary": f"Operation {i}.",
                                     "requestBody": {"$ref": "#/components/requestBodies/Big"}}}
                 for i in range(operations)}
        return {"openapi": "3.0.0", "info": {"title": "big", "version": "1"}, "paths": paths,
                "components": {"requestBodies": {"Big": {"content": {"application/json": {
                    "schema": {"type": "object", "properties": fields}}}}}}}

    shared = tmp_path / "shared.json"
    shared.write_text(json.dumps(spec(200)))
    shown = json.loads(run("show", "-c", str(shared), "op199", "--json").stdout)
    assert len(shown["parameters"]["properties"]["body"]["properties"]) == 2000
    # 600 operations x a 2,000-field body, 130 KB: 1.2 million objects to hand out
    past = tmp_path / "past.json"
    past.write_text(json.dumps(spec(600)))
    result = run("list", "-c", str(past))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"toolcat: error: {past}:"), result.stderr
    assert "split the document" in result.stderr


def test_shared_schemas_are_written_in_full_in_each_tool(run, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(chained_spec(3, 2)))
    out = tmp_path / "tools.yaml"
    result = run("convert", "--to", "toolcat", "-c", str(spec), "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "&id" not in text and "*id" not in text  # no YAML anchors for the shared schemas
    assert text.count("S1:") == 3
    listed = json.loads(run("list", "-c", str(out), "--json").stdout)
    assert listed["count"] == 3
