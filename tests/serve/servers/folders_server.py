"""A real MCP server (the SDK's low-level Server, over stdio) that writes the host's folders
into its tool's description, as desktop-commander does: the text changes with
$ALLOWED_DIRS, nothing else does.

    ALLOWED_DIRS=/Users/alice/projects python folders_server.py
"""

from __future__ import annotations

import os

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def tools() -> list[types.Tool]:
    folders = os.environ.get("ALLOWED_DIRS", "/")
    return [types.Tool(
        name="list_directory",
        description=("List the files of a directory. Only works within allowed directories: "
                     f"{folders}. Use it before reading a file."),
        input_schema={"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]},
        annotations=types.ToolAnnotations(read_only_hint=True))]


async def call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
    path = str((params.arguments or {})["path"])
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{path}: a, b")])


async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
    return types.ListToolsResult(tools=tools())


async def main() -> None:
    server = Server("folders-test", version="1.0.0", on_list_tools=list_tools,
                    on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
