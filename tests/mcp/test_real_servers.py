"""End to end against MCP servers nobody here wrote: mcp-server-time, mcp-server-fetch and
mcp-server-git, installed from PyPI by the `test` extra and started over stdio by the test.

Each is imported with `toolcat import mcp`, then the catalog goes through lint, search,
render, lock and diff, as a user would chain them. Nothing touches the network: the fetch
server is only asked for its tools (never called), and every server runs with proxies that
point nowhere, so an attempt to go out would fail rather than leave the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.mcp.conftest import START_TIMEOUT
from toolcat.catalog.load import load_catalog

pytest.importorskip("mcp")
pytestmark = [pytest.mark.mcp, pytest.mark.slow]

for module in ("mcp_server_time", "mcp_server_fetch", "mcp_server_git"):
    pytest.importorskip(module, reason="the test extra installs the reference MCP servers")

NOWHERE = "http://127.0.0.1:9"  # the discard port: a connection is refused at once
OFFLINE = {"HTTP_PROXY": NOWHERE, "HTTPS_PROXY": NOWHERE, "ALL_PROXY": NOWHERE,
           "http_proxy": NOWHERE, "https_proxy": NOWHERE, "all_proxy": NOWHERE,
           "NO_PROXY": "", "no_proxy": ""}


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    for key, value in OFFLINE.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A real git repository with one commit, for mcp-server-git."""
    path = tmp_path / "repo"
    path.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "first"]):
        subprocess.run(["git", *args], cwd=path, env=env, check=True)
    return path


def servers(repo: Path) -> dict[str, list[str]]:
    return {
        "time": [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"],
        "fetch": [sys.executable, "-m", "mcp_server_fetch"],
        "git": [sys.executable, "-m", "mcp_server_git", "--repository", str(repo)],
    }


REQUESTS = {"time": "what time is it in Tokyo", "fetch": "fetch the page at this URL",
            "git": "show the status of my git repository"}
EXPECTED = {  # tools each server is known to list (a newer release may add more)
    "time": {"get_current_time", "convert_time"},
    "fetch": {"fetch"},
    "git": {"git_status", "git_log", "git_commit", "git_diff", "git_add"},
}


@pytest.mark.parametrize("name", ["time", "fetch", "git"])
def test_import_then_lint_search_and_render(run, isolated, repo, name):
    out = isolated / "catalogs" / f"{name}.yaml"
    out.parent.mkdir()
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--name", name, "-o", str(out),
                 "--", *servers(repo)[name])
    assert result.exit_code == 0, result.stderr
    written = yaml.safe_load(out.read_text())
    names = {tool["name"] for tool in written["tools"]}
    assert EXPECTED[name] <= names
    assert {tool["server"] for tool in written["tools"]} == {name}
    assert written["servers"][0]["mcp"]["server_info"]["name"]
    n = len(names)
    assert f"imported {n} tool{'s' * (n != 1)} ({n} from {name}) to {out}" in result.stdout

    linted = run("lint", str(out), "--json")
    assert linted.exit_code in (0, 1), linted.stderr  # findings are fine; a crash is not
    report = json.loads(linted.stdout)
    assert report["tools"] == n

    rendered = run("render", REQUESTS[name], "-c", str(out), "--provider", "openai",
                   "--json")
    assert rendered.exit_code == 0, rendered.stderr
    data = json.loads(rendered.stdout)
    sent = [t["function"]["name"] for t in data["payload"]["tools"]]
    servers_and_names = [q.split(":", 1) for q in data["tools"]["payload"]]
    assert sent == [tool for _, tool in servers_and_names]  # the summary is the payload
    shown = {tool for server, tool in servers_and_names if server == name}
    assert shown and shown <= names
    assert {server for server, _ in servers_and_names} <= {name, "builtin"}
    assert all(tool.origin.line for tool in load_catalog(out).tools)


def test_what_time_is_it_in_tokyo_finds_get_current_time(run, isolated, repo):
    config = isolated / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": argv[0], "args": argv[1:]} for name, argv in servers(repo).items()}}))
    out = isolated / "all.yaml"
    assert run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config), "-o",
               str(out)).exit_code == 0
    for scorer in (None, "bm25", "hybrid"):  # None: search's default scorer
        chosen = ["--scorer", scorer] if scorer else []
        found = run("search", "what time is it in Tokyo", "-c", str(out), *chosen, "--json")
        assert found.exit_code == 0, found.stderr
        top3 = [t["name"] for t in json.loads(found.stdout)["tools"][:3]]
        assert "get_current_time" in top3, (scorer, top3)


def test_lock_reimport_and_diff_see_no_change_then_a_real_one(run, isolated, repo):
    argv = servers(repo)
    catalog = isolated / "catalogs" / "servers.yaml"
    catalog.parent.mkdir()
    config = isolated / ".mcp.json"

    def write_config(*names: str) -> None:
        config.write_text(json.dumps({"mcpServers": {
            name: {"command": argv[name][0], "args": argv[name][1:]} for name in names}}))

    write_config("time", "git")
    (isolated / "toolcat.yaml").write_text("catalogs: [catalogs/]\n")
    assert run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config), "-o",
               str(catalog)).exit_code == 0
    locked = run("lock", "--json")
    assert locked.exit_code == 0, locked.stderr
    assert json.loads(locked.stdout)["servers"] == 2

    first = isolated / "first.yaml"
    first.write_bytes(catalog.read_bytes())
    assert run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config), "-o",
               str(catalog)).exit_code == 0
    same = run("diff", str(first), str(catalog))
    assert same.exit_code == 0, same.stdout
    assert run("lint", "--locked", "--select", "TC604").exit_code == 0

    write_config("time", "git", "fetch")  # a server added behind the lock's back
    assert run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config), "-o",
               str(catalog)).exit_code == 0
    changed = run("diff", str(first), str(catalog), "--json")
    assert changed.exit_code == 1
    assert [t["qualified_name"] for t in json.loads(changed.stdout)["added"]] == ["fetch:fetch"]
    drift = run("lint", "--locked", "--select", "TC604", "--json")
    assert drift.exit_code == 1
    assert [f["tool"] for f in json.loads(drift.stdout)["findings"]] == ["fetch"]
