"""The MCP server itself, on the official SDK's low-level Server: tools/list shows what the
gate says is visible, tools/call answers the discovery tools and relays catalog tools to
their upstream servers.

Clients of both protocol eras are served: on a handshake-era connection (2025 and before) a
successful add_tool sends `notifications/tools/list_changed` on the connection; on a
2026-07-28 connection the change is published to `subscriptions/listen` streams, the only way
that era delivers it.

The session (what was added, the upstream servers started) belongs to the serve process: over
stdio that is one client; over HTTP every client of the process shares it.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolcat import __version__
from toolcat.calls.check import CallChecker
from toolcat.mcp.servers import ServerSpec
from toolcat.model import Tool, ToolCall
from toolcat.providers import PROVIDERS
from toolcat.serve.gate import MAX_NAMES, MAX_QUERY, Gate
from toolcat.serve.launch import LaunchError, Secrets, launch_spec
from toolcat.serve.log import SessionLog
from toolcat.serve.upstream import UpstreamError, Upstreams

Notify = Callable[[], Awaitable[None]]  # tells the client that the tool list changed
NAME = "toolcat"
INSTRUCTIONS = (
    "This server fronts a large catalog of tools that are not loaded by default. Call "
    "search_tools with a regex or a few words describing the task, then add_tool with the "
    "names you need; they become callable (the tool list changes). show_all_tools lists "
    "every name.")


@dataclass
class Serving:
    """Everything a running server needs: the gate, the upstream pool, the log."""

    gate: Gate
    upstreams: Upstreams
    log: SessionLog
    overrides: Mapping[str, ServerSpec] = field(default_factory=dict)
    secrets: Secrets = field(default_factory=Secrets)
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)

    def __post_init__(self) -> None:
        self._builtin_checker = CallChecker(self.gate.resolver.builtins)

    # ---- tools/list ------------------------------------------------------------------------

    def listed(self) -> list[types.Tool]:
        return [_definition(name, tool) for name, tool in self.gate.visible()]

    # ---- tools/call ------------------------------------------------------------------------

    async def call(self, name: str, arguments: Mapping[str, Any] | None,
                   notify: Notify) -> types.CallToolResult:
        """Answer one tools/call; `notify` is awaited when the tool list changed."""
        arguments = dict(arguments or {})
        builtin = self.gate.builtin(name)
        if builtin is not None:
            return await self._builtin(builtin, arguments, notify)
        tool = self.gate.callable(name)
        if tool is None:
            reason = self.gate.unavailable(name)
            self.log.write("refused", tool=name, reason=reason)
            return _error(f"tool '{name}' cannot be called: {reason}")
        problems = self.gate.check(tool, arguments)
        if problems:
            self.log.write("refused", tool=name, arguments=sorted(arguments),
                           reason="invalid arguments", errors=problems)
            return _error(f"invalid arguments for {name}; the call was not sent:\n"
                          + "\n".join(f"- {p}" for p in problems))
        return await self._relay(name, tool, arguments)

    async def _builtin(self, tool: Tool, arguments: dict[str, Any], notify: Notify
                       ) -> types.CallToolResult:
        checked = self._builtin_checker.check(ToolCall(tool.name, arguments))
        if checked.errors:
            problems = [e.message for e in checked.errors]
            self.log.write("refused", tool=tool.name, reason="invalid arguments",
                           errors=problems)
            return _error(f"invalid arguments for {tool.name}: " + "; ".join(problems))
        began = time.perf_counter()
        if tool.name == "search_tools":
            query = str(arguments["query"])
            answer = await anyio.to_thread.run_sync(self.gate.search, query)
            self.log.write("search", query=query[:MAX_QUERY], method=answer.method,
                           found=list(answer.found), ms=_ms(began),
                           **({"error": answer.error} if answer.error else {}),
                           **({"tuning": answer.response["tuning"]}
                              if "tuning" in answer.response else {}))
            if answer.method == "refused":
                return _error(f"search_tools: {answer.error}")
            return _answer(answer.response)
        if tool.name == "add_tool":
            names = [str(n) for n in arguments["tool_names"]]
            added = self.gate.add(names)
            response = added.response
            self.log.write("add", requested=names[:MAX_NAMES], added=list(added.added),
                           not_found=response["not_found"], refused=response["refused"],
                           ms=_ms(began), **({"error": response["error"]}
                                             if "error" in response else {}))
            if "error" in response:
                return _error(f"add_tool: {response['error']}")
            if added.added:
                await notify()
            return _answer(response)
        answer_all = self.gate.show_all()
        self.log.write("show_all", total=answer_all["total"], ms=_ms(began))
        return _answer(answer_all)

    async def _relay(self, name: str, tool: Tool, arguments: dict[str, Any]
                     ) -> types.CallToolResult:
        began = time.perf_counter()
        entry: dict[str, Any] = {"tool": name, "server": tool.server,
                                 "arguments": sorted(arguments)}
        try:
            spec = launch_spec(self.gate.catalog, tool.server, overrides=self.overrides,
                               secrets=self.secrets)
        except LaunchError as exc:
            message = self.secrets.scrub(str(exc))
            self.log.write("call", **entry, ok=False, ms=_ms(began), error=message)
            return _error(f"cannot call {name}: {message}")
        try:
            relayed = await self.upstreams.call(spec, tool.name, arguments)
        except UpstreamError as exc:
            self.log.write("call", **entry, ok=False, ms=_ms(began), error=str(exc))
            return _error(str(exc))
        result = relayed.result
        self.log.write("call", **entry, ok=not result.is_error, is_error=bool(result.is_error),
                       ms=_ms(began), call_ms=round(relayed.call_ms, 1),
                       **({"start_ms": round(relayed.start_ms, 1)}
                          if relayed.start_ms is not None else {}))
        return result


def build_server(serving: Serving) -> Server[Any]:
    """The SDK server with toolcat's handlers."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None
                         ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=serving.listed())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        async def notify() -> None:
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                await serving.bus.publish(ToolsListChanged())
            else:
                await ctx.session.send_notification(types.ToolListChangedNotification(),
                                                    related_request_id=ctx.request_id)

        return await serving.call(params.name, params.arguments, notify)

    return Server(NAME, version=__version__, title="toolcat catalog",
                  instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool,
                  on_subscriptions_listen=ListenHandler(serving.bus))


def init_options(server: Server[Any]) -> Any:
    return server.create_initialization_options(NotificationOptions(tools_changed=True))


async def serve_stdio(serving: Serving) -> None:
    """Serve over stdin/stdout until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    server = build_server(serving)
    async with _until_signalled() as scope:
        with scope:
            async with serving.upstreams, stdio_server() as (read, write):
                await server.run(read, write, init_options(server))


async def serve_http(serving: Serving, host: str, port: int,
                     ready: Any = None) -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until interrupted; `ready(port)` is
    called once the socket listens (port 0 picks a free one)."""
    import socket

    import uvicorn

    server = build_server(serving)
    app = server.streamable_http_app(host=host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))

    async def announce() -> None:
        while not web.started:
            await anyio.sleep(0.02)
        if ready is not None:
            ready(sock.getsockname()[1])

    async with serving.upstreams, anyio.create_task_group() as group:
        group.start_soon(announce)
        await web.serve(sockets=[sock])


@asynccontextmanager
async def _until_signalled() -> AsyncIterator[anyio.CancelScope]:
    """A scope that SIGTERM or SIGINT cancels. The signals are caught until the block is
    left, so that the upstream servers are stopped and reaped (bounded by the SDK's
    shutdown) even when a client that closed stdin follows up with SIGTERM."""
    scope = anyio.CancelScope()

    async def watch() -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for _ in signals:
                scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        yield scope
        group.cancel_scope.cancel()


def _definition(name: str, tool: Tool) -> types.Tool:
    written, _ = PROVIDERS["mcp"].write_tool(tool)
    return types.Tool.model_validate({**written, "name": name})


def _answer(response: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(response, ensure_ascii=False))],
        structured_content=response)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)


def _ms(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 1)
