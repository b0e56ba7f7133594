"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.project import load_project_catalog
from toolcat.config import Config, find_config
from toolcat.model import Catalog, Tool

if TYPE_CHECKING:
    from toolcat.cli.encoding import EncodingBar
    from toolcat.resolution import Profile, Resolver
    from toolcat.search.tuning import Tuning
    from toolcat.tune.policy import AppliedTuning


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
            api = server.extra.get("openapi")  # an OpenAPI document's API, called over HTTP
            if isinstance(api, Mapping) and api.get("url") and server.name not in served_with:
                settings = {"url": api["url"]}
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
    if not option and spec:
        chosen = _unrelaxed(chosen)
    return replace(chosen, allow_unsafe=True) if allow_unsafe else chosen


def _unrelaxed(chosen: Profile) -> Profile:
    """The profile a configuration file chose, without the settings that relax safety
    (`allow_unsafe: true`, `approval: ask|allow`) unless it may give them
    (config.trust.may_relax_safety), saying on stderr what was ignored."""
    from dataclasses import replace

    from toolcat.cli.output import warn
    from toolcat.config.trust import may_relax_safety, relaxing_from

    if chosen.source is None or may_relax_safety(Path(chosen.source)):
        return chosen
    relaxed = [*(["allow_unsafe: true"] if chosen.allow_unsafe else []),
               *([f"approval: {chosen.approval}"]
                 if chosen.approval not in (None, "refuse") else [])]
    if not relaxed:
        return chosen
    warn(relaxing_from(" and ".join(relaxed), Path(chosen.source)))
    return replace(chosen, allow_unsafe=False,
                   approval="refuse" if chosen.approval == "refuse" else None)


def tuning(option: Path | None, cfg: Config | None = None) -> Tuning | None:
    """`--tuning FILE`, else the `tuning:` of toolcat.yaml, else None (tune.policy)."""
    from toolcat.tune.policy import find_tuning

    return find_tuning(option, (cfg or config()).tuning)


def said(choice: AppliedTuning) -> Tuning | None:
    """The tuning `choice` applies, its notes and warnings said on stderr."""
    from toolcat.cli.output import note, warn

    for line in choice.notes:
        note(line)
    for line in choice.warnings:
        warn(line)
    return choice.tuning


def applied_tuning(found: Tuning | None, scorer: str | None, tools: Sequence[Tool],
                   model: str | None = None) -> Tuning | None:
    """`found` when `scorer` is one a tuning applies to (tune.policy.for_scorer), said."""
    from toolcat.tune.policy import for_scorer

    return said(for_scorer(found, scorer, tools, model))


def resolver(catalog: Catalog, chosen: Profile, tuning_option: Path | None,
             cfg: Config, *, progress: EncodingBar | None = None) -> Resolver:
    """The Resolver resolve and render use, its profile's warnings said on stderr;
    `progress`: the status on stderr while its first ranking loads the model (`ranking_bar`).
    """
    from toolcat.cli.output import warn
    from toolcat.resolution import Resolver

    built = Resolver(catalog, chosen,
                     tuning=resolver_tuning(tuning_option, cfg, catalog, chosen),
                     progress=progress)
    for warning in built.warnings:
        warn(str(warning))
    return built


def ranking_bar(profiles: Sequence[Profile], catalog: Catalog, *, shown: bool) -> EncodingBar:
    """The status line and bar on stderr (toolcat.cli.encoding) while resolvers of `profiles`
    first rank `catalog`, when one's scorer may load the embedding model: entered around the
    ranking, and given to the resolvers as their `progress`."""
    from toolcat.cli.encoding import EncodingBar
    from toolcat.search import SEMANTIC
    from toolcat.search.choice import choose_scorer

    loads = any(choose_scorer(p.scorer or None, len(catalog.tools)).scorer in SEMANTIC
                for p in profiles)
    return EncodingBar(shown=shown, loads=loads and bool(catalog.tools))


def resolver_tuning(option: Path | None, cfg: Config, catalog: Catalog,
                    chosen: Profile) -> Tuning | None:
    """The tuning resolve and render apply (tune.policy.for_profile), said."""
    from toolcat.tune.policy import for_profile

    return said(for_profile(tuning(option, cfg), chosen.scorer, catalog.tools))
