"""A lock that accepts volatile text knowingly: a server that writes the host's folders into
its description (as desktop-commander does) changes its definition on every machine. Without
a word from the user, `serve` withholds the tool as changed; after `toolcat lock --volatile`
names that text, the tool is served and called, `lint --locked` is clean, and any other
change still counts. With the SDK's client over stdio and a real upstream."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from tests.mcp.conftest import START_TIMEOUT
from tests.serve.conftest import served, text

pytestmark = pytest.mark.mcp

SERVER = Path(__file__).resolve().parent / "servers" / "folders_server.py"
PATHS = r"(/[\w-]+)+(,(/[\w-]+)+)*"  # the folders, whatever they are and however many


def config(path: Path, folders: str) -> Path:
    path.write_text(json.dumps({"mcpServers": {"folders": {
        "command": sys.executable, "args": [str(SERVER)], "env": {"ALLOWED_DIRS": folders}}}}))
    return path


def test_volatile_text_in_the_lock_is_accepted_and_nothing_else(tmp_path, fast_profile, run,
                                                                monkeypatch):
    # import, lock and lint run in this process (the real CLI, in the project's folder): what
    # they write and say is the same, a `python -m toolcat` each cost a second of CPU; serve
    # runs as the MCP client's subprocess
    work = tmp_path / "project"
    work.mkdir()
    monkeypatch.chdir(work)
    catalog = work / "folders.yaml"
    done = run("import", "mcp", "--timeout", START_TIMEOUT, "--config",
               str(config(tmp_path / "alice.json", "/Users/alice/projects")), "-o", str(catalog))
    assert done.exit_code == 0, done.stderr
    bob = config(tmp_path / "bob.json", "/home/bob/work,/tmp")

    async def session(expect_served: bool) -> None:
        async with served("-c", str(catalog), "-p", str(fast_profile), "--servers", str(bob),
                          cwd=work) as client:
            added = json.loads(text(await client.call_tool(
                "add_tool", {"tool_names": ["list_directory"]})))
            assert added["added"] == ["list_directory"], added
            result = await client.call_tool("list_directory", {"path": "/home/bob/work"})
            if expect_served:
                assert not result.is_error, text(result)
                assert text(result) == "/home/bob/work: a, b"
            else:  # compared with the live server when it starts: withheld as changed
                assert result.is_error and "changed on its server" in text(result)

    # locked plainly: the other machine's folders make the tool "changed"
    assert run("lock", "-c", str(catalog)).exit_code == 0
    anyio.run(session, False)

    locked = run("lock", "-c", str(catalog), "--volatile", f"folders:*={PATHS}")
    assert locked.exit_code == 0, locked.stderr
    assert f"volatile in folders:*: {PATHS}" in locked.stdout
    assert json.loads((work / "toolcat.lock").read_text())["volatile"] == {"folders:*": [PATHS]}
    anyio.run(session, True)

    # the catalog as the other machine lists it is the locked one, volatile text aside
    other = work / "bob.yaml"
    done = run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(bob), "-o",
               str(other))
    assert done.exit_code == 0, done.stderr
    clean = run("lint", "-c", str(other), "--locked", "--select", "TC604")
    assert clean.exit_code == 0, clean.stdout + clean.stderr
    # any other change still counts
    other.write_text(other.read_text().replace("Use it before", "Always use it before"))
    changed = run("lint", "-c", str(other), "--locked", "--select", "TC604")
    assert changed.exit_code == 1 and "list_directory" in changed.stdout
