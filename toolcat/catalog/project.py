"""The catalog a command works on: the paths given (`demo` names the bundled demo catalog, `-`
standard input), else $TOOLCAT_CATALOG, else the `catalogs:` of toolcat.yaml, else the demo;
loaded with the project's `$ref` roots and its policy for MCP tools that give no safety hint."""

from __future__ import annotations

import gc
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

from toolcat.catalog.load import load_catalog
from toolcat.config import CatalogChoice, Config, choose_catalogs
from toolcat.config.paths import demo_catalog
from toolcat.config.trust import (
    ENV_TRUST,
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
from toolcat.source.positions import join
from toolcat.urls import split_url

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


BASE_URLS = "/openapi/base_urls"


def openapi_base_urls(cfg: Config, overridden: Collection[str] = ()) -> dict[str, str]:
    """`openapi: {base_urls: {API: URL}}` of toolcat.yaml: the address `toolcat serve` calls
    each named OpenAPI API at instead of its document's server URL, but for the APIs in
    `overridden` (those `--base-url` names: the flag wins, and they are left out).

    Where calls go decides who receives the API's credential from the environment, so the
    setting counts only in a file of the user's configuration folder or a folder of
    $TOOLCAT_TRUST (config.trust.may_relax_safety); a repository's toolcat.yaml that sets
    it stops serve rather than be ignored, since calling the document's server instead
    could reach another deployment than the one the user meant.

    Raises:
        ConfigError: the section is malformed, a URL is not http or https, or the file may
            not choose where calls go; each at its line and column.
    """
    read = cfg.reader()
    section = read.mapping("/openapi", cfg.sections.get("openapi"), ("base_urls",))
    value = section.get("base_urls")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise read.error(BASE_URLS, "'openapi.base_urls' must be a mapping of API names "
                         "(an OpenAPI document's info.title) to http or https URLs")
    out: dict[str, str] = {}
    for api, url in value.items():
        pointer = join(BASE_URLS, str(api))
        parts = split_url(url) if isinstance(url, str) else None
        if parts is None or parts.scheme.lower() not in ("http", "https") \
                or not parts.hostname or not str(api):
            raise read.error(pointer, f"openapi.base_urls: '{str(api)[:80]}' must map to an "
                             "http or https URL, e.g. https://api.example.com/v1")
        if str(api) not in overridden:
            out[str(api)] = url.strip()
    if out and cfg.path is not None and not may_relax_safety(cfg.path):
        raise read.error(join(BASE_URLS, next(iter(out))), (
            "openapi.base_urls chooses where toolcat serve sends calls, with the API's "
            "credential from your environment: it is taken only from your own configuration "
            f"folder or a folder of ${ENV_TRUST}, never from a repository's files; give the "
            f"address with --base-url, or trust this file with "
            f"{ENV_TRUST}={cfg.path.resolve().parent}"))
    return out
