"""The api strategy against a real HTTP server on 127.0.0.1: a good answer, and the
fail-open cases (no endpoint, an HTTP error, a timeout, garbage, an unknown selection)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from toolcat.resolution import Resolver, Session

AGENT = "builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
TOTAL = 12  # catalog tools the agent sends (legacy is disabled, delete_repository unsafe)
SLOW_SECONDS = 1.0


class Selector(BaseHTTPRequestHandler):
    """Answers by path: /good, /error, /slow, /garbage, /unknown, /empty."""

    received: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Selector.received.append({"path": self.path, "body": body,
                                  "authorization": self.headers.get("Authorization")})
        if self.path == "/error":
            self.send_error(503, "selector overloaded")
            return
        if self.path == "/slow":
            time.sleep(SLOW_SECONDS)
        answers = {
            "/good": {"selected_names": ["get_weather", "weather:get_air_quality"]},
            "/slow": {"selected_names": ["get_weather"]},
            "/unknown": {"selected_names": ["no_such_tool", "old_search"]},
            "/empty": {"selected_names": []},
        }
        payload = (json.dumps(answers[self.path]).encode() if self.path in answers
                   else b"<html>definitely not json")
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (the timeout case)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def selector() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Selector)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def api_session(catalog, profile, endpoint: str | None, *, timeout: str = "2s",
                query: str = "weather in Tokyo") -> Session:
    api = f"api: {{endpoint: '{endpoint}', timeout: {timeout}, api_key: '${{SELECTOR_KEY}}'}}" \
        if endpoint else f"api: {{timeout: {timeout}}}"
    text = AGENT + f"gateway:\n  strategy: api\n  max_search_results: 4\n  always_keep: " \
        f"[read_workspace_file]\n  {api}\n"
    return Session(catalog, profile(text), query)


def search(session: Session, pattern: str = "weather"):
    return session.call("gateway_search_tools", {"query": pattern})


def test_a_good_answer_reinjects_the_selected_tools(catalog, profile, selector, monkeypatch):
    monkeypatch.setenv("SELECTOR_KEY", "sk-test")
    Selector.received.clear()
    session = api_session(catalog, profile, selector + "/good")
    assert session.resolution.names("visible") == ["gateway_search_tools"]
    step = search(session)
    assert (step.rule, step.refused) == ("gateway-api-selected", False)
    assert set(step.added) == {"get_weather", "get_air_quality"}
    assert step.response["found"] == 2
    assert [t["name"] for t in step.response["tools"]] == ["get_weather", "get_air_quality"]
    assert session.resolution.verdict("get_weather").rule == "gateway-expanded"
    request = Selector.received[-1]
    assert request["authorization"] == "Bearer sk-test"
    body = request["body"]
    assert (body["pattern"], body["top_k"], body["always_keep"]) == (
        "weather", 4, ["read_workspace_file"])
    assert len(body["tools"]) == TOTAL
    assert set(body["tools"][0]) == {"name", "description", "parameters"}


@pytest.mark.parametrize(("path", "reason"), [
    ("/error", "HTTP 503"),
    ("/garbage", "not JSON"),
    ("/unknown", "only names that are not deferred tools"),
    ("/empty", "an empty selection"),
])
def test_a_failing_selector_fails_open_and_restores_every_deferred_tool(
        catalog, profile, selector, path, reason):
    session = api_session(catalog, profile, selector + path)
    step = search(session)
    assert (step.rule, step.refused) == ("gateway-fail-open", False)
    assert reason in step.note
    assert len(step.resolution.visible) == TOTAL + 1
    assert step.resolution.deferred == ()
    assert step.response["found"] == TOTAL
    assert "all deferred tools were restored" in step.response["message"]


def test_a_selector_that_times_out_fails_open(catalog, profile, selector):
    session = api_session(catalog, profile, selector + "/slow", timeout="200ms")
    started = time.monotonic()
    step = search(session)
    assert time.monotonic() - started < SLOW_SECONDS
    assert step.rule == "gateway-fail-open"
    assert "timeout" in step.note
    assert len(step.resolution.visible) == TOTAL + 1


def test_an_unreachable_selector_fails_open(catalog, profile):
    # a port nothing listens on: bind one, note it, close it
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    step = search(api_session(catalog, profile, f"http://127.0.0.1:{port}/search"))
    assert step.rule == "gateway-fail-open"
    assert "cannot be reached" in step.note


def test_an_api_strategy_without_an_endpoint_fails_open(catalog, profile):
    session = api_session(catalog, profile, None)
    endpoint = session.resolution.trace.find("api endpoint")[0]
    assert (endpoint.outcome, endpoint.rule) == ("missing", "gateway-api-endpoint")
    assert "will fail open" in endpoint.reason
    step = search(session)
    assert step.rule == "gateway-fail-open"
    assert "no endpoint is configured" in step.note
    assert len(step.resolution.visible) == TOTAL + 1


def test_resolving_a_query_makes_no_request(catalog, profile, selector):
    Selector.received.clear()
    text = AGENT + f"gateway: {{strategy: api, api: {{endpoint: '{selector}/good'}}}}\n"
    r = Resolver(catalog, profile(text)).resolve("weather in Tokyo")
    assert r.names("visible") == ["gateway_search_tools"]
    assert Selector.received == []
