"""The catalog a command works on: the paths given (`demo` names the bundled demo catalog, `-`
standard input), else $TOOLCAT_CATALOG, else the `catalogs:` of toolcat.yaml, else the demo;
loaded with the project's `$ref` roots and its policy for MCP tools that give no safety hint."""

from __future__ import annotations

import gc
from dataclasses import replace
from pathlib import Path

from toolcat.catalog.load import load_catalog
from toolcat.config import CatalogChoice, Config, choose_catalogs
from toolcat.config.paths import demo_catalog
from toolcat.config.trust import (
    check_owned,
    may_relax_safety,
    relaxing_from,
    require_python_trust,
)
from toolcat.define.reader import is_python_source
from toolcat.errors import UsageError
from toolcat.model import Catalog, LoadIssue
from toolcat.providers.mcp import trust_unannotated, unannotated_setting
from toolcat.source.files import named_path

DEMO = "demo"  # unless a file of that name is in the working folder
NO_CATALOG = ("no catalog: pass paths, -c, $TOOLCAT_CATALOG or catalogs: in toolcat.yaml "
              "(-c demo for the bundled demo catalog)")


def catalog_choice(catalog: list[str] | None, cfg: Config) -> CatalogChoice:
    paths = [str(demo_catalog()) if c == DEMO and not Path(c).exists() else str(named_path(c))
             for c in catalog or []]
    return choose_catalogs(paths, config=cfg)


def check_python_trust(choice: CatalogChoice, cfg: Config) -> None:
    """Python catalogs the user did not type (named by toolcat.yaml or $TOOLCAT_CATALOG) are
    imported, which runs them, only inside a folder of $TOOLCAT_TRUST (config.trust).

    Raises:
        ConfigError: one of them is outside every trusted folder.
    """
    if choice.reason not in ("config", "env"):
        return
    for i, path in enumerate(choice.paths):
        if not is_python_source(path):
            continue
        if choice.reason == "config":
            where = cfg.catalog_places[i] if i < len(cfg.catalog_places) else None
            named_by = str(cfg.path)
        else:
            where, named_by = None, "$TOOLCAT_CATALOG"
        # a module name is imported from the folder it is written relative to
        location = path if path.suffix.lower() == ".py" else path.parent
        check_owned(path, "the Python catalog", where)
        require_python_trust(path.name, location, named_by, where)


def load_project_catalog(catalog: list[str] | None, cfg: Config, *, shape: str | None = None,
                         lenient: bool = False, demo: bool = True
                         ) -> tuple[Catalog, CatalogChoice]:
    """The catalog the user meant, and how it was chosen (`reason` "demo" when nothing named
    one). With `demo=False`, for commands that check or pin a project's own catalog, no
    catalog at all is a usage error.

    Raises:
        UsageError: no catalog is configured and `demo` is False.
    """
    choice = catalog_choice(catalog, cfg)
    if choice.reason == "demo" and not demo:
        raise UsageError(NO_CATALOG)
    check_python_trust(choice, cfg)
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
    policy, ignored = unannotated_policy(cfg)
    if ignored is not None:
        loaded = replace(loaded, issues=(*loaded.issues, ignored))
    if policy != "unknown":
        loaded = replace(loaded, tools=trust_unannotated(loaded.tools, policy))
    return loaded, choice


def unannotated_policy(cfg: Config) -> tuple[str, LoadIssue | None]:
    """The `mcp: {unannotated: ...}` policy in force, and the warning when the configuration
    asked for the relaxed one (`safe`) and may not give it (config.trust.may_relax_safety):
    then the default, "unknown"."""
    policy = unannotated_setting(cfg.section("mcp"), cfg.reader())
    if policy != "safe" or cfg.path is None or may_relax_safety(cfg.path):
        return policy, None
    return "unknown", LoadIssue("untrusted-setting", relaxing_from(
        f"mcp.unannotated: {policy}", cfg.path), cfg.where("/mcp/unannotated"), "warning")
