"""The gateway that lists a tool's outputSchema owns its contract: a result without
structuredContent, or with structuredContent that breaks the schema, is answered as an error
naming the upstream (the official SDK's client would raise on it), with what the upstream
sent kept for the model; a result that keeps it is relayed as sent. Through the SDK's client
over stdio, against a real upstream server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from tests.serve.conftest import import_server, served, text
from tests.serve.test_serve import events

pytestmark = pytest.mark.mcp

SERVER = Path(__file__).resolve().parent / "servers" / "contract_server.py"


@pytest.fixture(scope="module")
def contract_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The contract server's tools, imported once: the tests only read the catalog."""
    return import_server(tmp_path_factory.mktemp("contract") / "contract.yaml",
                         sys.executable, str(SERVER), name="weather")


@pytest.mark.parametrize("mode", ["add", "call"])
def test_results_that_break_the_listed_output_schema_are_errors_naming_the_upstream(
        contract_catalog, fast_profile, tmp_path, mode):
    log = tmp_path / "serve.jsonl"

    async def call(client, answer):
        if mode == "call":
            return await client.call_tool("call_tool", {"name": "forecast",
                                                        "arguments": {"answer": answer}})
        return await client.call_tool("forecast", {"answer": answer})

    async def session() -> None:
        async with served("-c", str(contract_catalog), "-p", str(fast_profile), "--mode",
                          mode, "--log", str(log)) as client:
            if mode == "add":
                await client.call_tool("add_tool", {"tool_names": ["forecast"]})
                listed = {t.name: t for t in (await client.list_tools()).tools}
                assert listed["forecast"].output_schema["required"] == ["temperature"]
            else:
                found = json.loads(text(await client.call_tool(
                    "search_tools", {"query": "forecast"})))
                assert found["tools"][0]["outputSchema"]["required"] == ["temperature"]
            # the SDK client validates results itself: none of these may raise
            right = await call(client, "right")
            assert not right.is_error and right.structured_content == {"temperature": 21.5}
            missing = await call(client, "missing")
            assert missing.is_error and missing.structured_content is None
            assert text(missing).startswith(
                "The upstream server 'weather' broke the contract of forecast: it returned "
                "no structuredContent")
            assert "21.5 C" in text(missing)  # what the upstream sent, kept for the model
            wrong = await call(client, "wrong")
            assert wrong.is_error
            assert "'weather'" in text(wrong) and "at /temperature" in text(wrong)

    anyio.run(session)
    calls = [e for e in events(log) if e["event"] == "call"]
    assert [e["ok"] for e in calls] == [True, False, False]
    assert calls[1]["error"] == "weather returned no structuredContent"
