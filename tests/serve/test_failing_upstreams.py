"""A failing upstream server is reported as the user needs to fix it: the first lines of its
stderr that say what went wrong (not a stack, a usage text's tail or Node's version) and how
it ended (its exit status), through serve to the SDK's client."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import anyio
import pytest

from tests.mcp.conftest import CRASH, newer_than, package, refusing_server
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


def test_an_http_upstream_that_refuses_its_token_is_quoted_with_the_status(fast_profile,
                                                                            tmp_path):
    catalog = tmp_path / "refusing.yaml"

    async def session(url: str) -> str:
        catalog.write_text(
            f"servers:\n  - {{name: crm, mcp: {{transport: http, url: {url!r}, headers: "
            "{Authorization: 'Bearer not-a-real-token'}}}\n"
            "tools:\n  - {name: list_leads, server: crm, description: 'List the leads.', "
            "parameters: {type: object}, annotations: {readOnlyHint: true}}\n")
        async with served("-c", str(catalog), "-p", str(fast_profile), "--mode", "call",
                          "--call-timeout", "20") as client:
            result = await client.call_tool("call_tool", {"name": "list_leads",
                                                          "arguments": {}})
            assert result.is_error
            return text(result)

    with refusing_server() as url:
        said = anyio.run(session, url)
    assert said == (f"cannot start MCP server 'crm': {url} refused the connection: HTTP 401 "
                    'Unauthorized: {"detail": "Invalid or disabled token"} (the headers of '
                    "its entry: a token or key it does not accept)"), said
    assert "not-a-real-token" not in said


@pytest.mark.skipif(shutil.which("npx") is None, reason="node (and npx) is not installed")
def test_an_npm_upstream_that_needs_a_newer_node_says_so_as_import_does(
        run, fast_profile, tmp_path, monkeypatch, running):
    """The tiny package of tests/mcp/test_node_version.py, started by serve as an upstream:
    the call's error names the Node version it needs, in the words `import mcp` uses."""
    needs = newer_than(running)
    package(tmp_path, "crash-on-old-node", CRASH, engines=needs)
    catalog = tmp_path / "node.yaml"
    catalog.write_text(
        "servers:\n  - {name: old, mcp: {transport: stdio, command: npx, "
        f"args: [--no-install, crash-on-old-node], cwd: {str(tmp_path)!r}}}}}\n"
        "tools:\n  - {name: start_old, server: old, description: 'Start a server that needs "
        "a newer Node.', parameters: {type: object}, annotations: {readOnlyHint: true}}\n")
    hint = (f"; crash-on-old-node 1.0.0 needs Node {needs} (its package.json's "
            f"engines.node), this machine has {running}")

    async def session() -> str:
        async with served("-c", str(catalog), "-p", str(fast_profile), "--mode", "call",
                          "--call-timeout", "60") as client:
            result = await client.call_tool("call_tool", {"name": "start_old",
                                                          "arguments": {}})
            assert result.is_error
            return text(result)

    said = anyio.run(session)
    assert said.startswith("cannot start MCP server 'old': MCP server 'old' exited with "
                           "status 1 before it had started; its stderr says: "), said
    assert said.endswith(hint), said
    monkeypatch.chdir(tmp_path)
    imported = run("import", "mcp", "--timeout", "60", "--", "npx", "--no-install",
                   "crash-on-old-node")
    assert imported.exit_code == 2
    assert imported.stderr.strip().endswith(hint), imported.stderr
