"""A lock that accepts volatile text knowingly: a server that writes the host's folders into
its description (as desktop-commander does) changes its definition on every machine. Without
a word from the user, `serve` withholds the tool as changed; after `toolcat lock --volatile`
names that text, the tool is served and called, `lint --locked` is clean, and any other
change still counts. With the SDK's client over stdio and a real upstream."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.mcp.conftest import START_TIMEOUT
from tests.serve.conftest import environment, served, text

pytestmark = pytest.mark.mcp

SERVER = Path(__file__).resolve().parent / "servers" / "folders_server.py"
PATHS = r"(/[\w-]+)+(,(/[\w-]+)+)*"  # the folders, whatever they are and however many


def config(path: Path, folders: str) -> Path:
    path.write_text(json.dumps({"mcpServers": {"folders": {
        "command": sys.executable, "args": [str(SERVER)], "env": {"ALLOWED_DIRS": folders}}}}))
    return path


def toolcat(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcat", *args], cwd=cwd, env=environment(),
                          capture_output=True, text=True, check=False)


def test_volatile_text_in_the_lock_is_accepted_and_nothing_else(tmp_path, fast_profile):
    work = tmp_path / "project"
    work.mkdir()
    catalog = work / "folders.yaml"
    done = toolcat("import", "mcp", "--timeout", START_TIMEOUT, "--config",
                   str(config(tmp_path / "alice.json", "/Users/alice/projects")),
                   "-o", str(catalog), cwd=work)
    assert done.returncode == 0, done.stderr
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
    assert toolcat("lock", "-c", str(catalog), cwd=work).returncode == 0
    anyio.run(session, False)

    locked = toolcat("lock", "-c", str(catalog), "--volatile", f"folders:*={PATHS}", cwd=work)
    assert locked.returncode == 0, locked.stderr
    assert f"volatile in folders:*: {PATHS}" in locked.stdout
    assert json.loads((work / "toolcat.lock").read_text())["volatile"] == {"folders:*": [PATHS]}
    anyio.run(session, True)

    # the catalog as the other machine lists it is the locked one, volatile text aside
    other = work / "bob.yaml"
    done = toolcat("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(bob), "-o",
                   str(other), cwd=work)
    assert done.returncode == 0, done.stderr
    clean = toolcat("lint", "-c", str(other), "--locked", "--select", "TC604", cwd=work)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    # any other change still counts
    other.write_text(other.read_text().replace("Use it before", "Always use it before"))
    changed = toolcat("lint", "-c", str(other), "--locked", "--select", "TC604", cwd=work)
    assert changed.returncode == 1 and "list_directory" in changed.stdout
