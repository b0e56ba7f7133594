"""Calls of OpenAPI operations, relayed by `toolcat serve` to the HTTP API the document
describes (httpx), as MCP tool results.

The request is built by toolcat.serve.openapi_request (the address: the user's --base-url
for the API, else the document's server; credentials from serve's environment). The answer:

- a success (2xx) is the body as text; when it is JSON and the operation declares a JSON
  response schema, also as `structuredContent`, as the tool's `outputSchema` says (the
  import lists one when every success response declares the same JSON schema;
  toolcat.catalog.openapi): an object as is, or under `result` when the schema is not an
  object's (MCP's structured content is an object). serve checks it against that schema
  as it checks an MCP server's (toolcat.serve.contract). Without an outputSchema, an object
  is given as is and anything else under `result`;
- another status is an error result naming the API, the status and the operation, with the
  start of the body;
- a call gets the call timeout (--call-timeout) in all, connection included; a body larger
  than MAX_BODY bytes is not read. Redirects are not followed (they could carry a credential
  elsewhere), and nothing of the environment's HTTP settings (proxies, .netrc) is used.

Each API has one httpx client for the life of the session (`async with apis:` closes them),
so its connections are kept and reused from call to call rather than opened for each; all
share one SSL context, made on the first call. The clients keep no cookies: a cookie an API
sets must not ride along on a later call, where it could stand in for a credential the
environment no longer gives.

Credentials are scrubbed from every message (the session's Secrets).
"""

from __future__ import annotations

import json
import os
import ssl
import time
from collections.abc import Mapping
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any
from urllib.parse import urlencode

import anyio
import mcp_types as types

from toolcat.model import Catalog, Tool
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets
from toolcat.serve.openapi_request import Request, RequestError, build_request, operation
from toolcat.serve.upstream import Relayed, UpstreamError

MAX_BODY = 16 * 2**20  # bytes of one response read, as for a stdio server's message
MAX_ERROR_TEXT = 2_000  # characters of an error response's body quoted to the client
_TEXTUAL = ("text/", "application/json", "application/xml", "application/yaml",
            "application/x-www-form-urlencoded", "application/javascript")


class HttpApis:
    """The HTTP APIs of a serve session: `async with apis:` for the session, then
    `await apis.call(catalog, tool, arguments)`."""

    def __init__(self, *, timeout: float = DEFAULT_CALL_TIMEOUT,
                 secrets: Secrets | None = None, base_urls: Mapping[str, str] | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.timeout = timeout
        self.secrets = secrets or Secrets()
        self.base_urls = dict(base_urls or {})
        self.environ = environ
        self._tls: Any = None  # the SSL context every API's client shares (made once)
        self._clients: dict[str, Any] = {}  # API -> its httpx.AsyncClient, made on first use

    async def __aenter__(self) -> HttpApis:
        return self

    async def __aexit__(self, *exc: object) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            with anyio.CancelScope(shield=True):
                await client.aclose()

    @staticmethod
    def handles(tool: Tool) -> bool:
        """Whether `tool` is an OpenAPI operation (called over HTTP, not through MCP)."""
        return operation(tool) is not None

    async def call(self, catalog: Catalog, tool: Tool, arguments: Mapping[str, Any]
                   ) -> Relayed[types.CallToolResult]:
        """Send the call of `tool` to its API and return the answer as a tool result.

        Raises:
            UpstreamError: the request could not be made or sent, or got no answer in time.
        """
        server = catalog.server(tool.server)
        settings = server.extra.get("openapi") if server is not None else None
        try:
            request = build_request(tool, arguments,
                                    settings if isinstance(settings, Mapping) else {},
                                    self.base_urls.get(tool.server),
                                    os.environ if self.environ is None else self.environ)
        except RequestError as exc:
            raise UpstreamError(self.secrets.scrub(f"cannot call {tool.name}: {exc}")) from None
        self.secrets.add(request.secrets)
        client = await self._client(request.api)
        sent = time.perf_counter()
        try:
            with anyio.fail_after(self.timeout):
                status, reason, kind, body = await _send(client, request)
        except TimeoutError:
            raise UpstreamError(f"API '{request.api}' did not answer {request.operation} "
                                f"within {self.timeout:g} s") from None
        except _TooLarge as exc:
            raise UpstreamError(f"API '{request.api}' answered {request.operation} with more "
                                f"than {MAX_BODY:,} bytes ({exc}); it was not read") from None
        except Exception as exc:  # httpx's transport errors, invalid URLs or headers
            raise UpstreamError(self.secrets.scrub(
                f"cannot reach API '{request.api}' for {request.operation}: "
                f"{type(exc).__name__}: {exc}")) from None
        result = self._result(request, status, reason, kind, body)
        return Relayed(result, None, (time.perf_counter() - sent) * 1000)

    async def _client(self, api: str) -> Any:
        """The client of `api`, whose pool keeps its connections between calls."""
        import httpx

        if self._tls is None:  # loading the CA certificates takes 0.1 s: once, off the loop
            self._tls = await anyio.to_thread.run_sync(ssl.create_default_context)
        client = self._clients.get(api)
        if client is None:
            client = self._clients[api] = httpx.AsyncClient(
                follow_redirects=False, trust_env=False, timeout=None, verify=self._tls,
                cookies=_no_cookies())
        return client

    def _result(self, request: Request, status: int, reason: str, kind: str,
                body: bytes) -> types.CallToolResult:
        text = _text(body, kind)
        if not 200 <= status < 300:
            quoted = text[:MAX_ERROR_TEXT] + ("…" if len(text) > MAX_ERROR_TEXT else "")
            said = (f"API '{request.api}' answered HTTP {status} {reason} to "
                    f"{request.operation}" + (f": {quoted}" if quoted.strip() else ""))
            return types.CallToolResult(content=[types.TextContent(
                type="text", text=self.secrets.scrub(said))], is_error=True)
        structured: dict[str, Any] | None = None
        if request.structured and _is_json(kind) and body:
            try:
                value = json.loads(body)
            except ValueError:
                pass  # none: a listed outputSchema's check says so
            else:
                if isinstance(value, dict) and request.structured in ("object", "either"):
                    structured = value
                elif request.structured in ("result", "either"):
                    structured = {"result": value}
        if not body:
            text = f"HTTP {status} {reason}".strip()
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=structured)


class _TooLarge(Exception):
    pass


def _no_cookies() -> CookieJar:
    """A cookie jar that accepts no cookie from any domain."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


async def _send(client: Any, request: Request) -> tuple[int, str, str, bytes]:
    """(status, reason, content type, body) of `request` sent with `client`, the body read
    up to MAX_BODY."""
    headers, extra = request.headers, dict[str, Any]()
    if request.has_body and request.media == "application/x-www-form-urlencoded":
        headers = {**headers, "Content-Type": request.media}
        extra["content"] = urlencode(request.body).encode()
    elif request.has_body and request.media == "multipart/form-data":
        extra["files"] = [(name, (None, value)) for name, value in request.body]
    elif request.has_body:
        extra["json"] = request.body
    async with client.stream(request.method, request.url, params=tuple(request.params),
                             headers=headers, **extra) as response:
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > MAX_BODY:
                raise _TooLarge(f"at least {size:,}")
            chunks.append(chunk)
        kind = response.headers.get("content-type", "")
        return response.status_code, response.reason_phrase, kind, b"".join(chunks)


def _is_json(kind: str) -> bool:
    media = kind.split(";")[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def _text(body: bytes, kind: str) -> str:
    media = kind.split(";")[0].strip().lower()
    if body and media and not (media.startswith(_TEXTUAL) or _is_json(media)
                               or media.endswith("+xml")):
        return f"[{len(body):,} bytes of {media}]"
    charset = "utf-8"
    for part in kind.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            charset = value.strip('"')
    try:
        return body.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return body.decode("utf-8", errors="replace")
