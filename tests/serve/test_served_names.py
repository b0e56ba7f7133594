"""Served names stay within MCP's rule (`^[A-Za-z0-9_.-]{1,128}$`): when two servers share a
tool name, `serve` shows `server__tool` (as other gateways do) in tools/list, search answers,
add_tool, call_tool and the log, and still accepts the older `server:tool` on input. Through
the official SDK's client over stdio, with two real upstream servers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
import pytest

from tests.serve.conftest import served, text
from tests.serve.test_serve import events

pytestmark = pytest.mark.mcp

MCP_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


@pytest.fixture
def two_clocks(time_catalog: Path, tmp_path: Path) -> Path:
    """mcp-server-time's catalog again under another server name: every tool name shared."""
    other = tmp_path / "clock.yaml"
    other.write_text(time_catalog.read_text(encoding="utf-8").replace("mcp-time", "clock"),
                     encoding="utf-8")
    return other


def test_shared_names_are_served_as_server__tool_everywhere(time_catalog, two_clocks,
                                                            fast_profile, tmp_path):
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(time_catalog), "-c", str(two_clocks), "-p",
                          str(fast_profile), "--log", str(log)) as client:
            found = json.loads(text(await client.call_tool("search_tools",
                                                           {"query": "current time"})))
            names = {t["name"] for t in found["tools"]}
            assert {"mcp-time__get_current_time", "clock__get_current_time"} <= names
            added = json.loads(text(await client.call_tool("add_tool", {"tool_names": [
                "clock__get_current_time", "mcp-time:convert_time"]})))
            assert added["added"] == ["clock__get_current_time", "mcp-time__convert_time"]
            listed = [t.name for t in (await client.list_tools()).tools]
            assert {"clock__get_current_time", "mcp-time__convert_time"} <= set(listed)
            assert [n for n in listed if not MCP_NAME.fullmatch(n)] == []
            everything = json.loads(text(await client.call_tool("show_all_tools", {})))
            assert [n for n in everything["tools"] if not MCP_NAME.fullmatch(n)] == []
            for name in ("clock__get_current_time", "clock:get_current_time"):
                result = await client.call_tool(name, {"timezone": "Asia/Tokyo"})
                assert not result.is_error, text(result)
                assert result.structured_content["timezone"] == "Asia/Tokyo"

    anyio.run(session)
    calls = [e for e in events(log) if e["event"] == "call"]
    # the log names the tool as it is served, whichever spelling the client used
    assert [(e["tool"], e["server"]) for e in calls] == [
        ("clock__get_current_time", "clock")] * 2
    searched = next(e for e in events(log) if e["event"] == "search")
    assert "mcp-time__get_current_time" in searched["found"]


def test_call_mode_finds_and_calls_by_the_served_name(time_catalog, two_clocks,
                                                      fast_profile):
    async def session() -> None:
        async with served("-c", str(time_catalog), "-c", str(two_clocks), "-p",
                          str(fast_profile), "--mode", "call") as client:
            found = json.loads(text(await client.call_tool("search_tools",
                                                           {"query": "convert time"})))
            names = [t["name"] for t in found["tools"]]
            assert "clock__convert_time" in names
            assert [n for n in names if not MCP_NAME.fullmatch(n)] == []
            for name in ("clock__get_current_time", "clock:get_current_time"):
                result = await client.call_tool("call_tool", {
                    "name": name, "arguments": {"timezone": "Europe/Paris"}})
                assert not result.is_error, text(result)
                assert result.structured_content["timezone"] == "Europe/Paris"

    anyio.run(session)
