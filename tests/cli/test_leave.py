"""The command line's exit (toolcat.cli.app.leave) while a background thread still runs native
code that no section counts: before, the interpreter was finalized under it, the thread was
killed inside torch's C++ and the process aborted (exit 134, "terminate called without an
active exception"; serve once exited -6 that way). Real processes, real torch."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytest.importorskip("torch")

# a daemon thread multiplying matrices in torch, outside any section, then the CLI's exit
LEAVING = """
import sys, threading, time
import torch
from toolcat.cli.app import leave
matrix = torch.randn(300, 300)
def work():
    while True:
        matrix @ matrix
threading.Thread(target=work, daemon=True).start()
time.sleep(0.3)
print("left", flush=True)
leave(int(sys.argv[1]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("code", [0, 1, 2])
def test_leaving_beside_a_daemon_thread_inside_torch_keeps_the_exit_code(code):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", LEAVING, str(code)], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == code, done.stderr[-400:]
    assert done.stdout == "left\n"
    assert "terminate called" not in done.stderr
