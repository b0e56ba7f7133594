"""`import mcp --timeout` is a deadline for the whole command, and HTTP failures say what
went wrong: a server that never answers, one that speaks only the old SSE transport."""

from __future__ import annotations

import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from tests.mcp.conftest import SERVERS, START_TIMEOUT
from toolcat.cli.mcp_cmds import within
from toolcat.errors import ToolcatError

pytest.importorskip("mcp")
pytestmark = pytest.mark.mcp


def test_work_still_running_at_the_deadline_is_an_error_not_a_wait():
    with pytest.raises(ToolcatError, match=r"--timeout 0\.2 s ran out while writing 9 tools"):
        within(time.monotonic() + 0.2, 0.2, lambda: time.sleep(30), "writing 9 tools")
    assert within(time.monotonic() + 30, 30, lambda: "done", "writing") == "done"
    with pytest.raises(ZeroDivisionError):  # the work's own failure is the caller's
        within(time.monotonic() + 30, 30, lambda: 1 / 0, "writing")


@pytest.fixture
def silent_http() -> Iterator[str]:
    """A TCP server that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_silent_http_server_is_reported_at_the_deadline(run, silent_http):
    result = run("import", "mcp", "--timeout", "3", "--url", silent_http)
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: MCP server '{silent_http}' gave no answer "
                             "to initialize within 3 s (a server that first waits for a "
                             "sign-in in a browser, for input on a terminal or for a service "
                             "it cannot reach stops there; one only slow to start needs a "
                             "longer timeout)\n")


@pytest.fixture
def sse_url() -> Iterator[str]:
    with subprocess.Popen([sys.executable, str(SERVERS / "sse_server.py")],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as process:
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], float(START_TIMEOUT))
            assert ready, "the SSE server did not start"
            yield f"http://127.0.0.1:{int(process.stdout.readline())}/sse"
        finally:
            process.terminate()
            process.wait(10)


def test_an_sse_only_server_is_named_as_such(run, sse_url):
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--url", sse_url)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"toolcat: error: MCP server at {sse_url} speaks only the "
                                    "old HTTP+SSE transport")
    assert "-32603" not in result.stderr
