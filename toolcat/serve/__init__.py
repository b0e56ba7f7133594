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
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toolcat.errors import MissingExtraError
from toolcat.model import Catalog, Tool
from toolcat.serve.gate import Gate
from toolcat.serve.launch import DEFAULT_CALL_TIMEOUT, Secrets
from toolcat.serve.stages import QUIET, Stages

if TYPE_CHECKING:
    from toolcat.mcp.servers import ServerSpec
    from toolcat.pin.lock import Lock
    from toolcat.resolution.profile import Profile
    from toolcat.search.tuning import Tuning

T = TypeVar("T")


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
          progress: Callable[[str], None] | None = None, stages: Stages = QUIET) -> None:
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
    (toolcat.serve.stages; `toolcat serve -v`).

    Raises:
        MissingExtraError: the `mcp` extra is not installed.
        ConfigError: the profile names tools or servers the catalog does not have.
        UsageError: the log file cannot be opened; no token where one is needed; an unknown
            mode.
    """
    began = time.perf_counter()
    try:
        import anyio

        from toolcat.serve.openapi_calls import HttpApis
        from toolcat.serve.server import (
            Serving,
            Starting,
            definition_json,
            serve_http,
            serve_stdio,
        )
        from toolcat.serve.upstream import Upstreams
    except ImportError:
        raise MissingExtraError("toolcat serve", "mcp") from None
    from toolcat.serve.discovery import discovery_names, instructions
    from toolcat.serve.proxy import ModeLog, ProxyGate, check_mode
    from toolcat.serve.trust import live_changes, withheld
    from toolcat.serve.virtual import with_virtual_tools

    stages.done("imported the MCP SDK", began)
    mode = check_mode(mode) if mode is not None else profile.tool_search_mode.serve_mode

    if http is not None:
        from toolcat.serve.http import address, require_token

        require_token(address(http[0]), token)
    # the names, checked against the catalog's once it is read
    renamed = discovery_names(discovery or {}, Catalog())
    secrets = Secrets()
    session_log = ModeLog(log, secrets, mode=mode)
    held: dict[str, str] = {}
    scanned: list[bool] = []  # the security rules ran (no verdict kept from before)

    by_server: dict[str, list[Tool]] = {}

    def opening() -> Gate:
        """The catalog (when it is still to be read) and its gate, not yet screened (over
        stdio, on a thread once the handshake is answered)."""
        # get_prompt and get_resource where the catalog's servers have prompts, resources
        served = with_virtual_tools(catalog if isinstance(catalog, Catalog) else catalog())
        discovery_names(discovery or {}, served)  # no catalog tool has a name given them
        learned = tuning(served) if callable(tuning) else tuning
        for tool in served.tools:
            by_server.setdefault(tool.server, []).append(tool)
        began = time.perf_counter()
        gate = Gate(served, profile, allow_unsafe=allow_unsafe, tuning=learned) \
            if mode == "add" else ProxyGate(served, profile, allow_unsafe=allow_unsafe,
                                            tuning=learned, define=definition_json)
        stages.done(f"made the gate: {len(gate.resolution.catalog_tools):,} catalog tools "
                    "visible", began)
        return gate

    def screening(gate: Gate) -> Gate:
        """The gate screened by the catalog's security verdict, its indexes warming."""
        served = gate.catalog

        def scanning() -> None:
            scanned.append(True)
            stages.begins(f"running the security rules over {len(served.tools):,} tools")
            # over HTTP the first line on stderr is the address, which scripts read
            if progress is not None and http is None:
                progress(f"toolcat serve: reading {len(served.tools):,} tools for security "
                         "findings before serving them (a catalog not served before; the "
                         "verdict is kept for later starts)")

        began = time.perf_counter()
        held.update(withheld(served, allowed=allow_tools, lock=lock, scanning=scanning))
        gate.screen(held)
        stages.done(f"security verdict: {len(held):,} of {len(served.tools):,} tools "
                    f"withheld{'' if scanned else ' (kept from an earlier start)'}; "
                    f"{len(gate.pool):,} searchable", began)
        gate.stages = stages
        gate.warm()
        return gate

    def verify(server: str, live: Catalog) -> dict[str, str]:
        changes = live_changes(by_server.get(server, []), live, lock)
        if changes:
            session_log.write("changed", server=server, tools=sorted(changes),
                              reasons=[changes[name] for name in sorted(changes)])
        return changes

    upstreams = Upstreams(timeout=call_timeout, secrets=secrets, verify=verify)
    apis = HttpApis(timeout=call_timeout, secrets=secrets, base_urls=base_urls)
    made: list[Serving] = []

    def make(gate: Gate, bus: Any = None) -> Serving:
        """The Serving of the gate, its start written (on the event loop)."""
        serving = Serving(gate, upstreams, session_log, overrides=dict(overrides or {}),
                          secrets=secrets, discovery=renamed, answers=answers, apis=apis,
                          **({"bus": bus} if bus is not None else {}))
        made.append(serving)
        session_log.write("start", transport="http" if http else "stdio",
                          tools=len(gate.catalog.tools), searchable=len(gate.pool),
                          visible=[n for n, _ in gate.visible()], profile=profile.name,
                          scorer=searched_with(gate),
                          tuning=None if gate.tuning is None else gate.tuning.label,
                          allow_unsafe=gate.approval == "allow", approval=gate.approval,
                          call_timeout=call_timeout,
                          withheld=sorted(held), token=token is not None,
                          **({"warnings": [str(w) for w in gate.resolver.warnings]}
                             if gate.resolver.warnings else {}))
        return serving

    previous = _terminate_as_interrupt()
    try:
        if http is None:
            # started once the handshake is answered, on a thread of its own (a client that
            # leaves does not wait for it)
            anyio.run(serve_stdio, Starting(
                instructions(mode, renamed), upstreams, lambda: _in_background(opening)(),
                lambda gate: _in_background(lambda: screening(gate))(), make,
                apis=apis, discovery=renamed, stages=stages))
        else:
            anyio.run(functools.partial(serve_http, token=token,
                                        allow_hosts=tuple(allow_hosts)),
                      make(screening(opening())), http[0], http[1], ready)
    finally:
        if made:  # a session that started (a gate that failed has no start either)
            session_log.write("stop", started=upstreams.started())
        session_log.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _in_background(work: Callable[[], T]) -> Callable[[], T]:
    """`work` started on a thread now; the function returned waits for its result (or
    raises what it raised)."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # handed to whoever waits
            future.set_exception(exc)

    threading.Thread(target=run, name="toolcat-serve-gate", daemon=True).start()
    return future.result


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


def searched_with(gate: Gate) -> str:
    """The scorer search_tools ranks words with (`+tuning` when a tuning adds to it); the
    resolver's own is only the cheap one that decides visibility."""
    return gate.choice.name


__all__ = ["DEFAULT_CALL_TIMEOUT", "Gate", "serve"]
