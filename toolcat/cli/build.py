"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

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
    loaded = load_catalog(choice.paths, shape=shape, lenient=lenient)
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

    spec = option or (cfg or config()).profile
    chosen = load_profile(spec) if spec else DEFAULT_PROFILE
    return replace(chosen, allow_unsafe=True) if allow_unsafe else chosen
