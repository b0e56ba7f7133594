"""Turn what live servers listed into a catalog, read exactly as an MCP `tools/list` dump is
read (providers/mcp.py: inputSchema kept verbatim, annotations kept, destructiveHint makes a
tool unsafe), with one declared server per listing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolcat.errors import ServerError
from toolcat.mcp.client import DEFAULT_TIMEOUT, Listing, list_servers
from toolcat.mcp.servers import ServerSpec
from toolcat.model import Catalog, Server, Tool
from toolcat.providers.mcp import PROVIDER as MCP
from toolcat.providers.reading import ReadContext
from toolcat.source.limits import value_problem
from toolcat.source.positions import MappedIndex
from toolcat.source.refs import is_remote, iter_refs

CONTROL_PREFIX = "x-toolcat"


def import_servers(specs: Sequence[ServerSpec], *, timeout: float = DEFAULT_TIMEOUT) -> Catalog:
    """The tools of live servers as one catalog: what `toolcat import mcp` writes.

        from toolcat.mcp.servers import stdio_spec
        catalog = import_servers([stdio_spec(["npx", "-y", "@modelcontextprotocol/server-memory"])])

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ServerError: a server could not be started or reached, failed, or timed out.
    """
    return listings_catalog(list_servers(specs, timeout=timeout))


def listings_catalog(listings: Sequence[Listing]) -> Catalog:
    """One catalog holding every listed tool, each on the server that listed it.

    Raises:
        ServerError: a server sent a tool refused (a value past the limits, a file $ref) or
            listed two tools with the same name.
    """
    return _catalog([(listing, _listed_tools(listing)) for listing in listings])


def readable_catalog(listings: Sequence[Listing]
                     ) -> tuple[Catalog, list[Listing], list[tuple[Listing, ServerError]]]:
    """The catalog of the listings `listings_catalog` reads, those listings, and each other
    one with why it is not read: one server's fault (a tool listed twice) costs only that
    server, as a failure to start does. Each listing's tools are read once."""
    read: list[tuple[Listing, list[Tool]]] = []
    refused: list[tuple[Listing, ServerError]] = []
    for listing in listings:
        try:
            read.append((listing, _listed_tools(listing)))
        except ServerError as error:
            refused.append((listing, error))
    return _catalog(read), [listing for listing, _ in read], refused


def _catalog(read: Sequence[tuple[Listing, list[Tool]]]) -> Catalog:
    return Catalog(tools=tuple(tool for _, tools in read for tool in tools),
                   servers=tuple(listing_server(listing) for listing, _ in read),
                   sources=tuple(f"mcp:{listing.name}" for listing, _ in read))


def _listed_tools(listing: Listing) -> list[Tool]:
    tools: list[Tool] = []
    seen: set[str] = set()
    for index, sent in enumerate(listing.tools):
        # `x-toolcat-*` keys steer toolcat itself (x-toolcat-ignore silences lint rules);
        # a server must not be able to set them, least of all to hide its own changes.
        item = {k: v for k, v in sent.items() if not k.startswith(CONTROL_PREFIX)}
        problem = value_problem(item)
        if problem is not None:
            raise ServerError(f"MCP server '{listing.spec.label}' sent a tool refused at "
                              f"/tools/{index}{problem[1]}: {problem[0]}")
        ctx = ReadContext(f"mcp:{listing.name}", f"/tools/{index}", MappedIndex({}),
                          default_server=listing.name, default_source="mcp")
        tool = MCP.read_tool(item, ctx)
        if tool.name in seen:
            raise ServerError(f"MCP server '{listing.spec.label}' listed the tool "
                              f"'{tool.name}' twice")
        seen.add(tool.name)
        _no_file_refs(tool, listing.spec.label)
        tools.append(tool)
    return tools


def _no_file_refs(tool: Tool, server: str) -> None:
    """A live server's schema may use local (`#...`) references only: a file reference would
    be resolved on this machine, where the server has no business pointing."""
    for ref, pointer in iter_refs(tool.parameters):
        if not ref.startswith("#") and not is_remote(ref):
            raise ServerError(f"MCP server '{server}' sent tool '{tool.name}' with a file $ref "
                              f"'{ref}' at inputSchema{pointer}; a live server's schema may "
                              "only refer inside itself (#...)")


def listing_server(listing: Listing) -> Server:
    """The catalog's record of a server: its description, and under `mcp:` how it was reached
    (secrets redacted), what it said about itself, its instructions for the model, and the
    names of the prompts, resources and resource templates it offers (`prompts`,
    `resources`, `resource_templates`)."""
    info = dict(listing.info)
    description = str(info.get("description") or info.get("title") or "")
    mcp: dict[str, Any] = listing.spec.launch()
    if info:
        mcp["server_info"] = info
    if listing.instructions:
        mcp["instructions"] = listing.instructions
    for key, names in (("prompts", listing.prompts), ("resources", listing.resources),
                       ("resource_templates", listing.templates)):
        if names:
            mcp[key] = list(names)
    return Server(name=listing.name, description=description, extra={"mcp": mcp})
