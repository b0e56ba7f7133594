"""`toolcat gateway`: the context gateway as a proxy in front of a provider's API."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated

import typer

from toolcat.cli.options import AllowUnsafeOpt, ProfileOpt
from toolcat.search import SCORERS

# The HTTP stack and the core are imported inside the command, so `toolcat --help` stays fast.

DEFAULT_PROFILE = "gateway-relevance"  # when neither -p nor toolcat.yaml names a gateway


def gateway(
    upstream: Annotated[
        str, typer.Option("--upstream", metavar="URL", help="The provider API's origin the "
                          "requests go to, e.g. https://api.anthropic.com or "
                          "https://api.openai.com (the path the client sent is appended).")
    ],
    profile: ProfileOpt = None,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on; beyond loopback a "
                          "--token is required.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="The port to listen on (0: a free port, printed on "
                          "stderr).")
    ] = 8787,
    scorer: Annotated[
        str | None,
        typer.Option("--scorer", help=f"The relevance strategy's evidence: {', '.join(SCORERS)}. "
                     "Default: the profile's scorer, else hybrid (bm25 without the semantic "
                     "extra).", show_default=False),
    ] = None,
    catalog: Annotated[
        list[str] | None,
        typer.Option("-c", "--catalog", help="A catalog whose tools marked unsafe are left "
                     "out of requests unless the profile allows unsafe tools (repeatable).",
                     show_default=False),
    ] = None,
    allow_unsafe: AllowUnsafeOpt = False,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds the upstream may take to answer "
                            "(while streaming: between two chunks); then the client gets 504.")
    ] = 300.0,
    log: Annotated[
        Path | None,
        typer.Option("--log", help="Append one JSON line per request to this file.",
                     show_default=False),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option("--token", envvar="TOOLCAT_GATEWAY_TOKEN", help="Every request must "
                     "send 'X-Toolcat-Token: TOKEN' (at least 16 characters). Required to "
                     "listen beyond loopback.", show_default=False),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option("--allow-host", metavar="NAME", help="Also accept requests whose Host "
                     "(and Origin) is NAME (repeatable).", show_default=False),
    ] = None,
) -> None:
    """Run the context gateway: a proxy for the Anthropic Messages API and the OpenAI Chat
    Completions and Responses APIs that rewrites each request's tools[] with the profile's
    gateway: settings before forwarding it. An agent changes only its base URL.

    toolcat gateway --upstream https://api.anthropic.com -p gateway-tool-search

    toolcat gateway --upstream https://api.openai.com --port 8788 --log gateway.jsonl
    """
    from toolcat.cli import build
    from toolcat.cli.encoding import EncodingBar
    from toolcat.cli.output import note
    from toolcat.cli.stopping import until_interrupted
    from toolcat.errors import UsageError
    from toolcat.gateway import Settings, listening, run, unsafe_names, upstream_url

    if timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a port number (0-65535)")
    cfg = build.config()
    chosen = build.profile(profile or (None if cfg.profile else DEFAULT_PROFILE), cfg,
                           allow_unsafe=allow_unsafe)
    if chosen.gateway is None:
        raise UsageError(f"the profile '{chosen.name}' has no gateway: section; use one that "
                         "has (e.g. -p gateway-relevance, gateway-tool-search, gateway-api)")
    names = listening(host, token, allow_host or ())
    with until_interrupted():  # Ctrl-C is how the gateway stops, from here on (exit 0)
        unsafe: frozenset[str] = frozenset()
        if catalog and not chosen.allow_unsafe:
            unsafe = unsafe_names(build.load(catalog, None, cfg=cfg))
        settings = Settings(upstream=upstream_url(upstream), gateway=chosen.gateway,
                            scorer=scorer or chosen.scorer, timeout=timeout, log=log,
                            token=token, hosts=names, unsafe=unsafe)

        def ready(bound_host: str, bound_port: int) -> None:
            shown = f"[{bound_host}]" if ":" in bound_host else bound_host
            note(f"toolcat gateway: {chosen.gateway.strategy if chosen.gateway else ''} "
                 f"({chosen.name}) at http://{shown}:{bound_port} -> {settings.upstream}")

        # while the relevance scorer's model loads: on a terminal, the status pick shows
        run(settings, host, port, ready, loading=functools.partial(EncodingBar, loads=True))
