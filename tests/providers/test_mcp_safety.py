"""MCP annotations read as the three safety states: readOnlyHint true or destructiveHint false
is safe, destructiveHint true unsafe, and a tool that gives neither hint has an unknown safety
unless toolcat.yaml says `mcp: {unannotated: safe}` (or `unsafe`, the specification's default);
list and show say which and why."""

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
    "git_reset": ("unknown", "safety not stated: no annotations"),
    "git_log": ("safe", "readOnlyHint: true"),
    "write_query": ("unknown", "safety not stated: no readOnlyHint or destructiveHint"),
    "git_add": ("safe", "destructiveHint: false"),
    "git_clean": ("unsafe", "destructiveHint: true"),
}


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "git.json"
    path.write_text(json.dumps(LISTING))
    return path


def test_safety_is_what_the_server_stated_and_unknown_when_it_said_nothing(listing):
    tools = {t.name: (t.safety, t.safety_reason) for t in load_catalog(listing).tools}
    assert tools == EXPECTED
    assert {t.name for t in load_catalog(listing).tools if t.safe} == {"git_log", "git_add"}


def test_an_imported_file_keeps_the_defaults_and_an_explicit_safe_wins(listing, tmp_path):
    imported = tmp_path / "imported.yaml"
    imported.write_text(to_text(convert(load_catalog(listing).tools, "toolcat").payload,
                                as_yaml=True))
    assert "safe:" not in imported.read_text()  # derived again from the annotations
    assert {t.name: (t.safety, t.safety_reason)
            for t in load_catalog(imported).tools} == EXPECTED
    explicit = imported.read_text().replace("name: git_reset\n", "name: git_reset\n  safe: true\n")
    imported.write_text(explicit)
    reset = load_catalog(imported).get("git_reset")
    assert (reset.safety, reset.safety_reason) == ("safe", "")


def test_list_shows_why_and_the_project_can_trust_unannotated_tools(run, listing, monkeypatch):
    listed = json.loads(run("list", "-c", str(listing), "--json").stdout)["tools"]
    assert {t["name"]: (t["safety"], t["safety_reason"]) for t in listed} == EXPECTED
    assert {t["name"]: t["safe"] for t in listed if t["safe"]} == {"git_log": True,
                                                                   "git_add": True}
    table = run("list", "-c", str(listing)).stdout
    assert "unknown (safety not stated: no annotations)" in table
    Path("toolcat.yaml").write_text("mcp: {unannotated: safe}\n")
    monkeypatch.setenv("TOOLCAT_TRUST", str(Path.cwd()))  # a relaxing setting needs trust
    trusted = json.loads(run("list", "-c", str(listing), "--json").stdout)["tools"]
    safety = {t["name"]: t["safety"] for t in trusted}
    assert safety == {"git_reset": "safe", "git_log": "safe", "write_query": "safe",
                      "git_add": "safe", "git_clean": "unsafe"}  # a stated hint stays
    shown = run("show", "git_reset", "-c", str(listing)).stdout
    assert "safe (safety not stated: no annotations, treated as safe by mcp.unannotated)" \
        in shown


def test_the_stricter_policy_treats_unknown_as_unsafe(run, listing):
    Path("toolcat.yaml").write_text("mcp: {unannotated: unsafe}\n")
    listed = json.loads(run("list", "-c", str(listing), "--json").stdout)["tools"]
    assert {t["name"]: t["safety"] for t in listed} == {
        "git_reset": "unsafe", "git_log": "safe", "write_query": "unsafe", "git_add": "safe",
        "git_clean": "unsafe"}


def test_a_wrong_policy_is_a_config_error(run, listing):
    Path("toolcat.yaml").write_text("mcp: {unannotated: maybe}\n")
    result = run("list", "-c", str(listing))
    assert result.exit_code == 2
    assert "'mcp.unannotated' must be one of unknown, safe, unsafe" in result.stderr


def test_pick_offers_an_unknown_tool_marked_and_leaves_a_destructive_one_out(run, listing):
    ask = ("pick", "-c", str(listing), "--scorer", "bm25")
    reset = run(*ask, "reset the repository to a commit").stdout.splitlines()
    assert reset[1].split()[1] == "git:git_reset" and reset[1].endswith("safety not stated")
    clean = run(*ask, "delete untracked files")
    assert clean.exit_code == 0 and "1." not in clean.stdout  # nothing picked
    assert "the best fit, git:git_clean" in clean.stdout
    assert "is marked destructive by its server (destructiveHint: true)" in clean.stdout
    assert "--allow-unsafe" in clean.stdout
    data = json.loads(run(*ask, "delete untracked files", "--json").stdout)
    assert data["best_unsafe"]["cause"] == \
        "marked destructive by its server (destructiveHint: true)"
    assert data["excluded_unsafe"] == ["git:git_clean"]  # unknown tools are not left out
    allowed = json.loads(run(*ask, "delete untracked files", "--allow-unsafe", "--json").stdout)
    assert allowed["picks"][0]["name"] == "git_clean"
    assert allowed["picks"][0]["safety"] == "unsafe"


def test_lint_flags_a_destructive_sounding_tool_whose_safety_nobody_stated(run, listing):
    report = json.loads(run("lint", "-c", str(listing), "--json").stdout)
    flagged = [(f["tool"], f["message"]) for f in report["findings"] if f["rule"] == "TC608"]
    assert [tool for tool, _ in flagged] == ["write_query"]  # git_clean said destructiveHint
    assert "nobody stated its safety" in flagged[0][1]


def test_resolve_shows_unknown_tools_marked_and_says_why_unsafe_ones_are_out(run, listing,
                                                                            tmp_path):
    profile = tmp_path / "bm25.yaml"
    profile.write_text("name: words\nscorer: bm25\n")
    data = json.loads(run("resolve", "-c", str(listing), "-p", str(profile),
                          "reset the repository to a commit", "--json").stdout)
    [reset] = [v for v in data["visible"] if v["name"] == "git_reset"]
    assert reset["safety"] == "unknown" and reset["reason"].endswith("safety not stated")
    [clean] = [v for v in data["excluded"] if v["name"] == "git_clean"]
    assert clean["rule"] == "unsafe"
    assert clean["reason"].startswith("marked destructive by its server (destructiveHint: true)")
    assert "--allow-unsafe" in clean["reason"]
    text = run("resolve", "-c", str(listing), "-p", str(profile),
               "reset the repository to a commit").stdout
    assert "safety not stated for git_reset" in text
