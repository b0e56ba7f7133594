"""review, resolve and gateway say, on a terminal, what pick says while the embedding model loads
and a catalog's tools are encoded (toolcat.cli.encoding): the same status line, then the same
bar; nothing with --json, nothing into a pipe. The real commands, stderr on a
pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.terminal import on_terminal

pytestmark = pytest.mark.semantic

STATUS = "loading the embedding model, then encoding 72 new tools (once) ..."


def requests(folder: Path) -> Path:
    path = folder / "requests.jsonl"
    path.write_text("".join(json.dumps({"id": f"r{i}", "query": q}) + "\n" for i, q in
                            enumerate(["send an email to Ana", "weather in Lisbon"])))
    return path


def test_review_shows_the_status_and_the_bar_on_a_terminal_only(tmp_path):
    args = ["review", "-c", "demo", "-q", str(requests(tmp_path))]
    shown = on_terminal(*args, "-o", str(tmp_path / "out"), stream="stderr", columns=120,
                        env={"TOOLCAT_CACHE_DIR": str(tmp_path / "c1")})
    assert STATUS in shown
    assert "encoding the tools" in shown and "72/72" in shown
    assert (tmp_path / "out" / "index.html").is_file()
    # the model still loads (the tools' vectors are cached now), and nothing says so
    quiet = on_terminal(*args, "-o", str(tmp_path / "quiet"), "--json", stream="stderr",
                        columns=120, env={"TOOLCAT_CACHE_DIR": str(tmp_path / "c1")})
    assert "loading" not in quiet  # --json: no status
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(tmp_path / "c1")}
    piped = subprocess.run([sys.executable, "-m", "toolcat", *args, "-o",
                            str(tmp_path / "piped")], capture_output=True, text=True,
                           check=True, timeout=600, env=env)
    assert "loading" not in piped.stderr and "wrote the review of 2 requests" in piped.stdout


def test_resolve_shows_the_same_status_as_pick(tmp_path):
    shown = on_terminal("resolve", "send an email to Ana", "-c", "demo", stream="stderr",
                        columns=120, env={"TOOLCAT_CACHE_DIR": str(tmp_path / "cache")})
    assert STATUS in shown and "72/72" in shown


def test_the_gateway_says_its_relevance_model_loads_before_it_listens(tmp_path):
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(tmp_path / "c"),
           "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "120"}
    # the upstream is never asked: the gateway is stopped once it listens
    with subprocess.Popen([sys.executable, "-m", "toolcat", "gateway", "--upstream",
                           "http://127.0.0.1:9", "-p", "gateway-relevance", "--port", "0"],
                          env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=follower) as process:
        os.close(follower)
        said = b""
        while b" at http://" not in said:
            chunk = os.read(leader, 65536)
            assert chunk, said
            said += chunk
        process.send_signal(signal.SIGINT)
        process.wait(30)
    os.close(leader)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", said.decode(errors="replace"))
    assert "loading the embedding model ..." in shown
    # the status comes, and is gone, before the line scripts read
    assert shown.index("loading the embedding model") < shown.index("toolcat gateway: relevance")
