"""`toolcat serve`: a catalog as an MCP server that any MCP client can search, add from and
call through (tool search mode, with fail-open).

    from toolcat.serve import serve
    serve(load_catalog("catalog.yaml"), load_profile("tool-search"), log=Path("serve.jsonl"))

The SDK is imported when a server runs, not with this package.

Imports only rooms below it (resolution, search, catalog, mcp, calls, providers, lint, pin,
source); see docs/architecture.md.
"""

from __future__ import annotations

import functools
import signal
import threading
import time
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolcat.errors import MissingExtraError
from toolcat.model import Catalog
from toolcat.serve.gate import Gate, Loading
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets
from toolcat.serve.stages import QUIET, Stages
from toolcat.threads import in_background, waited

if TYPE_CHECKING:
    from toolcat.mcp.servers import ServerSpec
    from toolcat.pin.lock import Lock
    from toolcat.resolution.profile import Profile
    from toolcat.search.tuning import Tuning
    from toolcat.serve.start import Settings

GATE = "toolcat-serve-gate"


def serve(catalog: Catalog | Callable[[], Catalog], profile: Profile, *,
          http: tuple[str, int] | None = None,
          allow_unsafe: bool = False, log: Path | None = None,
          call_timeout: float = DEFAULT_CALL_TIMEOUT,
          overrides: Mapping[str, ServerSpec] | None = None,
          ready: Callable[[int], None] | None = None,
          tuning: Tuning | Callable[[Catalog], Tuning | None] | None = None,
          token: str | None = None, allow_hosts: Collection[str] = (),
          allow_tools: Collection[str] = (), lock: Lock | None = None,
          discovery: Mapping[str, str] | None = None, mode: str | None = None,
          answers: str = "json", base_urls: Mapping[str, str] | None = None,
          progress: Callable[[str], None] | None = None, stages: Stages = QUIET,
          loading: Loading | None = None) -> None:
    """Serve `catalog` over stdio (or streamable HTTP at `http` = (host, port)) until the
    client goes away or the process is interrupted.

    Over stdio the handshake does not wait for the gate (the profile's first resolution over
    the catalog, toolcat.serve.gate): it is made on a thread once the handshake is answered;
    requests wait for it, and what it raises stops serve and is raised here, as it was
    before the server started. `catalog` may be the function that reads it (and `tuning`
    one that gives the tuning of the catalog read): it is then called on that thread too,
    so that reading a large catalog does not hold the handshake up; what it raises stops
    serve in the same way.

    Over HTTP, `token` is required beyond loopback (toolcat.serve.http); `allow_hosts` adds
    Host names to the loopback/own ones. Tools with security findings are withheld unless
    named in `allow_tools`; with `lock`, tools changed since it are withheld
    (toolcat.serve.trust). `discovery` renames the discovery tools ({"search_tools":
    "find_tools"}). `mode`: `add` (search_tools, add_tool, then the call) or `call`
    (search_tools answers whole definitions, call_tool calls what it found;
    toolcat.serve.proxy); None: the profile's `tool_search_mode.serve_mode`. `answers`:
    search answers as JSON, or `compact` markdown (toolcat.serve.answers). `base_urls`: the
    address of an OpenAPI catalog's API by server name, instead of the document's server
    (toolcat.serve.openapi_calls). `progress` is told, in a line, about slow work before the
    first request can be answered over stdio (the security rules reading a catalog never
    served before). `stages` is told each step of the start and how long it took
    (toolcat.serve.stages; `toolcat serve -v`). `loading` makes what shows the embedding
    model loading and the catalog's encoding while the search scorer's semantic stage is
    made, on a thread once serve listens (`toolcat serve`'s status line; see Gate.loading).

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ConfigError: the profile names tools or servers the catalog does not have.
        UsageError: the log file cannot be opened; no token where one is needed; an unknown
            mode.
    """
    began = time.perf_counter()
    try:
        waited(_import_sdk, "toolcat-serve-import")
        import anyio

        from toolcat.serve.server import Starting, serve_http, serve_stdio
        from toolcat.serve.start import Settings, Start
    except ImportError:
        raise MissingExtraError("toolcat serve", "mcp") from None
    from toolcat.serve.discovery import discovery_names, instructions
    from toolcat.serve.proxy import ModeLog, check_mode

    stages.done("imported the MCP SDK", began)
    mode = check_mode(mode) if mode is not None else profile.tool_search_mode.serve_mode
    if http is not None:
        from toolcat.serve.http import address, require_token

        require_token(address(http[0]), token)
    # the names, checked against the catalog's once it is read
    renamed = discovery_names(discovery or {}, Catalog())
    secrets = Secrets()
    start = Start(
        Settings(catalog=catalog, profile=profile, mode=mode, http=http,
                 allow_unsafe=allow_unsafe, call_timeout=call_timeout,
                 overrides=overrides or {}, tuning=tuning, token=token,
                 allow_tools=allow_tools, lock=lock, discovery=discovery or {},
                 answers=answers, base_urls=base_urls, progress=progress, stages=stages,
                 loading=loading),
        ModeLog(log, secrets, mode=mode), secrets, renamed, _gate_for)
    previous = _terminate_as_interrupt()
    try:
        if http is None:
            # started once the handshake is answered, on a thread of its own (a client that
            # leaves does not wait for it)
            anyio.run(serve_stdio, Starting(
                instructions(mode, start.renamed), start.upstreams,
                lambda: in_background(start.opening, GATE)(),
                lambda gate: in_background(lambda: start.screening(gate), GATE)(),
                start.make,
                apis=start.apis, discovery=start.renamed, stages=stages))
        else:
            serving = waited(lambda: start.make(start.screening(start.opening())), GATE)
            anyio.run(functools.partial(serve_http, token=token,
                                        allow_hosts=tuple(allow_hosts)),
                      serving, http[0], http[1], ready)
    finally:
        if start.made:  # a session that started (a gate that failed has no start either)
            start.log.write("stop", started=start.upstreams.started())
        start.log.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _gate_for(served: Catalog, ask: Settings, learned: Tuning | None) -> Gate:
    """The gate of the catalog `served`: add mode's, or call mode's proxy (toolcat.serve.proxy).
    """
    if ask.mode == "add":
        return Gate(served, ask.profile, allow_unsafe=ask.allow_unsafe, tuning=learned)
    from toolcat.serve.proxy import ProxyGate
    from toolcat.serve.server import definition_json

    return ProxyGate(served, ask.profile, allow_unsafe=ask.allow_unsafe, tuning=learned,
                     define=definition_json)


def _import_sdk() -> None:
    import toolcat.serve.server
    import toolcat.serve.start  # noqa: F401


def _terminate_as_interrupt() -> Any:
    """Make SIGTERM stop serve as SIGINT does (the `stop` event written, upstreams stopped):
    uvicorn raises the signal it caught again once it has shut down, and SIGTERM's default
    would end the process on the spot. Returns the handler it replaced (None off the main
    thread, where signals cannot be handled)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        signal.raise_signal(signal.SIGINT)  # whoever handles SIGINT now (the event loop)

    return signal.signal(signal.SIGTERM, interrupt)



__all__ = ["DEFAULT_CALL_TIMEOUT", "Gate", "serve"]
