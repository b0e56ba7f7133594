"""`toolcat serve` driven by the MCP Inspector's CLI (`@modelcontextprotocol/inspector` from
npm, pinned in package.json and installed by the README's test command with `npm ci`): a
client nobody here wrote, over stdio, in both modes.

The Inspector's CLI makes one request per process, and so does each run of serve behind it: a
client that never keeps a session nor refreshes its tool list, and that calls only the tools
tools/list shows. In add mode it can search but never call what it found; in call mode it
calls it through call_tool.

Skipped only where node or npx is missing; with node present, a missing Inspector fails the
test, naming the command that installs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.serve.conftest import environment
from tests.serve.test_approval import decisions
from tests.serve.test_call_mode import CALL_MODE
from tests.serve.test_serve import DISCOVERY, events

pytestmark = [
    pytest.mark.mcp, pytest.mark.slow,
    pytest.mark.skipif(shutil.which("node") is None or shutil.which("npx") is None,
                       reason="node and npx are not installed: the MCP Inspector CLI is a "
                              "Node program"),
]

PACKAGE = "@modelcontextprotocol/inspector"
INSPECTOR_TIMEOUT = 180  # seconds: node, then a cold Python importing the SDK, on 2 busy cores


@pytest.fixture(scope="module")
def inspector() -> list[str]:
    """The pinned Inspector's command, from the repository's node_modules."""
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"][PACKAGE]
    installed = REPO / "node_modules" / PACKAGE / "package.json"
    assert installed.is_file(), (
        f"{PACKAGE} is not installed: run `npm ci` at the repository root (the README's "
        "test command does)")
    assert json.loads(installed.read_text())["version"] == pinned, (
        f"node_modules holds another {PACKAGE} than package.json pins: run `npm ci`")
    # its bin run by node itself: `npx --no-install` runs the same file after starting npm
    # (about 0.7 s of CPU a request, ten requests in this module)
    launcher = installed.parent / json.loads(installed.read_text())["bin"]["mcp-inspector"]
    return ["node", str(launcher), "--cli"]


def inspect(inspector: list[str], tmp_path: Path, serve: list[str], *request: str
            ) -> tuple[int, Any, str]:
    """One Inspector CLI request to `python -m toolcat serve SERVE`: its exit code, the JSON
    it printed (the answer on stdout, or its own error on stderr's last line), and its
    stderr."""
    env = environment(MCP_CATALOG_PATH=str(tmp_path / "inspector.json"))  # not ~/.mcp-inspector
    done = subprocess.run(
        [*inspector, "-e", f"PYTHONPATH={env['PYTHONPATH']}", "--cwd", str(REPO),
         sys.executable, "-m", "toolcat", "serve", *serve, *request],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=INSPECTOR_TIMEOUT, check=False)
    printed = done.stdout.strip() or done.stderr.strip().splitlines()[-1:]  # its own errors
    try:
        answer = json.loads(printed if isinstance(printed, str) else "".join(printed))
    except json.JSONDecodeError:
        pytest.fail(f"the Inspector printed no JSON (exit {done.returncode}):\n"
                    f"{done.stdout}\n{done.stderr}")
    return done.returncode, answer, done.stderr


def test_the_inspector_calls_what_it_found_in_call_mode(inspector, time_catalog,
                                                        fast_profile, tmp_path):
    log = tmp_path / "serve.jsonl"
    serve = ["-c", str(time_catalog), "-p", str(fast_profile), "--mode", "call",
             "--log", str(log)]

    code, listed, _ = inspect(inspector, tmp_path, serve, "--method", "tools/list")
    assert code == 0
    assert [t["name"] for t in listed["tools"]] == CALL_MODE

    code, found, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                             "--tool-name", "search_tools", "--tool-arg", "query=current time")
    assert code == 0 and not found["isError"]
    tool = found["structuredContent"]["tools"][0]
    assert tool["name"] == "get_current_time"
    assert tool["inputSchema"]["required"] == ["timezone"]
    assert "outputSchema" in tool and tool["annotations"]["readOnlyHint"] is True

    code, called, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                              "--tool-name", "call_tool", "--tool-arg", "name=get_current_time",
                              'arguments={"timezone": "Asia/Tokyo"}')
    assert code == 0 and not called["isError"], called
    assert called["structuredContent"]["timezone"] == "Asia/Tokyo"
    assert called["structuredContent"]["datetime"].endswith("+09:00")

    code, bad, stderr = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                                "--tool-name", "call_tool", "--tool-arg",
                                "name=get_current_time", 'arguments={"timezone": 5}')
    assert code != 0 and bad["isError"] and "isError" in stderr
    assert bad["content"][0]["text"] == ("invalid arguments for get_current_time; the call "
                                         'was not sent:\n- /timezone: 5 is not of type "string"')

    # the found tool is not in tools/list: the Inspector would not call it directly
    code, direct, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                              "--tool-name", "get_current_time", "--tool-arg",
                              "timezone=Asia/Tokyo")
    assert code != 0 and direct["error"]["code"] == "tool_not_found", direct

    logged = events(log)
    assert {e["mode"] for e in logged} == {"call"}
    assert [(e["event"], e.get("via")) for e in logged if e["event"] in ("call", "refused")
            ] == [("call", "call_tool"), ("refused", "call_tool")]


def test_the_inspector_finds_but_cannot_call_in_add_mode(inspector, time_catalog,
                                                         fast_profile, tmp_path):
    log = tmp_path / "serve.jsonl"
    serve = ["-c", str(time_catalog), "-p", str(fast_profile), "--log", str(log)]

    code, listed, _ = inspect(inspector, tmp_path, serve, "--method", "tools/list")
    assert code == 0 and [t["name"] for t in listed["tools"]] == DISCOVERY

    code, found, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                             "--tool-name", "search_tools", "--tool-arg", "query=current time")
    assert code == 0
    assert found["structuredContent"]["tools"] == [{
        "name": "get_current_time", "description": "Get current time in a specific timezone"}]

    # a new session, as every request of this client is: what add_tool added is gone
    code, added, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                             "--tool-name", "add_tool", "--tool-arg",
                             'tool_names=["get_current_time"]')
    assert code == 0 and added["structuredContent"]["added"] == ["get_current_time"]
    # the Inspector calls only what tools/list shows, and the new session shows no more
    code, called, _ = inspect(inspector, tmp_path, serve, "--method", "tools/call",
                              "--tool-name", "get_current_time", "--tool-arg",
                              "timezone=Asia/Tokyo")
    assert code != 0 and called["error"]["code"] == "tool_not_found", called

    logged = events(log)
    assert {e["mode"] for e in logged} == {"add"}
    assert not [e for e in logged if e["event"] == "call"]


def test_the_inspector_cannot_elicit_so_a_tool_needing_approval_is_refused(
        inspector, records, tmp_path):
    """The Inspector's CLI declares no elicitation capability: a tool marked human-approval,
    visible from the start, is refused through it and never runs."""
    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    pre = tmp_path / "pre.yaml"
    pre.write_text("name: pre\nscorer: bm25\ntool_search_mode:\n"
                   "  pre_discovered: [send_message]\n")
    code, result, stderr = inspect(
        inspector, tmp_path, ["-c", str(catalog), "-p", str(pre), "--log", str(log)],
        "--method", "tools/call", "--tool-name", "send_message", "--tool-arg", "to=ana",
        "--tool-arg", "text=hi")
    assert code != 0 and result["isError"] is True and "isError" in stderr
    assert "this MCP client cannot ask the user" in result["content"][0]["text"]
    assert not (folder / "outbox.txt").exists()
    assert decisions(log) == [("send_message", "human-approval", "no-capability")]
