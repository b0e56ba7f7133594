"""The MCP server itself, on the official SDK's low-level Server: tools/list shows what the
gate says is visible, tools/call answers the discovery tools and relays catalog tools to
their upstream servers.

Clients of both protocol eras are served: on a handshake-era connection (2025 and before) a
successful add_tool sends `notifications/tools/list_changed` on the connection; on a
2026-07-28 connection the change is published to `subscriptions/listen` streams, the only way
that era delivers it.

Each client has its own session: over stdio the process serves one client; over HTTP every
client gets its own gate (`Gate.fork`: what it added is its own), kept in the SDK's
per-connection state and dropped when the connection ends, or, for a 2026-07-28 client,
which has no connection that lasts, kept by who it is (toolcat.serve.clients). The upstream
servers are shared: one process per server, started on first use (toolcat.serve.upstream).

The capabilities say what the server does: `tools.listChanged` is true on every transport,
since add_tool sends the notification (over HTTP the SDK's defaults would say false).

Results are relayed as the upstream sent them, up to `MAX_RESULT` characters; a larger one
is cut, with a note saying so (`capped`).

A call whose tool needs the user's approval is asked about before it is relayed
(toolcat.serve.approval; the tools/call handler makes its request known to it).
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import mcp_types as types
from mcp import MCPError
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolcat import __version__
from toolcat.calls.check import CallChecker
from toolcat.mcp.servers import ServerSpec
from toolcat.model import Catalog, Tool, ToolCall
from toolcat.providers import PROVIDERS
from toolcat.serve.answers import markdown_answer
from toolcat.serve.approval import REQUEST, Asking, approve, audited
from toolcat.serve.clients import StatelessClients
from toolcat.serve.contract import OutputContracts
from toolcat.serve.discovery import instructions, say
from toolcat.serve.gate import MAX_NAMES, MAX_QUERY, Gate
from toolcat.serve.http import IDLE_SESSION, MAX_SESSIONS
from toolcat.serve.launch import LaunchError, Secrets, launch_spec
from toolcat.serve.log import SessionLog, ms_since
from toolcat.serve.openapi_calls import HttpApis
from toolcat.serve.proxy import call_through
from toolcat.serve.relay import Relay, RelayError
from toolcat.serve.stages import QUIET, Stages
from toolcat.serve.upstream import Progress, UpstreamError, Upstreams
from toolcat.serve.virtual import call_virtual, is_virtual
from toolcat.source.limits import value_problem

Notify = Callable[[], Awaitable[None]]  # tells the client that the tool list changed
R = TypeVar("R")
NAME = "toolcat"
MAX_RESULT = 1_000_000  # characters of one upstream result relayed to the client
GATE_KEY = "toolcat.gate"  # the client's own gate, in the SDK's per-connection state
# MCP tool fields kept from the upstream's definition (`toolcat import mcp` stores them)
MCP_FIELDS = ("title", "outputSchema", "execution", "icons")


@dataclass
class Serving:
    """Everything a running server needs: the gate, the upstream pool, the log."""

    gate: Gate
    upstreams: Upstreams
    log: SessionLog
    overrides: Mapping[str, ServerSpec] = field(default_factory=dict)
    secrets: Secrets = field(default_factory=Secrets)
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)

    per_client: bool = False  # over HTTP: a gate per connection; over stdio: self.gate
    discovery: Mapping[str, str] = field(default_factory=dict)  # built-in -> name shown
    answers: str = "json"  # search answers: json, or compact markdown (toolcat.serve.answers)
    apis: HttpApis = field(default_factory=HttpApis)  # OpenAPI operations' HTTP APIs
    stateless: StatelessClients | None = None  # over HTTP: the gates of 2026-07-28 clients

    def __post_init__(self) -> None:
        self._builtin_checker = BuiltinArguments(self.gate.resolver.builtins)
        self._contracts = OutputContracts()  # the output schemas serve lists, kept
        self._internal = {shown: name for name, shown in self.discovery.items()}
        self._reachable: list[str] | None = None
        self.relay = Relay(self.reachable, self.launch, self.upstreams, self.log)

    def reachable(self) -> list[str]:
        """The servers of the tools a client can find or see, in the catalog's order (worked
        out once: the profile decides them)."""
        if self._reachable is None:
            tools = [*self.gate.pool, *(t for _, t in self.gate.visible())]
            self._reachable = [s for s in dict.fromkeys(t.server for t in tools
                                                        if not is_virtual(t))
                               if s and s != "builtin"]
        return self._reachable

    def launch(self, server: str) -> ServerSpec:
        """How to start or reach `server` (LaunchError: the catalog records no way)."""
        return launch_spec(self.gate.catalog, server, overrides=self.overrides,
                           secrets=self.secrets)

    def say(self, text: str) -> str:
        """`text` with the discovery tools called by the names the client knows them by."""
        return say(text, self.discovery)

    def instructions(self) -> str:
        return instructions(self.gate.mode, self.discovery)

    def client(self, connection: Any, owner: bytes | None = None) -> Gate:
        """The gate of the client on `connection` (made on its first request); for a
        2026-07-28 request over HTTP, the gate of its `owner` and client name."""
        if not self.per_client:
            return self.gate
        if owner is not None and self.stateless is not None:
            info = getattr(getattr(connection, "client_params", None), "client_info", None)
            return self.stateless.gate(owner, str(getattr(info, "name", "") or ""))
        state = connection.state
        if GATE_KEY not in state:
            state[GATE_KEY] = self.gate.fork()
        gate: Gate = state[GATE_KEY]
        return gate

    # ---- tools/list ------------------------------------------------------------------------

    def listed(self, gate: Gate | None = None) -> list[types.Tool]:
        return listed(gate or self.gate, self.discovery)

    # ---- tools/call ------------------------------------------------------------------------

    async def call(self, name: str, arguments: Mapping[str, Any] | None,
                   notify: Notify, gate: Gate | None = None
                   ) -> types.CallToolResult | types.InputRequiredResult:
        """Answer one tools/call for the client of `gate`; `notify` is awaited when its
        tool list changed."""
        gate = gate or self.gate
        arguments = dict(arguments or {})
        internal = self._internal.get(name, None if name in self.discovery else name)
        builtin = gate.builtin(internal) if internal is not None else None
        if builtin is not None:
            return await self._builtin(gate, builtin, arguments, notify)
        tool = gate.callable(name)
        if tool is None:
            # the name the client typed stays as typed; toolcat's own words are renamed
            reason = self.say(gate.unavailable(name).replace(name, "\0")).replace("\0", name)
            self.log.write("refused", tool=name, reason=reason)
            return _error(f"tool '{name}' cannot be called: {reason}")
        name = gate.name(tool)  # the served name, also when called by the older spelling
        problems = gate.check(tool, arguments)
        if problems:
            self.log.write("refused", tool=name, arguments=sorted(arguments),
                           reason="invalid arguments", errors=problems)
            return _error(f"invalid arguments for {name}; the call was not sent:\n"
                          + "\n".join(f"- {p}" for p in problems))
        return await self._relay(name, tool, arguments)

    async def _builtin(self, gate: Gate, tool: Tool, arguments: dict[str, Any],
                       notify: Notify) -> types.CallToolResult | types.InputRequiredResult:
        if tool.name == "call_tool":  # call mode's proxy (toolcat.serve.proxy)
            return await call_through(self, gate, arguments, notify)
        problems = self._builtin_checker.problems(tool, arguments)
        if problems:
            self.log.write("refused", tool=tool.name, reason="invalid arguments",
                           errors=problems)
            return _error(f"invalid arguments for {tool.name}: " + "; ".join(problems))
        began = time.perf_counter()
        if tool.name == "search_tools":
            query = str(arguments["query"])
            answer = await anyio.to_thread.run_sync(gate.search, query)
            self.log.write("search", query=query[:MAX_QUERY], method=answer.method,
                           found=list(answer.found), ms=ms_since(began),
                           **({"error": answer.error} if answer.error else {}),
                           **({"tuning": answer.response["tuning"]}
                              if "tuning" in answer.response else {}))
            if answer.method in ("refused", "invalid-pattern"):
                return _error(self.say(f"search_tools: {answer.error}"))
            if self.answers == "compact":
                return _text(markdown_answer(self._said(answer.response)))
            return _answer(self._said(answer.response))
        if tool.name == "add_tool":
            names = [str(n) for n in arguments["tool_names"]]
            added = gate.add(names)
            response = added.response
            self.log.write("add", requested=names[:MAX_NAMES], added=list(added.added),
                           not_found=response["not_found"], refused=response["refused"],
                           ms=ms_since(began), **({"error": response["error"]}
                                             if "error" in response else {}))
            if "error" in response:
                return _error(self.say(f"add_tool: {response['error']}"))
            if added.added:
                await notify()
            return _answer(self._said(response))
        answer_all = gate.show_all()
        self.log.write("show_all", total=answer_all["total"], ms=ms_since(began))
        if self.discovery:
            answer_all = {**answer_all, "tools": sorted(
                self.discovery.get(n, n) if gate.builtin(n) else n
                for n in answer_all["tools"])}
        return _answer(answer_all)

    def _said(self, response: dict[str, Any]) -> dict[str, Any]:
        """A discovery answer with its message in the client's names."""
        if not self.discovery or "message" not in response:
            return response
        return {**response, "message": self.say(str(response["message"]))}

    async def _relay(self, name: str, tool: Tool, arguments: dict[str, Any]
                     ) -> types.CallToolResult | types.InputRequiredResult:
        verdict = await approve(name, tool, arguments, policy=self.gate.approval, log=self.log)
        if verdict.answer is not None:  # refused, or the question on a 2026-07-28 connection
            answer: types.CallToolResult | types.InputRequiredResult = verdict.answer
            return answer
        began = time.perf_counter()
        entry: dict[str, Any] = {"tool": name, "server": tool.server,
                                 "arguments": sorted(arguments), **audited(tool, verdict)}
        try:
            if is_virtual(tool):  # get_prompt, get_resource: relayed prompts and resources
                relayed = await call_virtual(self.relay, self.gate.catalog, tool, arguments)
            elif self.apis.handles(tool):  # an OpenAPI operation: an HTTP request
                relayed = await self.apis.call(self.gate.catalog, tool, arguments)
            else:
                relayed = await self.upstreams.call(self.launch(tool.server), tool.name,
                                                    arguments, progress=_progress(REQUEST.get()))
        except LaunchError as exc:
            message = self.secrets.scrub(str(exc))
            self.log.write("call", **entry, ok=False, ms=ms_since(began), error=message)
            return _error(f"cannot call {name}: {message}")
        except UpstreamError as exc:
            self.log.write("call", **entry, ok=False, ms=ms_since(began), error=str(exc))
            return _error(str(exc))
        upstream = relayed.result
        broken = self._contracts.broken(tool, upstream.structured_content,
                                        bool(upstream.is_error))
        if broken is not None:
            entry["error"] = f"{tool.server} {broken}"
            said = (f"The upstream server '{tool.server}' broke the contract of {name}: it "
                    f"{broken}, though the tool's outputSchema requires it. toolcat serve "
                    "lists that schema, so it answers an error; what the server sent follows.")
            upstream = types.CallToolResult(content=[
                types.TextContent(type="text", text=said), *upstream.content], is_error=True)
        result, size = capped(upstream)
        self.log.write("call", **entry, ok=not result.is_error, is_error=bool(result.is_error),
                       ms=ms_since(began), call_ms=round(relayed.call_ms, 1),
                       **({"start_ms": round(relayed.start_ms, 1)}
                          if relayed.start_ms is not None else {}),
                       **({"truncated": size} if size is not None else {}))
        return result


def listed(gate: Gate, discovery: Mapping[str, str]) -> list[types.Tool]:
    """What tools/list answers the client of `gate` (the discovery tools by the names
    `discovery` gives them)."""
    return [_definition(discovery.get(name, name) if gate.builtin(name) is tool else name,
                        tool) for name, tool in gate.visible()]


class BuiltinArguments:
    """Checks the arguments of a discovery tool as check-call's checker does, with the same
    messages. Arguments within the value limits that jsonschema-rs finds valid have nothing
    to report; only the others go through check-call's checker, which words the errors: its
    jsonschema, with the format checkers, takes 1.5 s to import, which the first search of a
    session would otherwise wait for."""

    def __init__(self, builtins: Catalog) -> None:
        self._checker = CallChecker(builtins)
        self._fast: dict[str, Any] = {}

    def problems(self, tool: Tool, arguments: dict[str, Any]) -> list[str]:
        fast = self._fast.get(tool.name, False)
        if fast is False:
            fast = self._fast[tool.name] = _fast_validator(tool.parameters)
        if fast is not None and value_problem(arguments) is None and fast.is_valid(arguments):
            return []
        checked = self._checker.check(ToolCall(tool.name, arguments))
        return [e.message for e in checked.errors]


def _fast_validator(schema: Any) -> Any:
    """A jsonschema-rs validator of `schema` (draft 2020-12, as check-call's default), or
    None where it might judge otherwise than check-call: a schema naming its draft, or
    holding a `$ref` or a `format`."""
    text = json.dumps(schema)
    if not isinstance(schema, dict) or any(word in text for word in ('"$schema"', '"$ref"',
                                                                     '"format"')):
        return None
    import jsonschema_rs

    try:
        return jsonschema_rs.Draft202012Validator(schema)
    except Exception:  # check-call's checker reports an invalid schema in its own words
        return None


@dataclass(frozen=True)
class Starting:
    """A server that answers the handshake before it can answer requests. Once the
    handshake is answered, `wait` (blocking, run on a worker thread) gives the gate, not yet
    screened by the security verdict; `screen` (the same) screens it; `make` (run on the
    event loop) turns it into its Serving, with the subscription bus given. `instructions`
    are what the handshake says; `discovery` the discovery tools' names; `upstreams` and
    `apis` are the Serving's (kept open while it serves); `stages` says when the handshake
    was answered."""

    instructions: str
    upstreams: Upstreams
    wait: Callable[[], Gate]
    screen: Callable[[Gate], Gate]
    make: Callable[[Gate, InMemorySubscriptionBus], Serving]
    apis: HttpApis = field(default_factory=HttpApis)
    discovery: Mapping[str, str] = field(default_factory=dict)
    stages: Stages = QUIET


class _FirstRequest:
    """Middleware that notes the first request: the handshake once it is answered (or, from a
    2026-07-28 client, which has none, any request as it comes)."""

    def __init__(self, stages: Stages) -> None:
        self.asked = anyio.Event()
        self._stages = stages

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "initialize":
            self.asked.set()
            return await call_next(ctx)
        try:
            return await call_next(ctx)
        finally:
            if not self.asked.is_set():
                self._stages.done("answered the handshake (initialize)")
            self.asked.set()


class _Pending:
    """The Serving requests wait for; tools/list may be answered before it (`listing`)."""

    def __init__(self) -> None:
        self._ready = anyio.Event()
        self._opened = anyio.Event()
        self._serving: Serving | None = None
        self._early: list[types.Tool] | None = None

    def opened(self, gate: Gate, discovery: Mapping[str, str]) -> None:
        """The gate is made, not yet screened by the security verdict. In add mode, when it
        shows no catalog tool before a search, tools/list holds toolcat's own discovery
        tools alone, and is answered from now on (no catalog text reaches the client)."""
        if gate.mode == "add" and not gate.resolution.catalog_tools:
            self._early = listed(gate, discovery)
        self._opened.set()

    def ready(self, serving: Serving) -> None:
        self._serving = serving
        self._ready.set()
        self._opened.set()

    async def listing(self) -> list[types.Tool] | None:
        """The tools/list answer before the Serving is ready, or None: wait for it."""
        await self._opened.wait()
        return None if self._ready.is_set() else self._early

    async def get(self) -> Serving:
        await self._ready.wait()
        assert self._serving is not None
        return self._serving


def build_server(serving: Serving | _Pending, instructions: str | None = None,
                 bus: InMemorySubscriptionBus | None = None) -> Server[Any]:
    """The SDK server with toolcat's handlers (`instructions` and `bus`: the Serving's own,
    unless it is still pending)."""

    async def ready() -> Serving:
        return serving if isinstance(serving, Serving) else await serving.get()

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None
                         ) -> types.ListToolsResult:
        early = await serving.listing() if isinstance(serving, _Pending) else None
        if early is not None:
            return types.ListToolsResult(tools=early)
        served = await ready()
        gate = served.client(_connection(ctx), _owner(ctx))
        return types.ListToolsResult(tools=served.listed(gate))

    async def call_tool(ctx: Any, params: types.CallToolRequestParams
                        ) -> types.CallToolResult | types.InputRequiredResult:
        served = await ready()

        async def notify() -> None:
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                await served.bus.publish(ToolsListChanged())
            else:
                await ctx.session.send_notification(types.ToolListChangedNotification(),
                                                    related_request_id=ctx.request_id)

        REQUEST.set(Asking(ctx, params))  # approval asks this request's user
        return await served.call(params.name, params.arguments, notify,
                                 served.client(_connection(ctx), _owner(ctx)))

    async def relayed(answer: Awaitable[R]) -> R:
        try:
            return await answer
        except RelayError as exc:
            raise MCPError(exc.code, str(exc)) from None

    async def list_prompts(ctx: Any, params: types.PaginatedRequestParams | None
                           ) -> types.ListPromptsResult:
        served = await ready()
        return types.ListPromptsResult(prompts=await relayed(served.relay.prompts()))

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams
                         ) -> types.GetPromptResult:
        served = await ready()
        return await relayed(served.relay.get_prompt(params.name, params.arguments))

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        served = await ready()
        return types.ListResourcesResult(resources=await relayed(served.relay.resources()))

    async def list_templates(ctx: Any, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourceTemplatesResult:
        served = await ready()
        return types.ListResourceTemplatesResult(
            resource_templates=await relayed(served.relay.templates()))

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        served = await ready()
        return await relayed(served.relay.read(str(params.uri)))

    if instructions is None or bus is None:
        assert isinstance(serving, Serving)
        instructions, bus = serving.instructions(), serving.bus
    server = _Server(NAME, version=__version__, title="toolcat catalog",
                     instructions=instructions, on_list_tools=list_tools,
                     on_call_tool=call_tool, on_list_prompts=list_prompts,
                     on_get_prompt=get_prompt, on_list_resources=list_resources,
                     on_list_resource_templates=list_templates,
                     on_read_resource=read_resource,
                     on_subscriptions_listen=ListenHandler(bus))
    # seals the requestState of approval questions (2026-07-28): bound to the tool and its
    # arguments, expiring, under a key only this process holds
    server.middleware.append(RequestStateBoundary(RequestStateSecurity.ephemeral(),
                                                  default_audience=NAME))
    return server


class _Server(Server[Any]):
    """The SDK's server, whose capabilities say that the tool list changes (add_tool sends
    `notifications/tools/list_changed`) wherever they are asked for, the HTTP session's
    initialize included, not only where serve passes its options; and that the relayed
    prompts and resources neither announce changes nor take subscriptions (serve relays
    neither)."""

    def get_capabilities(self, notification_options: NotificationOptions | None = None,
                         *args: Any, **kwargs: Any) -> types.ServerCapabilities:
        options = notification_options or NotificationOptions(tools_changed=True)
        options.tools_changed = True
        said = super().get_capabilities(options, *args, **kwargs)
        return said.model_copy(update={
            "prompts": types.PromptsCapability(list_changed=False) if said.prompts else None,
            "resources": types.ResourcesCapability(subscribe=False, list_changed=False)
            if said.resources else None})


def init_options(server: Server[Any]) -> Any:
    return server.create_initialization_options(NotificationOptions(tools_changed=True))


async def serve_stdio(starting: Starting) -> None:
    """Serve over stdin/stdout until the client closes stdin. The handshake is answered at
    once; `starting` is made ready (its security verdict and its gate, on a thread) once the
    handshake is answered (so that the handshake does not share the interpreter with it),
    and requests wait for it. When it fails, serve stops and its error is raised here; when
    the client leaves first, it is still waited for, so that a broken profile is reported all
    the same."""
    from mcp.server.stdio import stdio_server

    pending = _Pending()
    bus = InMemorySubscriptionBus()
    server = build_server(pending, starting.instructions, bus)
    first = _FirstRequest(starting.stages)
    server.middleware.append(first)
    failed: list[Exception] = []
    async with _until_signalled() as scope:
        with scope:
            async with starting.upstreams, starting.apis, \
                    anyio.create_task_group() as group:

                async def prepare() -> None:
                    await first.asked.wait()
                    try:
                        gate = await anyio.to_thread.run_sync(starting.wait,
                                                              abandon_on_cancel=True)
                        pending.opened(gate, starting.discovery)
                        gate = await anyio.to_thread.run_sync(starting.screen, gate,
                                                              abandon_on_cancel=True)
                        pending.ready(starting.make(gate, bus))
                    except Exception as exc:  # raised below, once the server is down
                        failed.append(exc)
                        group.cancel_scope.cancel()

                group.start_soon(prepare)
                try:
                    async with stdio_server() as (read, write):
                        await server.run(read, write, init_options(server))
                finally:
                    first.asked.set()  # a client that left before asking: prepare all the same
    if failed:
        raise failed[0]


async def serve_http(serving: Serving, host: str, port: int, ready: Any = None, *,
                     token: str | None = None, allow_hosts: tuple[str, ...] = ()) -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until interrupted; `ready(port)` is
    called once the socket listens (port 0 picks a free one). Every request passes the
    Guard (toolcat.serve.http) first: Host and Origin, the token, the session's owner."""
    import socket

    import uvicorn

    from toolcat.serve.http import Guard, address, host_names, security_settings

    where = address(host)
    settings = security_settings(host_names(where, allow_hosts))
    server = build_server(serving)
    serving.per_client = True
    serving.gate.fork()  # the blank session clients' sessions are copied from, made now
    serving.stateless = StatelessClients(serving.gate.fork)
    app = server.streamable_http_app(host=host, transport_security=settings,
                                     max_sessions=MAX_SESSIONS,
                                     session_idle_timeout=IDLE_SESSION)
    manager = server.session_manager
    family = socket.AF_INET6 if where.ip.version == 6 else socket.AF_INET
    sock = socket.socket(family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((str(where.ip), port))
    guard = Guard(app, settings, token,
                  live=lambda: manager._server_instances)  # the SDK's open sessions by id
    web = uvicorn.Server(uvicorn.Config(guard, log_level="warning", lifespan="on"))

    bound = sock.getsockname()[1]  # uvicorn closes the socket when it stops

    async def announce() -> None:
        while not web.started:
            await anyio.sleep(0.02)
        if ready is not None and not web.should_exit:
            ready(bound)

    async with serving.upstreams, serving.apis, anyio.create_task_group() as group:
        group.start_soon(announce)
        await web.serve(sockets=[sock])
        group.cancel_scope.cancel()  # stopped before it started: nothing to announce


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


def _progress(asking: Asking | None) -> Progress | None:
    """What relays an upstream call's progress to the client, with the client's own
    progressToken, when the client asked for progress (None otherwise)."""
    if asking is None:
        return None
    meta = asking.context.meta or {}
    if meta.get("progress_token", meta.get("progressToken")) is None:
        return None
    session = asking.context.session

    async def forward(progress: float, total: float | None, message: str | None) -> None:
        await session.report_progress(progress, total, message)

    return forward


def _owner(ctx: Any) -> bytes | None:
    """Who sent a 2026-07-28 request over HTTP (toolcat.serve.http.Guard put it in the
    request's scope), else None."""
    from toolcat.serve.http import OWNER_KEY

    request = getattr(ctx, "request", None)
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS or request is None:
        return None
    owner = request.scope.get("state", {}).get(OWNER_KEY)
    return owner if isinstance(owner, bytes) else None


def _connection(ctx: Any) -> Any:
    """The SDK's per-client Connection of a request (the low-level context reaches it only
    through its session)."""
    return ctx.session._connection


def _definition(name: str, tool: Tool) -> types.Tool:
    """The tool as the client sees it: the MCP definition, with the fields the upstream gave
    beyond name, description, schema and annotations (title, outputSchema, execution, icons)
    kept; a kept field the SDK finds malformed is left out rather than breaking tools/list."""
    written, _ = PROVIDERS["mcp"].write_tool(tool)
    base = {**written, "name": name}
    kept = {key: tool.extra[key] for key in MCP_FIELDS if key in tool.extra and key not in base}
    try:
        return types.Tool.model_validate({**base, **kept})
    except ValueError:
        fine = {}
        for key, value in kept.items():
            try:
                types.Tool.model_validate({**base, key: value})
            except ValueError:
                continue
            fine[key] = value
        return types.Tool.model_validate({**base, **fine})


def definition_json(name: str, tool: Tool) -> dict[str, Any]:
    """The tool's MCP definition as tools/list shows it, as JSON (call mode's search
    results)."""
    return _definition(name, tool).model_dump(mode="json", by_alias=True, exclude_none=True)


def capped(result: types.CallToolResult) -> tuple[types.CallToolResult, int | None]:
    """`result`, or when its content and structured content hold more than MAX_RESULT
    characters, a copy cut to that many with a note saying so (and the size it had). Text
    is cut; other content and structured content that do not fit are left out (a result
    without its structured content is flagged as an error, since the tool's output schema
    promised it)."""
    sizes = [_size(item) for item in result.content]
    structured = len(json.dumps(result.structured_content, ensure_ascii=False)) \
        if result.structured_content is not None else 0
    total = sum(sizes) + structured
    if total <= MAX_RESULT:
        return result, None
    budget = MAX_RESULT
    kept: list[Any] = []
    left_out = 0
    for item, size in zip(result.content, sizes, strict=True):
        if size <= budget:
            kept.append(item)
            budget -= size
        elif isinstance(item, types.TextContent) and budget > 0:
            kept.append(item.model_copy(update={"text": item.text[:budget]}))
            budget = 0
        else:
            left_out += 1
    keep_structured = result.structured_content is not None and structured <= budget
    dropped = result.structured_content is not None and not keep_structured
    note = (f"[toolcat serve: the result held {total:,} characters, more than the "
            f"{MAX_RESULT:,} it relays; it was cut to the first {MAX_RESULT:,}"
            + (f", {left_out} content item(s) left out" if left_out else "")
            + (", its structured content left out" if dropped else "") + "]")
    kept.append(types.TextContent(type="text", text=note))
    return types.CallToolResult(content=kept, structured_content=(
        result.structured_content if keep_structured else None),
        is_error=bool(result.is_error) or dropped), total


def _size(item: Any) -> int:
    """The characters one content item carries (text, base64 data, a resource's text)."""
    if isinstance(item, types.TextContent):
        return len(item.text)
    return len(item.model_dump_json(by_alias=True, exclude_none=True))


def _answer(response: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(response, ensure_ascii=False))],
        structured_content=response)


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)
