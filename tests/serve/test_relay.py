"""serve relays its upstream servers' prompts, resources and resource templates, and the
progress of their tool calls, to the official SDK's client; the upstream is the reference
server that has them all, @modelcontextprotocol/server-everything, in the catalog twice (as
`everything` and `twin`) so that every prompt name is shared by two servers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest
import yaml

from tests.serve.conftest import served, text

pytestmark = [
    pytest.mark.mcp, pytest.mark.slow,
    pytest.mark.skipif(shutil.which("npx") is None or shutil.which("npm") is None,
                       reason="node (npx and npm) is not installed"),
]

@pytest.fixture(scope="module")
def twins(everything: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """server-everything's catalog as imported, and the same server again as `twin`: what
    `toolcat import mcp --name twin` writes (the import itself is the session's)."""
    document = yaml.safe_load(everything.read_text())
    [server] = document["servers"]
    server["name"] = "twin"
    for tool in document["tools"]:
        tool["server"] = "twin"
    twin = tmp_path_factory.mktemp("twin") / "twin.yaml"
    twin.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    return [everything, twin]


def test_prompts_resources_templates_and_progress_are_relayed(twins, fast_profile, tmp_path):
    from mcp import MCPError

    log = tmp_path / "serve.jsonl"
    catalogs = [arg for path in twins for arg in ("-c", str(path))]

    async def session() -> None:
        async with served(*catalogs, "-p", str(fast_profile), "--log", str(log)) as client:
            said = client.server_capabilities
            assert said.prompts is not None and said.resources is not None
            assert not said.resources.subscribe  # serve relays no subscriptions

            prompts = [p.name for p in (await client.list_prompts()).prompts]
            assert "everything__args-prompt" in prompts and "twin__args-prompt" in prompts
            assert "args-prompt" not in prompts  # two servers have it: each is qualified
            for name in ("everything__args-prompt", "twin:args-prompt"):  # or server:name
                got = await client.get_prompt(name, {"city": "Paris"})
                assert "Paris" in got.messages[0].content.text
            with pytest.raises(MCPError, match="unknown prompt 'weather'"):
                await client.get_prompt("weather")

            resources = (await client.list_resources()).resources
            uris = [str(r.uri) for r in resources]
            assert len(uris) == len(set(uris)) > 0  # a URI both servers list, listed once
            document = next(r for r in resources if str(r.uri).endswith("architecture.md"))
            read = await client.read_resource(document.uri)
            assert "Architecture" in read.contents[0].text
            templates = (await client.list_resource_templates()).resource_templates
            assert {t.name for t in templates} >= {"everything__Dynamic Text Resource",
                                                    "twin__Dynamic Text Resource"}
            made = await client.read_resource("demo://resource/dynamic/text/3")  # a template's
            assert made.contents[0].text.startswith("Resource 3")
            with pytest.raises(MCPError, match="unknown resource 'nowhere://at/all'"):
                await client.read_resource("nowhere://at/all")

            added = json.loads(text(await client.call_tool("add_tool", {
                "tool_names": ["everything__trigger-long-running-operation"]})))
            assert added["added"] == ["everything__trigger-long-running-operation"]
            progress: list[tuple[float, float | None]] = []

            async def report(done: float, total: float | None, message: str | None) -> None:
                progress.append((done, total))

            result = await client.call_tool("everything__trigger-long-running-operation",
                                            {"duration": 1, "steps": 3},
                                            progress_callback=report)
            assert not result.is_error and "Steps: 3" in text(result)
            assert progress == [(1, 3), (2, 3), (3, 3)]

    anyio.run(session)
    relayed = [json.loads(line) for line in log.read_text().splitlines()
               if json.loads(line)["event"] == "relay"]
    listing = relayed[0]
    assert listing["method"] == "prompts/list" and listing["servers"] == ["everything", "twin"]
    assert listing["found"] == 8 and "failed" not in listing
    asked = [(e["method"], e.get("server"), e.get("ok")) for e in relayed if "name" in e]
    assert asked[:2] == [("prompts/get", "everything", True), ("prompts/get", "twin", True)]
