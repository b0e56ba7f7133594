"""`get_prompt` and `get_resource`: the upstream servers' prompts and resources as two tools,
for clients that only call tools (seed 001's virtual tools, deferred like any other).

serve relays prompts and resources as MCP prompts and resources (toolcat.serve.relay), which
many clients never ask for. These two tools reach the same through tools/call:
`get_prompt {server, name, arguments}` answers the prompt's messages as text content, and
`get_resource {uri}` the resource's contents (text as text, binary as an embedded resource).
They are catalog tools of the server `toolcat`, found by search_tools, added with add_tool or
called through call_tool, and each exists only when a server of the catalog recorded
prompts (resp. resources or resource templates) when it was imported (`toolcat import mcp`
writes their names under the server's `mcp:`): serve learns it without starting a server.
Their descriptions name what exists, bounded (MAX_LISTED names, then a count), so that a
search for a prompt's or a resource's name finds them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from toolcat.model import Catalog, Server, Tool

if TYPE_CHECKING:
    import mcp_types as types

    from toolcat.serve.relay import Relay
    from toolcat.serve.upstream import Relayed

SERVER = "toolcat"
GET_PROMPT = "get_prompt"
GET_RESOURCE = "get_resource"
MAX_LISTED = 50  # names one description lists; the rest are counted
MAX_NAME = 120  # characters of one listed name
_READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}


def with_virtual_tools(catalog: Catalog) -> Catalog:
    """`catalog` with get_prompt and get_resource added where its servers recorded prompts
    and resources (the catalog itself when none did)."""
    prompts: list[str] = []
    resources: list[str] = []
    for server in catalog.servers:
        settings = server.extra.get("mcp")
        if not isinstance(settings, Mapping):
            continue
        prompts += [f"{server.name}: {name}" for name in _names(settings.get("prompts"))]
        resources += _names(settings.get("resources"))
        resources += _names(settings.get("resource_templates"))
    added: list[Tool] = []
    if prompts:
        added.append(_prompt_tool(prompts))
    if resources:
        added.append(_resource_tool(resources))
    if not added:
        return catalog
    servers = catalog.servers if catalog.server(SERVER) is not None else (
        *catalog.servers, Server(name=SERVER, description="toolcat serve itself"))
    return replace(catalog, tools=(*catalog.tools, *added), servers=servers)


def is_virtual(tool: Tool) -> bool:
    return tool.source == "virtual" and tool.server == SERVER \
        and tool.name in (GET_PROMPT, GET_RESOURCE)


async def call_virtual(relay: Relay, catalog: Catalog, tool: Tool,
                       arguments: Mapping[str, Any]) -> Relayed[types.CallToolResult]:
    """The answer of get_prompt or get_resource, its arguments checked against its schema
    already. A prompt is asked of the server named; a resource is read from the first
    server of `catalog` that recorded its URI or a template it matches, so that only that
    server is started (else from whichever lists it, asking them all).

    Raises:
        UpstreamError: the upstream server could not answer (the message names it).
    """
    import mcp_types as types

    from toolcat.serve.relay import RelayError
    from toolcat.serve.upstream import Relayed, UpstreamError

    began = time.perf_counter()
    try:
        if tool.name == GET_PROMPT:
            server, name = str(arguments["server"]), str(arguments["name"])
            given = arguments.get("arguments") or {}
            prompt = await relay.get_prompt_of(server, name,
                                               {str(k): str(v) for k, v in given.items()})
            content = _messages(prompt)
        else:
            uri = str(arguments["uri"])
            content = _contents(await relay.read(uri, _recorded(catalog, uri)))
    except RelayError as exc:
        raise UpstreamError(f"{tool.name}: {exc}") from None
    result = types.CallToolResult(content=content)
    return Relayed(result, None, (time.perf_counter() - began) * 1000)


def _recorded(catalog: Catalog, uri: str) -> str | None:
    """The first server of `catalog` that recorded `uri`, else one with a resource template
    it matches (linear in the recorded names, each template matched in linear time)."""
    from toolcat.serve.relay import template_pattern

    for key in ("resources", "resource_templates"):
        for server in catalog.servers:
            settings = server.extra.get("mcp")
            names = _names(settings.get(key)) if isinstance(settings, Mapping) else []
            if any(name == uri if key == "resources" else
                   template_pattern(name).fullmatch(uri) is not None for name in names):
                return server.name
    return None


def _messages(prompt: types.GetPromptResult) -> list[Any]:
    """A prompt's messages as tool content: each text as `role: text`, other content (an
    image, an embedded resource) as it came, after a line naming its role."""
    import mcp_types as types

    out: list[Any] = []
    if prompt.description:
        out.append(types.TextContent(type="text", text=prompt.description))
    for message in prompt.messages:
        item = message.content
        if isinstance(item, types.TextContent):
            out.append(types.TextContent(type="text", text=f"{message.role}: {item.text}"))
        else:
            out += [types.TextContent(type="text", text=f"{message.role}:"), item]
    return out


def _contents(read: types.ReadResourceResult) -> list[Any]:
    """A resource's contents as tool content: text as text, a blob as an embedded resource."""
    import mcp_types as types

    return [types.TextContent(type="text", text=item.text)
            if isinstance(item, types.TextResourceContents)
            else types.EmbeddedResource(type="resource", resource=item)
            for item in read.contents]


def _prompt_tool(prompts: list[str]) -> Tool:
    return Tool(
        name=GET_PROMPT, server=SERVER, source="virtual", safety="safe",
        annotations={"title": "Get an MCP prompt", **_READ_ONLY},
        description=("Get a prompt of one of the MCP servers toolcat serves: its messages, "
                     "filled with the arguments given. Prompts (server: name): "
                     + _listed(prompts)),
        parameters={
            "type": "object",
            "properties": {
                "server": {"type": "string", "description": "the server that has the prompt"},
                "name": {"type": "string", "description": "the prompt's name"},
                "arguments": {"type": "object", "additionalProperties": {"type": "string"},
                              "description": "the prompt's arguments, by name"}},
            "required": ["server", "name"], "additionalProperties": False})


def _resource_tool(resources: list[str]) -> Tool:
    return Tool(
        name=GET_RESOURCE, server=SERVER, source="virtual", safety="safe",
        annotations={"title": "Read an MCP resource", **_READ_ONLY},
        description=("Read a resource of one of the MCP servers toolcat serves, by its URI: "
                     "text as text, binary content as an embedded resource. Resources and "
                     "URI templates ({x} is a value to fill in): " + _listed(resources)),
        parameters={
            "type": "object",
            "properties": {"uri": {"type": "string", "description": "the resource's URI"}},
            "required": ["uri"], "additionalProperties": False})


def _names(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [name[:MAX_NAME] for name in value if isinstance(name, str) and name.isprintable()
            and name.strip()]


def _listed(names: Iterable[str]) -> str:
    shown = list(dict.fromkeys(names))
    more = len(shown) - MAX_LISTED
    return ", ".join(shown[:MAX_LISTED]) + (f" (and {more:,} more)" if more > 0 else "") + "."
