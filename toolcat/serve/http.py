"""Who may talk to `toolcat serve --http`, checked on every request before the SDK sees it.

- Host and Origin: on every address, a request whose `Host` is not a name of the address
  serve listens on (or whose `Origin`, when a browser sends one, is not such a name) is
  refused (421, 403): a web page cannot reach serve through a name it controls (DNS
  rebinding). Loopback addresses accept `localhost` and their own address; a wildcard address
  (0.0.0.0, ::) accepts the machine's names and addresses; `--allow-host` adds more.
- Token: with one, every request must carry `Authorization: Bearer TOKEN` (compared in
  constant time, as digests, so neither the content nor the length leaks through timing);
  else 401. Listening beyond loopback without a token is refused before the socket opens
  (`require_token`).
- Sessions: the handshake-era protocol gives each client its own session id (the SDK draws
  a UUID4: 122 random bits). Here the id is bound to the client that opened it (its address and
  credential): the same id from anyone else, or after the session closed, is 404, as the SDK
  answers an unknown session. One client holds at most MAX_CLIENT_SESSIONS open sessions
  (429 beyond), so no client can take all MAX_SESSIONS and lock the others out; a session
  idle for IDLE_SESSION seconds is closed. Without a token, a client is its address alone
  (an Authorization header it varies does not make it another client).
- Protocol era: a 2026-07-28 request (stateless: no handshake, no session id) is passed to
  the SDK's single-exchange path with its owner (address and credential) in the ASGI scope's
  state (OWNER_KEY), where toolcat.serve.clients finds the gate of the client that sent it:
  in add mode what a client added outlives its request without a session to keep it in.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import json
import socket
from collections import OrderedDict
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.errors import UsageError

TOKEN_ENV = "TOOLCAT_SERVE_TOKEN"
MIN_TOKEN = 16  # characters: shorter ones can be guessed
MAX_SESSIONS = 100  # open sessions at once; each holds its own resolution of the catalog
MAX_CLIENT_SESSIONS = 10  # of them opened by one client (address and credential)
IDLE_SESSION = 300.0  # seconds: a session with no request for this long is closed
SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
OWNER_KEY = "toolcat.owner"  # a 2026-07-28 request's owner, in its ASGI scope's state


@dataclass(frozen=True)
class Address:
    """Where serve listens, and whether that is only this machine."""

    host: str  # as given
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address

    @property
    def loopback(self) -> bool:
        return self.ip.is_loopback

    @property
    def wildcard(self) -> bool:
        return self.ip.is_unspecified


def address(host: str) -> Address:
    """The address `host` binds to (`127.1` is 127.0.0.1, a name is looked up once).

    Raises:
        UsageError: the host is no address of this machine's reach.
    """
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM,
                                   flags=socket.AI_NUMERICSERV)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--http: cannot use the host '{host}': "
                         f"{getattr(exc, 'strerror', None) or exc}") from None
    # IPv4 first, as a plain socket resolves a name: `localhost` is 127.0.0.1
    first = min(found, key=lambda info: info[0] != socket.AF_INET)
    return Address(host, ipaddress.ip_address(str(first[4][0]).split("%")[0]))


def require_token(where: Address, token: str | None) -> None:
    """Refuse to listen beyond loopback without a token, or with a guessable one.

    Raises:
        UsageError: no token where one is needed, or a short one.
    """
    if token is not None and len(token) < MIN_TOKEN:
        raise UsageError(f"the serve token has {len(token)} characters; use at least "
                         f"{MIN_TOKEN} random ones (e.g. `python -c \"import secrets; "
                         "print(secrets.token_urlsafe(32))\"`)")
    if token is None and not where.loopback:
        reach = "every interface of this machine" if where.wildcard else f"{where.ip}"
        raise UsageError(f"--http {where.host} listens on {reach}, beyond this machine's "
                         f"loopback: give a token with --token or ${TOKEN_ENV} (clients then "
                         "send 'Authorization: Bearer TOKEN'), or listen on 127.0.0.1")


def host_names(where: Address, extra: Iterable[str] = ()) -> list[str]:
    """The names a Host header may carry for `where` (without the port)."""
    names = {where.host, str(where.ip), *extra}
    if where.loopback or where.wildcard:
        names.update({"localhost", "127.0.0.1", "::1"})
    if where.wildcard:
        hostname = socket.gethostname()
        names.update({hostname, socket.getfqdn()})
        with contextlib.suppress(OSError):
            names.update(str(info[4][0]) for info in socket.getaddrinfo(hostname, None))
    return sorted(f"[{name}]" if ":" in name and not name.startswith("[") else name
                  for name in names if name)


def security_settings(names: Sequence[str]) -> Any:
    """The SDK's Host/Origin check for `names`, any port."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = [*names, *(f"{name}:*" for name in names)]
    origins = [f"{scheme}://{name}{port}" for name in names for scheme in ("http", "https")
               for port in ("", ":*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()


class Guard:
    """The ASGI app in front of the SDK's: Host/Origin, token, session binding, era."""

    def __init__(self, app: Any, settings: Any, token: str | None,
                 live: Callable[[], Container[str]] = frozenset) -> None:
        from mcp.server.transport_security import TransportSecurityMiddleware

        self.app = app
        self.security = TransportSecurityMiddleware(settings)
        self._token = _digest(f"Bearer {token}") if token is not None else None
        self._owners: OrderedDict[str, bytes] = OrderedDict()
        self._live = live  # the ids of the sessions the SDK holds open

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.requests import Request

        request = Request(scope, receive)
        refused = await self.security.validate_request(request)
        if refused is not None:
            await refused(scope, receive, send)
            return
        headers = request.headers
        credential = _digest(headers.get("authorization", ""))
        if self._token is not None and not hmac.compare_digest(credential, self._token):
            await _respond(send, 401, {"error": "unauthorized: send 'Authorization: Bearer "
                                                "TOKEN' with the token toolcat serve was "
                                                "started with"},
                           [(b"www-authenticate", b'Bearer realm="toolcat serve"')])
            return
        client = scope.get("client") or ("", 0)
        who = credential if self._token is not None else b""
        owner = hashlib.sha256(who + b"\0" + str(client[0]).encode()).digest()
        version = headers.get(VERSION_HEADER)
        if version is not None and version not in _handshake_versions():
            # the SDK's single-exchange path (a version it does not know is refused there)
            await self.app({**scope, "state": {**scope.get("state", {}), OWNER_KEY: owner}},
                           receive, send)
            return
        session = headers.get(SESSION_HEADER)
        if session is not None:
            known = self._owners.get(session)
            if known is None or not hmac.compare_digest(known, owner):
                await _respond(send, 404, {"jsonrpc": "2.0", "id": None, "error": {
                    "code": -32600, "message": "Session not found"}})
                return
            if request.method == "DELETE":
                del self._owners[session]
            await self.app(scope, receive, send)
            return

        if self._open_sessions(owner) >= MAX_CLIENT_SESSIONS:
            await _respond(send, 429, {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": f"too many open sessions from this client "
                f"({MAX_CLIENT_SESSIONS}): end one (DELETE with its mcp-session-id) or "
                f"leave one idle for {IDLE_SESSION / 60:g} minutes"}})
            return

        async def opened(message: Any) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                for key, value in message.get("headers", []):
                    if key.decode("latin-1").lower() == SESSION_HEADER:
                        self._own(value.decode("latin-1"), owner)
            await send(message)

        await self.app(scope, receive, opened)

    def _open_sessions(self, owner: bytes) -> int:
        """How many sessions `owner` holds open (those the SDK closed are forgotten)."""
        live = self._live()
        for gone in [s for s in self._owners if s not in live]:
            del self._owners[gone]
        return sum(1 for o in self._owners.values() if hmac.compare_digest(o, owner))

    def _own(self, session: str, owner: bytes) -> None:
        self._owners[session] = owner
        while len(self._owners) > 4 * MAX_SESSIONS:  # sessions that expired unseen
            self._owners.popitem(last=False)


def _handshake_versions() -> tuple[str, ...]:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    return tuple(HANDSHAKE_PROTOCOL_VERSIONS)


async def _respond(send: Any, status: int, body: dict[str, Any],
                   headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()), *headers]})
    await send({"type": "http.response.body", "body": data})
