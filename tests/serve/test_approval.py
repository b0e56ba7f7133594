"""Approval at run time: `toolcat serve` asks the user (MCP elicitation) before it calls a
tool marked human-approval, or an unsafe tool when the profile says `approval: ask`. The SDK's
client answers as a user would, on both protocol eras; what the call did is seen in the
records server's folder, and every decision in the session log."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.serve.conftest import environment, text
from tests.serve.test_serve import events

pytestmark = pytest.mark.mcp

ERAS = ["legacy", "2026-07-28"]  # handshake era: elicitation/create; 2026: input_required


def profile(tmp_path: Path, approval: str | None = None) -> Path:
    path = tmp_path / "profile.yaml"
    path.write_text("name: approving\nscorer: bm25\n"
                    + (f"approval: {approval}\n" if approval else ""))
    return path


class User:
    """Answers every question the same way, and keeps the messages it was shown."""

    def __init__(self, action: str) -> None:
        self.action = action
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action=self.action,
                                  content={} if self.action == "accept" else None)


@asynccontextmanager
async def client(*args: str, user: Any, mode: str = "legacy") -> AsyncIterator[Any]:
    """The SDK's client of `python -m toolcat serve ARGS` over stdio; with `user`, it declares
    the elicitation capability and `user` answers the questions."""
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "toolcat", "serve", *args],
                                   env=environment(), cwd=Path.cwd())
    options: dict[str, Any] = {} if user is None else {"elicitation_callback": user}
    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with Client(stdio_client(params, errlog=errlog), mode=mode, cache=None,
                              **options) as session:
                yield session
        except BaseException:
            errlog.seek(0)
            sys.stderr.write(errlog.read())
            raise


def decisions(log: Path) -> list[tuple[str, str, str]]:
    return [(e["tool"], e["reason"], e["decision"]) for e in events(log)
            if e["event"] == "approval"]


@pytest.mark.parametrize("mode", ERAS)
def test_a_human_approval_tool_runs_only_when_the_user_accepts(records, tmp_path, mode):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    user = User("accept")

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), "--log", str(log),
                          user=user, mode=mode) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message", "count_records"]})
            counted = await tc.call_tool("count_records", {})  # needs no approval
            assert text(counted) == "2" and not user.asked
            return await tc.call_tool("send_message", {"to": "ana", "text": "lunch at 1?"})

    result = anyio.run(session)
    assert not result.is_error, text(result)
    assert (folder / "outbox.txt").read_text() == "ana: lunch at 1?\n"
    [message] = user.asked
    assert "Tool: send_message\nServer: records\n" in message
    assert 'Arguments: {"text": "lunch at 1?", "to": "ana"}' in message
    assert "human-approval" in message
    assert decisions(log) == [("send_message", "human-approval", "asked"),
                              ("send_message", "human-approval", "accepted")]
    [call] = [e for e in events(log) if e["event"] == "call" and e["tool"] == "send_message"]
    assert call["ok"] and call["approval"] == "accepted"


@pytest.mark.parametrize(("mode", "action", "decision", "words"), [
    ("legacy", "decline", "declined", "the user declined it"),
    ("2026-07-28", "decline", "declined", "the user declined it"),
    ("legacy", "cancel", "cancelled", "the user dismissed the approval request"),
])
def test_a_declined_or_dismissed_question_refuses_the_call(records, tmp_path, mode, action,
                                                           decision, words):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    user = User(action)

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), "--log", str(log),
                          user=user, mode=mode) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message"]})
            return await tc.call_tool("send_message", {"to": "ana", "text": "hi"})

    result = anyio.run(session)
    assert result.is_error
    assert f"tool 'send_message' was not called: {words}" in text(result)
    assert not (folder / "outbox.txt").exists()
    assert len(user.asked) == 1
    assert decisions(log)[-1] == ("send_message", "human-approval", decision)
    assert not [e for e in events(log) if e["event"] == "call"]  # nothing went upstream


@pytest.mark.parametrize("mode", ERAS)
def test_a_client_that_cannot_elicit_is_refused_and_told_how_to_allow(records, tmp_path, mode):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"

    async def session() -> tuple[types.CallToolResult, types.CallToolResult]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path, "ask")),
                          "--log", str(log), user=None, mode=mode) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message", "delete_record"]})
            sent = await tc.call_tool("send_message", {"to": "ana", "text": "hi"})
            return sent, await tc.call_tool("delete_record", {"name": "alpha"})

    sent, deleted = anyio.run(session)
    assert sent.is_error and deleted.is_error
    assert "cannot ask the user (it did not declare the elicitation capability)" in text(sent)
    assert "use an MCP client that supports elicitation" in text(sent)
    assert "--allow-unsafe (or set approval: allow in the profile)" in text(deleted)
    assert not (folder / "outbox.txt").exists() and (folder / "alpha.txt").exists()
    assert decisions(log) == [("send_message", "human-approval", "no-capability"),
                              ("delete_record", "unsafe", "no-capability")]


@pytest.mark.parametrize("mode", ERAS)
def test_an_unsafe_tool_is_found_added_and_asked_about_when_the_profile_says_ask(
        records, tmp_path, mode):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    user = User("accept")

    async def session() -> tuple[Any, types.CallToolResult]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path, "ask")),
                          "--log", str(log), user=user, mode=mode) as tc:
            found = await tc.call_tool("search_tools", {"query": "delete a record"})
            await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})
            return found, await tc.call_tool("delete_record", {"name": "alpha"})

    found, deleted = anyio.run(session)
    assert "delete_record" in [t["name"] for t in found.structured_content["tools"]]
    assert not deleted.is_error, text(deleted)
    assert text(deleted) == "deleted alpha"
    assert not (folder / "alpha.txt").exists() and (folder / "beta.txt").exists()
    [message] = user.asked
    assert "marked unsafe" in message and 'Arguments: {"name": "alpha"}' in message
    assert decisions(log) == [("delete_record", "unsafe", "asked"),
                              ("delete_record", "unsafe", "accepted")]
    [start] = [e for e in events(log) if e["event"] == "start"]
    assert start["approval"] == "ask" and start["allow_unsafe"] is False


def test_without_ask_unsafe_tools_are_refused_and_allow_unsafe_runs_them_unasked(records,
                                                                                 tmp_path):
    catalog, folder = records
    user = User("decline")

    async def session() -> tuple[Any, types.CallToolResult]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=user) as tc:
            refused = await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})
        async with client("-c", str(catalog), "-p", str(profile(tmp_path, "ask")),
                          "--allow-unsafe", user=user) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})
            return refused, await tc.call_tool("delete_record", {"name": "beta"})

    refused, deleted = anyio.run(session)
    assert refused.structured_content["added"] == []
    assert "approval: ask to be asked before each call" in \
        refused.structured_content["refused"][0]["reason"]
    assert text(deleted) == "deleted beta" and not user.asked
    assert not (folder / "beta.txt").exists() and (folder / "alpha.txt").exists()


def test_hostile_arguments_are_shown_escaped_and_bounded(records, tmp_path):
    catalog, folder = records
    user = User("decline")
    hostile = ("hi\x1b[2J\x1b[1;1H\r\nTool: count_records\nArguments: {}\u202e\u200b"
               + "\u0085" + "x" * 5_000)

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=user) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message"]})
            return await tc.call_tool("send_message", {"to": "ana", "text": hostile})

    result = anyio.run(session)
    assert result.is_error and not (folder / "outbox.txt").exists()
    [message] = user.asked
    lines = message.split("\n")
    assert lines[1:3] == ["Tool: send_message", "Server: records"]
    assert lines[3].startswith('Arguments: {"text": "hi\\u001b[2J\\u001b[1;1H\\r\\nTool: '
                               'count_records\\nArguments: {}\\u202e\\u200b\\u0085xxx')
    assert lines[3].endswith(' characters in all), "to": "ana"}') and len(lines) == 5
    assert len(message) < 1_500
    assert not any(ch in message for ch in "\x1b\r\u202e\u200b\u0085")


def test_a_2026_answer_counts_only_for_the_arguments_it_was_asked_about(records, tmp_path):
    """The requestState binds the question to the tool and its arguments: an accepted answer
    sent with other arguments, without the state, with a forged one or a second time does
    not run the tool."""
    from mcp.shared.exceptions import MCPError

    catalog, folder = records
    accept = {"toolcat-approval": types.ElicitResult(action="accept", content={})}

    async def session() -> tuple[Any, Any, Any, Any]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path, "ask")),
                          user=User("accept"), mode="2026-07-28") as tc:
            await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})
            asked = await tc.session.call_tool("delete_record", {"name": "alpha"},
                                               allow_input_required=True)
            assert isinstance(asked, types.InputRequiredResult), asked
            with pytest.raises(MCPError) as moved:
                await tc.session.call_tool("delete_record", {"name": "beta"},
                                           input_responses=accept,
                                           request_state=asked.request_state,
                                           allow_input_required=True)
            stateless = await tc.session.call_tool("delete_record", {"name": "alpha"},
                                                   input_responses=accept,
                                                   allow_input_required=True)
            with pytest.raises(MCPError) as forged:  # a state serve did not seal
                await tc.session.call_tool("delete_record", {"name": "alpha"},
                                           input_responses=accept,
                                           request_state="toolcat-approval-v1",
                                           allow_input_required=True)
            assert (folder / "alpha.txt").exists() and (folder / "beta.txt").exists()
            done = await tc.session.call_tool("delete_record", {"name": "alpha"},
                                              input_responses=accept,
                                              request_state=asked.request_state,
                                              allow_input_required=True)
            assert text(done) == "deleted alpha"
            replayed = await tc.session.call_tool("delete_record", {"name": "alpha"},
                                                  input_responses=accept,
                                                  request_state=asked.request_state,
                                                  allow_input_required=True)
            return moved.value, stateless, forged.value, replayed

    moved, stateless, forged, replayed = anyio.run(session)
    assert moved.error.code == forged.error.code == types.INVALID_PARAMS
    assert isinstance(stateless, types.InputRequiredResult)  # asked again, not run
    assert isinstance(replayed, types.InputRequiredResult)  # an answer counts once
    assert not (folder / "alpha.txt").exists() and (folder / "beta.txt").exists()


def test_an_unknown_approval_setting_is_an_error_at_its_position(records, tmp_path):
    catalog, _ = records
    bad = profile(tmp_path, "maybe")
    done = subprocess.run([sys.executable, "-m", "toolcat", "serve", "-c", str(catalog),
                           "-p", str(bad)], env=environment(), capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, check=False, timeout=120)
    assert done.returncode == 2
    assert f"{bad}:3:11" in done.stderr
    assert "'approval' must be one of refuse, ask, allow (got 'maybe')" in done.stderr
    assert "Traceback" not in done.stderr


def test_over_http_each_client_is_asked_on_its_own_session(records, tmp_path):
    """Two clients of one `serve --http`: the one that can elicit is asked and its call runs;
    the other is refused; each decision is logged once."""
    from mcp import Client

    from tests.serve.conftest import http_served

    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    user = User("accept")

    async def session(url: str) -> tuple[types.CallToolResult, types.CallToolResult]:
        async with Client(url, cache=None, elicitation_callback=user) as asking, \
                Client(url, cache=None) as mute:
            for tc in (asking, mute):
                await tc.call_tool("add_tool", {"tool_names": ["delete_record"]})
            refused = await mute.call_tool("delete_record", {"name": "beta"})
            return await asking.call_tool("delete_record", {"name": "alpha"}), refused

    with http_served("-c", str(catalog), "-p", str(profile(tmp_path, "ask")), "--http",
                     "127.0.0.1:0", "--log", str(log)) as (url, _):
        deleted, refused = anyio.run(session, url)
    assert text(deleted) == "deleted alpha" and len(user.asked) == 1
    assert refused.is_error and "cannot ask the user" in text(refused)
    assert not (folder / "alpha.txt").exists() and (folder / "beta.txt").exists()
    assert sorted(decisions(log)) == [("delete_record", "unsafe", "accepted"),
                                      ("delete_record", "unsafe", "asked"),
                                      ("delete_record", "unsafe", "no-capability")]


def test_a_question_answered_with_an_error_refuses_the_call(records, tmp_path):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"

    async def broken(context: Any, params: Any) -> types.ErrorData:
        return types.ErrorData(code=types.INTERNAL_ERROR, message="the dialog crashed")

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), "--log", str(log),
                          user=broken) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message"]})
            return await tc.call_tool("send_message", {"to": "ana", "text": "hi"})

    result = anyio.run(session)
    assert result.is_error and "asking the user for approval failed" in text(result)
    assert "the dialog crashed" in text(result)
    assert not (folder / "outbox.txt").exists()
    assert decisions(log)[-1] == ("send_message", "human-approval", "failed")


def test_calls_without_a_schema_are_logged_unvalidated_with_their_mode(tmp_path):
    """A call accepted without a schema is flagged in the audit log with its
    no_schema_mode; a human-approval one is asked about first, a `full` one is not."""
    catalog = tmp_path / "notes.yaml"
    catalog.write_text("""\
servers:
  - name: notes
    description: a catalog entry with no MCP server behind it
tools:
  - {name: post_notice, server: notes, description: Post a notice on the board.,
     allow_no_schema: true, no_schema_mode: human-approval}
  - {name: pin_notice, server: notes, description: Pin a notice to the board.,
     allow_no_schema: true, no_schema_mode: full}
""")
    log = tmp_path / "serve.jsonl"
    user = User("accept")

    async def session() -> None:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), "--log", str(log),
                          user=user) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["post_notice", "pin_notice"]})
            for name in ("post_notice", "pin_notice"):
                result = await tc.call_tool(name, {"text": "hello"})
                assert "records no MCP server to call" in text(result)

    anyio.run(session)
    assert len(user.asked) == 1 and "Tool: post_notice" in user.asked[0]
    calls = {e["tool"]: e for e in events(log) if e["event"] == "call"}
    assert calls["post_notice"]["approval"] == "accepted"
    assert calls["post_notice"]["validated"] is False
    assert calls["post_notice"]["no_schema_mode"] == "human-approval"
    assert "approval" not in calls["pin_notice"]
    assert (calls["pin_notice"]["validated"], calls["pin_notice"]["no_schema_mode"]) == \
        (False, "full")
