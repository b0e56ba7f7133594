"""A short serve session ends with exit 0 even while its semantic stage is still loading the
model's ONNX export on a background thread (finalizing under it aborted the process with
exit 134, "terminate called without an active exception": toolcat.search.native)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
import pytest

from tests.conftest import CATALOGS, REPO
from tests.serve.conftest import environment, text
from toolcat.search import onnx_encoder
from toolcat.search.embeddings import EmbeddingCache, _locate

# the model indexed once, then four sessions: minutes on a loaded 2-core machine
pytestmark = [pytest.mark.mcp, pytest.mark.semantic, pytest.mark.timeout(900)]

# serve under a parent that writes down how it exited (the SDK's client does not say)
EXIT_RECORDER = ("import subprocess, sys\n"
                 "done = subprocess.run([sys.executable, '-m', 'toolcat', *sys.argv[2:]])\n"
                 "open(sys.argv[1], 'w').write(str(done.returncode))\n"
                 "sys.exit(done.returncode)\n")


def session(cache: Path, record: Path, linger: float) -> str:
    """Initialize, list the tools, search once, stay `linger` seconds and leave, as a client
    asking one question does; the search's answer."""
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", EXIT_RECORDER, str(record), "serve", "-c", str(CATALOGS)],
        env=environment(TOOLCAT_CACHE_DIR=str(cache)), cwd=REPO)

    async def talk() -> str:
        with tempfile.TemporaryFile("w+") as errlog:
            async with Client(stdio_client(params, errlog=errlog), cache=None) as client:
                await client.list_tools()
                found = await client.call_tool("search_tools", {"query": "weather in Lisbon"})
                await anyio.sleep(linger)  # the semantic stage starts once a search is answered
            errlog.seek(0)
            said = errlog.read()
        assert "terminate called" not in said, said
        return text(found)

    return anyio.run(talk)


def test_short_sessions_exit_0_while_the_semantic_stage_loads(tmp_path, shared_cache):
    cache = shared_cache  # the demo encoded and its query encoder exported once a session
    indexed = subprocess.run([sys.executable, "-m", "toolcat", "index", "-c", str(CATALOGS)],
                             env=environment(TOOLCAT_CACHE_DIR=str(cache)), cwd=REPO,
                             capture_output=True, text=True, timeout=600, check=False)
    assert indexed.returncode == 0, indexed.stderr
    _, ident, _ = _locate(None)  # indexing loaded torch, which exported the query encoder
    assert onnx_encoder.export_path(EmbeddingCache(ident, cache).folder, ident).is_file()
    for number, linger in enumerate((0.5, 1.0, 1.5, 1.0)):
        record = tmp_path / f"exit-{number}"
        assert "weather" in session(cache, record, linger)
        # no record: serve had not left 2 s after its input closed, and the client killed it
        assert record.is_file() and record.read_text() == "0", \
            f"session {number} (left after {linger} s)"
