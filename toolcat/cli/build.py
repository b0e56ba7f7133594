"""Turn parsed options into core objects; shared by the commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.catalog.project import load_project_catalog
from toolcat.config import Config, find_config
from toolcat.model import Catalog

if TYPE_CHECKING:
    from toolcat.resolution import Profile


def config() -> Config:
    return find_config(Path.cwd())


def load(catalog: list[str] | None, shape: str | None = None, *, lenient: bool = False,
         cfg: Config | None = None, demo: bool = True) -> Catalog:
    """The catalog the user meant (see toolcat.catalog.project), saying on stderr when it is
    the demo and what loading warned about."""
    from toolcat.cli.output import note, warn

    loaded, choice = load_project_catalog(catalog, cfg or config(), shape=shape,
                                          lenient=lenient, demo=demo)
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

    spec = option or (cfg or config()).profile
    chosen = load_profile(spec) if spec else DEFAULT_PROFILE
    return replace(chosen, allow_unsafe=True) if allow_unsafe else chosen
