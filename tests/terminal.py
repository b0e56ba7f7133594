"""Run `python -m toolcat` with one of its streams on a real pseudo-terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

from tests.conftest import REPO


def on_terminal(*args: str, stream: str = "stdout", columns: int = 200,
                env: dict[str, str] | None = None, timeout: float = 120) -> str:
    """What `toolcat ARGS` wrote to `stream` (stdout or stderr), which was a terminal of
    `columns` columns; styles are stripped. The command must succeed."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    environment = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": str(columns),
                   "TERM": "xterm", "NO_COLOR": "1", **(env or {})}
    other = subprocess.PIPE
    with subprocess.Popen([sys.executable, "-m", "toolcat", *args], env=environment, cwd=REPO,
                          stdout=follower if stream == "stdout" else other,
                          stderr=follower if stream == "stderr" else other) as proc:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the command is done
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.communicate(timeout=timeout)
        assert proc.returncode == 0
    os.close(leader)
    text = b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)  # styles, cursor moves
