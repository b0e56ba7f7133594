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
    loaded = _mcp_policy(loaded, cfg or config())
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


def profile(option: str | None, cfg: Config | None = None) -> Profile:
    """`--profile`, else the `profile:` of toolcat.yaml, else the default profile (a large model
    with native tool calling)."""
    from toolcat.resolution import DEFAULT_PROFILE, load_profile

    spec = option or (cfg or config()).profile
    return load_profile(spec) if spec else DEFAULT_PROFILE
