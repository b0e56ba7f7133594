"""Ctrl-C ends `toolcat serve --http` at any moment (toolcat.cli.stopping), also when it was
started with SIGINT ignored, as a script's or a test runner's background job is: during its
start (it let SIGINT pass there and went on to listen for ever) and while it serves, with an
upstream server it started, which is ended. Exit 0 and the log's `stop` both times."""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time

import anyio
import pytest

from tests.mcp.conftest import running_servers
from tests.serve.conftest import assert_no_servers_left, environment
from tests.serve.test_serve import events

pytestmark = pytest.mark.mcp

# serve started with SIGINT ignored, as `toolcat serve ... &` in a script starts it
IGNORING = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
            "os.execv(sys.executable, [sys.executable, '-m', 'toolcat', *sys.argv[1:]])")


def started(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", IGNORING, "serve", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=environment())


def first_line(process: subprocess.Popen[str]) -> str:
    assert process.stderr is not None
    assert select.select([process.stderr], [], [], 60)[0], "serve said nothing for 60 s"
    return process.stderr.readline()


def stopped(process: subprocess.Popen[str]) -> tuple[int, str]:
    """SIGINT, then its exit code and what else it wrote on stderr; fails when it has not
    exited 30 s after the signal."""
    process.send_signal(signal.SIGINT)
    try:
        _, said = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        _, said = process.communicate()
        pytest.fail(f"serve was still running 30 s after SIGINT: {said[-500:]}")
    return process.returncode, said


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.5, 0.9])
def test_ctrl_c_at_any_moment_of_the_start_stops_serve(demo_catalog, fast_profile, tmp_path,
                                                       delay):
    """The SDK's import, the gate's making, uvicorn's start: SIGINT inside any of them once
    raised KeyboardInterrupt inside pydantic-core (a SchemaError traceback, exit 1), was
    swallowed by an import (serve listened for ever), closed the socket before its port was
    read (EBADF), or ended serve cleanly and CPython then killed it with SIGINT (exit -2):
    11 of 100 such stops before, 0 of 160 after."""
    log = tmp_path / "serve.jsonl"
    process = started("-c", str(demo_catalog), "-p", str(fast_profile), "--log", str(log),
                      "--http", "127.0.0.1:0", "-v")
    line = first_line(process)
    assert "read the catalog" in line, line  # the MCP SDK is imported next
    time.sleep(delay)
    code, said = stopped(process)
    assert code == 0, line + said
    assert "Traceback" not in said and "Error" not in said, said


def test_ctrl_c_while_serving_ends_serve_and_its_upstream_server(demo_catalog, fast_profile,
                                                                 tmp_path):
    from mcp import Client

    log = tmp_path / "serve.jsonl"
    process = started("-c", str(demo_catalog), "-p", str(fast_profile), "--mode", "call",
                      "--log", str(log), "--http", "127.0.0.1:0")
    line = first_line(process)
    assert " tools at http://" in line, line
    url = line.split(" at ", 1)[1].split()[0]

    async def call() -> None:
        async with Client(url, cache=None) as client:
            # relayed to the demo server, started for it (which answers no call)
            await client.call_tool("call_tool", {"name": "read_file",
                                                 "arguments": {"path": "a.txt"}})

    anyio.run(call)
    assert any("demo_server.py" in started for started in running_servers())
    code, said = stopped(process)
    assert code == 0, said
    assert "Traceback" not in said, said
    assert events(log)[-1]["event"] == "stop"
    assert_no_servers_left()
