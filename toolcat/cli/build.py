"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.load import load_catalog
from toolcat.config import CatalogChoice, Config, choose_catalogs, find_config
from toolcat.errors import UsageError
from toolcat.model import Catalog, Tool
from toolcat.paths import demo_catalog

if TYPE_CHECKING:
    from toolcat.resolution import Profile
    from toolcat.search.tuning import Tuning


def config() -> Config:
    return find_config(Path.cwd())


# `-c demo` names the bundled demo catalog (unless a file called `demo` is there).
DEMO = "demo"
NO_CATALOG = ("no catalog: pass paths, -c, $TOOLCAT_CATALOG or catalogs: in toolcat.yaml "
              "(-c demo for the bundled demo catalog)")


def catalog_choice(catalog: list[str] | None, cfg: Config | None = None) -> CatalogChoice:
    paths = [str(demo_catalog()) if c == DEMO and not Path(c).exists() else c
             for c in catalog or []]
    return choose_catalogs(paths, config=cfg or config())


def load(catalog: list[str] | None, shape: str | None = None, *, lenient: bool = False,
         cfg: Config | None = None, demo: bool = True) -> Catalog:
    """The catalog the user meant: `-c` paths, else $TOOLCAT_CATALOG, config, or the demo
    (said on stderr; with `demo=False`, for commands that check or pin a project's own
    catalog, no catalog at all is a usage error instead).

    Raises:
        UsageError: no catalog is configured and `demo` is False.
    """
    from toolcat.cli.output import note, warn

    cfg = cfg or config()
    choice = catalog_choice(catalog, cfg)
    if choice.reason == "demo":
        if not demo:
            raise UsageError(NO_CATALOG)
        note("toolcat: no catalog given (-c, $TOOLCAT_CATALOG or catalogs: in toolcat.yaml); "
             "using the bundled demo catalog")
    # The catalog lives until the command ends and holds no reference cycles: the cycle
    # collector need not walk its objects, not even once when it is switched back on (at
    # 43,000 tools those walks took 0.5 s of a 1.7 s load, and a third of `toolcat list`).
    gc.disable()
    try:
        loaded = load_catalog(choice.paths, shape=shape, lenient=lenient,
                              ref_roots=cfg.ref_roots)
    finally:
        gc.freeze()
        gc.enable()
    loaded = _mcp_policy(loaded, cfg)
    for issue in loaded.issues:
        if issue.severity == "warning":
            warn(str(issue))
    return loaded


def _mcp_policy(catalog: Catalog, cfg: Config) -> Catalog:
    """toolcat.yaml's `mcp: {unannotated: safe}` trusts MCP tools that give no safety hint."""
    from dataclasses import replace

    from toolcat.providers.mcp import trust_unannotated, unannotated_setting

    policy = unannotated_setting(cfg.section("mcp"), str(cfg.path))
    if policy == "unsafe":
        return catalog
    return replace(catalog, tools=trust_unannotated(catalog.tools, policy))


def profile(option: str | None, cfg: Config | None = None, *,
            allow_unsafe: bool = False) -> Profile:
    """`--profile`, else the `profile:` of toolcat.yaml, else the default profile (a large model
    with native tool calling); `--allow-unsafe` sets its allow_unsafe."""
    from dataclasses import replace

    from toolcat.resolution import DEFAULT_PROFILE, load_profile

    spec = option or (cfg or config()).profile
    chosen = load_profile(spec) if spec else DEFAULT_PROFILE
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


def not_tuned(scorer: str | None) -> None:
    """A tuning was given for a scorer it does not apply to."""
    from toolcat.cli.output import warn

    warn(f"a tuning applies to the hybrid scorer; {scorer} scores zero-shot")


def resolver_tuning(option: Path | None, cfg: Config, catalog: Catalog,
                    chosen: Profile) -> Tuning | None:
    """The tuning resolve and render apply: `--tuning`, else toolcat.yaml's, when the
    profile's scorer is the hybrid one (warned otherwise)."""
    from toolcat.search import default_scorer

    found = tuning(option, cfg)
    if found is None:
        return None
    scorer = chosen.scorer or default_scorer()[0]
    if scorer != "hybrid":
        not_tuned(scorer)
        return None
    tuning_warnings(found, catalog.tools)
    return found
