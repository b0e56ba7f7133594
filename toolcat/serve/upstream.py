"""The upstream MCP servers of a serve session: each started (or reached) on the first call to
one of its tools, kept for the session, and stopped when serve stops.

Each upstream lives in its own task of the pool's task group, inside the SDK client's context
(so the SDK's shutdown sequence runs when it ends: stdin closed, 2 s to exit, then SIGTERM and
SIGKILL to the server's whole process group). A call gets `timeout` seconds, the server's start
included; an upstream that does not answer in time, exits, or breaks the protocol is stopped,
the call gets an error result saying what happened, and the next call starts it afresh.
Results are relayed as the upstream sent them (content, structuredContent, isError).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any

import anyio
import mcp_types as types
from anyio.abc import TaskGroup

from toolcat.errors import ServerError
from toolcat.mcp.client import explain, quiet_sdk_logging, root_cause, stderr_tail, transport
from toolcat.mcp.servers import ServerSpec
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets


class UpstreamError(Exception):
    """A call could not be relayed; the message is for the client (secrets scrubbed)."""


@dataclass
class _Upstream:
    spec: ServerSpec
    ready: anyio.Event = field(default_factory=anyio.Event)
    stop: anyio.Event = field(default_factory=anyio.Event)
    session: Any = None
    failure: str | None = None
    started_ms: float | None = None
    errlog: IO[str] | None = None
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)

    @property
    def usable(self) -> bool:
        return self.failure is None and not self.stop.is_set()


@dataclass(frozen=True)
class Relayed:
    """An upstream's answer, and what it took."""

    result: types.CallToolResult
    start_ms: float | None  # how long the server took to start, when this call started it
    call_ms: float


class Upstreams:
    """`async with Upstreams(timeout=...) as pool:` then `await pool.call(spec, name, args)`."""

    def __init__(self, *, timeout: float = DEFAULT_CALL_TIMEOUT,
                 secrets: Secrets | None = None) -> None:
        self.timeout = timeout
        self.secrets = secrets or Secrets()
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
            self._retire(upstream)
        assert self._group is not None
        return await self._group.__aexit__(kind, exc, tb)

    def started(self) -> list[str]:
        """The servers started in this session, in order, once each."""
        return list(self._started)

    async def call(self, spec: ServerSpec, name: str, arguments: Mapping[str, Any]) -> Relayed:
        """Call the tool `name` on the server `spec` and return its result unchanged.

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
        try:
            with anyio.fail_after(self.timeout):
                await upstream.ready.wait()
                if upstream.failure is not None:
                    raise UpstreamError(upstream.failure)
                start_ms = (time.perf_counter() - began) * 1000 if fresh else None
                sent = time.perf_counter()
                request = types.CallToolRequest(params=types.CallToolRequestParams(
                    name=name, arguments=dict(arguments)))
                result = await upstream.session.send_request(request, types.CallToolResult)
        except UpstreamError as exc:
            self._retire(upstream)
            raise UpstreamError(self.secrets.scrub(str(exc))) from None
        except TimeoutError:
            what = "start and answer" if fresh and not upstream.ready.is_set() else "answer"
            self._retire(upstream)
            raise UpstreamError(f"MCP server '{spec.name}' did not {what} within "
                                f"{self.timeout:g} s; it was stopped and will be started "
                                "again on the next call") from None
        except Exception as exc:  # the SDK's and the transport's failures
            cause = root_cause(exc)
            problem = self._problem(cause, spec, "during the call")
            if _answered(cause):  # a JSON-RPC error: the server is fine, keep it
                raise UpstreamError(self.secrets.scrub(
                    f"calling {name} on MCP server '{spec.name}' failed: {problem}")) from None
            tail = _stderr_tail(upstream.errlog)
            self._retire(upstream)
            raise UpstreamError(self.secrets.scrub(
                f"calling {name} on MCP server '{spec.name}' failed: {problem}{tail}; it "
                "will be started again on the next call")) from None
        return Relayed(result, start_ms, (time.perf_counter() - sent) * 1000)

    def _problem(self, cause: BaseException, spec: ServerSpec, when: str) -> str:
        """One line on what went wrong with an upstream, for the client."""
        from mcp import MCPError
        from mcp_types import CONNECTION_CLOSED

        if isinstance(cause, MCPError) and cause.code == CONNECTION_CLOSED:
            gone = "exited" if spec.transport == "stdio" else "closed the connection"
            return f"MCP server '{spec.name}' {gone} {when}"
        return explain(cause, spec, self.timeout) or f"{type(cause).__name__}: {cause}"

    def _start(self, spec: ServerSpec) -> _Upstream:
        assert self._group is not None, "use Upstreams as an async context manager"
        upstream = _Upstream(spec)
        self._running[spec.name] = upstream
        self._started[spec.name] = None
        self._group.start_soon(self._run, upstream, name=f"upstream {spec.name}")
        return upstream

    def _retire(self, upstream: _Upstream) -> None:
        """Stop `upstream`, even while it is still starting: cancelling its task runs the
        SDK's shutdown of the server (and of its process group)."""
        upstream.stop.set()
        upstream.scope.cancel()
        if self._running.get(upstream.spec.name) is upstream:
            del self._running[upstream.spec.name]

    async def _run(self, upstream: _Upstream) -> None:
        """Hold the connection to one upstream until it is retired or the pool closes."""
        from mcp import Client

        spec = upstream.spec
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
            upstream.errlog = errlog
            try:
                with upstream.scope:
                    async with Client(transport(spec, errlog), cache=None) as client:
                        upstream.session = client.session
                        upstream.ready.set()
                        await upstream.stop.wait()
            except Exception as exc:  # reported to the call that waits
                cause = root_cause(exc)
                problem = str(cause) if isinstance(cause, ServerError) else \
                    self._problem(cause, spec, "before it had started")
                if not upstream.ready.is_set():
                    problem = f"cannot start MCP server '{spec.name}': {problem}" \
                        if not problem.startswith("cannot") else problem
                upstream.failure = self.secrets.scrub(problem + _stderr_tail(errlog))
            finally:
                upstream.stop.set()
                upstream.ready.set()
                upstream.errlog = None


def _answered(cause: BaseException) -> bool:
    """Whether the server answered with a JSON-RPC error (it is alive and speaking MCP)."""
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    return isinstance(cause, MCPError) and cause.code != CONNECTION_CLOSED


def _stderr_tail(errlog: IO[str] | None) -> str:
    if errlog is None or errlog.closed:
        return ""
    position = errlog.tell()
    try:
        return stderr_tail(errlog)
    finally:
        errlog.seek(position)
