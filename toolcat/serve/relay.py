"""The prompts and resources of the upstream servers, relayed to serve's client.

serve fronts many servers with one, so their prompts, resources and resource templates are
listed as one: `prompts/list` and `resources/list` ask every server the client can reach (the
servers of the tools the profile lets it find or see, which have launch settings), starting
those not running yet, at once, each within the call timeout. A server that says it has none
(its capabilities) is not asked; one that fails to start or to answer is left out of the
list, and the log's `relay` event names it and says why.

Names follow the tools' rule: a prompt goes by its own name when no other server has one of
that name and it is within MCP's `^[A-Za-z0-9_.-]{1,128}$`, else by `server__name`
(toolcat.providers.names.qualified_wire); `prompts/get` takes either that name or
`server:name`. Resources keep their URIs (the client reads by URI): a URI two servers list
is listed once and read from the first of them in the catalog's order; a URI no server
listed goes to the first server with a resource template it matches. A resource's or
template's display name (free text, not an identifier) is prefixed `server__name` when
another server's has it too, so that a client showing names shows no two alike.

Bounded: at most MAX_PAGES pages and MAX_ITEMS items are read from one server per list.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import mcp_types as types

from toolcat.mcp.servers import ServerSpec
from toolcat.model import Tool
from toolcat.providers.names import SEPARATOR, qualified_wire
from toolcat.serve.gate import MCP_NAMES
from toolcat.serve.launch import LaunchError
from toolcat.serve.log import SessionLog, ms_since
from toolcat.serve.upstream import UpstreamError, Upstreams

MAX_PAGES = 100  # pages of one list read from one server
MAX_ITEMS = 10_000  # prompts, resources or templates relayed from one server
T = TypeVar("T")
_WITHIN_RULE = re.compile(MCP_NAMES.pattern).fullmatch


UNKNOWN = -32602  # JSON-RPC invalid params: no such prompt
NO_RESOURCE = -32002  # MCP's "resource not found"
FAILED = -32603  # JSON-RPC internal error: the upstream failed


class RelayError(Exception):
    """A prompt or resource request that cannot be answered: the message is for the
    client, `code` the JSON-RPC error code to answer with."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class _Found:
    server: str
    name: str  # as the server gave it


class Relay:
    """`await relay.prompts()`, `relay.get_prompt(name, arguments)`, `relay.resources()`,
    `relay.templates()`, `relay.read(uri)`."""

    def __init__(self, servers: Callable[[], Sequence[str]],
                 spec: Callable[[str], ServerSpec], upstreams: Upstreams,
                 log: SessionLog) -> None:
        self._servers = servers  # the servers the client can reach, in catalog order
        self._spec = spec  # raises LaunchError for a server with no launch settings
        self._upstreams = upstreams
        self._log = log
        self._prompts: dict[str, _Found] = {}
        self._uris: dict[str, str] = {}  # uri -> server
        self._templates: list[tuple[Any, str]] = []  # (RE2 pattern, server)

    # ---- prompts ---------------------------------------------------------------------------

    async def prompts(self) -> list[types.Prompt]:
        listed = await self._gather("prompts/list", "prompts", lambda spec: self._pages(
            spec, "prompts/list", lambda cursor: types.ListPromptsRequest(
                params=types.PaginatedRequestParams(cursor=cursor)),
            types.ListPromptsResult, lambda page: page.prompts))
        names = _served_names([(server, p.name) for server, found in listed for p in found])
        self._prompts = {}
        out = []
        for server, found in listed:
            for prompt in found:
                shown = names[server, prompt.name]
                self._prompts[shown] = _Found(server, prompt.name)
                out.append(prompt.model_copy(update={"name": shown}))
        return out

    async def get_prompt(self, name: str, arguments: dict[str, str] | None
                         ) -> types.GetPromptResult:
        found = self._prompt(name)
        if found is None:
            await self.prompts()  # listed since, or never listed by this client
            found = self._prompt(name)
        if found is None:
            raise RelayError(f"unknown prompt '{_short(name)}': prompts/list names the prompts "
                             "of the servers toolcat serve fronts", UNKNOWN)
        request = types.GetPromptRequest(params=types.GetPromptRequestParams(
            name=found.name, arguments=arguments))
        return await self._one("prompts/get", found.server, request, types.GetPromptResult,
                               name=name)

    async def get_prompt_of(self, server: str, name: str, arguments: dict[str, str] | None
                            ) -> types.GetPromptResult:
        """The prompt `name` of `server`, asked of that server alone (the get_prompt tool,
        which names both)."""
        self._reachable(server)
        request = types.GetPromptRequest(params=types.GetPromptRequestParams(
            name=name, arguments=arguments))
        return await self._one("prompts/get", server, request, types.GetPromptResult,
                               name=f"{server}:{name}")

    def _reachable(self, server: str) -> None:
        if server not in self._servers():
            raise RelayError(f"'{_short(server)}' is no MCP server this session can reach",
                             UNKNOWN)

    def _prompt(self, name: str) -> _Found | None:
        if name in self._prompts:
            return self._prompts[name]
        server, colon, own = name.partition(":")  # the qualified spelling, server:name
        if colon:
            return next((f for f in self._prompts.values()
                         if f.server == server and f.name == own), None)
        return None

    # ---- resources -------------------------------------------------------------------------

    async def resources(self) -> list[types.Resource]:
        listed = await self._gather("resources/list", "resources", lambda spec: self._pages(
            spec, "resources/list", lambda cursor: types.ListResourcesRequest(
                params=types.PaginatedRequestParams(cursor=cursor)),
            types.ListResourcesResult, lambda page: page.resources))
        names = _served_names([(server, r.name) for server, found in listed for r in found],
                              rule=False)
        self._uris = {}
        out = []
        for server, found in listed:
            for resource in found:
                if resource.uri in self._uris:
                    continue  # read from the first server that lists it
                self._uris[resource.uri] = server
                out.append(resource.model_copy(update={"name": names[server, resource.name]}))
        return out

    async def templates(self) -> list[types.ResourceTemplate]:
        listed = await self._gather(
            "resources/templates/list", "resources", lambda spec: self._pages(
                spec, "resources/templates/list",
                lambda cursor: types.ListResourceTemplatesRequest(
                    params=types.PaginatedRequestParams(cursor=cursor)),
                types.ListResourceTemplatesResult, lambda page: page.resource_templates))
        names = _served_names([(server, t.name) for server, found in listed for t in found],
                              rule=False)
        self._templates = []
        out = []
        for server, found in listed:
            for template in found:
                self._templates.append((template_pattern(template.uri_template), server))
                out.append(template.model_copy(update={"name": names[server, template.name]}))
        return out

    async def read(self, uri: str, server: str | None = None) -> types.ReadResourceResult:
        """The resource at `uri`, read from `server` when given (it recorded the URI, or a
        template it matches), else from the server that lists it."""
        if server is not None:
            self._reachable(server)
        else:
            server = self._route(uri)
        if server is None:
            await self.resources()
            await self.templates()
            server = self._route(uri)
        if server is None:
            raise RelayError(f"unknown resource '{_short(uri)}': no server toolcat serve "
                             "fronts lists it or a resource template it matches", NO_RESOURCE)
        request = types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=uri))
        return await self._one("resources/read", server, request, types.ReadResourceResult,
                               name=uri)

    def _route(self, uri: str) -> str | None:
        if uri in self._uris:
            return self._uris[uri]
        return next((server for pattern, server in self._templates
                     if pattern.fullmatch(uri)), None)

    # ---- the servers -----------------------------------------------------------------------

    async def _gather(self, method: str, capability: str,
                      list_one: Callable[[ServerSpec], Awaitable[list[T]]]
                      ) -> list[tuple[str, list[T]]]:
        """Each reachable server's list, asked at once, in the servers' order; failures are
        logged and left out."""
        began = time.perf_counter()
        servers = list(self._servers())
        results: list[list[T] | None] = [None] * len(servers)
        failed: list[dict[str, str]] = []

        async def one(index: int, server: str) -> None:
            try:
                spec = self._spec(server)
            except LaunchError:
                return  # a catalog entry with no server behind it: nothing to ask
            try:
                if await self._upstreams.offers(spec, capability):
                    results[index] = await list_one(spec)
            except UpstreamError as exc:
                failed.append({"server": server, "error": str(exc)})

        async with anyio.create_task_group() as group:
            for index, server in enumerate(servers):
                group.start_soon(one, index, server)
        listed = [(server, found) for server, found in zip(servers, results, strict=True)
                  if found]
        self._log.write("relay", method=method, found=sum(len(f) for _, f in listed),
                        servers=[s for s, _ in listed], ms=ms_since(began),
                        **({"failed": failed} if failed else {}))
        return listed

    async def _pages(self, spec: ServerSpec, method: str,
                     request: Callable[[str | None], Any], result: type[Any],
                     items: Callable[[Any], Iterable[T]]) -> list[T]:
        found: list[T] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            page = (await self._upstreams.send(spec, request(cursor), result,
                                               what=f"{method}")).result
            found.extend(items(page))
            cursor = page.next_cursor
            if not cursor or len(found) >= MAX_ITEMS:
                break
        return found[:MAX_ITEMS]

    async def _one(self, method: str, server: str, request: Any, result: type[T], *,
                   name: str) -> T:
        began = time.perf_counter()
        try:
            answer = (await self._upstreams.send(self._spec(server), request, result,
                                                 what=f"{method} {_short(name)}")).result
        except (UpstreamError, LaunchError) as exc:
            self._log.write("relay", method=method, name=_short(name), server=server,
                            ok=False, ms=ms_since(began), error=str(exc))
            raise RelayError(str(exc), FAILED) from None
        self._log.write("relay", method=method, name=_short(name), server=server, ok=True,
                        ms=ms_since(began))
        return answer


def _served_names(found: Sequence[tuple[str, str]], *, rule: bool = True
                  ) -> dict[tuple[str, str], str]:
    """(server, name) -> the name it is served by: its own when unique (and, with `rule`,
    within MCP's rule), else `server__name` (with `rule`: made as a tool's)."""
    count: dict[str, int] = {}
    for _, name in found:
        count[name] = count.get(name, 0) + 1
    plain = {name for name, n in count.items() if n == 1 and (not rule or _WITHIN_RULE(name))}
    served = {}
    for server, name in found:
        served[server, name] = name if name in plain else qualified_wire(
            Tool(name=name, server=server), MCP_NAMES, plain.__contains__) if rule \
            else f"{server}{SEPARATOR}{name}"
    return served


def template_pattern(template: str) -> Any:
    """A pattern of the URIs an RFC 6570 template makes (an expression matches any text
    but a path or query separator; `{+x}` and `{#x}` any text at all), in RE2: a server's
    template cannot make matching slower than linear."""
    import re2

    parts = re.split(r"(\{[^{}]{0,200}\})", template[:2000])
    pattern = "".join(
        (".*" if part[1:2] in "+#" else "[^/?#&]*") if part.startswith("{") else re.escape(part)
        for part in parts)
    options = re2.Options()
    options.dot_nl = True
    return re2.compile(pattern, options)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
