"""A failing upstream server is reported as the user needs to fix it: the first lines of its
stderr that say what went wrong (not a stack, a usage text's tail or Node's version) and how
it ended (its exit status), through serve to the SDK's client."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from tests.serve.conftest import BROKEN, served, text

pytestmark = pytest.mark.mcp


@pytest.fixture
def failing_catalog(tmp_path: Path) -> Path:
    """A server per way of failing, each with one tool; the servers are broken_server.py."""
    path = tmp_path / "failing.yaml"
    stdio = f"transport: stdio, command: {sys.executable!r}"
    empty = "parameters: {type: object}"
    servers = {"node": "crashes as Node does on a missing module",
               "usage": "refuses its arguments and prints its --help",
               "crash": "dies when asked for its tools"}
    lines = ["servers:"]
    lines += [f"  - {{name: {mode}, mcp: {{{stdio}, args: [{BROKEN[1]!r}, {mode}]}}}}"
              for mode in servers]
    lines += ["tools:"]
    lines += [f"  - {{name: start_{mode}, server: {mode}, description: 'Start a server that "
              f"{why}.', {empty}, annotations: {{readOnlyHint: true}}}}"
              for mode, why in servers.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_server_that_fails_to_start_is_quoted_with_its_exit_status(failing_catalog,
                                                                      fast_profile, tmp_path):
    log = tmp_path / "serve.jsonl"

    async def session() -> dict[str, str]:
        said = {}
        async with served("-c", str(failing_catalog), "-p", str(fast_profile),
                          "--mode", "call", "--call-timeout", "20", "--log", str(log)) as client:
            for mode in ("node", "usage", "crash"):
                result = await client.call_tool("call_tool", {"name": f"start_{mode}",
                                                              "arguments": {}})
                assert result.is_error
                said[mode] = text(result)
        return said

    said = anyio.run(session)
    node = said["node"]
    assert node == ("cannot start MCP server 'node': MCP server 'node' exited with status 1 "
                    "before it had started; its stderr says: Error: Cannot find module "
                    "'/app/dist/index.js'"), node
    usage = said["usage"]
    assert "exited with status 2 before it had started" in usage
    assert usage.endswith("its stderr says: error: unknown option '--stdio'"), usage
    assert "display help" not in usage  # the usage text's tail is not what went wrong
    crash = said["crash"]
    assert "'crash' exited with status 1 before it had started" in crash
    assert crash.endswith("its stderr says: fatal: lost the database connection while "
                          "listing tools"), crash
    errors = [json.loads(line)["error"] for line in log.read_text().splitlines()
              if json.loads(line)["event"] == "call"]
    assert errors == [node, usage, crash]
