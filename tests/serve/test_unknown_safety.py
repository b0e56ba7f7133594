"""Tools whose safety nobody stated, served: found and added like any tool, marked in
search_tools' answer, and asked about (MCP elicitation) before each call; a client that cannot
ask is refused with the reason and the way to allow it, and the user's `mcp: {unannotated:
safe}` runs them unasked. A tool its server marks destructive that fits a search is named in
the answer, with the cause and the way to allow it. The real records server is behind serve
and the SDK's client in front of it (docs/safety.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.serve.conftest import text
from tests.serve.test_approval import User, client, decisions, profile

pytestmark = pytest.mark.mcp


def test_an_unknown_tool_is_found_marked_and_asked_about(records, tmp_path):
    catalog, folder = records
    log = tmp_path / "serve.jsonl"
    user = User("accept")

    async def session() -> tuple[Any, Any, types.CallToolResult]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), "--log", str(log),
                          user=user) as tc:
            found = await tc.call_tool("search_tools", {"query": "give a record a new name"})
            added = await tc.call_tool("add_tool", {"tool_names": ["rename_record"]})
            return found, added, await tc.call_tool("rename_record",
                                                     {"name": "alpha", "to": "gamma"})

    found, added, sent = anyio.run(session)
    tools = {t["name"]: t for t in found.structured_content["tools"]}
    assert tools["rename_record"]["safety"] == "unknown"
    assert "safety" not in tools.get("count_records", {})  # a safe tool carries no mark
    assert "the user is asked before each call" in found.structured_content["message"]
    assert added.structured_content["added"] == ["rename_record"]
    assert not sent.is_error, text(sent)
    assert (folder / "gamma.txt").exists() and not (folder / "alpha.txt").exists()
    [message] = user.asked
    assert "its safety is not stated" in message and "Tool: rename_record" in message
    assert decisions(log) == [("rename_record", "unknown", "asked"),
                              ("rename_record", "unknown", "accepted")]


def test_a_client_that_cannot_ask_is_refused_and_told_how_to_allow(records, tmp_path):
    catalog, folder = records

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=None) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["rename_record"]})
            return await tc.call_tool("rename_record", {"name": "alpha", "to": "gamma"})

    renamed = anyio.run(session)
    assert renamed.is_error
    assert "its safety is not stated" in text(renamed)
    assert "set mcp: {unannotated: safe} in your toolcat.yaml" in text(renamed)
    assert (folder / "alpha.txt").exists() and not (folder / "gamma.txt").exists()


def test_the_users_setting_runs_unknown_tools_without_asking(records, tmp_path, monkeypatch):
    catalog, folder = records
    Path("toolcat.yaml").write_text("mcp: {unannotated: safe}\n")
    monkeypatch.setenv("TOOLCAT_TRUST", str(Path.cwd()))  # the user's own folder, by name
    user = User("decline")

    async def session() -> tuple[Any, types.CallToolResult]:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=user) as tc:
            found = await tc.call_tool("search_tools", {"query": "give a record a new name"})
            await tc.call_tool("add_tool", {"tool_names": ["rename_record"]})
            return found, await tc.call_tool("rename_record", {"name": "beta", "to": "delta"})

    found, renamed = anyio.run(session)
    assert all("safety" not in t for t in found.structured_content["tools"])
    assert not renamed.is_error and not user.asked
    assert (folder / "delta.txt").exists()


def test_a_destructive_tool_that_fits_is_named_with_its_cause_and_how_to_allow(records,
                                                                               tmp_path):
    catalog, folder = records

    async def session() -> Any:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=None) as tc:
            return await tc.call_tool("search_tools", {"query": "remove a record for good"})

    answer = anyio.run(session).structured_content
    assert "delete_record" not in [t["name"] for t in answer["tools"]]
    [left] = answer["left_out"]
    assert left["name"] == "delete_record"
    assert left["reason"].startswith("marked destructive by its server (destructiveHint: true)")
    assert "--allow-unsafe" in left["reason"]
    assert "Left out: delete_record (marked destructive by its server" in answer["message"]
    assert (folder / "alpha.txt").exists()
