"""Talk to live MCP servers with the official SDK: start or reach each one, initialize, list
every page of its tools, and stop it. The only module that imports the SDK (the `mcp` extra).

Each server gets `timeout` seconds to start, initialize and list its tools. When that runs out,
or the server exits, or its answers are not MCP, the failure becomes a one-line ServerError
that says what happened, with the lines of the server's stderr that say what went wrong (not
its stack or usage text) and the first thing it wrote on stdout that was not a JSON-RPC
message; a stdio server that ended without a word on stderr is said to have, with the command
line toolcat ran (secrets redacted), to run by hand. A stdio server is always stopped on the way
out by the SDK's shutdown sequence: stdin closed, 2 s to exit, then SIGTERM and SIGKILL to its
whole process group. The wait for answers ends early enough (STOP_ALLOWANCE, or half the
timeout when it is short) that the stop still fits in the timeout; only a server that also
ignores SIGTERM takes 2 s longer. The timeout can also be given as a deadline (a
`time.monotonic()` instant) that the caller started before importing the SDK, so that the
import, the exchange and the caller's own writing all fit in what the user asked for.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolcat.errors import MissingExtraError, ServerError
from toolcat.mcp.servers import ServerSpec
from toolcat.mcp.stderr import meaningful_lines, plain, record_text, usage_hint
from toolcat.urls import split_url

if TYPE_CHECKING:
    from mcp import Client

Json = Any
DEFAULT_TIMEOUT = 30.0
# A paginator that never ends must not hang the import: no real server has this many pages.
MAX_PAGES = 10_000
# The SDK gives a stdio server 2 s to exit once its stdin closes, then signals its process
# group and reaps it (about 4 s in all here); that stop is kept inside the user's timeout.
STOP_ALLOWANCE = 5.0
# Closing an HTTP session (the SDK's DELETE, the connection pool) is quick; keep a little.
HTTP_CLOSE_ALLOWANCE = 1.0
# A stdio server that has said where it listens over HTTP and has not answered initialize
# this long after is taken for one that speaks MCP over HTTP only: the import stops waiting
# (huaweicloud-mcp-server held a 300 s --timeout whole after Uvicorn's line).
HTTP_ONLY_WAIT = 15.0


@dataclass(frozen=True)
class Listing:
    """What one server said about itself and its tools, as sent (minus protocol `_meta`)."""

    spec: ServerSpec
    name: str
    info: Mapping[str, Json] = field(default_factory=dict)
    instructions: str | None = None
    tools: tuple[Mapping[str, Json], ...] = ()
    # what else it offers, by name: its prompts' names, its resources' URIs and its resource
    # templates' URI templates (serve's get_prompt and get_resource tools name them)
    prompts: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()


def list_servers(specs: Sequence[ServerSpec], *, timeout: float = DEFAULT_TIMEOUT,
                 deadline: float | None = None) -> list[Listing]:
    """The tools of every server, asked concurrently, in the order of `specs`, all done within
    `timeout` seconds of the `deadline`'s start (default: now), the servers' stop included.

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ServerError: one or more servers failed; the message names each with its reason.
    """
    listings, failed = list_some_servers(specs, timeout=timeout, deadline=deadline)
    failures = [failure for _, failure in failed]
    if len(failures) == 1 and len(specs) == 1:
        raise failures[0]
    if failures:
        raise ServerError(f"{len(failures)} of {len(specs)} servers failed: "
                          + "; ".join(str(f) for f in failures))
    return listings


def list_some_servers(specs: Sequence[ServerSpec], *, timeout: float = DEFAULT_TIMEOUT,
                      deadline: float | None = None
                      ) -> tuple[list[Listing], list[tuple[ServerSpec, ServerError]]]:
    """As list_servers, but a server that fails does not sink the others: the listings of
    those that answered, and each server that did not with its error, in `specs` order.

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
    """
    try:
        import anyio
        import mcp  # noqa: F401 - fail here, before any server is started
    except ImportError:
        raise MissingExtraError("importing from MCP servers", "mcp") from None
    results: list[Listing | ServerError | None] = [None] * len(specs)
    end = time.monotonic() + timeout if deadline is None else deadline

    async def one(index: int, spec: ServerSpec) -> None:
        try:
            results[index] = await list_server(spec, timeout=timeout, deadline=end)
        except ServerError as exc:
            results[index] = exc

    async def all_servers() -> None:
        async with anyio.create_task_group() as group:
            for index, spec in enumerate(specs):
                group.start_soon(one, index, spec)

    anyio.run(all_servers)
    return ([r for r in results if isinstance(r, Listing)],
            [(spec, r) for spec, r in zip(specs, results, strict=True)
             if isinstance(r, ServerError)])


async def list_server(spec: ServerSpec, *, timeout: float = DEFAULT_TIMEOUT,
                      deadline: float | None = None) -> Listing:
    """Connect to one server, list all its tools page by page, and disconnect, by `deadline`
    (a time.monotonic() instant; default: `timeout` seconds from now).

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ServerError: the server could not be started or reached, failed, or timed out.
    """
    try:
        import anyio
        from mcp import Client
    except ImportError:
        raise MissingExtraError("importing from MCP servers", "mcp") from None

    from toolcat.mcp.wire import StderrTail

    quiet_sdk_logging()
    seen = _Garbage()
    end = time.monotonic() + timeout if deadline is None else deadline
    allowance = STOP_ALLOWANCE if spec.transport == "stdio" else HTTP_CLOSE_ALLOWANCE
    answer_within = max(0.0, end - time.monotonic() - min(allowance, timeout / 2))
    asked = "initialize"  # the request a server that times out has not answered
    offered: tuple[tuple[str, ...], ...] = ((), (), ())
    started = time.monotonic()
    watching = anyio.CancelScope()  # entered by the watcher, cancelled once initialized
    with _stderr(spec) as errlog:
        try:
            listed_by = time.monotonic() + answer_within
            with anyio.fail_after(answer_within) as waiting:
                async with anyio.create_task_group() as group:
                    if isinstance(errlog, StderrTail):
                        group.start_soon(_stop_waiting_on_http, seen, errlog, waiting,
                                         watching)
                    async with Client(transport(spec, errlog), cache=None,
                                      message_handler=seen.handle) as client:
                        watching.cancel()
                        asked = "tools/list"
                        tools = await _all_tools(client, spec)
                        info = client.server_info
                        instructions = _instructions(client)
                        asked = "prompts/list or resources/list"
                        # A server that hangs here (one waiting for a sign-in in a browser) has
                        # given its tools: what it offers besides is recorded only if it answers.
                        wait = min(OFFERED_WAIT, (listed_by - time.monotonic()) / 2)
                        with anyio.move_on_after(wait):
                            offered = await _offered(client)
        except BaseException as exc:
            cause = root_cause(exc)
            if isinstance(cause, ServerError):
                raise cause from None
            waited = round(time.monotonic() - started) if seen.cut_short else timeout
            problem = explain(cause, spec, waited, ended=_ended(errlog), asked=asked)
            if problem is None:
                raise
            if spec.transport == "http" and not isinstance(cause, TimeoutError) and (
                    await _speaks_old_sse(spec, end - time.monotonic())):
                problem = (f"MCP server at {spec.url} speaks only the old HTTP+SSE transport "
                           "(a GET event stream), which toolcat does not import; give the "
                           "server's streamable HTTP endpoint if it has one (often /mcp), "
                           "or start it over stdio with -- COMMAND")
            elif refusal := await http_refusal(spec, cause, end - time.monotonic()):
                problem = f"MCP server at {spec.url} {refusal}"
            # a server that never answered may be serving HTTP: its stderr may say where
            heard = errlog.lines() if isinstance(cause, TimeoutError) and isinstance(
                errlog, StderrTail) else ()
            raise ServerError(problem + seen.detail(heard) + start_failure_detail(
                errlog, spec, cause, stdout="\n".join(seen.said))) from None
    info_json = info.model_dump(mode="json", by_alias=True, exclude_none=True) if info else {}
    return Listing(spec=spec, name=spec.name or info_json.get("name") or _fallback_name(spec),
                   info=info_json, instructions=instructions, tools=tuple(tools),
                   prompts=offered[0], resources=offered[1], templates=offered[2])


async def _stop_waiting_on_http(seen: _Garbage, errlog: Any, waiting: Any,
                                watching: Any) -> None:
    """Once the server says where it listens over HTTP (on stdout or stderr), wait at most
    HTTP_ONLY_WAIT more for its answer to initialize (`waiting`: the scope that waits), until
    `watching` is cancelled."""
    import anyio

    with watching:
        while not seen.listens and not any(_LISTENS.search(plain(line))
                                           for line in errlog.lines()):
            await anyio.sleep(0.5)
        shorter = anyio.current_time() + HTTP_ONLY_WAIT
        if shorter < waiting.deadline:
            waiting.deadline = shorter
            seen.cut_short = True


@contextmanager
def _stderr(spec: ServerSpec) -> Iterator[Any]:
    """Where a server's stderr goes: for a stdio server a bounded tail that also learns its
    exit status (toolcat.mcp.wire), else a file nothing writes to."""
    if spec.transport != "stdio":
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
            yield errlog
        return
    from toolcat.mcp.wire import StderrTail

    tail = StderrTail()
    try:
        yield tail
    finally:
        tail.spawned()  # closed if the server never started


def _ended(errlog: Any) -> str | None:
    """How a stdio server ended (`exited with status 1`), once it has."""
    from toolcat.mcp.wire import StderrTail

    return errlog.exit() if isinstance(errlog, StderrTail) else None


def transport(spec: ServerSpec, errlog: Any) -> Any:
    """The SDK transport to `spec`: streamable HTTP, or stdio with bounded pipes
    (toolcat.mcp.wire) when `errlog` is a StderrTail, else the SDK's own stdio client
    writing the server's stderr to `errlog`."""
    if spec.transport == "http":
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        # No timeout per request: the deadline in list_server bounds the whole exchange.
        http = httpx2.AsyncClient(headers=dict(spec.headers), timeout=httpx2.Timeout(None))
        return _owning(http, streamable_http_client(spec.url, http_client=http))
    from mcp import StdioServerParameters, stdio_client

    from toolcat.mcp.wire import StderrTail, bounded_stdio

    if isinstance(errlog, StderrTail):
        return bounded_stdio(spec, errlog)
    # A server started from toolcat sees the environment the user's shell would give it,
    # plus the `env` of its configuration entry.
    params = StdioServerParameters(command=spec.command, args=list(spec.args),
                                   env={**os.environ, **spec.env}, cwd=spec.cwd)
    return stdio_client(params, errlog=errlog)


async def _speaks_old_sse(spec: ServerSpec, time_left: float) -> bool:
    """Whether `spec.url` answers a GET with the event stream of the 2024-11-05 HTTP+SSE
    transport (its first event names the endpoint for messages). Asked only after the
    streamable HTTP exchange failed, so a failure can say why."""
    import anyio
    import httpx2

    if time_left <= 0.2:
        return False
    try:
        with anyio.move_on_after(min(2.0, time_left - 0.1)):
            async with httpx2.AsyncClient(headers=dict(spec.headers), timeout=None) as http:
                headers = {"Accept": "text/event-stream"}
                async with http.stream("GET", spec.url, headers=headers) as response:
                    kind = response.headers.get("content-type", "")
                    if response.status_code != 200 or "text/event-stream" not in kind:
                        return False
                    async for chunk in response.aiter_text():
                        return "event: endpoint" in chunk or "event:endpoint" in chunk
    except (httpx2.HTTPError, httpx2.InvalidURL, OSError):
        return False
    return False


REFUSAL_BODY = 300  # bytes of a refusal's body quoted: enough for {"detail": "..."}


async def http_refusal(spec: ServerSpec, cause: BaseException, time_left: float) -> str | None:
    """`refused the connection: HTTP 401 Unauthorized: {"detail":"Invalid token"}`: the status
    and the start of the body with which `spec.url` refuses an initialize, when `cause` is the
    MCP SDK's stand-in for an HTTP error status (error -32603, "Server returned an error
    response"), which keeps neither; else None. Asked once more, after the exchange failed."""
    import anyio
    import httpx2
    from mcp import MCPError
    from mcp_types import INTERNAL_ERROR

    if spec.transport != "http" or not isinstance(cause, MCPError) or \
            cause.code != INTERNAL_ERROR or time_left <= 0.2:
        return None
    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "toolcat", "version": "0"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    try:
        with anyio.move_on_after(min(2.0, time_left - 0.1)):
            async with httpx2.AsyncClient(headers=dict(spec.headers), timeout=None) as http, \
                    http.stream("POST", spec.url, json=hello, headers=headers) as response:
                if response.status_code < 400:
                    return None
                body = b""
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) >= REFUSAL_BODY:
                        break
                said = _short(plain(body[:REFUSAL_BODY].decode("utf-8", "replace")))
                status = f"HTTP {response.status_code} {response.reason_phrase}".strip()
                hint = (" (the headers of its entry: a token or key it does not accept)"
                        if response.status_code in (401, 403) else "")
                return f"refused the connection: {status}{': ' + said if said else ''}{hint}"
    except (httpx2.HTTPError, httpx2.InvalidURL, OSError):
        return None
    return None


def _owning(http: Any, transport: Any) -> Any:
    """The transport, closing the HTTP client it was given when the transport closes."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def owned() -> Any:
        async with http, transport as streams:
            yield streams

    return owned()


async def _all_tools(client: Client, spec: ServerSpec) -> list[dict[str, Json]]:
    if client.server_capabilities.tools is None:
        return []
    tools: list[dict[str, Json]] = []
    cursors: set[str] = set()
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            raw = tool.model_dump(mode="json", by_alias=True, exclude_unset=True)
            raw.pop("_meta", None)
            tools.append(raw)
        cursor = page.next_cursor
        if cursor is None:
            return tools
        if cursor in cursors:
            raise ServerError(f"MCP server '{spec.label}' sent the tools/list cursor "
                              f"{cursor!r} twice; its pagination loops")
        cursors.add(cursor)
    raise ServerError(f"MCP server '{spec.label}' sent more than {MAX_PAGES} pages of tools")


OFFERED_WAIT = 5.0  # seconds a server's prompts and resources are waited for, at most
MAX_OFFERED = 1_000  # names of prompts, resources or templates recorded per server
MAX_OFFERED_NAME = 500  # characters of one name kept; a longer one is not recorded


async def _offered(client: Client) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names of the server's prompts, the URIs of its resources and the URI templates of
    its resource templates: the first page of each, at most MAX_OFFERED. A server that
    declares them and fails to list them records none (its tools are what is imported)."""
    said = client.server_capabilities

    async def names(method: Any, items: Any) -> tuple[str, ...]:
        try:
            page = await method()
        except Exception:  # an MCPError, or an answer the SDK refused
            return ()
        found = (str(name) for name in items(page))
        return tuple(dict.fromkeys(name for name in found if 0 < len(name) <= MAX_OFFERED_NAME
                                   and name.isprintable()))[:MAX_OFFERED]

    prompts = await names(client.list_prompts, lambda page: (p.name for p in page.prompts)) \
        if said.prompts is not None else ()
    if said.resources is None:
        return prompts, (), ()
    resources = await names(client.list_resources,
                            lambda page: (r.uri for r in page.resources))
    templates = await names(client.list_resource_templates,
                            lambda page: (t.uri_template for t in page.resource_templates))
    return prompts, resources, templates


def _instructions(client: Client) -> str | None:
    session = client.session
    result = session.initialize_result or session.discover_result
    return result.instructions if result is not None else None


# A local HTTP address or a listening port in what a server wrote on stdout: an HTTP-only
# server started as a command announces where it listens instead of speaking MCP there.
_LISTENS = re.compile(
    r"https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])(?::\d+)?\S*"
    r"|\blisten(?:s|ing)?\b[^\n]{0,40}?\bport\s*:?\s*\d+|\bon port\s*:?\s*\d+", re.IGNORECASE)
_ENDPOINT = re.compile(r"/(?:mcp|sse)\b", re.IGNORECASE)
_OLD_SSE = re.compile(r"/sse\b", re.IGNORECASE)


class _Garbage:
    """Remembers what the server wrote on stdout that was not a JSON-RPC message (its first
    and last lines: a banner's last line often says what to do), and the first line of it
    that says where the server listens over HTTP (one naming its /mcp or /sse endpoint
    preferred)."""

    def __init__(self) -> None:
        self.count = 0
        self.first: str | None = None
        self.last: str | None = None
        self.listens: str | None = None
        self.said: list[str] = []  # its first SAID_LINES, whole, for network and usage hints
        self.cut_short = False  # the wait for initialize was shortened: it listens over HTTP

    async def handle(self, message: Any) -> None:
        if not isinstance(message, Exception):
            return
        self.count += 1
        line = _raw_input(message)
        self.last = _offending_input(line)
        if line is not None and len(self.said) < SAID_LINES:
            self.said.append(_log_text(line) or str(line)[:SAID_CHARS])
        if self.first is None:
            self.first = self.last
        if isinstance(line, str):
            self.listens = _listening(self.listens, line)

    def detail(self, stderr_lines: Sequence[str] = ()) -> str:
        """What the message adds: what the server wrote on stdout, and, when it or
        `stderr_lines` say where it listens, that it speaks MCP over HTTP only."""
        listens = self.listens
        for line in stderr_lines:
            listens = _listening(listens, plain(line))
        stdio = ("start it with its stdio transport if it has one (often a `--transport "
                 "stdio` option or an `MCP_TRANSPORT=stdio` setting)")
        if listens and _OLD_SSE.search(listens):
            http = ("; it looks like a server that speaks MCP only over the old HTTP+SSE "
                    f"transport ({_short(repr(listens))}), which toolcat does not import: "
                    f"{stdio}, or give its streamable HTTP endpoint (often /mcp) as `url:`")
        else:
            http = ("; it looks like a server that speaks MCP over HTTP only "
                    f"({_short(repr(listens))}): start it on its own and give its address "
                    f"as `url:` in the config, or {stdio}" if listens else "")
        if not self.count:
            return http
        what = "a message that is not" if self.count == 1 else (
            f"{self.count} messages that are not")
        sample = f", the first: {self.first}" if self.first else ""
        if self.count > 1 and self.last and self.last != self.first:
            sample += f", the last: {self.last}"
        return f"; it wrote {what} JSON-RPC{sample}{http}"


def _listening(found: str | None, line: str) -> str | None:
    """`line` if it says where the server listens over HTTP and `found` does not name an
    endpoint, else `found`."""
    if (found is None or not _ENDPOINT.search(found)) and _LISTENS.search(line) and (
            found is None or _ENDPOINT.search(line)):
        return line
    return found


def _raw_input(exc: Exception) -> Any:
    """What a message that failed to parse was read from (a line, as text), or None."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        value = errors()[0].get("input")
    except (IndexError, TypeError, ValueError):
        return None
    if isinstance(value, bytes):  # as toolcat.mcp.wire reads a line
        value = value.decode("utf-8", "replace")
    return value


def _offending_input(value: Any) -> str | None:
    logged = _log_text(value)
    if logged is not None:  # a log line: its level and message, long enough for the cause
        return _short(repr(logged), LOG_LIMIT)
    if isinstance(value, str):
        value = plain(value)
    return _short(repr(value)) if value is not None else None


def _log_text(value: Any) -> str | None:
    """The level and message of a JSON log record a server wrote on stdout (pino's
    `{"level": "ERROR", ..., "message": "Failed to start ..."}`), or None."""
    said = record_text(value)
    return None if said is None else plain(said)[:SAID_CHARS]


def explain(leaf: BaseException, spec: ServerSpec, timeout: float, *,
            ended: str | None = None, when: str = "before it had listed its tools",
            asked: str | None = None) -> str | None:
    """A one-line account of a failure, or None when it is not the server's doing (a bug);
    `ended` says how a stdio server ended (`exited with status 1`), when it is known, `when`
    when the connection closed (serve's upstreams: `during the call`), and `asked` which
    request a server that timed out had not answered (`initialize`, `tools/list`)."""
    import httpx2
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED
    from pydantic import ValidationError

    who = f"MCP server '{spec.label}'"
    if isinstance(leaf, TimeoutError):
        if asked == "initialize":  # it never began to speak MCP
            return (f"{who} gave no answer to initialize within {timeout:g} s (a server that "
                    "first waits for a sign-in in a browser, for input on a terminal or for "
                    "a service it cannot reach stops there; one only slow to start needs a "
                    "longer timeout)")
        return f"{who} gave no answer{f' to {asked}' if asked else ''} within {timeout:g} s"
    if isinstance(leaf, FileNotFoundError) and spec.transport == "stdio":
        return f"cannot start MCP server '{spec.label}': no such command '{spec.command}'"
    if isinstance(leaf, OSError) and spec.transport == "stdio":
        return f"cannot start MCP server '{spec.label}': {leaf.strerror or leaf}"
    if isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
        gone = (ended or "exited") if spec.transport == "stdio" else "closed the connection"
        return f"{who} {gone} {when}"
    if isinstance(leaf, MCPError):
        return f"{who} answered with error {leaf.code}: {_short(leaf.error.message)}"
    if isinstance(leaf, httpx2.ConnectError):
        return f"cannot connect to MCP server at {spec.url}: {_short(str(leaf)) or 'refused'}"
    if isinstance(leaf, (httpx2.HTTPError, httpx2.InvalidURL)):
        return f"{who}: HTTP error: {_short(str(leaf))}"
    if isinstance(leaf, ValidationError):
        first = leaf.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{who} sent a malformed answer ({where}: {first.get('msg')})"
    return None


def root_cause(exc: BaseException) -> BaseException:
    """The first failure inside exception groups, past cancellations they caused."""
    if sys.version_info >= (3, 11):
        from builtins import BaseExceptionGroup as group
    else:  # pragma: no cover - anyio brings the backport on 3.10
        from exceptiongroup import BaseExceptionGroup as group
    while isinstance(exc, group):
        real = [e for e in exc.exceptions if not _is_cancellation(e)]
        exc = (real or list(exc.exceptions))[0]
    return exc


def _is_cancellation(exc: BaseException) -> bool:
    import anyio

    return isinstance(exc, anyio.get_cancelled_exc_class())


STDERR_READ = 1 << 18  # characters of a stderr file read: a flood is not read whole
STDERR_WIDTH = 400  # characters quoted of a stderr line: room for a list of valid values


def stderr_tail(errlog: Any) -> str:
    """What the server wrote on stderr that explains its failure, for an error message: the
    first lines that state an error (`Error: Cannot find module ...`, `ValueError: ...`), else
    the first that speak of one, else the first lines at all; never stack frames, a usage
    text's tail or npm's pointer to its log. Joined by " | ". `errlog`: a file, or a
    toolcat.mcp.wire.StderrTail."""
    from toolcat.mcp.wire import StderrTail

    if isinstance(errlog, StderrTail):
        shown = errlog.said()
    else:
        errlog.flush()
        errlog.seek(0)
        shown = meaningful_lines(errlog.read(STDERR_READ).splitlines())
    said = " | ".join(_short(line, STDERR_WIDTH) for line in shown)
    return f"; its stderr says: {said}" if said else ""


def start_failure_detail(errlog: Any, spec: ServerSpec, cause: BaseException,
                         stdout: str = "") -> str:
    """What the message of a server that failed before it was ready adds after saying how it
    failed: what it wrote on stderr (`_stderr_said`), and for a server that ended early, a
    service it could not reach (toolcat.mcp.network; read in `stdout` too, what it wrote
    there that was not JSON-RPC: a server that logs as JSON on stdout names the host there),
    then whether the Node version (toolcat.mcp.node) or the MCP Python SDK installed beside
    it (toolcat.mcp.python_sdk) is the cause. Every place that starts a
    server (`import mcp`, serve's upstreams) says it through this function, so they say the
    same. It may wait for the server's stderr to be read and run `node --version`: a few
    seconds at the most (wire.DRAIN_WAIT, node.VERSION_WAIT)."""
    from toolcat.mcp.network import network_hint
    from toolcat.mcp.node import node_hint
    from toolcat.mcp.python_sdk import sdk_hint

    said = _stderr_said(errlog, spec, cause)
    if _ended_early(errlog, cause):
        text = "\n".join(errlog.lines())
        # a service it could not reach is a cause seen on stderr; the Node version's a guess
        said += (network_hint(f"{text}\n{stdout}", spec.env, spec.args) + node_hint(spec, text)
                 + sdk_hint(spec, text) + usage_hint(f"{text}\n{stdout}"))
    return said


def _stderr_said(errlog: Any, spec: ServerSpec, cause: BaseException) -> str:
    """What the server wrote on stderr (`stderr_tail`), read to its end once it has ended;
    for a stdio server that ended by itself without a word there, that it did and the
    command line toolcat ran (ServerSpec.command_line, secrets redacted), for the user to run
    it and see what it does."""
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    from toolcat.mcp.wire import StderrTail

    drained = isinstance(errlog, StderrTail) and errlog.drained()
    said = stderr_tail(errlog)
    notes = errlog.notes if isinstance(errlog, StderrTail) else []
    if notes:
        said += ("; on stdout it sent what MCP does not define (method: text): "
                 + " | ".join(_short(note, STDERR_WIDTH) for note in notes))
    if said or not drained or errlog.total or not (
            isinstance(cause, MCPError) and cause.code == CONNECTION_CLOSED):
        return said
    return f"; it wrote nothing on stderr; toolcat ran: {spec.command_line()}"


def _ended_early(errlog: Any, cause: BaseException) -> bool:
    """Whether a stdio server ended by itself before it was ready, its stderr read."""
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    from toolcat.mcp.wire import StderrTail

    return (isinstance(errlog, StderrTail) and isinstance(cause, MCPError)
            and cause.code == CONNECTION_CLOSED)


def _fallback_name(spec: ServerSpec) -> str:
    if spec.transport == "http":
        parts = split_url(spec.url)
        return (parts.hostname if parts else None) or "server"
    return Path(spec.command).stem or "server"


# lines of what a server wrote on stdout that was not JSON-RPC, kept whole: a usage text's
SAID_LINES = 64
SAID_CHARS = 4096  # characters of each
LOG_LIMIT = 320  # characters of a log line's message quoted: its cause comes last


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quiet_sdk_logging() -> None:
    """The SDK logs transport noise (tracebacks for every garbled line); toolcat reports
    failures itself, so without a logging set-up of the caller's, that noise stays silent."""
    logger = logging.getLogger("mcp")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
