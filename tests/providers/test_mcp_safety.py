"""MCP annotations read by the specification's defaults: destructiveHint defaults to true and
readOnlyHint to false, so a tool that gives neither hint is unsafe unless toolcat.yaml says
`mcp: {unannotated: safe}`; list and show say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.catalog.convert import convert, to_text
from toolcat.catalog.load import load_catalog

LISTING = {"tools": [
    {"name": "git_reset", "description": "Reset the repository to a commit.",
     "inputSchema": {"type": "object", "properties": {"commit": {"type": "string"}}}},
    {"name": "git_log", "description": "Show the commit log.",
     "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
    {"name": "write_query", "description": "Run an INSERT, UPDATE or DELETE query.",
     "inputSchema": {"type": "object"}, "annotations": {"title": "Write query"}},
    {"name": "git_add", "description": "Stage files.",
     "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": False}},
    {"name": "git_clean", "description": "Delete untracked files.",
     "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": False, "destructiveHint": True}},
]}
EXPECTED = {
    "git_reset": (False, "no annotations: MCP default"),
    "git_log": (True, "readOnlyHint: true"),
    "write_query": (False, "no readOnlyHint or destructiveHint: MCP default"),
    "git_add": (True, "destructiveHint: false"),
    "git_clean": (False, "destructiveHint: true"),
}


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "git.json"
    path.write_text(json.dumps(LISTING))
    return path


def test_safety_follows_the_specification_defaults(listing):
    tools = {t.name: (t.safe, t.safety) for t in load_catalog(listing).tools}
    assert tools == EXPECTED


def test_an_imported_file_keeps_the_defaults_and_an_explicit_safe_wins(listing, tmp_path):
    imported = tmp_path / "imported.yaml"
    imported.write_text(to_text(convert(load_catalog(listing).tools, "toolcat").payload,
                                as_yaml=True))
    assert "safe:" not in imported.read_text()  # derived again from the annotations
    assert {t.name: (t.safe, t.safety) for t in load_catalog(imported).tools} == EXPECTED
    explicit = imported.read_text().replace("name: git_reset\n", "name: git_reset\n  safe: true\n")
    imported.write_text(explicit)
    reset = load_catalog(imported).get("git_reset")
    assert (reset.safe, reset.safety) == (True, "")


def test_list_shows_why_and_the_project_can_trust_unannotated_tools(run, listing, monkeypatch):
    listed = json.loads(run("list", "-c", str(listing), "--json").stdout)["tools"]
    assert {t["name"]: (t["safe"], t["safety"]) for t in listed} == EXPECTED
    table = run("list", "-c", str(listing)).stdout
    assert "no (no annotations: MCP default)" in table
    Path("toolcat.yaml").write_text("mcp: {unannotated: safe}\n")
    monkeypatch.setenv("TOOLCAT_TRUST", str(Path.cwd()))  # a relaxing setting needs trust
    trusted = json.loads(run("list", "-c", str(listing), "--json").stdout)["tools"]
    safe = {t["name"]: t["safe"] for t in trusted}
    assert safe == {"git_reset": True, "git_log": True, "write_query": True, "git_add": True,
                    "git_clean": False}  # an explicit destructiveHint: true stays unsafe
    shown = run("show", "git_reset", "-c", str(listing)).stdout
    assert "safe (no annotations: MCP default, trusted by mcp.unannotated)" in shown


def test_a_wrong_policy_is_a_config_error(run, listing):
    Path("toolcat.yaml").write_text("mcp: {unannotated: maybe}\n")
    result = run("list", "-c", str(listing))
    assert result.exit_code == 2
    assert "'mcp.unannotated' must be one of unsafe, safe" in result.stderr
