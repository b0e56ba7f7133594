"""The upstream MCP servers of a serve session: each started (or reached) on the first call to
one of its tools, kept for the session, and stopped when serve stops.

Each upstream lives in its own task of the pool's task group, inside the SDK client's context
(so the SDK's shutdown sequence runs when it ends: stdin closed, 2 s to exit, then SIGTERM and
SIGKILL to the server's whole process group). A stdio upstream's pipes are bounded
(toolcat.mcp.wire).

When an upstream has started, its live tools are listed and handed to `verify`, which names
the tools whose definition changed since the catalog (or the lock) was written: calls to those
are refused, with the change named; the others go through.

A call gets `timeout` seconds, the server's start included. An upstream that exits or breaks
the protocol is stopped, and the call gets an error result saying what happened. A call that
runs out of time gets the same, and the upstream is retired: the next call starts a fresh one,
while the calls already in flight on the old one (other clients' among them) keep it until the
last of them is answered or times out. So a restart affects only the calls that needed it.
Results are relayed as the upstream sent them (content, structuredContent, isError).
"""

from __future__ import annotations

import contextlib
import functools
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

import anyio
import mcp_types as types
from anyio.abc import TaskGroup

from toolcat.errors import ServerError
from toolcat.mcp.client import (
    explain,
    http_refusal,
    quiet_sdk_logging,
    root_cause,
    start_failure_detail,
    stderr_tail,
    transport,
)
from toolcat.mcp.servers import ServerSpec
from toolcat.mcp.wire import StderrTail, bounded_stdio
from toolcat.model import Catalog
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets

# (server name, its live tools as a catalog) -> {tool name: why it is not served}
Verify = Callable[[str, Catalog], Mapping[str, str]]
# (progress, total, message) of an upstream's notifications/progress, for the client
Progress = Callable[[float, float | None, str | None], Awaitable[None]]
R = TypeVar("R")
REFUSAL_WAIT = 2.5  # seconds an upstream that refused its start is asked why, at most


class UpstreamError(Exception):
    """A call could not be relayed; the message is for the client (secrets scrubbed)."""


@dataclass
class _Upstream:
    spec: ServerSpec
    ready: anyio.Event = field(default_factory=anyio.Event)
    stop: anyio.Event = field(default_factory=anyio.Event)
    session: Any = None
    failure: str | None = None
    errlog: IO[str] | StderrTail | None = None
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    refused: Mapping[str, str] = field(default_factory=dict)  # tool name -> why not served
    capabilities: Any = None  # what the server said it offers (prompts, resources, ...)
    inflight: int = 0
    retiring: bool = False

    @property
    def usable(self) -> bool:
        return self.failure is None and not self.stop.is_set() and not self.retiring


@dataclass(frozen=True)
class Relayed(Generic[R]):
    """An upstream's answer, and what it took."""

    result: R
    start_ms: float | None  # how long the server took to start, when this call started it
    call_ms: float


class Upstreams:
    """`async with Upstreams(timeout=...) as pool:` then `await pool.call(spec, name, args)`."""

    def __init__(self, *, timeout: float = DEFAULT_CALL_TIMEOUT,
                 secrets: Secrets | None = None, verify: Verify | None = None) -> None:
        self.timeout = timeout
        self.secrets = secrets or Secrets()
        self.verify = verify
        self._running: dict[str, _Upstream] = {}
        self._started: dict[str, None] = {}
        self._group: TaskGroup | None = None

    async def __aenter__(self) -> Upstreams:
        quiet_sdk_logging()
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:
        for upstream in list(self._running.values()):
            self._stop(upstream)
        assert self._group is not None
        return await self._group.__aexit__(kind, exc, tb)

    def started(self) -> list[str]:
        """The servers started in this session, in order, once each."""
        return list(self._started)

    async def call(self, spec: ServerSpec, name: str, arguments: Mapping[str, Any],
                   progress: Progress | None = None) -> Relayed[types.CallToolResult]:
        """Call the tool `name` on the server `spec` and return its result unchanged;
        `progress` is awaited with each progress notification the server sends for it.

        Raises:
            UpstreamError: the server could not be started or reached, failed, or did not
                answer within the timeout.
        """
        request = types.CallToolRequest(params=types.CallToolRequestParams(
            name=name, arguments=dict(arguments)))
        return await self.send(spec, request, types.CallToolResult, what=f"calling {name}",
                               tool=name, progress=progress)

    async def offers(self, spec: ServerSpec, capability: str) -> bool:
        """Whether the server `spec` (started if it is not running) says it offers
        `capability` (`prompts`, `resources`).

        Raises:
            UpstreamError: as `send`.
        """
        answer = await self.send(spec, None, object, what=f"asking for {capability}")
        return getattr(answer.result, capability, None) is not None

    async def send(self, spec: ServerSpec, request: Any, result_type: type[R], *, what: str,
                   tool: str | None = None, progress: Progress | None = None
                   ) -> Relayed[R]:
        """Send `request` to the server `spec` (started on first use) and return its
        answer as `result_type`; with no request, the server's capabilities. `what` says
        what the request does, for an error message; a call of `tool` is refused when the
        server changed it.

        Raises:
            UpstreamError: the server could not be started or reached, failed, or did not
                answer within the timeout.
        """
        began = time.perf_counter()
        upstream = self._running.get(spec.name)
        fresh = upstream is None or not upstream.usable
        if fresh:
            upstream = self._start(spec)
        assert upstream is not None
        upstream.inflight += 1
        try:
            return await self._send(upstream, spec, request, result_type, began, fresh,
                                    what=what, tool=tool, progress=progress)
        finally:
            upstream.inflight -= 1
            if upstream.retiring and upstream.inflight == 0:
                self._stop(upstream)

    async def _send(self, upstream: _Upstream, spec: ServerSpec, request: Any,
                    result_type: type[R], began: float, fresh: bool, *, what: str,
                    tool: str | None, progress: Progress | None) -> Relayed[R]:
        try:
            with anyio.fail_after(self.timeout):
                await upstream.ready.wait()
                if upstream.failure is not None:
                    raise UpstreamError(upstream.failure)
                if tool is not None and tool in upstream.refused:
                    raise _Refused(upstream.refused[tool])
                start_ms = (time.perf_counter() - began) * 1000 if fresh else None
                sent = time.perf_counter()
                if request is None:
                    result = upstream.capabilities
                else:
                    result = await upstream.session.send_request(
                        request, result_type, progress_callback=progress)
        except _Refused as exc:
            raise UpstreamError(self.secrets.scrub(str(exc))) from None
        except UpstreamError as exc:
            self._stop(upstream)
            raise UpstreamError(self.secrets.scrub(str(exc))) from None
        except TimeoutError:
            done = "start and answer" if fresh and not upstream.ready.is_set() else "answer"
            self._retire(upstream)
            raise UpstreamError(f"MCP server '{spec.name}' did not {done} within "
                                f"{self.timeout:g} s; the next call starts it afresh (calls "
                                "already in flight keep the old one until they end)") from None
        except Exception as exc:  # the SDK's and the transport's failures
            cause = root_cause(exc)
            problem = self._problem(cause, spec, "during the call", upstream.errlog)
            if _answered(cause):  # a JSON-RPC error: the server is fine, keep it
                raise UpstreamError(self.secrets.scrub(
                    f"{what} on MCP server '{spec.name}' failed: {problem}")) from None
            tail = _stderr_tail(upstream.errlog)
            self._stop(upstream)
            raise UpstreamError(self.secrets.scrub(
                f"{what} on MCP server '{spec.name}' failed: {problem}{tail}; it "
                "will be started again on the next call")) from None
        return Relayed(result, start_ms, (time.perf_counter() - sent) * 1000)

    def refused(self, server: str) -> Mapping[str, str]:
        """What the running upstream `server` does not serve, and why (empty if none)."""
        upstream = self._running.get(server)
        return upstream.refused if upstream is not None else {}

    def _problem(self, cause: BaseException, spec: ServerSpec, when: str,
                 errlog: IO[str] | StderrTail | None = None) -> str:
        """One line on what went wrong with an upstream, for the client."""
        ended = errlog.exit() if isinstance(errlog, StderrTail) else None
        return (explain(cause, spec, self.timeout, ended=ended, when=when)
                or f"{type(cause).__name__}: {cause}")

    def _start(self, spec: ServerSpec) -> _Upstream:
        assert self._group is not None, "use Upstreams as an async context manager"
        upstream = _Upstream(spec)
        self._running[spec.name] = upstream
        self._started[spec.name] = None
        self._group.start_soon(self._run, upstream, name=f"upstream {spec.name}")
        return upstream

    def _retire(self, upstream: _Upstream) -> None:
        """Let no new call reach `upstream`; stop it once the calls in flight on it are done
        (the call that retires it counts until it returns)."""
        upstream.retiring = True
        if self._running.get(upstream.spec.name) is upstream:
            del self._running[upstream.spec.name]
        if upstream.inflight == 0:
            self._stop(upstream)

    def _stop(self, upstream: _Upstream) -> None:
        """Stop `upstream` now, even while it is still starting: cancelling its task runs the
        SDK's shutdown of the server (and of its process group)."""
        upstream.stop.set()
        upstream.scope.cancel()
        if self._running.get(upstream.spec.name) is upstream:
            del self._running[upstream.spec.name]

    async def _run(self, upstream: _Upstream) -> None:
        """Hold the connection to one upstream until it is retired or the pool closes."""
        spec = upstream.spec
        with contextlib.ExitStack() as stack:
            errlog: IO[str] | StderrTail
            if spec.transport == "stdio":
                errlog = StderrTail()
                stack.callback(errlog.spawned)
                connection = bounded_stdio(spec, errlog)
            else:
                errlog = stack.enter_context(
                    tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))
                connection = transport(spec, errlog)
            upstream.errlog = errlog
            try:
                with upstream.scope:
                    await self._connect(upstream, connection)
            except Exception as exc:  # reported to the call that waits
                cause = root_cause(exc)
                problem = str(cause) if isinstance(cause, ServerError) else \
                    self._problem(cause, spec, "before it had started", errlog)
                if upstream.ready.is_set():
                    detail = _stderr_tail(errlog)
                else:
                    with anyio.CancelScope(shield=True):
                        refusal = await http_refusal(spec, cause, REFUSAL_WAIT)
                    problem = f"{spec.url} {refusal}" if refusal else problem
                    problem = f"cannot start MCP server '{spec.name}': {problem}" \
                        if not problem.startswith("cannot") else problem
                    # as `import mcp` says it (the Node version a crash needs among it); in a
                    # thread, as it may wait on the server's stderr and `node --version`
                    with anyio.CancelScope(shield=True):
                        detail = await anyio.to_thread.run_sync(
                            functools.partial(start_failure_detail, errlog, spec, cause))
                upstream.failure = self.secrets.scrub(problem + detail)
            finally:
                upstream.stop.set()
                upstream.ready.set()
                if not isinstance(errlog, StderrTail):  # a file, closed on the way out
                    upstream.errlog = None

    async def _connect(self, upstream: _Upstream, connection: Any) -> None:
        from mcp import Client

        async with Client(connection, cache=None) as client:
            if self.verify is not None:
                upstream.refused = self.verify(upstream.spec.name,
                                               await live_tools(client, upstream.spec))
            upstream.session = client.session
            upstream.capabilities = client.server_capabilities
            upstream.ready.set()
            await upstream.stop.wait()


async def live_tools(client: Any, spec: ServerSpec) -> Catalog:
    """What the server lists now, read as `toolcat import mcp` reads it."""
    from toolcat.mcp.client import Listing, _all_tools
    from toolcat.mcp.importer import listings_catalog

    tools = await _all_tools(client, spec)
    return listings_catalog([Listing(spec, spec.name, tools=tuple(tools))])


class _Refused(Exception):
    """The tool is not served by this upstream (its definition changed)."""


def _answered(cause: BaseException) -> bool:
    """Whether the server answered with a JSON-RPC error (it is alive and speaking MCP)."""
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    return isinstance(cause, MCPError) and cause.code != CONNECTION_CLOSED


def _stderr_tail(errlog: IO[str] | StderrTail | None) -> str:
    if isinstance(errlog, StderrTail):
        return stderr_tail(errlog)
    if errlog is None or errlog.closed:
        return ""
    position = errlog.tell()
    try:
        return stderr_tail(errlog)
    finally:
        errlog.seek(position)
