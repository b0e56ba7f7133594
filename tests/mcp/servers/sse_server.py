"""An MCP server that speaks only the old HTTP+SSE transport (GET /sse, POST /messages/), on
127.0.0.1 and a port it picks itself, which it prints on stdout once it listens.

    python sse_server.py
"""

from __future__ import annotations

import anyio
from demo_server import serve_app  # the script's folder is on sys.path
from mcp.server.mcpserver import MCPServer

app = MCPServer("sse-only")


@app.tool()
def hello(name: str) -> str:
    """Say hello."""
    return f"hello {name}"


if __name__ == "__main__":
    anyio.run(serve_app, app.sse_app())
