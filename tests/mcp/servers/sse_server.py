"""An MCP server that speaks only the old HTTP+SSE transport (GET /sse, POST /messages/), on
127.0.0.1 and a port it picks itself, which it prints on stdout once it listens.

    python sse_server.py
"""

from __future__ import annotations

import socket

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

app = MCPServer("sse-only")


@app.tool()
def hello(name: str) -> str:
    """Say hello."""
    return f"hello {name}"


async def main() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    web = uvicorn.Server(uvicorn.Config(app.sse_app(), log_level="warning"))

    async def announce() -> None:
        while not web.started:
            await anyio.sleep(0.02)
        print(sock.getsockname()[1], flush=True)

    async with anyio.create_task_group() as group:
        group.start_soon(announce)
        await web.serve(sockets=[sock])


if __name__ == "__main__":
    anyio.run(main)
