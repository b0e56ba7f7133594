"""A local upstream that records what it receives and answers as the provider would, and a
gateway in front of it; everything on 127.0.0.1, in this process (threads)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from toolcat.gateway import GatewayApp, Settings
from toolcat.resolution import load_profile

# (path, body) -> (status, JSON body) or (status, bytes of an event stream)
Script = Callable[[str, dict[str, Any]], tuple[int, Any]]


@dataclass
class Upstream:
    """The provider's stand-in: every request it got (path, headers, body), answered by
    `script`."""

    script: Script
    received: list[tuple[str, dict[str, str], dict[str, Any]]] = field(default_factory=list)
    delay: float = 0.0
    url: str = ""

    def bodies(self) -> list[dict[str, Any]]:
        return [body for _, _, body in self.received]


def start_upstream(script: Script) -> tuple[Upstream, ThreadingHTTPServer]:
    upstream = Upstream(script)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            body = json.loads(raw)
            upstream.received.append((self.path, {k.lower(): v for k, v in self.headers.items()},
                                      body))
            time.sleep(upstream.delay)
            status, answer = upstream.script(self.path, body)
            stream = isinstance(answer, bytes)
            data = answer if stream else json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("content-type", "text/event-stream" if stream
                             else "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", "req_upstream_1")
            self.end_headers()
            # a test that lets the gateway give up on the upstream (its timeout) hung up
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream.url = f"http://127.0.0.1:{server.server_address[1]}"
    return upstream, server


@dataclass
class Running:
    url: str
    upstream: Upstream
    log: Path

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def start_gateway(settings: Settings) -> tuple[str, Callable[[], None]]:
    import socket

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)  # requests sent before uvicorn has started wait for it in the backlog
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(GatewayApp(settings), log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()

    def stop() -> None:
        server.should_exit = True
        thread.join(10)
        sock.close()

    return f"http://127.0.0.1:{port}", stop


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Callable[..., Running]]:
    """gateway(script, profile=..., **settings): an upstream answering by `script` and a
    gateway in front of it, both stopped after the test."""
    stops: list[Callable[[], None]] = []

    def make(script: Script, profile: str = "gateway-relevance", **options: Any) -> Running:
        upstream, http = start_upstream(script)
        stops.append(lambda: (http.shutdown(), http.server_close()))
        log = tmp_path / "gateway.jsonl"
        options.setdefault("scorer", "bm25")
        settings = Settings(upstream=options.pop("upstream", upstream.url),
                            gateway=load_profile(profile).gateway, log=log,
                            hosts=["127.0.0.1", "localhost"], **options)
        url, stop = start_gateway(settings)
        stops.append(stop)
        return Running(url, upstream, log)

    yield make
    for stop in reversed(stops):
        stop()


def tools_60() -> list[dict[str, Any]]:
    """60 Anthropic tools: weather, mail, files, calendar... each with a schema."""
    subjects = ["weather", "email", "file", "calendar", "invoice", "ticket", "repository",
                "database", "slack message", "contact", "payment", "shipment"]
    verbs = ["get", "create", "delete", "list", "update"]
    tools = []
    for subject in subjects:
        for verb in verbs:
            name = f"{verb}_{subject.replace(' ', '_')}"
            tools.append({"name": name, "description": f"{verb.capitalize()} a {subject} "
                          f"record in the company's {subject} system and return its details.",
                          "input_schema": {"type": "object", "properties": {
                              "id": {"type": "string", "description": f"The {subject} id"},
                              "query": {"type": "string", "description": "Free text"}},
                              "required": ["id"]}})
    return tools


def responses_tools() -> list[dict[str, Any]]:
    """`tools_60` as the OpenAI Responses API's function tools."""
    return [{"type": "function", "name": t["name"], "description": t["description"],
             "parameters": t["input_schema"]} for t in tools_60()]


def anthropic_text(text: str) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}


def anthropic_call(name: str, arguments: dict[str, Any], call_id: str = "toolu_1"
                   ) -> dict[str, Any]:
    return {"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-x",
            "content": [{"type": "tool_use", "id": call_id, "name": name, "input": arguments}],
            "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}
