"""Find the tool definitions in a parsed document and decide which shape they are in.

Documents come as a bare list of tools; as an object with a `tools` array (a catalog, an MCP
`tools/list` result, or a whole provider request body); as a JSON-RPC response wrapping one;
as Gemini `functionDeclarations`; as Bedrock `toolConfig`; as a `capabilities` list; as a
Docker MCP catalog's `registry` of servers; as the operations of an OpenAPI 3 document
(toolcat.catalog.openapi); or as a single tool object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcat.catalog.openapi import ServerUrlError, Shared, api_settings, is_openapi3, operations
from toolcat.catalog.swagger import as_openapi3, is_swagger2
from toolcat.errors import CatalogError
from toolcat.model import LoadIssue, Source, SourceRef
from toolcat.providers import PROVIDERS, get_provider
from toolcat.providers.contract import Provider
from toolcat.source.positions import PositionIndex, join
from toolcat.wording import plural

SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema", "function",
               "toolSpec")
GEMINI_KEYS = ("functionDeclarations", "function_declarations")
FUNCTION_TYPES = ("function", "custom", "TOOL", "SKILL", "CODE")


@dataclass
class Found:
    """The tool items of one document, with their JSON pointers."""

    items: list[tuple[Any, str]] = field(default_factory=list)
    hint: str | None = None
    servers: list[tuple[Any, str]] = field(default_factory=list)
    server_name: str | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # pointer of an item -> its server, where one file holds several (a Docker MCP catalog)
    item_servers: dict[str, str] = field(default_factory=dict)
    source: Source | None = None  # the tools' source when the container says (MCP servers)
    # OpenAPI: the component schemas the tools' `$defs` share (the same objects), by name
    shared: dict[str, Any] = field(default_factory=dict)


_KINDS = {str: "a string", int: "a number", float: "a number", bool: "true or false",
          type(None): "nothing"}


def find_tools(data: Any, file: str, index: PositionIndex) -> Found:
    if isinstance(data, list):
        if _server_entries(data):
            raise CatalogError(
                "a list of MCP server entries (command/url), not a tool catalog: import their "
                "tools with `toolcat import mcp --config FILE` (an `mcpServers` mapping)",
                where=SourceRef(file, 1, 1))
        return _from_list(data, "", Found())
    if not isinstance(data, dict):
        raise CatalogError(
            "expected a list of tools or an object with a 'tools' array, found "
            + _KINDS.get(type(data), type(data).__name__), where=SourceRef(file, 1, 1))
    return _from_object(data, "", file, index)


def _not_a_catalog(data: dict[str, Any], file: str) -> None:
    """Refuse, with what to do instead, documents that hold no tool definitions but look as
    if they might: an MCP client configuration, an OpenAPI description."""
    where = SourceRef(file, 1, 1)
    if (isinstance(data.get("openapi"), str) and not is_openapi3(data)) or isinstance(
            data.get("swagger"), str):
        version = data.get("openapi") or data.get("swagger")
        raise CatalogError(
            f"an OpenAPI {version} description without `paths`: toolcat reads the "
            "operations of OpenAPI 3 and 2.0 (Swagger) documents as tools", where=where)
    key = "mcpServers" if "mcpServers" in data else "servers"
    servers = data.get(key)
    if "tools" not in data and "paths" not in data and (isinstance(servers, dict) or (
            isinstance(servers, list) and _server_entries(servers))):
        raise CatalogError(
            f"an MCP client configuration (`{key}`: {plural(len(servers), 'server')}), not a "
            f"tool catalog: import its servers' tools with `toolcat import mcp --config {file}`"
            + ("" if isinstance(servers, dict) else
               f" once `{key}` maps each server's name to its entry, as editors write it"),
            where=where)


def _server_entries(items: list[Any]) -> bool:
    """A list whose every entry says how to start or reach a server, none a tool schema."""
    return bool(items) and all(
        isinstance(i, dict) and ("command" in i or "url" in i or "httpUrl" in i)
        and not any(k in i for k in SCHEMA_KEYS) for i in items)


def _from_object(data: dict[str, Any], pointer: str, file: str, index: PositionIndex) -> Found:
    if not pointer:
        if is_swagger2(data):
            data = as_openapi3(data)
        _not_a_catalog(data, file)
        if is_openapi3(data):
            info = data.get("info")
            title = info.get("title") if isinstance(info, dict) else None
            found = Found(hint="toolcat", server_name=title if isinstance(title, str) else None)
            try:
                settings = api_settings(data)
            except ServerUrlError as exc:
                raise CatalogError(str(exc), where=SourceRef(
                    file, *index.locate(exc.pointer), exc.pointer)) from None
            # the API's address and security schemes, for serve (toolcat.catalog.openapi)
            found.servers = [({"name": found.server_name or Path(file).stem,
                               "openapi": settings}, "")]
            components = data.get("components")
            schemas = components.get("schemas") if isinstance(components, dict) else None
            shared = Shared(schemas if isinstance(schemas, dict) else {})
            try:
                found.items = list(operations(data, shared))
            except CatalogError as exc:
                raise CatalogError(exc.message, where=SourceRef(
                    file, *index.locate("/paths"), "/paths")) from None
            found.shared = shared.rewritten
            return found
    found = Found(server_name=_declared_server(data))
    if isinstance(data.get("result"), dict) and "jsonrpc" in data:
        inner = _from_object(data["result"], join(pointer, "result"), file, index)
        inner.hint = inner.hint or "mcp"
        return inner
    registry = data.get("registry")
    if isinstance(registry, dict) and any(
            isinstance(s, dict) and "tools" in s for s in registry.values()):
        return _docker_catalog(registry, join(pointer, "registry"), file, index)
    tool_config = data.get("toolConfig")
    if isinstance(tool_config, dict) and isinstance(tool_config.get("tools"), list):
        found.hint = "bedrock"
        return _from_list(tool_config["tools"], join(pointer, "toolConfig", "tools"), found)
    for key in GEMINI_KEYS:
        if isinstance(data.get(key), list):
            found.hint = "gemini"
            found.items = _pointed(data[key], join(pointer, key))
            return found
    if isinstance(data.get("servers"), list):
        found.servers = _pointed(data["servers"], join(pointer, "servers"))
        found.hint = "toolcat"  # only toolcat's own format declares servers
    elif "servers" in data and "tools" in data:
        at = join(pointer, "servers")
        raise CatalogError("'servers' must be a list",
                           where=SourceRef(file, *index.locate(at), at))
    if isinstance(data.get("tools"), list):
        if _server_entries(data["tools"]):
            at = join(pointer, "tools")
            raise CatalogError(
                "'tools' lists MCP server entries (command/url), not tool definitions: import "
                "their tools with `toolcat import mcp --config FILE`",
                where=SourceRef(file, *index.locate(at), at))
        return _from_list(data["tools"], join(pointer, "tools"), found)
    if isinstance(data.get("capabilities"), list):
        found.hint = "capability"
        return _from_list(data["capabilities"], join(pointer, "capabilities"), found)
    if "tools" in data:
        at = join(pointer, "tools")
        raise CatalogError("'tools' must be a list", where=SourceRef(file, *index.locate(at), at))
    if isinstance(data.get("name"), str) and any(k in data for k in SCHEMA_KEYS):
        found.items = [(data, pointer)]
        return found
    if found.servers:
        return found
    raise CatalogError(
        "no tools found: expected a list of tools, an object with a 'tools' array, "
        "Gemini functionDeclarations, Bedrock toolConfig or a capabilities list",
        where=SourceRef(file, 1, 1))


def _docker_catalog(registry: dict[str, Any], pointer: str, file: str,
                    index: PositionIndex) -> Found:
    """A Docker MCP catalog (`docker mcp catalog show --format yaml`): `registry: {server:
    {tools: [{name, description, arguments, annotations}]}}`; every tool on its server."""
    found = Found(source="mcp")
    for name, server in registry.items():
        tools = server.get("tools") if isinstance(server, dict) else None
        if tools is None:
            continue
        at = join(pointer, name, "tools")
        if not isinstance(tools, list):
            raise CatalogError("'tools' must be a list",
                               where=SourceRef(file, *index.locate(at), at))
        for item, item_pointer in _pointed(tools, at):
            found.items.append((item, item_pointer))
            found.item_servers[item_pointer] = str(name)
    return found


def _from_list(items: list[Any], pointer: str, found: Found) -> Found:
    append = found.items.append
    for i, item in enumerate(items):
        item_pointer = f"{pointer}/{i}"  # an index needs no escaping
        if not isinstance(item, dict):
            append((item, item_pointer))
            continue
        key = next((k for k in GEMINI_KEYS if isinstance(item.get(k), list)), None) \
            if GEMINI_KEYS[0] in item or GEMINI_KEYS[1] in item else None
        if key is not None:
            found.hint = "gemini"
            found.items += _pointed(item[key], join(item_pointer, key))
        elif reason := _not_a_function(item):
            found.skipped.append((item_pointer, reason))
        else:
            append((item, item_pointer))
    if found.hint == "gemini":
        # entries beside functionDeclarations are Gemini's own tools (googleSearch, ...)
        declared = [(i, p) for i, p in found.items
                    if any(f"/{key}/" in p for key in GEMINI_KEYS)]
        for item, item_pointer in found.items:
            if (item, item_pointer) not in declared:
                kind = next(iter(item), "?") if isinstance(item, dict) else "?"
                found.skipped.append((item_pointer, f"a Gemini built-in tool '{kind}'"))
        found.items = declared
    return found


def _not_a_function(item: dict[str, Any]) -> str | None:
    """Why an entry of a tools array is not a function definition (server tools and the like)."""
    for key in ("cachePoint", "systemTool"):
        if key in item:
            return f"a Bedrock {key} entry"
    kind = item.get("type")
    if kind is None or any(k in item for k in SCHEMA_KEYS if k != "parameters"):
        return None
    if kind == "custom" and "parameters" not in item:
        return "an OpenAI custom (free-form) tool"
    if kind not in FUNCTION_TYPES and "parameters" not in item:
        return f"a built-in tool of type '{kind}'"
    return None


def _pointed(items: list[Any], pointer: str) -> list[tuple[Any, str]]:
    return [(item, join(pointer, i)) for i, item in enumerate(items)]


def _declared_server(data: dict[str, Any]) -> str | None:
    server = data.get("server")
    if isinstance(server, str):
        return server
    info = data.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    if name is None and ("manifest_version" in data or "dxt_version" in data):
        name = data.get("name")  # an MCP bundle's manifest names the server it packs
    return name if isinstance(name, str) and name else None


def choose_shape(found: Found, forced: str | None) -> Provider:
    """The forced shape, else the container's hint, else the shape that claims most items."""
    if forced:
        return get_provider(forced)
    if found.hint:
        return PROVIDERS[found.hint]
    # items alike to `claims` (the same keys, value types and `type`) are asked once: a
    # catalog is mostly one shape, so 43,000 items make a handful of questions
    alike: dict[tuple[Any, ...], list[Any]] = {}
    for item, _ in found.items:
        if isinstance(item, dict):
            kind = item.get("type")
            key = (tuple(item), tuple(map(type, item.values())),
                   kind if isinstance(kind, str) else None)
            group = alike.get(key)
            if group is None:
                alike[key] = [item, 1]
            else:
                group[1] += 1
    totals = dict.fromkeys(PROVIDERS, 0)
    for item, count in alike.values():
        for name, provider in PROVIDERS.items():
            totals[name] += provider.claims(item) * count
    best = max(totals, key=lambda name: totals[name])
    return PROVIDERS[best if totals[best] else "toolcat"]


def skipped_issues(found: Found, file: str, index: PositionIndex) -> list[LoadIssue]:
    return [
        LoadIssue("skipped-entry", f"skipped {reason}: not a function definition",
                  SourceRef(file, *index.locate(pointer), pointer), "warning")
        for pointer, reason in found.skipped
    ]
