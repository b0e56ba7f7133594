"""What serve answers, as a real client sees it: added tools keep the MCP fields their server
gave, search_tools answers as `toolcat search` does, and the session log tells the truth
(the scorer in use; a `stop` event however serve is stopped)."""

from __future__ import annotations

import json
import select
import signal
import subprocess
import sys

import anyio
import pytest
import yaml

from tests.serve.conftest import environment, served, text
from tests.serve.test_serve import events

pytestmark = pytest.mark.mcp


def test_added_tools_keep_title_output_schema_execution_and_icons(trust_catalog,
                                                                  time_catalog, fast_profile,
                                                                  tmp_path):
    output = next(t for t in yaml.safe_load(time_catalog.read_text())["tools"]
                  if t["name"] == "get_current_time")["outputSchema"]
    imported = yaml.safe_load(trust_catalog.read_text())
    # the import keeps title and icons; execution is written in by hand here
    imported["tools"][0]["execution"] = {"taskSupport": "forbidden"}
    imported["tools"][1]["icons"] = [{"no": "src"}]  # malformed: left out, nothing breaks
    catalog = tmp_path / "trust.yaml"
    catalog.write_text(yaml.safe_dump(imported))

    async def session() -> None:
        async with served("-c", str(catalog), "-c", str(time_catalog), "-p",
                          str(fast_profile)) as client:
            await client.call_tool("add_tool", {"tool_names": ["wait", "big",
                                                               "get_current_time"]})
            listed = {t.name: t for t in (await client.list_tools()).tools}
            assert listed["big"].icons is None
            wait = listed["wait"]
            assert wait.title == "Wait a while"
            assert wait.execution is not None and wait.execution.task_support == "forbidden"
            assert wait.icons and wait.icons[0].src == "https://example.com/wait.png"
            assert listed["get_current_time"].output_schema == output
            # the client checks structured results against the schema it was given
            result = await client.call_tool("get_current_time", {"timezone": "UTC"})
            assert result.structured_content["timezone"] == "UTC"

    anyio.run(session)


def test_an_invalid_pattern_gets_the_error_search_gives(run, time_catalog, fast_profile,
                                                        tmp_path):
    log = tmp_path / "serve.jsonl"
    searched = run("search", "time(", "-c", str(time_catalog))
    assert searched.exit_code == 2
    expected = "invalid regex pattern: missing ), unterminated subpattern at position 4"
    assert expected in searched.stderr

    async def session() -> None:
        async with served("-c", str(time_catalog), "-p", str(fast_profile),
                          "--log", str(log)) as client:
            answer = await client.call_tool("search_tools", {"query": "time("})
            assert answer.is_error and expected in text(answer)
            words = await client.call_tool("search_tools", {"query": "time in Tokyo"})
            assert json.loads(text(words))["found"] == 2

    anyio.run(session)
    methods = [e["method"] for e in events(log) if e["event"] == "search"]
    assert methods == ["invalid-pattern", "bm25"]  # never a keyword search called "regex"
    assert events(log)[0]["scorer"] == "bm25"  # the scorer word searches use


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_stops_serve_as_sigint_does(time_catalog, fast_profile, tmp_path, stop):
    log = tmp_path / "serve.jsonl"
    with subprocess.Popen([sys.executable, "-m", "toolcat", "serve", "-c", str(time_catalog),
                           "-p", str(fast_profile), "--http", "127.0.0.1:0", "--log",
                           str(log)], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=environment(), text=True) as process:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready and " tools at http://" in process.stderr.readline()
        process.send_signal(stop)
        assert process.wait(30) == 0, process.stderr.read()
    assert [e["event"] for e in events(log)] == ["start", "stop"]


def test_discovery_tools_can_be_renamed(time_catalog, fast_profile):
    async def session() -> None:
        async with served("-c", str(time_catalog), "-p", str(fast_profile),
                          "--discovery-name", "search_tools=find_tools",
                          "--discovery-name", "add_tool=load_tools") as client:
            assert "find_tools" in (client.instructions or "")
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == ["find_tools", "load_tools", "show_all_tools"]
            found = json.loads(text(await client.call_tool("find_tools", {"query": "time"})))
            assert "Use 'load_tools'" in found["message"]
            old = await client.call_tool("search_tools", {"query": "time"})
            assert old.is_error and "no tool called 'search_tools'" in text(old)
            early = await client.call_tool("get_current_time", {"timezone": "UTC"})
            assert "call load_tools with" in text(early)
            added = json.loads(text(await client.call_tool("load_tools", {
                "tool_names": ["get_current_time"]})))
            assert added["added"] == ["get_current_time"]
            everything = json.loads(text(await client.call_tool("show_all_tools", {})))
            assert "find_tools" in everything["tools"]
            assert "search_tools" not in everything["tools"]

    anyio.run(session)


@pytest.mark.parametrize(("rename", "message"), [
    ("search_tools=get_current_time", "already the name of a catalog tool"),
    ("search_tools=add_tool", "already the name of the discovery tool add_tool"),
    ("find=x", "'find' is not a discovery tool"),
    ("search_tools=find tools", "1 to 128 of"),
    ("search_tools", "is not TOOL=NAME"),
])
def test_a_bad_discovery_name_is_a_one_line_error(run, time_catalog, rename, message):
    result = run("serve", "-c", str(time_catalog), "--discovery-name", rename)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
