"""`toolcat serve` run as a subprocess, and the SDK's client talking to it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.mcp.conftest import (  # noqa: F401 - http_url: the demo server over HTTP
    BROKEN,
    DEMO,
    START_TIMEOUT,
    assert_no_servers_left,
    http_url,
)

pytest.importorskip("mcp")

FAST_PROFILE = "name: fast\ndescription: bm25 instead of the default scorer, for speed\n" \
    "scorer: bm25\n"


@pytest.fixture(scope="session", autouse=True)
def no_orphans() -> Iterator[None]:
    """After the serve tests, no upstream server they made serve start is left running."""
    yield
    assert_no_servers_left()


def environment(**extra: str) -> dict[str, str]:
    """The environment of a `toolcat serve` started by a test: this checkout first."""
    env = {k: v for k, v in os.environ.items() if k != "DEMO_GREETING"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return {**env, **extra}


@asynccontextmanager
async def served(*args: str, mode: str = "legacy",
                 handler: Callable[[Any], Awaitable[None]] | None = None,
                 env: dict[str, str] | None = None) -> AsyncIterator[Any]:
    """A connected SDK client of `python -m toolcat serve ARGS` over stdio."""
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "toolcat", "serve", *args],
                                   env=env or environment(), cwd=Path.cwd())
    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with Client(stdio_client(params, errlog=errlog), mode=mode,
                              message_handler=handler, cache=None) as client:
                yield client
        except BaseException:
            errlog.seek(0)
            sys.stderr.write(errlog.read())
            raise


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


@pytest.fixture(scope="session")
def time_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mcp-server-time's tools, imported with `toolcat import mcp`."""
    out = tmp_path_factory.mktemp("time") / "time.yaml"
    done = subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "--timeout",
                           START_TIMEOUT, "-o", str(out), "--", "mcp-server-time"],
                          env=environment(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def fast_profile(tmp_path: Path) -> Path:
    path = tmp_path / "fast.yaml"
    path.write_text(FAST_PROFILE)
    return path


@pytest.fixture
def trouble_catalog(tmp_path: Path) -> tuple[Path, Path]:
    """Servers that hang, exit at start, list tools without answering calls, need a secret,
    and a tool with no server at all; and the file where the hanging server writes its
    process ids."""
    pids = tmp_path / "pids.txt"
    python, demo, broken = sys.executable, DEMO[1], BROKEN[1]
    path = tmp_path / "trouble.yaml"
    stdio = f"transport: stdio, command: {python!r}"
    empty = "parameters: {type: object}"
    path.write_text(f"""\
servers:
  - name: stuck
    mcp: {{{stdio}, args: [{broken!r}, hang, --pid-file, {str(pids)!r}]}}
  - name: gone
    mcp: {{{stdio}, args: [{broken!r}, exit]}}
  - name: store
    mcp: {{{stdio}, args: [{demo!r}]}}
  - name: vault
    mcp: {{{stdio}, args: [{demo!r}], env: {{DEMO_GREETING: <redacted>}}}}
  - name: notes
    description: a plain catalog entry, no MCP server behind it
  - name: picky
    mcp: {{{stdio}, args: [-c, "import sys; sys.exit('token ${{API_TOKEN}} rejected')"]}}
tools:
  - {{name: wait_forever, server: stuck, description: Wait for what never comes., {empty}}}
  - {{name: report_status, server: gone, description: Report the database status., {empty}}}
  - name: read_file
    server: store
    description: Read a text file from the store.
    parameters: {{type: object, properties: {{path: {{type: string}}}}, required: [path]}}
  - name: delete_file
    server: store
    description: Delete a file from the store. This cannot be undone.
    parameters: {{type: object, properties: {{path: {{type: string}}}}, required: [path]}}
    annotations: {{destructiveHint: true}}
    safe: false
  - {{name: open_vault, server: vault, description: Open the vault., {empty}}}
  - {{name: take_note, server: notes, description: Write down a note., {empty}}}
  - {{name: check_token, server: picky, description: Check the API token., {empty}}}
""")
    return path, pids
