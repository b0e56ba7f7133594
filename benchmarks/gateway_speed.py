"""What `toolcat gateway` costs per request, and what it saves.

A 60-tool Anthropic Messages request (the first 60 safe tools of the demo catalog, their real
descriptions and schemas) with a query of catalogs/demo-queries.jsonl is sent to a local
upstream that answers at once, directly and through the gateway, on one keep-alive
connection each. The overhead is the median through the gateway minus the median direct, in
the same run. tool-search is measured as one request whose model searches once (two upstream
round trips) against two direct requests. Tokens are those of the tools[] JSON (o200k_base).

    python benchmarks/gateway_speed.py                 # 200 requests per strategy
    python benchmarks/gateway_speed.py --requests 50 --scorers bm25
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.config.paths import demo_catalog  # noqa: E402
from toolcat.gateway import GatewayApp, Settings  # noqa: E402
from toolcat.gateway.rewrite import tools_tokens  # noqa: E402
from toolcat.resolution import load_profile  # noqa: E402

TEXT = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}


def search_call(query: str) -> dict[str, Any]:
    return {**TEXT, "content": [{"type": "tool_use", "id": "toolu_1",
                                 "name": "gateway_search_tools", "input": {"query": query}}],
            "stop_reason": "tool_use"}


def upstream() -> tuple[ThreadingHTTPServer, list[dict[str, Any]]]:
    """Answers at once: a search call when only the search tool is offered, else text."""
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()  # headers and body are two writes: no 40 ms delayed-ACK wait
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            seen.append(body)
            names = [t.get("name") for t in body.get("tools") or ()]
            answer = search_call("weather") if names == ["gateway_search_tools"] else TEXT
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def gateway(upstream_url: str, profile: str, scorer: str, log: Path) -> tuple[str, Any]:
    import uvicorn

    settings = Settings(upstream=upstream_url, gateway=load_profile(profile).gateway,
                        scorer=scorer, log=log, hosts=["127.0.0.1"])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(GatewayApp(settings), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server


def requests(count: int) -> list[dict[str, Any]]:
    tools = [t for t in load_catalog(demo_catalog()).tools if t.safe][:60]
    anthropic = [{"name": t.name, "description": t.description,
                  "input_schema": t.parameters or {"type": "object"}} for t in tools]
    lines = (REPO / "catalogs" / "demo-queries.jsonl").read_text().splitlines()
    queries = [json.loads(line)["query"] for line in lines if line.strip()]
    return [{"model": "m", "max_tokens": 100, "tools": anthropic,
             "messages": [{"role": "user", "content": queries[i % len(queries)]}]}
            for i in range(count)]


def timed(url: str, bodies: list[dict[str, Any]], repeat: int = 1) -> list[float]:
    import httpx

    out = []
    transport = httpx.HTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY,
                                                     1)])
    with httpx.Client(base_url=url, timeout=30, transport=transport) as client:
        client.post("/v1/messages", json=bodies[0])  # the connection and first-use costs
        for body in bodies:
            began = time.perf_counter()
            for _ in range(repeat):
                assert client.post("/v1/messages", json=body).status_code == 200
            out.append((time.perf_counter() - began) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--scorers", default="bm25,hybrid")
    args = parser.parse_args()
    bodies = requests(args.requests)
    server, seen = upstream()
    up = f"http://127.0.0.1:{server.server_address[1]}"
    direct = statistics.median(timed(up, bodies))
    direct_two = statistics.median(timed(up, bodies, repeat=2))
    print(f"{len(bodies)} requests of {len(bodies[0]['tools'])} tools, "
          f"{tools_tokens(bodies[0])} tokens of tools")
    print(f"{'direct':34} median {direct:7.2f} ms")
    print(f"{'direct, two requests':34} median {direct_two:7.2f} ms")
    passthrough = Path("/tmp") / f"gateway-passthrough-{time.time_ns()}.yaml"
    passthrough.write_text("name: passthrough\ngateway:\n  strategy: passthrough\n")
    runs = [(str(passthrough), "bm25")]
    runs += [("gateway-relevance", s) for s in args.scorers.split(",")]
    runs.append(("gateway-tool-search", "bm25"))
    log = Path("/tmp") / f"gateway-speed-{time.time_ns()}.jsonl"
    for profile, scorer in runs:
        url, running = gateway(up, profile, scorer, log)
        seen.clear()
        through = statistics.median(timed(url, bodies))
        running.should_exit = True
        reference = direct_two if profile == "gateway-tool-search" else direct
        sent = [tools_tokens(b) for b in seen[1:]] or [0]
        label = "passthrough" if profile == str(passthrough) else \
            f"{profile} ({scorer})" if profile == "gateway-relevance" else \
            f"{profile} (1 search)"
        print(f"{label:34} median {through:7.2f} ms  overhead {through - reference:+6.2f} ms"
              f"  tools sent upstream: median {statistics.median(sent):6.0f} tokens")
    log.unlink(missing_ok=True)
    passthrough.unlink()
    server.shutdown()


if __name__ == "__main__":
    main()
