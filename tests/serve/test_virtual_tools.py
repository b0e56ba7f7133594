"""A client that only calls tools reaches the upstream servers' prompts and resources through
two virtual tools, `get_prompt` and `get_resource`: found by search_tools like any deferred
tool, added with add_tool (add mode) or called through call_tool (call mode). The upstream is
the reference server @modelcontextprotocol/server-everything, whose prompts and resources
`toolcat import mcp` records; the client is the official SDK's (docs/serve.md)."""

from __future__ import annotations

import shutil
from typing import Any

import anyio
import pytest
import yaml

from tests.serve.conftest import served, text

pytestmark = [
    pytest.mark.mcp, pytest.mark.slow,
    pytest.mark.skipif(shutil.which("npx") is None or shutil.which("npm") is None,
                       reason="node (npx and npm) is not installed"),
]

DOCUMENT = "demo://resource/static/document/architecture.md"


def test_the_import_records_the_names_of_prompts_and_resources(everything):
    recorded = yaml.safe_load(everything.read_text())["servers"][0]["mcp"]
    assert "args-prompt" in recorded["prompts"]
    assert DOCUMENT in recorded["resources"]
    assert "demo://resource/dynamic/blob/{resourceId}" in recorded["resource_templates"]


@pytest.mark.parametrize("mode", ["add", "call"])
def test_prompts_and_resources_are_reached_through_tools(everything, fast_profile, mode):
    async def session() -> dict[str, Any]:
        async with served("-c", str(everything), "-p", str(fast_profile), "--mode",
                          mode) as client:
            before = {t.name for t in (await client.list_tools()).tools}
            found = (await client.call_tool("search_tools", {"query": "args-prompt"}))
            resource = await client.call_tool("search_tools", {"query": "architecture.md"})
            if mode == "add":
                added = await client.call_tool("add_tool", {"tool_names": [
                    "get_prompt", "get_resource"]})
                assert added.structured_content["added"] == ["get_prompt", "get_resource"]
                listed = {t.name: t for t in (await client.list_tools()).tools}
                call = client.call_tool
            else:
                listed = {t["name"]: t for t in found.structured_content["tools"]}

                async def call(name: str, arguments: dict[str, Any]) -> Any:
                    return await client.call_tool("call_tool", {"name": name,
                                                                "arguments": arguments})
            return {
                "before": before, "found": found, "resource": resource, "listed": listed,
                "prompt": await call("get_prompt", {"server": "everything",
                                                    "name": "args-prompt",
                                                    "arguments": {"city": "Paris"}}),
                "document": await call("get_resource", {"uri": DOCUMENT}),
                "text": await call("get_resource",
                                   {"uri": "demo://resource/dynamic/text/3"}),
                "blob": await call("get_resource",
                                   {"uri": "demo://resource/dynamic/blob/4"}),
                "missing": await call("get_prompt", {"server": "everything",
                                                     "name": "no-such-prompt"}),
                "elsewhere": await call("get_prompt", {"server": "nowhere", "name": "x"}),
            }

    got = anyio.run(session)
    assert "get_prompt" not in got["before"]  # deferred: found by a search first
    assert "get_prompt" in [t["name"] for t in got["found"].structured_content["tools"]]
    assert "get_resource" in [t["name"] for t in got["resource"].structured_content["tools"]]
    assert "everything: args-prompt" in (
        got["listed"]["get_prompt"].description if mode == "add"
        else got["listed"]["get_prompt"]["description"])
    prompt = got["prompt"]
    assert not prompt.is_error, text(prompt)
    assert prompt.content[0].text.startswith("user: ") and "Paris" in text(prompt)
    assert not got["document"].is_error and "Architecture" in text(got["document"])
    assert got["text"].content[0].text.startswith("Resource 3")
    blob = got["blob"]
    assert not blob.is_error and blob.content[0].type == "resource"
    assert blob.content[0].resource.blob  # binary content: base64, embedded as sent
    missing = got["missing"]
    assert missing.is_error and text(missing).startswith("get_prompt: ")
    assert "everything" in text(missing)  # names the upstream that failed
    assert got["elsewhere"].is_error
    assert "'nowhere' is no MCP server this session can reach" in text(got["elsewhere"])
