"""End to end against the npm reference MCP servers (modelcontextprotocol/servers: everything,
filesystem, memory), started through `npx -y` as their READMEs say.

The packages come from the npm registry: a fixture puts them in npm's cache first (`npm cache
add`, with a timeout), so that `npx -y` then starts them without a prompt and within the
import's timeout. Skipped, with the reason, only where node is not installed; a registry that
cannot be reached is a failure, not a skip.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.mcp.conftest import START_TIMEOUT
from toolcat.catalog.load import load_catalog

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.mcp, pytest.mark.slow,
    pytest.mark.skipif(shutil.which("npx") is None or shutil.which("npm") is None,
                       reason="node (npx and npm) is not installed"),
]

PACKAGES = {
    "everything": "@modelcontextprotocol/server-everything",
    "filesystem": "@modelcontextprotocol/server-filesystem",
    "memory": "@modelcontextprotocol/server-memory",
}
FETCH_TIMEOUT = 300  # seconds for npm to fetch one package into its cache


@pytest.fixture(scope="module")
def npm_cache() -> None:
    for package in PACKAGES.values():
        done = subprocess.run(["npm", "cache", "add", package], capture_output=True,
                              text=True, timeout=FETCH_TIMEOUT)
        assert done.returncode == 0, f"npm could not fetch {package}: {done.stderr[-500:]}"


def command(name: str, root: Path) -> list[str]:
    args = [str(root)] if name == "filesystem" else []  # the folders it may touch
    return ["npx", "-y", PACKAGES[name], *args]


def imported(run, name: str, root: Path, out: Path):
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--name", name, "-o", str(out),
                 "--", *command(name, root))
    assert result.exit_code == 0, result.stderr
    return load_catalog(out)


@pytest.mark.parametrize(("name", "known"), [
    # tools each release is known to list, with the safety its annotations give
    ("memory", {"read_graph": True, "search_nodes": True, "create_entities": True,
                "delete_entities": False}),
    ("filesystem", {"read_text_file": True, "list_directory": True, "write_file": False,
                    "move_file": False}),
    ("everything", {"echo": True, "get-sum": True}),
])
def test_import_keeps_names_and_safety_and_lint_finds_no_error(run, npm_cache, tmp_path,
                                                              name, known):
    root = tmp_path / "root"
    root.mkdir()
    out = tmp_path / f"{name}.yaml"
    catalog = imported(run, name, root, out)
    safety = {t.name: t.safe for t in catalog.tools}
    assert {tool: safety.get(tool) for tool in known} == known
    assert all(t.source == "mcp" and t.parameters is not None for t in catalog.tools)
    lint = json.loads(run("lint", "-c", str(out), "--json").stdout)
    errors = [f for f in lint["findings"] if f["severity"] == "error"]
    assert errors == []  # an honest reference server: no poisoning, valid schemas
    rendered = run("render", "-c", str(out), "list what is there", "--provider", "openai")
    assert rendered.exit_code == 0, rendered.stderr
    assert json.loads(rendered.stdout)["tools"]


def test_pick_says_the_unsafe_best_fit_of_a_real_server(run, npm_cache, tmp_path):
    out = tmp_path / "memory.yaml"
    imported(run, "memory", tmp_path, out)
    result = run("pick", "-c", str(out), "delete the entities named Alice", "--scorer",
                 "bm25", "--json")
    data = json.loads(result.stdout)
    assert data["picks"] == [] and data["best_unsafe"]["name"] == "delete_entities"
    allowed = json.loads(run("pick", "-c", str(out), "delete the entities named Alice",
                             "--scorer", "bm25", "--allow-unsafe", "--json").stdout)
    assert allowed["picks"][0]["name"] == "delete_entities"


def test_a_config_with_the_three_servers_and_one_broken(run, npm_cache, tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        **{name: {"command": "npx", "args": command(name, root)[1:]} for name in PACKAGES},
        "typo": {"command": "npx", "args": ["-y", "--offline",
                                            "@modelcontextprotocol/server-no-such-thing"]}}}))
    out = tmp_path / "all.yaml"
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config),
                 "-o", str(out))
    assert result.exit_code == 1
    assert "MCP server 'typo'" in result.stderr and "its stderr says: npm error" in result.stderr
    assert {t.server for t in load_catalog(out).tools} == set(PACKAGES)
