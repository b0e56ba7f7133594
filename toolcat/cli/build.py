"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.project import load_project_catalog
from toolcat.config import Config, find_config
from toolcat.model import Catalog, Tool

if TYPE_CHECKING:
    from toolcat.resolution import Profile, Resolver
    from toolcat.search.tuning import Tuning


def config() -> Config:
    return find_config(Path.cwd())


def load(catalog: list[str] | None, shape: str | None = None, *, lenient: bool = False,
         cfg: Config | None = None, demo: bool = True,
         served_with: Collection[str] | None = None) -> Catalog:
    """The catalog the user meant (see toolcat.catalog.project), saying on stderr when it is
    the demo and what loading warned about. `served_with`, for serve: the servers that
    `--servers` gives launch settings for; every other server's recorded command or URL is
    used, which a catalog the user did not name with -c may do only in a trusted folder
    (config.trust).
    """
    from toolcat.cli.output import note, warn

    cfg = cfg or config()
    loaded, choice = load_project_catalog(catalog, cfg, shape=shape, lenient=lenient,
                                          demo=demo)
    if served_with is not None and choice.reason in ("config", "env"):
        from toolcat.config.trust import require_launch_trust

        named_by = str(cfg.path) if choice.reason == "config" else "$TOOLCAT_CATALOG"
        for server in loaded.servers:
            settings = server.extra.get("mcp")
            if isinstance(settings, Mapping) and server.name not in served_with:
                what = (f"the command '{settings.get('command')}'" if settings.get("command")
                        else f"requests to {settings.get('url')}")
                origin = Path(server.origin.file) if server.origin else Path.cwd()
                require_launch_trust(server.name, what, origin, named_by)
    if choice.reason == "demo":
        note("toolcat: no catalog given (-c, $TOOLCAT_CATALOG or catalogs: in toolcat.yaml); "
             "using the bundled demo catalog")
    for issue in loaded.issues:
        if issue.severity == "warning":
            warn(str(issue))
    return loaded


def profile(option: str | None, cfg: Config | None = None, *,
            allow_unsafe: bool = False) -> Profile:
    """`--profile`, else the `profile:` of toolcat.yaml, else the default profile (a large model
    with native tool calling); `--allow-unsafe` sets its allow_unsafe."""
    from dataclasses import replace

    from toolcat.resolution import DEFAULT_PROFILE, load_profile

    cfg = cfg or config()
    spec = option or cfg.profile
    chosen = load_profile(spec) if spec else DEFAULT_PROFILE
    if not option and spec and chosen.gateway is not None and chosen.gateway.api.endpoint:
        from toolcat.config.trust import require_network_trust

        require_network_trust(chosen.gateway.api.endpoint, chosen.source or str(spec),
                              str(cfg.path))
    return replace(chosen, allow_unsafe=True) if allow_unsafe else chosen


def tuning(option: Path | None, cfg: Config | None = None) -> Tuning | None:
    """`--tuning FILE`, else the `tuning:` of toolcat.yaml, else None.

    Raises:
        ConfigError: the file is not a readable tuning of a version this toolcat reads.
    """
    path = option if option is not None else (cfg or config()).tuning
    if path is None:
        return None
    from toolcat.tune.file import load_tuning

    return load_tuning(path)


def tuning_warnings(found: Tuning, tools: Sequence[Tool], model: str | None = None) -> None:
    """Say on stderr which tools the tuning cannot help (changed, missing), and whether it
    was made with another embedding model than `model` (None: the default)."""
    from toolcat.cli.output import warn
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.tuning import match, warnings

    ident = load_embedder(model).ident  # names the model; its weights load on first use
    for line in warnings(found, match(found, tools), ident):
        warn(line)


def applied_tuning(found: Tuning | None, scorer: str | None, tools: Sequence[Tool],
                   model: str | None = None) -> Tuning | None:
    """`found` when `scorer` is one a tuning applies to (hybrid, cascade), named on stderr
    with its warnings; otherwise None, saying so when a tuning was given."""
    if found is None:
        return None
    from toolcat.search import TUNABLE

    if scorer not in TUNABLE:
        from toolcat.cli.output import warn

        warn(f"a tuning applies to the {' and '.join(TUNABLE)} scorers; {scorer} scores "
             f"zero-shot ({found.label} is not applied)")
        return None
    tuning_note(found, f"the {scorer} scorer")
    tuning_warnings(found, tools, model)
    return found


def resolver(catalog: Catalog, chosen: Profile, tuning_option: Path | None,
             cfg: Config) -> Resolver:
    """The Resolver resolve and render use, its profile's warnings said on stderr."""
    from toolcat.cli.output import warn
    from toolcat.resolution import Resolver

    built = Resolver(catalog, chosen,
                     tuning=resolver_tuning(tuning_option, cfg, catalog, chosen))
    for warning in built.warnings:
        warn(str(warning))
    return built


def tuning_note(found: Tuning, what: str) -> None:
    """Name the tuning in use on stderr: a tuning set in toolcat.yaml must never change
    rankings unseen."""
    from toolcat.cli.output import note

    note(f"tuning: {found.label} applied to {what}")


def resolver_tuning(option: Path | None, cfg: Config, catalog: Catalog,
                    chosen: Profile) -> Tuning | None:
    """The tuning resolve and render apply: `--tuning`, else toolcat.yaml's, when the
    profile's scorer is one a tuning applies to (warned otherwise)."""
    from toolcat.search import default_scorer

    return applied_tuning(tuning(option, cfg),
                          chosen.scorer or default_scorer(len(catalog.tools))[0],
                          catalog.tools)
