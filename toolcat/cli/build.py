"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.load import load_catalog
from toolcat.config import CatalogChoice, Config, choose_catalogs, find_config
from toolcat.config.paths import demo_catalog
from toolcat.errors import UsageError
from toolcat.model import Catalog

if TYPE_CHECKING:
    from toolcat.resolution import Profile


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
