"""Ctrl-C ends `toolcat gateway` at any moment of its start (toolcat.cli.stopping): while its
relevance model loads and right after it prints its address, also when it was started with
SIGINT ignored, as a script's or a test runner's background job is (the gateway then loaded
its model and listened for ever). The real command, its stderr on a pseudo-terminal (where
the status line shows), SIGINT sent once each phase shows there."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.semantic

ARGS = ("gateway", "--upstream", "http://127.0.0.1:9", "-p", "gateway-relevance", "--port", "0")
# the gateway started with SIGINT ignored (as `cmd &` in a script starts it) or not, whatever
# the test runner was started with
STARTED_WITH = ("import os, signal, sys; signal.signal(signal.SIGINT, getattr(signal, "
                "sys.argv[1])); os.execv(sys.executable, [sys.executable, '-m', 'toolcat', "
                "*sys.argv[2:]])")
LOADING = b"loading the embedding model"
LISTENING = b" at http://"


def interrupted(cache: Path, when: bytes, *, ignored: bool, after: float = 0.0
                ) -> tuple[int, str]:
    """Start the gateway (ignoring SIGINT from its start when `ignored`), send it SIGINT
    `after` seconds once `when` shows on its stderr; its exit code and what it wrote. Fails
    when it has not exited 30 s after the signal."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache),
           "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "120"}
    disposition = "SIG_IGN" if ignored else "SIG_DFL"
    with subprocess.Popen([sys.executable, "-c", STARTED_WITH, disposition, *ARGS], env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=follower) as process:
        os.close(follower)
        said = b""
        while when not in said:
            chunk = _read(leader)
            assert chunk, said
            said += chunk
        time.sleep(after)
        process.send_signal(signal.SIGINT)
        stop = time.monotonic() + 30
        # read on while it stops: a terminal nobody reads would hold its status line up
        while process.poll() is None and time.monotonic() < stop:
            if select.select([leader], [], [], 0.1)[0]:
                chunk = _read(leader)
                if not chunk:  # the terminal closed: the process is leaving
                    break
                said += chunk
        try:
            process.wait(max(stop - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail("the gateway was still running 30 s after SIGINT: "
                        + said.decode(errors="replace")[-500:])
    os.close(leader)
    return process.returncode, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "",
                                      said.decode(errors="replace"))


def _read(leader: int) -> bytes:
    try:
        return os.read(leader, 65536)
    except OSError:  # EIO: the other side closed
        return b""


def test_ctrl_c_right_after_the_address_stops_a_gateway_that_inherited_it_ignored(tmp_path):
    code, shown = interrupted(tmp_path / "cache", LISTENING, ignored=True)
    assert code == 0, shown
    assert "Traceback" not in shown


@pytest.mark.parametrize("ignored", [True, False], ids=["inherited-ignored", "default"])
def test_ctrl_c_while_the_model_loads_stops_the_gateway_before_it_listens(tmp_path, ignored):
    # a new cache folder: the load is long (torch, then the ONNX export written)
    code, shown = interrupted(tmp_path / "cache", LOADING, ignored=ignored, after=0.3)
    assert code == 0, shown
    assert "at http://" not in shown  # it never listened
    assert "Traceback" not in shown and "terminate called" not in shown, shown


def test_ctrl_c_between_the_address_and_uvicorns_handler_asks_the_server_to_stop():
    # raised as KeyboardInterrupt there, it could land inside asyncio's building of its loop,
    # whose half-made object printed a traceback when collected
    from types import SimpleNamespace

    from toolcat.gateway.proxy import _ctrl_c_stops

    server = SimpleNamespace(should_exit=False)
    before = signal.getsignal(signal.SIGINT)
    with _ctrl_c_stops(server):
        signal.raise_signal(signal.SIGINT)
    assert server.should_exit
    assert signal.getsignal(signal.SIGINT) is before
