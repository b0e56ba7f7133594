"""Resolve: which tools a model sees for a query and an agent profile, and why.

    import toolcat
    resolution = toolcat.resolve("what's the weather in Tokyo", catalog, profile)

`toolcat.resolve` is this package and also the function `resolve` (the package is callable), so
`toolcat.resolve(...)`, `toolcat.resolve.resolve(...)` and `from toolcat.resolve import Profile`
all work.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

from toolcat.model import Catalog
from toolcat.resolve.model import (
    Cap,
    Category,
    Decision,
    FormatChoice,
    GatewayOutcome,
    Resolution,
    TokenCost,
    Verdict,
)
from toolcat.resolve.profile import DEFAULT_PROFILE, Profile, load_profile
from toolcat.resolve.resolver import Resolver, SessionState
from toolcat.resolve.rules import RULES
from toolcat.resolve.session import Call, Script, Session, Step, load_script


def resolve(query: str, catalog: Catalog | str | Path | list[str | Path],
            profile: Profile | str | Path | None = None) -> Resolution:
    """What the model sees for `query` with `catalog` under `profile`, and why.

    `catalog` is a Catalog or paths to load; `profile` a Profile, a profile file (or the name
    of a bundled profile), or None for DEFAULT_PROFILE (a large model with native tool calling).

    Raises:
        ConfigError: the profile is invalid or names tools or servers the catalog lacks.
        CatalogError: the catalog cannot be loaded.
    """
    if not isinstance(catalog, Catalog):
        from toolcat.catalog.load import load_catalog

        catalog = load_catalog(catalog)
    if profile is None:
        profile = DEFAULT_PROFILE
    elif not isinstance(profile, Profile):
        profile = load_profile(profile)
    return Resolver(catalog, profile).resolve(query)


class _CallableModule(types.ModuleType):
    # Importing the subpackage `toolcat.resolve` sets the attribute `toolcat.resolve` to this
    # module, shadowing the public function of the same name; making the module callable keeps
    # `toolcat.resolve(query, catalog, profile)` working either way.
    def __call__(self, query: str, catalog: Any, profile: Any = None) -> Resolution:
        return resolve(query, catalog, profile)


sys.modules[__name__].__class__ = _CallableModule

__all__ = [
    "DEFAULT_PROFILE",
    "RULES",
    "Call",
    "Cap",
    "Category",
    "Decision",
    "FormatChoice",
    "GatewayOutcome",
    "Profile",
    "Resolution",
    "Resolver",
    "Script",
    "Session",
    "SessionState",
    "Step",
    "TokenCost",
    "Verdict",
    "load_profile",
    "load_script",
    "resolve",
]
