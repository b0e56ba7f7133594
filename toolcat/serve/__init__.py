"""`toolcat serve`: a catalog as an MCP server that any MCP client can search, add from and
call through (seed 001's tool search mode, with seed 004's fail-open).

    from toolcat.serve import serve
    serve(load_catalog("catalog.yaml"), load_profile("tool-search"), log=Path("serve.jsonl"))

The SDK is imported when a server runs, not with this package.

Imports only rooms below it (resolution, search, mcp, calls, providers); see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.errors import MissingExtraError
from toolcat.serve.gate import Gate
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets
from toolcat.serve.log import SessionLog

if TYPE_CHECKING:
    from toolcat.mcp.servers import ServerSpec
    from toolcat.model import Catalog
    from toolcat.resolution.profile import Profile
    from toolcat.search.tuning import Tuning


def serve(catalog: Catalog, profile: Profile, *, http: tuple[str, int] | None = None,
          allow_unsafe: bool = False, log: Path | None = None,
          call_timeout: float = DEFAULT_CALL_TIMEOUT,
          overrides: Mapping[str, ServerSpec] | None = None,
          ready: Callable[[int], None] | None = None, tuning: Tuning | None = None) -> None:
    """Serve `catalog` over stdio (or streamable HTTP at `http` = (host, port)) until the
    client goes away or the process is interrupted.

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ConfigError: the profile names tools or servers the catalog does not have.
        UsageError: the log file cannot be opened.
    """
    try:
        import anyio

        from toolcat.serve.server import Serving, serve_http, serve_stdio
        from toolcat.serve.upstream import Upstreams
    except ImportError:
        raise MissingExtraError("toolcat serve", "mcp") from None
    secrets = Secrets()
    session_log = SessionLog(log, secrets)
    gate = Gate(catalog, profile, allow_unsafe=allow_unsafe, tuning=tuning)
    gate.warm()
    serving = Serving(gate, Upstreams(timeout=call_timeout, secrets=secrets), session_log,
                      overrides=dict(overrides or {}), secrets=secrets)
    session_log.write("start", transport="http" if http else "stdio", tools=len(catalog.tools),
                      searchable=len(gate.pool), visible=[n for n, _ in gate.visible()],
                      profile=profile.name, scorer=gate.resolver.scorer_name,
                      tuning=None if gate.tuning is None else gate.tuning.label,
                      allow_unsafe=gate.allow_unsafe, call_timeout=call_timeout)
    try:
        if http is None:
            anyio.run(serve_stdio, serving)
        else:
            anyio.run(serve_http, serving, http[0], http[1], ready)
    finally:
        session_log.write("stop", started=serving.upstreams.started())
        session_log.close()


__all__ = ["DEFAULT_CALL_TIMEOUT", "Gate", "serve"]
