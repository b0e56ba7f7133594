"""What relaying an OpenAPI operation through `toolcat serve` costs: a GET with a path and a
query parameter, called by the SDK's client over stdio, against the same request sent
straight to the API with httpx (the reference: one client kept, its connections reused, as
serve keeps one per API; and, for comparison, a new client per request), all to one local
HTTP server started here and measured in the same run. The ratio is serve / reference;
calls/s are sequential calls over their whole time.

    python benchmarks/openapi_calls.py                 # 50 calls each
    python benchmarks/openapi_calls.py --calls 200
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio

REPO = Path(__file__).resolve().parent.parent
DOCUMENT = """\
openapi: 3.0.3
info: {title: Bench API, version: "1"}
servers: [{url: "http://127.0.0.1:PORT/v1"}]
components: {securitySchemes: {token: {type: http, scheme: bearer}}}
security: [{token: []}]
paths:
  /items/{itemId}:
    get:
      operationId: getItem
      summary: Read one item by its id.
      parameters:
        - {name: itemId, in: path, required: true, schema: {type: string}}
        - {name: verbose, in: query, schema: {type: boolean}}
      responses:
        "200":
          description: the item
          content: {application/json: {schema: {type: object}}}
"""


class Api(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body in two writes: no delayed ACK wait

    def do_GET(self) -> None:
        payload = json.dumps({"id": self.path.split("?")[0].rsplit("/", 1)[1],
                              "name": "item", "tags": ["a", "b"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


async def direct(port: int, calls: int, *, pooled: bool) -> list[float]:
    import ssl

    import httpx

    tls = ssl.create_default_context()
    times = []
    kept = httpx.AsyncClient(trust_env=False, verify=tls)
    async with kept:
        for i in range(calls):
            began = time.perf_counter()
            client = kept if pooled else httpx.AsyncClient(trust_env=False, verify=tls)
            response = await client.get(f"http://127.0.0.1:{port}/v1/items/{i}",
                                        params={"verbose": "true"},
                                        headers={"Authorization": "Bearer bench-token"})
            response.json()
            if not pooled:
                await client.aclose()
            times.append((time.perf_counter() - began) * 1000)
    return times


async def through_serve(path: Path, profile: Path, calls: int) -> list[float]:
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "toolcat", "serve", "-c", str(path), "-p", str(profile)],
        env={**os.environ, "PYTHONPATH": str(REPO),
             "TOOLCAT_AUTH_BENCH_API_TOKEN": "bench-token"})
    times = []
    async with Client(stdio_client(params), cache=None) as client:
        await client.call_tool("add_tool", {"tool_names": ["getItem"]})
        await client.call_tool("getItem", {"itemId": "warm"})
        for i in range(calls):
            began = time.perf_counter()
            result = await client.call_tool("getItem", {"itemId": str(i), "verbose": True})
            times.append((time.perf_counter() - began) * 1000)
            assert not result.is_error and result.structured_content["id"] == str(i), result
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50)
    options = parser.parse_args()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "api.yaml"
            path.write_text(DOCUMENT.replace("PORT", str(port)))
            profile = Path(tmp) / "profile.yaml"
            profile.write_text("name: bench\nscorer: bm25\n")
            pooled = anyio.run(functools.partial(direct, port, options.calls, pooled=True))
            fresh = anyio.run(functools.partial(direct, port, options.calls, pooled=False))
            served = anyio.run(through_serve, path, profile, options.calls)
    finally:
        httpd.shutdown()
    reference = statistics.median(pooled)
    print(f"GET with path and query parameters, {options.calls} calls, median and calls/s:")
    for label, times in (("straight to the API, one client (reference)", pooled),
                         ("straight to the API, a client per request", fresh),
                         ("through toolcat serve (SDK client, stdio)", served)):
        print(f"  {label}: {statistics.median(times):.2f} ms, "
              f"{len(times) / (sum(times) / 1000):,.0f} calls/s "
              f"({statistics.median(times) / reference:.2f}x)")


if __name__ == "__main__":
    main()
