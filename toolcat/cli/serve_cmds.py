"""`toolcat serve`: the catalog as an MCP server (stdio, or streamable HTTP with --http)."""

from __future__ import annotations

import functools
import time
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolcat.cli.options import AllowUnsafeOpt, CatalogOpt, ProfileOpt, ShapeOpt, TuningOpt

if TYPE_CHECKING:
    from toolcat.config import Config
    from toolcat.mcp.servers import ServerSpec
    from toolcat.model import Catalog
    from toolcat.pin.lock import Lock
    from toolcat.resolution.profile import Profile
    from toolcat.search.tuning import Tuning
    from toolcat.serve.stages import Stages

# The SDK and the core are imported inside the command, so `toolcat --help` stays fast.


HttpOpt = Annotated[
    str | None,
    typer.Option("--http", metavar="HOST:PORT", help="Serve streamable HTTP at "
                 "http://HOST:PORT/mcp instead of stdio (port 0: a free port, printed "
                 "on stderr).", show_default=False),
]

ServersOpt = Annotated[
    Path | None,
    typer.Option("--servers", help="An MCP client configuration (mcpServers layout) "
                 "whose entries replace the catalog's launch settings of the servers "
                 "they name, secrets included.", show_default=False),
]

CallTimeoutOpt = Annotated[
    float, typer.Option("--call-timeout", help="Seconds an upstream server gets to "
                        "start and answer a call.")
]

LogOpt = Annotated[
    Path | None,
    typer.Option("--log", help="Append the session's events to this JSON Lines file.",
                 show_default=False),
]

TokenOpt = Annotated[
    str | None,
    typer.Option("--token", envvar="TOOLCAT_SERVE_TOKEN", help="With --http: every "
                 "request must send 'Authorization: Bearer TOKEN' (at least 16 "
                 "characters). Required to listen beyond loopback. Prefer the "
                 "environment variable: a command line is visible to other users.",
                 show_default=False),
]

AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option("--allow-host", metavar="NAME", help="With --http: also accept "
                 "requests whose Host (and Origin) is NAME (repeatable); the address "
                 "listened on and loopback names are always accepted.",
                 show_default=False),
]

AllowToolOpt = Annotated[
    list[str] | None,
    typer.Option("--allow-tool", metavar="NAME", help="Serve this tool although the "
                 "security rules (TC6xx) report an error on it: a name, server:tool or "
                 "server:* (repeatable).", show_default=False),
]

DiscoveryNameOpt = Annotated[
    list[str] | None,
    typer.Option("--discovery-name", metavar="TOOL=NAME", help="Show a discovery tool "
                 "(search_tools, add_tool, show_all_tools) under another name, e.g. "
                 "search_tools=find_tools (repeatable).", show_default=False),
]

ModeOpt = Annotated[
    str | None,
    typer.Option("--mode", metavar="add|call", help="How a client calls what it "
                 "found: add (add_tool, then the tool appears in the tool list) or "
                 "call (search_tools returns whole definitions and call_tool calls "
                 "them, for clients that ignore tools/list_changed). Default: the "
                 "profile's tool_search_mode.serve_mode, else add.", show_default=False),
]

AnswersOpt = Annotated[
    str,
    typer.Option("--answers", metavar="json|compact", help="How search_tools answers: "
                 "json, or compact markdown (about a third of the tokens in call mode)."),
]

BaseUrlOpt = Annotated[
    list[str] | None,
    typer.Option("--base-url", metavar="API=URL", help="Call the OpenAPI operations of "
                 "API (a server of the catalog: the document's info.title) at URL "
                 "instead of the document's server URL (repeatable); wins over "
                 "openapi.base_urls of toolcat.yaml.",
                 show_default=False),
]

VerboseOpt = Annotated[
    bool,
    typer.Option("--verbose", "-v", help="Say on stderr what serve does as it starts "
                 "(reading the catalog, the security rules, the handshake, each search "
                 "index) and how long each step takes."),
]


def serve(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    profile: ProfileOpt = None,
    http: HttpOpt = None,
    allow_unsafe: AllowUnsafeOpt = False,
    servers: ServersOpt = None,
    call_timeout: CallTimeoutOpt = 60.0,
    log: LogOpt = None,
    tuning: TuningOpt = None,
    token: TokenOpt = None,
    allow_host: AllowHostOpt = None,
    allow_tool: AllowToolOpt = None,
    discovery_name: DiscoveryNameOpt = None,
    mode: ModeOpt = None,
    answers: AnswersOpt = "json",
    base_url: BaseUrlOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Serve the catalog as an MCP server: search_tools and add_tool (or call_tool, with
    --mode call) in front of deferred tools, calls relayed to the servers the tools come from.

    toolcat serve -c catalog.yaml

    toolcat serve -c catalog.yaml --mode call

    toolcat serve -c catalog.yaml -p tool-search --http 127.0.0.1:8765 --log serve.jsonl
    """
    began = time.perf_counter()
    from toolcat.catalog.project import openapi_base_urls, unannotated_policy
    from toolcat.cli import build
    from toolcat.cli.encoding import EncodingBar
    from toolcat.cli.output import note
    from toolcat.cli.stopping import until_interrupted
    from toolcat.errors import UsageError
    from toolcat.serve import serve as run
    from toolcat.serve.stages import Stages
    from toolcat.threads import waited

    _check_choices(mode, answers, call_timeout)
    address = _address(http) if http is not None else None
    overrides = _overrides(servers) if servers is not None else {}
    flagged = _base_urls(base_url or [])
    cfg = build.config()
    configured = openapi_base_urls(cfg, overridden=flagged)
    apis = {**configured, **flagged}
    chosen = build.profile(profile, cfg)
    stages = Stages(note if verbose else None, began)
    lock = _lock(cfg.path)
    if address is None and (token is not None or allow_host):
        raise UsageError("--token and --allow-host apply to --http; over stdio the client "
                         "that started serve is its only client")
    relaxed = unannotated_policy(cfg)[0] == "safe"
    policy = _policy(chosen, allow_unsafe, profile, cfg.path if relaxed else None)
    opened = functools.partial(_opened, catalog, shape, cfg, stages, flagged=flagged,
                               configured=configured, served_with={*overrides, *apis},
                               stdio_policy=policy if address is None else None)

    def tuned(cat: Catalog) -> Tuning | None:
        return build.resolver_tuning(tuning, cfg, cat, chosen)

    with until_interrupted():  # Ctrl-C is how serve stops, from here on (exit 0)
        # over stdio the catalog is read once the handshake is answered
        served = None if address is None else waited(opened, "toolcat-serve-catalog")
        run(opened if served is None else served, chosen, http=address,
            allow_unsafe=allow_unsafe, log=log, call_timeout=call_timeout,
            overrides=overrides,
            ready=None if address is None or served is None else functools.partial(
                _listening, address, token, len(served.tools), policy),
            tuning=tuned if served is None else tuned(served),
            token=token, allow_hosts=tuple(allow_host or ()),
            allow_tools=tuple(allow_tool or ()), lock=lock,
            discovery=_renames(discovery_name or []), mode=mode, answers=answers,
            base_urls=apis, progress=note, stages=stages,
            # on a terminal, the status line pick shows; with -v elsewhere, as lines
            loading=functools.partial(EncodingBar, loads=True, say=stages.begins))


def _check_choices(mode: str | None, answers: str, call_timeout: float) -> None:
    """--mode, --answers and --call-timeout, checked before anything is read."""
    from toolcat.errors import UsageError
    from toolcat.serve.answers import ANSWERS
    from toolcat.serve.proxy import check_mode

    if mode is not None:
        check_mode(mode)
    if answers not in ANSWERS:
        raise UsageError(f"unknown --answers '{answers}'; known: {', '.join(ANSWERS)}")
    if call_timeout <= 0:
        raise UsageError("--call-timeout must be a positive number of seconds")


def _opened(catalog: list[str] | None, shape: str | None, cfg: Config, stages: Stages, *,
            flagged: Mapping[str, str], configured: Mapping[str, str],
            served_with: Collection[str], stdio_policy: str | None) -> Catalog:
    """The catalog, read (over stdio, once the handshake is answered: toolcat.serve); a
    --base-url naming no OpenAPI API of it is an error, an openapi.base_urls entry a warning.
    Over stdio it says how many tools it serves and `stdio_policy`."""
    from toolcat.catalog.project import BASE_URLS
    from toolcat.cli import build
    from toolcat.cli.output import note, warn
    from toolcat.errors import UsageError
    from toolcat.source.positions import join

    reading = time.perf_counter()
    cat = build.load(catalog, shape, cfg=cfg, served_with=served_with)
    stages.done(f"read the catalog: {len(cat.tools):,} tools", reading)
    known = [s.name for s in cat.servers if "openapi" in s.extra]
    unknown = sorted(set(flagged) - set(known))
    if unknown:
        raise UsageError(f"--base-url names '{unknown[0]}', which is no OpenAPI API of "
                         "the catalog; known: " + (", ".join(known) or "none"))
    for api in sorted(set(configured) - set(known)):
        warn(f"{cfg.where(join(BASE_URLS, api))}: openapi.base_urls names '{api}', which "
             "is no OpenAPI API of the catalog; known: " + (", ".join(known) or "none"))
    if stdio_policy is not None:  # stdout is the protocol's; an MCP client keeps stderr as a log
        note(f"toolcat serve: {len(cat.tools)} tools over stdio")
        note(stdio_policy)
    return cat


def _listening(address: tuple[str, int], token: str | None, tools: int, policy: str,
               port: int) -> None:
    """Said on stderr once the HTTP server listens on `port`: where, to whom, and `policy`."""
    from toolcat.cli.output import note
    from toolcat.serve.http import address as where

    reach = where(address[0])
    host = f"[{address[0]}]" if ":" in address[0] else address[0]
    guard = ("clients must send 'Authorization: Bearer TOKEN'" if token is not None
             else "no token")
    scope = "this machine only" if reach.loopback else \
        "every interface" if reach.wildcard else "beyond this machine"
    note(f"toolcat serve: {tools} tools at http://{host}:{port}/mcp "
         f"({scope}; Host and Origin checked; {guard})")
    note(policy)  # after the line that says where: scripts read that one first


def _policy(chosen: Profile, allow_unsafe: bool, option: str | None,
            unannotated_from: Path | None) -> str:
    """What serve does with unsafe tools, and which setting says so: said on start, since a
    relaxed policy lets a model run destructive tools."""
    from toolcat.serve.approval import unsafe_policy

    policy = unsafe_policy(chosen, allow_unsafe=allow_unsafe)
    what = {"refuse": "refused", "ask": "asked about before each call",
            "allow": "called without asking"}[policy]
    if allow_unsafe:
        where = "--allow-unsafe"
    elif chosen.approval is not None or chosen.allow_unsafe:
        setting = f"approval: {chosen.approval}" if chosen.approval is not None \
            else "allow_unsafe: true"
        named = "--profile" if option else "profile: of the configuration"
        where = f"{setting} in the profile {chosen.source or chosen.name}, from {named}"
    else:
        where = "the default"
    line = f"toolcat serve: unsafe tools are {what} ({where})"
    if unannotated_from is not None:
        line += ("; MCP tools without safety hints are treated as safe (mcp.unannotated "
                 f"in {unannotated_from})")
    return line


def _lock(config_path: Path | None) -> Lock | None:
    """The project's toolcat.lock (as `toolcat lint --locked` finds it), when there is one."""
    from toolcat.pin.lock import default_lock_path, read_lock

    path = default_lock_path(config_path, Path.cwd())
    return read_lock(path) if path.is_file() else None


def _renames(values: list[str]) -> dict[str, str]:
    from toolcat.errors import UsageError

    renames: dict[str, str] = {}
    for value in values:
        old, sep, new = value.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise UsageError(f"--discovery-name '{value}' is not TOOL=NAME, e.g. "
                             "search_tools=find_tools")
        renames[old.strip()] = new.strip()
    return renames


def _base_urls(values: list[str]) -> dict[str, str]:
    """--base-url API=URL, each URL an absolute http(s) address."""
    from toolcat.errors import UsageError
    from toolcat.urls import split_url

    urls: dict[str, str] = {}
    for value in values:
        api, sep, url = value.partition("=")
        parts = split_url(url.strip())
        if not sep or not api.strip() or parts is None \
                or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise UsageError(f"--base-url '{value}' is not API=URL with an http or https URL, "
                             "e.g. 'Swagger Petstore=https://petstore.example.com/v1'")
        urls[api.strip()] = url.strip()
    return urls


def _address(value: str) -> tuple[str, int]:
    from toolcat.errors import UsageError

    host, sep, port = value.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--http '{value}' is not HOST:PORT, e.g. 127.0.0.1:8765")
    return host, int(port)


def _overrides(path: Path) -> dict[str, ServerSpec]:
    from toolcat.mcp.servers import read_client_config

    return {spec.name: spec for spec in read_client_config(path)}
