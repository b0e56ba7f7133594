"""What `toolcat serve` shows while its search scorer loads the embedding model and encodes a
catalog it has not seen: pick's status line, on stderr when that is a terminal (or in lines
with -v), and never a byte of it on stdout, which is the MCP protocol's. The real command
over stdio, its stderr on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.serve.conftest import environment

pytestmark = [pytest.mark.semantic, pytest.mark.mcp]

TOOLS = 32
STATUS = f"loading the embedding model, then encoding {TOOLS} new tools (once) ..."


def catalog(folder: Path) -> Path:
    path = folder / "tools.json"
    path.write_text(json.dumps(
        [{"name": f"topic_{i}", "description": f"Notes about topic {i}."}
         for i in range(TOOLS - 2)] +
        [{"name": "ledger_post", "description": "Post an entry to the accounting ledger."},
         {"name": "forecast", "description": "Tomorrow's weather: rain, wind, temperature."}]))
    return path


class Terminal:
    """A pseudo-terminal whose every byte is kept, read on a thread as it comes."""

    def __init__(self) -> None:
        self.leader, self.follower = pty.openpty()
        self._bytes: list[bytes] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.leader, 65536)
            except OSError:  # every writer has closed it
                break
            if not chunk:
                break
            with self._changed:
                self._bytes.append(chunk)
                self._changed.notify_all()

    def text(self) -> str:
        with self._changed:
            raw = b"".join(self._bytes).decode(errors="replace")
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw)

    def wait_for(self, part: str, seconds: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: part in self.text(), seconds)

    def close(self) -> str:
        self._reader.join(30)
        os.close(self.leader)
        return self.text()


def message(**fields: object) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", **fields}) + "\n").encode()


def test_serve_over_stdio_shows_the_status_on_a_terminal_and_keeps_stdout_the_protocols(
        tmp_path):
    terminal = Terminal()
    env = environment(TOOLCAT_CACHE_DIR=str(tmp_path / "cache"), TERM="xterm", NO_COLOR="1",
                      COLUMNS="120")
    with subprocess.Popen([sys.executable, "-m", "toolcat", "serve", "-c",
                           str(catalog(tmp_path))], env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=terminal.follower) as process:
        os.close(terminal.follower)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(message(id=1, method="initialize", params={
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}))
        process.stdin.write(message(method="notifications/initialized"))
        process.stdin.write(message(id=2, method="tools/call", params={
            "name": "search_tools", "arguments": {"query": "post an entry to the ledger"}}))
        process.stdin.flush()
        answers = [json.loads(process.stdout.readline()) for _ in range(2)]
        # the model loads and the catalog is encoded on a thread once serve answers: the
        # status, then the bar to its end
        seen = terminal.wait_for(STATUS, 600) and terminal.wait_for(f"{TOOLS}/{TOOLS}", 600)
        process.stdin.write(message(id=3, method="tools/call", params={
            "name": "search_tools", "arguments": {"query": "tomorrow's rain"}}))
        process.stdin.flush()
        answers.append(json.loads(process.stdout.readline()))
        process.stdin.close()  # the client leaves: serve ends
        rest = process.stdout.read()
        process.wait(60)
    shown = terminal.close()
    assert seen, shown
    assert "toolcat serve: 32 tools over stdio" in shown
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert "ledger_post" in answers[1]["result"]["content"][0]["text"]
    assert "forecast" in answers[2]["result"]["content"][0]["text"]
    assert "encoding the tools" in shown
    # stdout holds the protocol's messages and nothing else: no status, no terminal codes
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in rest.splitlines())
    assert b"loading" not in rest and b"\x1b" not in rest and b"\r" not in rest
    assert process.returncode == 0


def test_serve_says_the_loading_in_lines_with_verbose_when_stderr_is_no_terminal(tmp_path):
    env = environment(TOOLCAT_CACHE_DIR=str(tmp_path / "cache"))
    with subprocess.Popen([sys.executable, "-m", "toolcat", "serve", "-v", "-c",
                           str(catalog(tmp_path))], env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdin is not None and process.stderr is not None
        process.stdin.write(message(id=1, method="initialize", params={
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}))
        process.stdin.flush()
        lines: list[str] = []
        for line in process.stderr:  # until the encoding is said (or serve ends)
            lines.append(line.decode())
            if "new tools (once)" in lines[-1]:
                break
        process.stdin.close()  # the client leaves: serve ends
        lines.append(process.stderr.read().decode())
        process.wait(60)
    said = "".join(lines)
    assert "toolcat serve: loading the embedding model ... (" in said
    assert f"toolcat serve: encoding {TOOLS} new tools (once) ... (" in said
    assert "\r" not in said and "\x1b" not in said  # lines, not a status line
    assert process.returncode == 0
