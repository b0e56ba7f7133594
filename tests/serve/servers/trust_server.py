"""A real MCP server (the SDK's low-level Server, over stdio) for serve's trust tests: a tool
that waits, one that answers with a large result, one that floods stderr and exits.

    python trust_server.py
"""

from __future__ import annotations

import os
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

NUMBER = {"type": "number", "minimum": 0}
SAFE = types.ToolAnnotations(destructive_hint=False)
TOOLS = [
    types.Tool(name="wait", title="Wait a while",
               description="Wait for a number of seconds, then say so.",
               execution=types.ToolExecution(task_support="forbidden"),
               icons=[types.Icon(src="https://example.com/wait.png", mime_type="image/png")],
               input_schema={"type": "object", "properties": {"seconds": NUMBER},
                             "required": ["seconds"]}, annotations=SAFE),
    types.Tool(name="big", description="Answer with a text of the given size in megabytes.",
               input_schema={"type": "object", "properties": {"megabytes": NUMBER},
                             "required": ["megabytes"]}, annotations=SAFE),
    types.Tool(name="noisy", description="Write megabytes to stderr, then exit.",
               input_schema={"type": "object", "properties": {"megabytes": NUMBER},
                             "required": ["megabytes"]}, annotations=SAFE),
]


def text(value: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)])


async def call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == "wait":
        await anyio.sleep(float(arguments["seconds"]))
        return text(f"waited {arguments['seconds']} s")
    size = int(float(arguments["megabytes"]) * 1_000_000)
    if params.name == "big":
        return text("x" * size)
    line = "noise " * 16 + "\n"
    for _ in range(size // len(line)):
        sys.stderr.write(line)
    sys.stderr.write("noisy: the last line\n")
    sys.stderr.flush()
    os._exit(3)


async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def main() -> None:
    server = Server("trust-test", version="1.0.0", on_list_tools=list_tools,
                    on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
