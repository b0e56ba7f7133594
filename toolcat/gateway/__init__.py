"""`toolcat gateway`: toolcat as a proxy in front of a provider's API (the Anthropic Messages
API, OpenAI Chat Completions and Responses), rewriting each request's tools[] with the
profile's gateway settings, by the same code `resolve --profile gateway-*` replays.

    from toolcat.gateway import Settings, run
    run(Settings(upstream="https://api.anthropic.com", gateway=profile.gateway), "127.0.0.1", 8787)

The HTTP stack (starlette, uvicorn, httpx: the `gateway` extra) is imported when the gateway
runs, not with this package.

Imports only rooms below it (serve, resolution, search, providers, source); see
docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolcat.errors import UsageError
from toolcat.gateway.proxy import MAX_ROUNDS, GatewayApp, Settings, run
from toolcat.model import Catalog
from toolcat.urls import split_url

TOKEN_ENV = "TOOLCAT_GATEWAY_TOKEN"


def listening(host: str, token: str | None, allow_hosts: Iterable[str]) -> list[str]:
    """The Host/Origin names the gateway on `host` accepts, with serve --http's rules: a
    token of at least 16 characters, required beyond loopback.

    Raises:
        UsageError: the host is not an address here, or the token is missing or short.
    """
    from toolcat.serve.http import MIN_TOKEN, address, host_names

    where = address(host)
    if token is not None and len(token) < MIN_TOKEN:
        raise UsageError(f"the gateway token has {len(token)} characters; use at least "
                         f"{MIN_TOKEN} random ones")
    if token is None and not where.loopback:
        raise UsageError(f"--host {host} listens beyond this machine's loopback: give a token "
                         f"with --token or ${TOKEN_ENV} (clients then send 'X-Toolcat-Token: "
                         "TOKEN'), or listen on 127.0.0.1")
    return host_names(where, allow_hosts)


def upstream_url(url: str) -> str:
    """`url` if it is an http(s) origin (with an optional path prefix).

    Raises:
        UsageError: it is not.
    """
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment:
        raise UsageError(f"--upstream '{url}' is not an http(s) URL such as "
                         "https://api.anthropic.com")
    return url.rstrip("/")


def unsafe_names(catalog: Catalog) -> frozenset[str]:
    """The names of the catalog's tools marked unsafe: left out of requests unless the
    profile allows unsafe tools."""
    return frozenset(t.name for t in catalog.tools if t.unsafe)


__all__ = ["MAX_ROUNDS", "GatewayApp", "Settings", "listening", "run", "unsafe_names",
           "upstream_url"]
