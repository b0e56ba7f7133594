"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.load import load_catalog
from toolcat.config import CatalogChoice, Config, choose_catalogs, find_config
from toolcat.model import Catalog

if TYPE_CHECKING:
    from toolcat.resolution import Profile


def config() -> Config:
    return find_config(Path.cwd())


def catalog_choice(catalog: list[str] | None, cfg: Config | None = None) -> CatalogChoice:
    return choose_catalogs(catalog or [], config=cfg or config())


def load(catalog: list[str] | None, shape: str | None = None, *, lenient: bool = False,
         cfg: Config | None = None) -> Catalog:
    """The catalog the user meant: `-c` paths, else $TOOLCAT_CATALOG, config, or the demo."""
    from toolcat.cli.output import warn

    choice = catalog_choice(catalog, cfg)
    # The catalog lives until the command ends and holds no reference cycles: the cycle
    # collector need not walk its objects, not even once when it is switched back on (at
    # 43,000 tools those walks took 0.5 s of a 1.7 s load, and a third of `toolcat list`).
    gc.disable()
    try:
        loaded = load_catalog(choice.paths, shape=shape, lenient=lenient)
    finally:
        gc.freeze()
        gc.enable()
    for issue in loaded.issues:
        if issue.severity == "warning":
            warn(str(issue))
    return loaded


def profile(option: str | None, cfg: Config | None = None) -> Profile:
    """`--profile`, else the `profile:` of toolcat.yaml, else the default profile (a large model
    with native tool calling)."""
    from toolcat.resolution import DEFAULT_PROFILE, load_profile

    spec = option or (cfg or config()).profile
    return load_profile(spec) if spec else DEFAULT_PROFILE
