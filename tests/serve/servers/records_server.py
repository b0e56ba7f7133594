"""A real MCP server (the SDK's low-level Server, over stdio) whose tools change files, for
serve's approval tests: what a call did is seen in the folder it was given.

    python records_server.py FOLDER

Tools: delete_record (destructive: removes FOLDER/NAME.txt), send_message (appends a line to
FOLDER/outbox.txt), count_records (read-only), rename_record (renames FOLDER/NAME.txt; lists no
annotations, as most servers do: its safety is unknown).
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

FOLDER = Path(sys.argv[1])
NAME = {"type": "string", "pattern": "^[a-z0-9_-]{1,40}$"}
TOOLS = [
    types.Tool(name="delete_record", description="Delete a record. This cannot be undone.",
               input_schema={"type": "object", "properties": {"name": NAME},
                             "required": ["name"]},
               annotations=types.ToolAnnotations(destructive_hint=True)),
    types.Tool(name="send_message", description="Send a message to someone.",
               input_schema={"type": "object",
                             "properties": {"to": {"type": "string"},
                                            "text": {"type": "string"}},
                             "required": ["to", "text"]},
               annotations=types.ToolAnnotations(destructive_hint=False)),
    types.Tool(name="count_records", description="Count the records.",
               input_schema={"type": "object", "properties": {}},
               annotations=types.ToolAnnotations(read_only_hint=True)),
    types.Tool(name="rename_record", description="Give a record a new name.",
               input_schema={"type": "object", "properties": {"name": NAME, "to": NAME},
                             "required": ["name", "to"]}),
]


def text(value: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)])


async def call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == "delete_record":
        (FOLDER / f"{arguments['name']}.txt").unlink()
        return text(f"deleted {arguments['name']}")
    if params.name == "send_message":
        with (FOLDER / "outbox.txt").open("a", encoding="utf-8") as outbox:
            outbox.write(f"{arguments['to']}: {arguments['text']}\n")
        return text(f"sent to {arguments['to']}")
    if params.name == "rename_record":
        (FOLDER / f"{arguments['name']}.txt").rename(FOLDER / f"{arguments['to']}.txt")
        return text(f"renamed {arguments['name']} to {arguments['to']}")
    return text(str(len(list(FOLDER.glob("*.txt")))))


async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def main() -> None:
    server = Server("records-test", version="1.0.0", on_list_tools=list_tools,
                    on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
