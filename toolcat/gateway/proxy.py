"""The running gateway: an ASGI app between an agent and its provider's API.

A request to one of the three APIs (toolcat.gateway.apis) is checked, its tools[] rewritten
(toolcat.gateway.rewrite) and sent upstream; when the strategy has a search tool, the gateway
answers the model's calls of it itself, up to MAX_ROUNDS times, and the client sees only the
final reply. Any other path is forwarded unchanged. The client's headers, its API key
included, go upstream untouched (less hop-by-hop headers and the gateway's own token); no
header is ever logged.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from toolcat.errors import MissingExtraError, UsageError
from toolcat.gateway.apis import APIS, Api, BadRequest, Body, Call, assemble
from toolcat.gateway.outputs import TOOL, read_tool, shorten
from toolcat.gateway.outputs import answer as outputs_answer
from toolcat.gateway.rewrite import rewrite
from toolcat.gateway.sessions import Conversation, Sessions, session_key
from toolcat.model import Tool
from toolcat.providers.tokens import count_tokens
from toolcat.resolution.gateway import gateway_search
from toolcat.resolution.profile import Gateway
from toolcat.search.ranking import Scorer
from toolcat.threads import waited
from toolcat.urls import split_url

MAX_ROUNDS = 5  # searches answered in a row before the reply goes to the client as it is
MAX_BODY = 32 << 20  # bytes of a request body, and of a reply the gateway reads whole
TOKEN_HEADER = "x-toolcat-token"
MAX_SCORERS = 32  # request tool sets whose scorer is kept (agents resend the same tools)
MAX_COUNTED = 8192  # tool definitions whose token count is kept
HOP_BY_HOP = {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "te",
              "trailer", "upgrade", "proxy-authorization", "proxy-connection",
              "accept-encoding", TOKEN_HEADER}
REPLY_DROPPED = {"content-length", "content-encoding", "transfer-encoding", "connection",
                 "keep-alive"}


@dataclass(frozen=True)
class Settings:
    """How the gateway runs: where to, with which gateway settings, who may call it."""

    upstream: str
    gateway: Gateway
    scorer: str | None = None  # relevance's evidence; None: toolcat's default scorer
    timeout: float = 300.0  # seconds an upstream answer may take (per read while streaming)
    connect_timeout: float = 10.0
    log: Path | None = None
    token: str | None = None
    hosts: Collection[str] = ()  # names a Host or Origin header may carry
    unsafe: Collection[str] = ()  # tool names the profile leaves out


@dataclass
class Record:
    """One request's log line (toolcat.gateway.proxy.Record.to_json is the documented shape)."""

    api: str
    path: str
    started: float = field(default_factory=time.perf_counter)
    model: str | None = None
    strategy: str | None = None
    rule: str | None = None
    tools_in: int = 0
    tools_out: int = 0
    unsafe: int = 0
    rounds: int = 0
    searches: list[str] = field(default_factory=list)
    tokens_saved: int = 0
    outputs_shortened: int = 0
    status: int = 0
    stream: bool = False
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "api": self.api,
                "path": self.path, "model": self.model, "strategy": self.strategy,
                "rule": self.rule, "tools_in": self.tools_in, "tools_out": self.tools_out,
                "unsafe_left_out": self.unsafe, "search_rounds": self.rounds,
                "searches": self.searches, "tokens_saved": self.tokens_saved,
                "outputs_shortened": self.outputs_shortened,
                "upstream_status": self.status, "stream": self.stream, "error": self.error,
                "ms": round((time.perf_counter() - self.started) * 1000, 1)}


class Upstream(Exception):
    """The upstream could not be reached (502) or did not answer in time (504)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Reply:
    """An upstream reply read whole."""

    status_code: int
    headers: Any
    content: bytes

    def json(self) -> Any:
        return json.loads(self.content)


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()


class GatewayApp:
    """The ASGI application (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sessions = Sessions()
        self._token = _digest(settings.token) if settings.token is not None else None
        self._hosts = {h.lower().strip("[]") for h in settings.hosts}
        self._client: Any = None
        self._scorers: OrderedDict[str, Scorer | None] = OrderedDict()
        self._scorer_lock = threading.Lock()
        self._counted: OrderedDict[bytes, int] = OrderedDict()
        self._log_lock = threading.Lock()

    # ---- ASGI ----------------------------------------------------------------------------

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        from starlette.requests import Request

        request = Request(scope, receive)
        path = scope.get("path", "")
        api = APIS.get(path) or APIS.get(f"/v1{path}")
        refused = self._refusal(request)
        if refused is not None:
            status, message = refused
            response = _error_response(api or APIS["/v1/messages"], status, message)
            await response(scope, receive, send)
            return
        if api is None or request.method != "POST":
            response = await self._forward_unchanged(request)
        else:
            response = await self._handle(api, request)
        await response(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._client is not None:
                    await self._client.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _refusal(self, request: Any) -> tuple[int, str] | None:
        """Host and Origin as serve --http checks them, then the token."""
        host = (request.headers.get("host") or "").lower()
        if _hostname(host) not in self._hosts:
            return 421, f"the Host header '{host}' is not a name of this gateway"
        origin = request.headers.get("origin")
        origin_parts = split_url(origin) if origin is not None else None
        if origin is not None and (origin_parts is None or _hostname(
                origin_parts.netloc.lower()) not in self._hosts):
            return 403, "requests from a web page of another origin are refused"
        if self._token is not None and not hmac.compare_digest(
                _digest(request.headers.get(TOKEN_HEADER, "")), self._token):
            return 401, (f"send the gateway's token in the {TOKEN_HEADER} header (the "
                         "provider's key goes in its usual header, untouched)")
        return None

    # ---- the three APIs --------------------------------------------------------------------

    async def _handle(self, api: Api, request: Any) -> Any:
        record = Record(api.name, request.url.path)
        try:
            return await self._answer(api, request, record)
        except Exception as exc:  # a fault of the gateway's own: one line, never a traceback
            record.status, record.error = 500, f"the gateway failed: {type(exc).__name__}"
            return _error_response(api, 500, record.error)
        finally:
            self._log(record)

    async def _answer(self, api: Api, request: Any, record: Record) -> Any:
        raw = await _read_bounded(request)
        if raw is None:
            record.error = "the request body is larger than 32 MB"
            return _error_response(api, 413, record.error)
        try:
            body = api.check(json.loads(raw))
        except (ValueError, RecursionError) as exc:
            problem = str(exc) if isinstance(exc, BadRequest) else \
                "the body is not valid JSON"
            record.error = problem
            return _error_response(api, 400, problem)
        request_body = body
        record.model, record.stream = body.get("model"), body.get("stream") is True
        gateway = self.settings.gateway
        record.strategy = gateway.strategy
        credential = " ".join(request.headers.get(h, "") for h in ("authorization",
                                                                   "x-api-key"))
        conversation = self.sessions.get(session_key(api.name, credential,
                                                     api.first_user(body)))
        unsafe = set(self.settings.unsafe)
        items = body.get("tools") or ()
        # the tools as JSON, once: their digest keys the relevance scorer, their tokens the log
        texts = {id(item): json.dumps(item, ensure_ascii=False) for item in items} \
            if gateway.enabled and gateway.strategy == "relevance" else {}
        tools_key = hashlib.sha256("\0".join(texts.values()).encode(
            "utf-8", "surrogatepass")).hexdigest()
        done = await asyncio.to_thread(
            rewrite, api, body, gateway, expanded=conversation.expanded,
            stored=dict(conversation.deferred), unsafe=lambda t: t.name in unsafe,
            evidence=lambda tools: self._evidence(tools, tools_key))
        self.sessions.defer(conversation, {t.name: t.raw for t in done.deferred})
        record.rule, record.tools_in, record.tools_out = done.rule, done.tools_in, done.tools_out
        record.unsafe = len(done.unsafe)
        if done.body is not body:
            def text(item: Any) -> str:
                return texts.get(id(item)) or json.dumps(item, ensure_ascii=False)

            record.tokens_saved = self._tokens(map(text, items)) - self._tokens(
                map(text, done.body.get("tools") or ()))
        body, kept = _offload(api, done.body)
        record.outputs_shortened = len(kept)
        own = {name for name in (done.phantom, TOOL if kept else None) if name}
        headers = _forwarded(request.headers)
        url = self._url(request)
        as_sent = raw if body is done.body is request_body else None  # nothing changed
        try:
            if not own:
                if record.stream:
                    return await self._stream(url, headers, body, record, as_sent)
                return await self._once(url, headers, body, record, as_sent)
            return await self._loop(api, url, headers, body, own, list(done.deferred), kept,
                                    conversation, record)
        except Upstream as exc:
            record.status, record.error = exc.status, str(exc)
            return _error_response(api, exc.status, str(exc))

    async def _once(self, url: str, headers: dict[str, str], body: Any, record: Record,
                    raw: bytes | None = None) -> Any:
        from starlette.responses import Response

        reply = await self._post(url, headers, body, raw)
        record.status = reply.status_code
        return Response(reply.content, reply.status_code, _reply_headers(reply.headers))

    async def _stream(self, url: str, headers: dict[str, str], body: Any, record: Record,
                      raw: bytes | None = None) -> Any:
        from starlette.responses import StreamingResponse

        client = self._http()
        request = client.build_request("POST", url, headers=headers,
                                       content=raw or json.dumps(body).encode())
        reply = await self._send(request, stream=True)
        record.status = reply.status_code

        async def relay() -> AsyncIterator[bytes]:
            import httpx

            try:
                async for chunk in reply.aiter_bytes():
                    yield chunk
            except httpx.HTTPError as exc:  # the status is sent: the stream can only end
                record.error = f"the upstream stream broke: {type(exc).__name__}"
            finally:
                await reply.aclose()

        return StreamingResponse(relay(), reply.status_code, _reply_headers(reply.headers))

    async def _loop(self, api: Api, url: str, headers: dict[str, str], body: Body,
                    own: set[str], deferred: list[Tool], kept: dict[str, str],
                    conversation: Conversation, record: Record) -> Any:
        """Send, answer the model's calls of the gateway's own tools (`own`), send again;
        return the first reply that calls none of them (or calls others beside them, or
        comes after MAX_ROUNDS rounds)."""
        from starlette.responses import Response

        while True:
            reply = await self._post(url, headers, body)
            record.status = reply.status_code
            as_is = Response(reply.content, reply.status_code, _reply_headers(reply.headers))
            if reply.status_code >= 400:
                return as_is
            try:
                parsed = assemble(api, reply.content) if record.stream else reply.json()
            except (ValueError, RecursionError):
                return as_is
            calls = api.calls(parsed)
            ours = [c for c in calls if c.name in own]
            if not ours:
                return as_is
            if len(ours) < len(calls) or record.rounds >= MAX_ROUNDS:
                if record.stream:  # a stream cannot be edited after the fact: end it as is
                    return as_is
                return Response(json.dumps(api.strip(parsed, own)).encode(),
                                reply.status_code, _reply_headers(reply.headers))
            record.rounds += 1
            tools = list(body.get("tools") or ())
            shown = {api.tool_name(t) for t in tools if api.is_function(t)}
            added: list[Tool] = []
            answers: list[tuple[Call, str]] = []
            for call in ours:
                if call.name == TOOL:
                    answer = outputs_answer(kept, call.arguments)
                else:
                    answer = await self._search(call, deferred, conversation, record)
                    added += [t for t in answer.pop("found_tools") if t.name not in shown]
                    shown.update(t.name for t in added)
                answers.append((call, json.dumps(answer, ensure_ascii=False)))
            body = api.go_on(body, parsed, answers)
            if added:
                mine = [t for t in tools if api.is_function(t) and api.tool_name(t) in own]
                others = [t for t in tools if t not in mine]
                body = {**body, "tools": [*others, *(t.raw for t in added), *mine]}

    async def _search(self, call: Call, deferred: list[Tool], conversation: Conversation,
                      record: Record) -> dict[str, Any]:
        """The gateway search tool's answer (and, under `found_tools`, what it found)."""
        query = call.arguments.get("query") if isinstance(call.arguments, dict) else None
        if not isinstance(query, str):
            return {"error": f"invalid arguments for {call.name}: 'query' is a required "
                    "string", "found_tools": []}
        record.searches.append(query[:200])
        searched = await asyncio.to_thread(gateway_search, self.settings.gateway, deferred,
                                           query)
        conversation.expand(t.name for t in searched.found)
        return {"found": len(searched.found),
                "tools": [{"name": t.name, "description": t.description}
                          for t in searched.found],
                "message": searched.message, "found_tools": list(searched.found)}

    # ---- upstream ----------------------------------------------------------------------------

    def _http(self) -> Any:
        import httpx

        if self._client is None:
            timeout = httpx.Timeout(self.settings.timeout,
                                    connect=min(self.settings.connect_timeout,
                                                self.settings.timeout))
            self._client = httpx.AsyncClient(timeout=timeout, follow_redirects=False)
        return self._client

    def _url(self, request: Any) -> str:
        base = self.settings.upstream.rstrip("/")
        query = str(request.url.query)
        return base + str(request.url.path) + (f"?{query}" if query else "")

    async def _send(self, request: Any, *, stream: bool = False) -> Any:
        import httpx

        try:
            return await self._http().send(request, stream=stream)
        except httpx.TimeoutException:
            raise Upstream(504, f"the upstream did not answer within "
                                f"{self.settings.timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise Upstream(502, f"the upstream cannot be reached: {type(exc).__name__}"
                           ) from None

    async def _post(self, url: str, headers: dict[str, str], body: Any,
                    raw: bytes | None = None) -> Reply:
        """The upstream's whole reply to `body` (`raw`: its bytes as the client sent them),
        read to MAX_BODY bytes."""
        request = self._http().build_request("POST", url, headers=headers,
                                             content=raw or json.dumps(body).encode())
        reply = await self._send(request, stream=True)
        try:
            chunks, size = [], 0
            async for chunk in reply.aiter_bytes():
                size += len(chunk)
                if size > MAX_BODY:
                    raise Upstream(502, "the upstream's reply is larger than 32 MB")
                chunks.append(chunk)
        except Upstream:
            raise
        except Exception as exc:
            import httpx

            if isinstance(exc, httpx.TimeoutException):
                raise Upstream(504, f"the upstream did not finish within "
                                    f"{self.settings.timeout:g} s") from None
            if isinstance(exc, httpx.HTTPError):
                raise Upstream(502, f"the upstream's reply broke off: {type(exc).__name__}"
                               ) from None
            raise
        finally:
            await reply.aclose()
        return Reply(reply.status_code, reply.headers, b"".join(chunks))

    async def _forward_unchanged(self, request: Any) -> Any:
        from starlette.responses import Response

        raw = await _read_bounded(request)
        if raw is None:
            return _error_response(APIS["/v1/messages"], 413,
                                   "the request body is larger than 32 MB")
        upstream = self._http().build_request(request.method, self._url(request),
                                              headers=_forwarded(request.headers), content=raw)
        try:
            reply = await self._send(upstream)
        except Upstream as exc:
            return _error_response(APIS["/v1/messages"], exc.status, str(exc))
        return Response(reply.content, reply.status_code, _reply_headers(reply.headers))

    # ---- evidence and log ----------------------------------------------------------------------

    @property
    def loads_model(self) -> bool:
        """Whether `warm_up` loads an embedding model (relevance with a semantic scorer)."""
        from toolcat.search import SEMANTIC, default_scorer

        return (self.settings.gateway.enabled and self.settings.gateway.strategy == "relevance"
                and (self.settings.scorer or default_scorer(1)[0]) in SEMANTIC)

    def warm_up(self) -> None:
        """Load what the first request would wait for: the relevance scorer's model (a
        semantic scorer loads it on first use) and the tokenizer."""
        count_tokens("warm up")
        if self.settings.gateway.enabled and self.settings.gateway.strategy == "relevance":
            self._evidence([Tool(name="warm_up", description="Load the scorer's model.")],
                           "warm-up")

    def _tokens(self, texts: Iterable[str]) -> int:
        """The tokens of these tool definitions (JSON texts), each counted once and kept by
        its digest: agents resend the same tools with every request."""
        total = 0
        for text in texts:
            key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
            found = self._counted.get(key)
            if found is None:
                found = self._counted[key] = count_tokens(text)
                while len(self._counted) > MAX_COUNTED:
                    self._counted.popitem(last=False)
            total += found
        return total

    def _evidence(self, tools: Sequence[Tool], key: str) -> Scorer | None:
        """The scorer over these tools (the function tools of the request whose tools[]
        digest is `key`), kept for the next request with the same tools."""
        from toolcat.search.index import scorer_for

        with self._scorer_lock:
            if key in self._scorers:
                self._scorers.move_to_end(key)
                return self._scorers[key]
            scorer = scorer_for(self.settings.scorer, tools, embeddings="now")
            self._scorers[key] = scorer
            while len(self._scorers) > MAX_SCORERS:
                self._scorers.popitem(last=False)
            return scorer

    def _log(self, record: Record) -> None:
        if self.settings.log is None:
            return
        line = json.dumps(record.to_json(), ensure_ascii=False) + "\n"
        with self._log_lock, self.settings.log.open("a", encoding="utf-8") as handle:
            handle.write(line)


def _offload(api: Api, body: Body) -> tuple[Body, dict[str, str]]:
    """`body` with its large tool results shortened and search_large_output added (unless
    the client has a tool of that name), and the full texts by id."""
    kept: dict[str, str] = {}
    tools = list(body.get("tools") or ())
    if any(api.is_function(t) and api.tool_name(t) == TOOL for t in tools):
        return body, kept
    shortened = api.shorten_results(body, lambda text: shorten(text, kept))
    if not kept:
        return body, kept
    return {**shortened, "tools": [*tools, api.write(read_tool())]}, kept


def _hostname(netloc: str) -> str:
    """`host` of `host:port`, `[v6]:port` or `host`."""
    if netloc.startswith("["):
        return netloc[1:].split("]", 1)[0]
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


async def _read_bounded(request: Any) -> bytes | None:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _forwarded(headers: Any) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}


def _reply_headers(headers: Any) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in REPLY_DROPPED}


def _error_response(api: Api, status: int, message: str) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse(api.error(status, message), status)


def run(settings: Settings, host: str, port: int,
        ready: Callable[[str, int], None] | None = None,
        loading: Callable[[], AbstractContextManager[object]] | None = None) -> None:
    """Serve the gateway on host:port until interrupted (`ready` gets the bound address).
    `loading` makes what shows, before `ready`, that the relevance scorer's model loads
    (`toolcat gateway`'s status line on a terminal).

    Raises:
        MissingExtraError: starlette, uvicorn or httpx is not installed.
        UsageError: the address cannot be listened on.
    """
    import importlib.util
    import socket

    if any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn",
                                                               "httpx")):
        raise MissingExtraError("toolcat gateway", "gateway")
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, or asyncio leaves Nagle on for the accepted connections (it sets
    # TCP_NODELAY only for sockets whose proto says TCP): 40 ms more per reply
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    # listening before `ready` says the address: a client that connects at once waits in the
    # backlog until uvicorn accepts, instead of being refused while it starts
    sock.listen(2048)  # uvicorn's own backlog
    bound = sock.getsockname()[1]
    app = GatewayApp(settings)
    with (loading if loading is not None and app.loads_model else nullcontext)():
        waited(app.warm_up, "toolcat-gateway-warm-up")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=5))
    try:
        with _ctrl_c_stops(server):
            if ready is not None:
                ready(host, bound)
            server.run(sockets=[sock])
    finally:
        sock.close()


@contextmanager
def _ctrl_c_stops(server: Any) -> Iterator[None]:
    """Ctrl-C, from the address shown until uvicorn sets its own handler (and once it has put
    this one back), asks the server to stop, as uvicorn's handler does, instead of raising
    KeyboardInterrupt wherever the main thread is: raised while asyncio builds its event loop,
    it left a half-made loop whose __del__ printed a traceback on the way out."""
    if threading.current_thread() is not threading.main_thread():  # no signal comes here
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        server.should_exit = True

    previous = signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
