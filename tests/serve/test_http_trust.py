"""`toolcat serve --http` attacked as a web page, another machine or another client would:
raw HTTP requests (httpx) for Host, Origin, the token and session ids, and the SDK's own
client for what each client sees."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest

from tests.serve.conftest import environment, http_served, text

pytestmark = [pytest.mark.mcp, pytest.mark.slow]

TOKEN = "t0k3n-" + "a9f8e7d6c5b4a3f2e1d0"  # a test token, long enough to be accepted
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "attacker", "version": "1"}}}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def post(port: int, body: dict[str, Any], *, host: str = "127.0.0.1", source: str | None = None,
         **headers: str) -> httpx.Response:
    """POST `body` to serve's endpoint on `host`, from the local address `source`."""
    transport = httpx.HTTPTransport(local_address=source) if source else None
    with httpx.Client(transport=transport, timeout=30) as client:
        target = f"[{host}]" if ":" in host else host
        return client.post(f"http://{target}:{port}/mcp", json=body,
                           headers={**ACCEPT, **headers})


@pytest.mark.parametrize("host", ["127.0.0.2", "127.1", "0.0.0.0", "::"])
def test_host_and_origin_are_checked_on_every_address(time_catalog, fast_profile, host):
    token = {} if host.startswith("127") else {"authorization": f"Bearer {TOKEN}"}
    where = "127.0.0.2" if host == "127.0.0.2" else "127.0.0.1"
    with http_served("-c", str(time_catalog), "-p", str(fast_profile), "--http", f"{host}:0",
                     env=environment(TOOLCAT_SERVE_TOKEN=TOKEN) if token else None
                     ) as (_, port):
        # DNS rebinding: a page of evil.example whose name now resolves to this machine
        rebound = post(port, INITIALIZE, host=where, **token,
                       Host=f"evil.example:{port}")
        assert rebound.status_code == 421, rebound.text
        page = post(port, INITIALIZE, host=where, **token,
                    origin="http://evil.example")
        assert page.status_code == 403, page.text
        fine = post(port, INITIALIZE, host=where, **token)
        assert fine.status_code == 200, fine.text
        assert "mcp-session-id" in fine.headers


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_listening_beyond_loopback_needs_a_token(run, time_catalog, host):
    result = run("serve", "-c", str(time_catalog), "--http", f"{host}:0")
    assert result.exit_code == 2
    assert "--token" in result.stderr and "TOOLCAT_SERVE_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_short_token_is_refused(run, time_catalog):
    result = run("serve", "-c", str(time_catalog), "--http", "0.0.0.0:0", "--token", "abc")
    assert result.exit_code == 2 and "at least 16" in result.stderr


def test_with_a_token_every_request_must_carry_it(time_catalog, fast_profile):
    with http_served("-c", str(time_catalog), "-p", str(fast_profile), "--http", "0.0.0.0:0",
                     env=environment(TOOLCAT_SERVE_TOKEN=TOKEN)) as (_, port):
        assert post(port, INITIALIZE).status_code == 401
        wrong = post(port, INITIALIZE, authorization="Bearer " + TOKEN[:-1] + "x")
        assert wrong.status_code == 401 and wrong.headers["www-authenticate"].startswith(
            "Bearer")
        assert post(port, INITIALIZE, authorization=TOKEN).status_code == 401  # no scheme
        assert post(port, INITIALIZE, authorization=f"Bearer {TOKEN}").status_code == 200


def test_the_address_line_says_who_may_connect(time_catalog, fast_profile):
    import subprocess
    import sys

    env = environment(TOOLCAT_SERVE_TOKEN=TOKEN)
    with subprocess.Popen([sys.executable, "-m", "toolcat", "serve", "-c", str(time_catalog),
                           "-p", str(fast_profile), "--http", "0.0.0.0:0"],
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=env) as process:
        assert process.stderr is not None
        line = process.stderr.readline()
        process.terminate()
        process.wait(15)
    assert "every interface" in line and "Authorization: Bearer TOKEN" in line, line


def test_a_session_id_is_bound_to_its_client_and_dies_with_the_session(time_catalog,
                                                                       fast_profile):
    with http_served("-c", str(time_catalog), "-p", str(fast_profile), "--http", "0.0.0.0:0",
                     env=environment(TOOLCAT_SERVE_TOKEN=TOKEN)) as (_, port):
        auth = {"authorization": f"Bearer {TOKEN}"}
        opened = post(port, INITIALIZE, source="127.0.0.1", **auth)
        session = opened.headers["mcp-session-id"]
        assert len(session) >= 32  # a UUID4: 122 random bits
        ack = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert post(port, ack, source="127.0.0.1", **auth,
                    **{"mcp-session-id": session}).status_code == 202
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        own = post(port, listing, source="127.0.0.1", **auth, **{"mcp-session-id": session})
        assert own.status_code == 200 and "search_tools" in own.text
        # the same id from another address (a sniffed id replayed): as if it did not exist
        stolen = post(port, listing, source="127.0.0.2", **auth,
                      **{"mcp-session-id": session})
        assert stolen.status_code == 404, stolen.text
        with httpx.Client(timeout=30) as client:
            closed = client.delete(f"http://127.0.0.1:{port}/mcp",
                                   headers={**auth, "mcp-session-id": session})
        assert closed.status_code == 200
        replayed = post(port, listing, source="127.0.0.1", **auth,
                        **{"mcp-session-id": session})
        assert replayed.status_code == 404


def test_each_client_has_its_own_session_and_added_tools(time_catalog, fast_profile):
    from mcp import Client

    with http_served("-c", str(time_catalog), "-p", str(fast_profile),
                     "--http", "127.0.0.1:0") as (url, _):
        async def session() -> None:
            changed: dict[str, int] = {"alice": 0, "bob": 0}

            def counting(who: str) -> Any:
                async def handler(message: Any) -> None:
                    if isinstance(message, types.ToolListChangedNotification):
                        changed[who] += 1
                return handler

            async with Client(url, mode="legacy", cache=None,
                              message_handler=counting("alice")) as alice, \
                    Client(url, mode="legacy", cache=None,
                           message_handler=counting("bob")) as bob:
                # the handshake era, the one with sessions; told that the tool list can change
                assert alice.protocol_version != "2026-07-28"
                assert alice.server_capabilities.tools.list_changed is True
                added = await alice.call_tool("add_tool",
                                              {"tool_names": ["get_current_time"]})
                assert json.loads(text(added))["added"] == ["get_current_time"]
                with anyio.fail_after(10):
                    while not changed["alice"]:
                        await anyio.sleep(0.05)
                own = [t.name for t in (await alice.list_tools()).tools]
                assert "get_current_time" in own
                others = [t.name for t in (await bob.list_tools()).tools]
                assert others == ["search_tools", "add_tool", "show_all_tools"]
                refused = await bob.call_tool("get_current_time", {"timezone": "UTC"})
                assert refused.is_error and "has not been added" in text(refused)
                called = await alice.call_tool("get_current_time", {"timezone": "UTC"})
                assert called.structured_content["timezone"] == "UTC"
                assert changed["bob"] == 0

        anyio.run(session)


def test_add_mode_serves_the_stateless_2026_protocol_beside_sessions(time_catalog,
                                                                    fast_profile):
    """In add mode, a client speaking the stateless 2026-07-28 protocol (no handshake, no
    session: every request stands alone) adds a tool with one request and sees and calls it
    with the next ones; what it added is its own (another 2026-07-28 client, or a
    handshake-era one beside it, sees only the discovery tools); the SDK's client in its
    default mode picks 2026-07-28 by itself."""
    from mcp import Client

    discovery = ["search_tools", "add_tool", "show_all_tools"]
    with http_served("-c", str(time_catalog), "-p", str(fast_profile),
                     "--http", "127.0.0.1:0") as (url, _):
        async def session() -> None:
            async with Client(url, mode="2026-07-28", cache=None,
                              client_info=types.Implementation(name="alice", version="1")
                              ) as alice, \
                    Client(url, mode="2026-07-28", cache=None,
                           client_info=types.Implementation(name="bob", version="1")) as bob, \
                    Client(url, mode="legacy", cache=None) as older, \
                    Client(url, cache=None) as default:
                assert alice.protocol_version == default.protocol_version == "2026-07-28"
                assert older.protocol_version != "2026-07-28"
                found = json.loads(text(await alice.call_tool("search_tools",
                                                              {"query": "current time"})))
                assert found["tools"][0]["name"] == "get_current_time"
                added = await alice.call_tool("add_tool", {"tool_names": ["get_current_time"]})
                assert json.loads(text(added))["added"] == ["get_current_time"]
                assert "get_current_time" in [t.name for t in (await alice.list_tools()).tools]
                called = await alice.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
                assert called.structured_content["timezone"] == "Asia/Tokyo"
                for other in (bob, older, default):
                    assert [t.name for t in (await other.list_tools()).tools] == discovery
                    refused = await other.call_tool("get_current_time", {"timezone": "UTC"})
                    assert refused.is_error and "has not been added" in text(refused)

        anyio.run(session)


def test_one_client_cannot_take_every_session_and_lock_the_others_out(time_catalog,
                                                                      fast_profile):
    with http_served("-c", str(time_catalog), "-p", str(fast_profile), "--http",
                     "127.0.0.1:0") as (_, port):
        opened = [post(port, INITIALIZE, source="127.0.0.1",
                       authorization=f"Bearer forged-{i}") for i in range(11)]
        assert [r.status_code for r in opened[:10]] == [200] * 10
        assert opened[10].status_code == 429, opened[10].text  # a varied header is no other
        assert "too many open sessions from this client" in opened[10].text  # client
        other = post(port, INITIALIZE, source="127.0.0.2")  # another client still gets one
        assert other.status_code == 200 and other.headers["mcp-session-id"]
        with httpx.Client(timeout=30) as client:  # ending one makes room for its client
            assert client.delete(f"http://127.0.0.1:{port}/mcp", headers={
                "mcp-session-id": opened[0].headers["mcp-session-id"],
                "authorization": "Bearer forged-0"}).status_code == 200
        assert post(port, INITIALIZE, source="127.0.0.1").status_code == 200



def test_call_mode_serves_the_stateless_2026_protocol_beside_sessions(time_catalog,
                                                                     fast_profile):
    """In call mode, which keeps nothing per client, the SDK's client pinned to 2026-07-28
    (no handshake, no session: every request stands alone) searches and calls through
    call_tool, beside a handshake-era client with its session; the SDK's client in its
    default mode picks 2026-07-28 by itself."""
    from mcp import Client

    with http_served("-c", str(time_catalog), "-p", str(fast_profile), "--mode", "call",
                     "--http", "127.0.0.1:0") as (url, _):
        async def session() -> None:
            async with Client(url, mode="2026-07-28", cache=None) as modern, \
                    Client(url, mode="legacy", cache=None) as older, \
                    Client(url, cache=None) as default:
                assert modern.protocol_version == default.protocol_version == "2026-07-28"
                assert older.protocol_version != "2026-07-28"
                for client, zone in ((modern, "Asia/Tokyo"), (older, "Europe/Paris"),
                                     (default, "UTC")):
                    found = json.loads(text(await client.call_tool(
                        "search_tools", {"query": "current time"})))
                    assert found["tools"][0]["name"] == "get_current_time"
                    result = await client.call_tool("call_tool", {
                        "name": "get_current_time", "arguments": {"timezone": zone}})
                    assert not result.is_error, text(result)
                    assert result.structured_content["timezone"] == zone

        anyio.run(session)
