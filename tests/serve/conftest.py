"""`toolcat serve` run as a subprocess, and the SDK's client talking to it."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO
from tests.mcp.conftest import (  # noqa: F401 - http_url, running: fixtures
    BROKEN,
    DEMO,
    START_TIMEOUT,
    assert_no_servers_left,
    http_url,
    running,
)

pytest.importorskip("mcp")

TRUST_SERVER = Path(__file__).resolve().parent / "servers" / "trust_server.py"
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
                 env: dict[str, str] | None = None, cwd: Path | None = None
                 ) -> AsyncIterator[Any]:
    """A connected SDK client of `python -m toolcat serve ARGS` over stdio."""
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "toolcat", "serve", *args],
                                   env=env or environment(), cwd=cwd or Path.cwd())
    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with Client(stdio_client(params, errlog=errlog), mode=mode,
                              message_handler=handler, cache=None) as client:
                yield client
        except BaseException:
            errlog.seek(0)
            sys.stderr.write(errlog.read())
            raise


@contextmanager
def http_served(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """`python -m toolcat serve ARGS` (with --http among them) running: its URL and port, read
    from the line it prints once it listens. Stopped with SIGINT afterwards; it must exit 0."""
    with subprocess.Popen([sys.executable, "-m", "toolcat", "serve", *args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env or environment(),
                          text=True) as process:
        try:
            assert process.stderr is not None
            ready, _, _ = select.select([process.stderr], [], [], 60)
            assert ready, "toolcat serve --http did not start"
            line = process.stderr.readline()
            assert " tools at http://" in line, line + process.stderr.read()
            url = line.split(" at ", 1)[1].split()[0]
            yield url, int(url.rsplit(":", 1)[1].split("/")[0])
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        assert process.returncode == 0, process.stderr.read() if process.stderr else ""


class Said:
    """A served process's stderr read as it comes (pass `errlog` to stdio_client), so a test
    waits for the lines it needs rather than for a number of seconds."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.errlog = os.fdopen(write, "w")
        self._lines: list[str] = []
        self._closed = False
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(os.fdopen(read),),
                                        daemon=True)
        self._reader.start()

    def _read(self, stream: Any) -> None:
        with stream:
            for line in stream:
                with self._changed:
                    self._lines.append(line)
                    self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def wait_for(self, *parts: str, seconds: float = 300) -> bool:
        """Whether every part has been said on some line; returns as soon as they have, or
        the process has closed its stderr (ended), or after `seconds` at the most."""
        def said() -> bool:
            return all(any(part in line for line in self._lines) for part in parts)

        with self._changed:
            return self._changed.wait_for(lambda: said() or self._closed, seconds) and said()

    def close(self) -> str:
        """Everything said, once the process has ended (call after the client has left)."""
        self.errlog.close()
        self._reader.join(60)
        with self._changed:
            return "".join(self._lines)


def list_changes() -> tuple[Callable[[Any], Awaitable[None]], list[str]]:
    """A message handler for `served` and the list it adds the method of each
    tools/list_changed notification the client receives to."""
    import mcp_types as types

    changed: list[str] = []

    async def handler(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.append(message.method)

    return handler, changed


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def import_server(out: Path, *command: str, name: str | None = None) -> Path:
    """`out`, written by `python -m toolcat import mcp` from the stdio server `command` (as a
    user runs it, in a process of its own), named `name` if given; the import must succeed."""
    named = ["--name", name] if name else []
    done = subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "--timeout",
                           START_TIMEOUT, *named, "-o", str(out), "--", *command],
                          env=environment(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def time_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mcp-server-time's tools, imported with `toolcat import mcp`."""
    return import_server(tmp_path_factory.mktemp("time") / "time.yaml", "mcp-server-time")


@pytest.fixture(scope="session")
def trust_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tools of tests/serve/servers/trust_server.py (wait, big, noisy), imported."""
    return import_server(tmp_path_factory.mktemp("trust") / "trust.yaml", sys.executable,
                         str(TRUST_SERVER), name="trust")


@pytest.fixture(scope="session")
def demo_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SDK demo server's tools, imported as server `files`."""
    return import_server(tmp_path_factory.mktemp("demo") / "demo.yaml", *DEMO, name="files")


EVERYTHING = "@modelcontextprotocol/server-everything"


@pytest.fixture(scope="session")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """server-everything imported: its tools, and the names of its prompts and resources."""
    done = subprocess.run(["npm", "cache", "add", EVERYTHING], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, f"npm could not fetch {EVERYTHING}: {done.stderr[-500:]}"
    return import_server(tmp_path_factory.mktemp("everything") / "everything.yaml", "npx",
                         "-y", EVERYTHING, name="everything")


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
    # the demo server's own definitions: serve refuses a tool whose live definition differs
    file = "{type: string, description: 'Path of the file, relative to the store.'}"
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
    description: Read a text file from the store and return its contents.
    parameters: {{type: object, properties: {{path: {file}}}, required: [path],
                 additionalProperties: false}}
    annotations: {{readOnlyHint: true}}
  - name: delete_file
    server: store
    description: Delete a file from the store. This cannot be undone.
    parameters: {{type: object, properties: {{path: {file}}}, required: [path]}}
    annotations: {{destructiveHint: true}}
    safe: false
  - {{name: open_vault, server: vault, description: Open the vault., {empty}}}
  - {{name: take_note, server: notes, description: Write down a note., {empty}}}
  - {{name: check_token, server: picky, description: Check the API token., {empty}}}
""")
    return path, pids


RECORDS_SERVER = Path(__file__).resolve().parent / "servers" / "records_server.py"


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The records server's tools as `toolcat import mcp` writes them, and its folder: imported
    once a session (a worker's), as seven modules start from it; `records` empties the folder
    for each test, and changes the document the same way every time."""
    folder = tmp_path_factory.mktemp("records")
    out = import_server(folder.parent / "records.yaml", sys.executable, str(RECORDS_SERVER),
                        str(folder), name="records")
    return yaml.safe_load(out.read_text()), folder


@pytest.fixture
def records(imported: tuple[dict[str, Any], Path], tmp_path: Path) -> tuple[Path, Path]:
    """The catalog, with send_message marked human-approval by its author, and a fresh
    folder of records (alpha, beta) for this test."""
    document, folder = imported
    for item in folder.iterdir():
        item.unlink()
    for name in ("alpha", "beta"):
        (folder / f"{name}.txt").write_text(name)
    for tool in document["tools"]:
        if tool["name"] == "send_message":
            tool.update(allow_no_schema=True, no_schema_mode="human-approval")
    catalog = tmp_path / "records.yaml"
    catalog.write_text(yaml.safe_dump(document, sort_keys=False))
    return catalog, folder
