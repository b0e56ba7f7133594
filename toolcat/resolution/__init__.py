"""Resolution: which tools a model sees for a query and an agent profile, and why.

    import toolcat
    resolution = toolcat.resolve("what's the weather in Tokyo", catalog, profile)

The room is called `resolution` rather than `resolve` so that the package never shadows the
public function `toolcat.resolve` (importing a subpackage sets the parent's attribute).

Imports only rooms below it (search, catalog, providers, config, source); see docs/architecture.md.
"""

from __future__ import annotations

from pathlib import Path

from toolcat.model import Catalog
from toolcat.resolution.decisions import (
    Brief,
    Cap,
    Category,
    Decision,
    FormatChoice,
    GatewayOutcome,
    Resolution,
    TokenCost,
    Verdict,
)
from toolcat.resolution.profile import DEFAULT_PROFILE, Profile
from toolcat.resolution.profile_reader import load_profile
from toolcat.resolution.resolver import Resolver, SessionState
from toolcat.resolution.session import Call, Script, Session, Step, load_script
from toolcat.resolution.trace import TRACE_RULES


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


__all__ = [
    "DEFAULT_PROFILE",
    "TRACE_RULES",
    "Brief",
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
