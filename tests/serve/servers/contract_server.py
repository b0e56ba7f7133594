"""A real MCP server (the SDK's low-level Server, over stdio) whose tool lists an
outputSchema and answers as asked: with structured content that keeps it, without any (as
many servers do, sending text only), or with structured content that breaks it.

    python contract_server.py
"""

from __future__ import annotations

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

TOOLS = [
    types.Tool(name="forecast", description="Forecast the temperature in a city.",
               input_schema={"type": "object", "properties": {
                   "answer": {"type": "string", "enum": ["right", "missing", "wrong"]}},
                   "required": ["answer"]},
               output_schema={"type": "object", "properties": {
                   "temperature": {"type": "number"}}, "required": ["temperature"]},
               annotations=types.ToolAnnotations(read_only_hint=True)),
]
STRUCTURED = {"right": {"temperature": 21.5}, "missing": None,
              "wrong": {"temperature": "warm"}}


async def call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
    answer = str((params.arguments or {})["answer"])
    return types.CallToolResult(content=[types.TextContent(type="text", text="21.5 C")],
                                structured_content=STRUCTURED[answer])


async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def main() -> None:
    server = Server("contract-test", version="1.0.0", on_list_tools=list_tools,
                    on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
