"""`convert` says on stderr what the target shape cannot hold, writes `strict` for OpenAI
Responses, and keeps the server, so `diff` of a file and its conversion shows only the loss."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import CATALOGS
from toolcat.providers import PROVIDERS

GITHUB = str(CATALOGS / "github.yaml")


def test_every_lost_field_is_a_warning_with_its_count(run):
    result = run("convert", "-c", GITHUB, "--to", "openai")
    assert result.exit_code == 0
    assert "safety (safe: false) of 2 tools dropped: openai has no place for it " \
           "(github:delete_branch, github:delete_repository)" in result.stderr
    assert "MCP annotations of 10 tools dropped" in result.stderr
    assert "level of 1 tool dropped" in result.stderr
    assert "safety" not in run("convert", "-c", GITHUB, "--to", "mcp").stderr


@pytest.mark.parametrize("shape", sorted(name for name, provider in PROVIDERS.items()
                                          if provider.write_tool is not None))
def test_a_field_said_to_be_dropped_is_not_written(run, shape):
    Path("strict.yaml").write_text(
        "tools:\n  - name: get_weather\n    description: Weather for a city.\n"
        "    strict: true\n    parameters: {type: object, properties: {city: {type: string}}, "
        "required: [city], additionalProperties: false}\n")
    result = run("convert", "-c", "strict.yaml", "--to", shape)
    written = yaml.safe_load(result.stdout)  # YAML shapes, and JSON as YAML reads it
    keys = set()
    stack = [written]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys.update(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    assert ("strict of 1 tool dropped" in result.stderr) == ("strict" not in keys)


def test_openai_responses_always_says_strict(run):
    payload = json.loads(run("convert", "-c", GITHUB, "--to", "openai-responses").stdout)
    assert all(tool["strict"] is False for tool in payload["tools"])


def test_the_server_survives_conversion_so_diff_shows_only_what_was_lost(run):
    Path("github.json").write_text(run("convert", "-c", GITHUB, "--to", "mcp").stdout)
    result = json.loads(run("diff", GITHUB, "github.json", "--json").stdout)
    fields = {f["field"] for tool in result["changed"] for f in tool["changes"]}
    assert fields == {"level", "tags", "priority", "examples"}  # what mcp cannot hold, warned


def test_several_servers_in_one_shape_without_servers_is_a_warning(run):
    result = run("convert", "-c", str(CATALOGS), "--to", "anthropic")
    assert "the servers of 72 tools (calendar, database, email, ...) dropped" in result.stderr


REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def test_unknown_safety_stays_unknown_in_mcp_and_is_said(run):
    # tau-bench's cancel_reservation (OpenAI shape) and an MCP bundle's write_file say nothing
    # about safety: no destructiveHint: false may be invented for them
    for name, destructive in (("tau_bench_airline.json", "cancel_reservation"),
                              ("mcpb_manifest.json", "write_file")):
        result = run("convert", "-c", str(REAL / name), "--to", "mcp")
        assert result.exit_code == 0
        tools = {t["name"]: t for t in json.loads(result.stdout)["tools"]}
        assert "annotations" not in tools[destructive]
        assert "safety not stated: no readOnlyHint or destructiveHint written" in result.stderr
        assert f":{destructive}" in result.stderr


def test_stated_safety_is_still_written_as_a_hint(tmp_path, run):
    path = tmp_path / "tools.yaml"
    path.write_text("tools:\n  - {name: drop_table, description: Drop a table., safe: false}\n"
                    "  - {name: get_row, description: Read one row., safe: true}\n")
    tools = {t["name"]: t for t in json.loads(
        run("convert", "-c", str(path), "--to", "mcp").stdout)["tools"]}
    assert tools["get_row"]["annotations"] == {"destructiveHint": False}
    # written too: a tool without hints has an unknown safety, not a destructive one
    assert tools["drop_table"]["annotations"] == {"destructiveHint": True}
