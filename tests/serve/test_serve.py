"""`toolcat serve` end to end: the SDK's client against `python -m toolcat serve` (a
subprocess), which starts the real upstream servers on first call: mcp-server-time, the SDK
demo server, and servers that hang or exit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from tests.mcp.conftest import DEMO, alive
from tests.serve.conftest import environment, list_changes, served, text

pytestmark = pytest.mark.mcp

DISCOVERY = ["search_tools", "add_tool", "show_all_tools"]


def events(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def running(command: str) -> list[int]:
    """Live processes started (through serve) by this test process whose command line
    contains `command` (Linux /proc); other people's processes are not ours to see."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            pid = int(entry.name)
            if command in cmdline and alive(pid) and descends_from_us(pid):
                found.append(pid)
    return found


def descends_from_us(pid: int) -> bool:
    me = os.getpid()
    for _ in range(64):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # the parent's id
        if pid == me:
            return True
        if pid <= 1:
            return False
    return False


def settle(check, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


def test_time_server_found_added_and_called_through_toolcat(time_catalog, fast_profile,
                                                            tmp_path):
    log = tmp_path / "serve.jsonl"
    handler, changed = list_changes()

    async def session() -> None:
        async with served("-c", str(time_catalog), "-p", str(fast_profile), "--log", str(log),
                          handler=handler) as client:
            assert [t.name for t in (await client.list_tools()).tools] == DISCOVERY

            early = await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
            assert early.is_error and "has not been added" in text(early)

            found = await client.call_tool("search_tools", {"query": "current time"})
            answer = json.loads(text(found))
            assert answer["found"] == 1 and answer["tools"][0]["name"] == "get_current_time"
            assert answer["message"].startswith("Found matching tools")

            added = await client.call_tool("add_tool", {"tool_names": ["get_current_time"]})
            assert json.loads(text(added))["added"] == ["get_current_time"]
            assert changed == ["notifications/tools/list_changed"]
            listed = {t.name: t for t in (await client.list_tools()).tools}
            assert list(listed) == [*DISCOVERY, "get_current_time"]
            assert listed["get_current_time"].input_schema["required"] == ["timezone"]

            bad = await client.call_tool("get_current_time", {"timezone": 5})
            assert bad.is_error
            assert '/timezone: 5 is not of type "string"' in text(bad)
            assert "not sent" in text(bad)
            assert running("mcp-server-time") == [], "a refused call started the upstream"

            result = await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
            assert not result.is_error
            assert result.structured_content["timezone"] == "Asia/Tokyo"
            assert result.structured_content["datetime"].endswith("+09:00")
            assert json.loads(text(result))["datetime"] == result.structured_content["datetime"]
            again = await client.call_tool("get_current_time", {"timezone": "Europe/Paris"})
            assert again.structured_content["timezone"] == "Europe/Paris"

            for pid in running("mcp-server-time"):  # the upstream dies mid-session
                os.kill(pid, signal.SIGKILL)
            assert settle(lambda: running("mcp-server-time") == [])
            lost = await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
            assert lost.is_error and "mcp-time" in text(lost)
            back = await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
            assert not back.is_error  # started again on the next call
            upstreams.extend(running("mcp-server-time"))

    upstreams: list[int] = []
    anyio.run(session)
    assert upstreams, "no upstream was seen running"
    assert settle(lambda: not any(alive(p) for p in upstreams)), "the upstream outlived serve"
    logged = events(log)
    assert [e["event"] for e in logged] == ["start", "refused", "search", "add", "refused",
                                            "call", "call", "call", "call", "stop"]
    search = logged[2]
    assert (search["query"], search["method"], search["found"]) == (
        "current time", "regex", ["get_current_time"])
    first, second = logged[5], logged[6]
    assert first["ok"] and first["server"] == "mcp-time" and first["arguments"] == ["timezone"]
    assert first["start_ms"] > 0 and "start_ms" not in second  # started once, kept
    assert not logged[7]["ok"] and logged[8]["ok"] and logged[8]["start_ms"] > 0
    assert logged[-1]["started"] == ["mcp-time"]
    assert "Asia/Tokyo" not in log.read_text()  # arguments are not logged


def test_words_that_are_no_pattern_match_are_ranked_by_the_scorer(time_catalog, fast_profile,
                                                                  tmp_path):
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(time_catalog), "-p", str(fast_profile),
                          "--log", str(log)) as client:
            found = await client.call_tool("search_tools", {"query": "time in Tokyo now"})
            names = [t["name"] for t in json.loads(text(found))["tools"]]
            assert set(names) == {"get_current_time", "convert_time"}
            typo = await client.call_tool("search_tools", {"query": "convrt"})
            assert json.loads(text(typo))["tools"][0]["name"] == "convert_time"
            everything = await client.call_tool("show_all_tools", {})
            assert json.loads(text(everything)) == {
                "total": 5, "tools": sorted([*DISCOVERY, "convert_time", "get_current_time"])}
            wrong = await client.call_tool("search_tools", {"pattern": "time"})
            assert wrong.is_error and "query" in text(wrong)

    anyio.run(session)
    methods = [e["method"] for e in events(log) if e["event"] == "search"]
    assert methods == ["bm25", "fuzzy"]


def test_unsafe_tools_refused_failures_answered_and_no_server_left(trouble_catalog,
                                                                    fast_profile, tmp_path):
    catalog, pids = trouble_catalog
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(catalog), "-p", str(fast_profile), "--call-timeout", "3",
                          "--log", str(log)) as client:
            found = json.loads(text(await client.call_tool("search_tools",
                                                           {"query": "file"})))
            assert [t["name"] for t in found["tools"]] == ["read_file"]  # not delete_file
            added = json.loads(text(await client.call_tool("add_tool", {"tool_names": [
                "delete_file", "read_file", "wait_forever", "report_status", "take_note",
                "open_vault", "no_such_tool"]})))
            assert added["added"] == ["read_file", "wait_forever", "report_status",
                                      "take_note", "open_vault"]
            assert [r["name"] for r in added["refused"]] == ["delete_file"]
            assert "unsafe" in added["refused"][0]["reason"]
            assert "--allow-unsafe" in added["refused"][0]["reason"]
            assert added["not_found"] == ["no_such_tool"]
            names = [t.name for t in (await client.list_tools()).tools]
            assert "delete_file" not in names
            refused = await client.call_tool("delete_file", {"path": "a.txt"})
            assert refused.is_error and "unsafe" in text(refused)

            plain = await client.call_tool("take_note", {})
            assert plain.is_error and "records no MCP server to call" in text(plain)

            secret = await client.call_tool("open_vault", {})
            assert secret.is_error and "DEMO_GREETING" in text(secret)

            exits = await client.call_tool("report_status", {})
            assert exits.is_error
            assert "DATABASE_URL is not set" in text(exits)  # the server's last stderr line

            no_handler = await client.call_tool("read_file", {"path": "a.txt"})
            assert no_handler.is_error and "-32601" in text(no_handler)

            began = time.monotonic()
            hung = await client.call_tool("wait_forever", {})
            waited = time.monotonic() - began
            assert hung.is_error and "within 3 s" in text(hung)
            assert waited < 6, f"the call waited {waited:.1f} s"

            still = await client.call_tool("search_tools", {"query": "note"})
            assert json.loads(text(still))["tools"][0]["name"] == "take_note"

    anyio.run(session)
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2  # the hanging server and its child
    assert settle(lambda: not any(alive(p) for p in started)), "the hung server was not reaped"
    calls = [e for e in events(log) if e["event"] == "call"]
    assert all(not c["ok"] and c["error"] for c in calls)


def test_allow_unsafe_lets_add_tool_add_destructive_tools(trouble_catalog, fast_profile):
    catalog, _ = trouble_catalog

    async def session() -> None:
        async with served("-c", str(catalog), "-p", str(fast_profile),
                          "--allow-unsafe") as client:
            found = json.loads(text(await client.call_tool("search_tools",
                                                           {"query": "delete"})))
            assert [t["name"] for t in found["tools"]] == ["delete_file"]
            added = json.loads(text(await client.call_tool("add_tool",
                                                           {"tool_names": ["delete_file"]})))
            assert added["added"] == ["delete_file"] and added["refused"] == []
            listed = {t.name: t for t in (await client.list_tools()).tools}
            assert listed["delete_file"].annotations.destructive_hint is True

    anyio.run(session)


def test_secrets_reach_the_upstream_but_never_the_client_or_the_log(trouble_catalog,
                                                                     fast_profile, tmp_path):
    catalog, _ = trouble_catalog
    token = "sk-" + "live-4f9Q2xZ7pL0mN3vB8cR5tY1w"
    config = tmp_path / "claude_desktop_config.json"  # the vault's entry, with its secret
    config.write_text(json.dumps({"mcpServers": {"vault": {
        "command": sys.executable, "args": [DEMO[1]], "env": {"DEMO_GREETING": token}}}}))
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(catalog), "-p", str(fast_profile), "--servers",
                          str(config), "--log", str(log),
                          env=environment(API_TOKEN=token)) as client:
            await client.call_tool("add_tool", {"tool_names": ["check_token", "open_vault"]})
            rejected = await client.call_tool("check_token", {})
            assert rejected.is_error
            # the server got the token (it says so on stderr), the client sees it redacted
            assert "token <redacted> rejected" in text(rejected)
            assert token not in text(rejected)
            vault = await client.call_tool("open_vault", {})  # started from --servers
            # it started (with the secret) and listed its tools: open_vault is not among them
            assert vault.is_error and "no longer listed by its server" in text(vault)

    anyio.run(session)
    assert "<redacted>" in log.read_text() and token not in log.read_text()


def test_an_http_upstream_is_reached_with_its_headers(http_url, fast_profile, tmp_path):
    catalog = tmp_path / "remote.yaml"
    catalog.write_text(f"""\
servers:
  - name: remote
    mcp: {{transport: http, url: {http_url!r}, headers: {{Authorization: "Bearer ${{TOKEN}}"}}}}
tools:
  - name: list_files
    server: remote
    description: List the files under a folder of the store.
    parameters: {{type: object, properties: {{folder: {{type: string, default: .}},
                                              recursive: {{type: boolean}}}}}}
""")

    async def session() -> None:
        async with served("-c", str(catalog), "-p", str(fast_profile),
                          env=environment(TOKEN="t0k3n-" + "9f8e7d6c5b4a")) as client:
            await client.call_tool("add_tool", {"tool_names": ["list_files"]})
            answer = await client.call_tool("list_files", {})
            # the demo server lists tools but answers no calls: its JSON-RPC error comes back
            assert answer.is_error and "-32601" in text(answer)
            again = await client.call_tool("list_files", {})
            assert again.is_error and "-32601" in text(again)

    anyio.run(session)


def test_a_broken_scorer_fails_open_with_the_visible_tools(time_catalog, tmp_path):
    profile = tmp_path / "broken.yaml"
    # a scorer that cannot be built: the search fails at the first query that needs it
    profile.write_text("name: broken\nscorer: bm25\nscorer_options: {no_such_option: 1}\n"
                       "tool_search_mode: {enabled: true, pre_discovered: [convert_time]}\n")
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(time_catalog), "-p", str(profile),
                          "--log", str(log)) as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            assert listed == [*DISCOVERY, "convert_time"]
            regex = json.loads(text(await client.call_tool("search_tools",
                                                           {"query": "current"})))
            assert regex["tools"][0]["name"] == "get_current_time"  # the regex still works
            result = await client.call_tool("search_tools", {"query": "hour in Tokyo"})
            assert not result.is_error
            answer = json.loads(text(result))
            assert answer["message"].startswith("Tool search is unavailable")
            assert "no_such_option" in answer["error"]
            assert [t["name"] for t in answer["tools"]] == listed

    anyio.run(session)
    search = [e for e in events(log) if e["event"] == "search"]
    assert search[1]["method"] == "fail-open" and "no_such_option" in search[1]["error"]


@pytest.mark.parametrize(("args", "message"), [
    (["--http", "localhost"], "is not HOST:PORT"),
    (["--call-timeout", "0"], "--call-timeout must be a positive"),
    (["--log", "."], "is a folder"),
    (["-p", "no-such-profile"], "no profile file or bundled profile"),
])
def test_bad_options_are_one_line_errors(run, args, message):
    result = run("serve", *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_serve_help_does_not_import_the_sdk():
    probe = ("import sys\nfrom toolcat.cli.app import app\n"
             "assert 'mcp' not in sys.modules and 'toolcat.serve' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", probe], env=environment(),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
