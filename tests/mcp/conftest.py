"""Real MCP servers for the tests: the SDK demo server over stdio and over streamable HTTP, and
the broken ones; and a check that none of them outlives the tests."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SERVERS = Path(__file__).resolve().parent / "servers"
DEMO = [sys.executable, str(SERVERS / "demo_server.py")]
BROKEN = [sys.executable, str(SERVERS / "broken_server.py")]
# Long enough for a cold Python to import the SDK on a busy 2-core machine; the servers that
# are meant to fail get short ones in their tests.
START_TIMEOUT = "60"


# pytest-xdist names each worker in the environment, which the servers a test starts inherit
WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def another_workers(entry: Path) -> bool:
    """Whether the process was started under another pytest-xdist worker of this run."""
    try:
        environ = (entry / "environ").read_bytes().split(b"\0")
    except OSError:
        return False
    named = [v for v in environ if v.startswith(b"PYTEST_XDIST_WORKER=")]
    return bool(named) and named[0] != f"PYTEST_XDIST_WORKER={WORKER}".encode()


def running_servers() -> list[str]:
    """Command lines of live processes started from tests/mcp/servers (Linux /proc), but those
    of another pytest-xdist worker's tests."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(SERVERS) in cmdline and state != "Z" and not another_workers(entry):
            found.append(f"{entry.name}: {cmdline}")
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def assert_no_servers_left() -> None:
    """No server started from tests/mcp/servers is left running, but the HTTP demo server,
    which is the http_url fixture's own (stopped by it, in whichever order session fixtures
    end); a session that just ended may still be reaping, so this waits up to 10 s."""
    if not Path("/proc/self").exists():
        return

    def left() -> list[str]:
        return [line for line in running_servers() if "--http" not in line]

    end = time.monotonic() + 10
    while left() and time.monotonic() < end:
        time.sleep(0.1)
    assert left() == []


@pytest.fixture(scope="session", autouse=True)
def no_orphans() -> Iterator[None]:
    """After every MCP test has run, no server is left."""
    yield
    assert_no_servers_left()


@pytest.fixture(scope="session")
def http_url() -> Iterator[str]:
    """The demo server over streamable HTTP on 127.0.0.1, on a port it picked itself."""
    with subprocess.Popen([*DEMO, "--http"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL,
                          env={**os.environ, "DEMO_GREETING": "hi"}) as process:
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], float(START_TIMEOUT))
            assert ready, "the HTTP demo server did not start"
            port = int(process.stdout.readline())
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


# what Salesforce's server hit on Node 20: an API newer Node versions have, read at start
CRASH = 'const util = require("node:util");\nutil.aNewerNodeApi.bind(util);\n'


@pytest.fixture(scope="session")
def running() -> str:
    """The version of the node on PATH (`v20.19.0`)."""
    return subprocess.run(["node", "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def package(root: Path, name: str, script: str, *, engines: str | None,
            file: str = "index.js", dependencies: tuple[str, ...] = ()) -> Path:
    """Install package `name` into root/node_modules (its bin linked as npm links it), with
    `dependencies` listed in its package.json (installed by other calls)."""
    folder = root / "node_modules" / name
    folder.mkdir(parents=True)
    command = name.rsplit("/", 1)[-1]
    manifest: dict[str, object] = {"name": name, "version": "1.0.0", "bin": {command: file}}
    if engines is not None:
        manifest["engines"] = {"node": engines}
    if dependencies:
        manifest["dependencies"] = dict.fromkeys(dependencies, "1.0.0")
    (folder / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / file).write_text("#!/usr/bin/env node\n" + script, encoding="utf-8")
    (folder / file).chmod(0o755)
    (root / "node_modules" / ".bin").mkdir(exist_ok=True)
    (root / "node_modules" / ".bin" / command).symlink_to(folder / file)
    return folder / file


def newer_than(version: str) -> str:
    return f">={int(version.lstrip('v').split('.')[0]) + 1}"


class _Refusing(BaseHTTPRequestHandler):
    """Answers every POST as a FastAPI app does a token it does not know."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"detail": "Invalid or disabled token"}).encode()
        self.send_response(401 if self.headers.get("Authorization") else 500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def refusing_server() -> Iterator[str]:
    """An HTTP server on 127.0.0.1 refusing every POST (401 with a token, else 500); its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()
