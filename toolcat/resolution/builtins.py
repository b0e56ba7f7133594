"""The built-in tools and the rules that decide whether each is shown.

The built-ins live in catalogs/builtins/builtins.yaml; their `category` says what they are:
builtin (the four), discovery (search_tools, add_tool, show_all_tools),
context_offloading, structured_output and human (the special categories).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from toolcat.model import Catalog, Tool
from toolcat.resolution.profile import SPECIAL_CATEGORIES

if TYPE_CHECKING:
    from toolcat.resolution.profile import Profile

DISCOVERY = "discovery"
OFFLOADING = "context_offloading"


@cache
def builtin_catalog() -> Catalog:
    """The shipped built-in tools (loaded once)."""
    from toolcat.catalog.load import load_catalog
    from toolcat.config.paths import builtins_catalog

    return load_catalog(builtins_catalog(), default_source="builtin")


def builtin_names() -> tuple[str, ...]:
    return tuple(t.name for t in builtin_catalog().tools)


def decide_builtin(tool: Tool, profile: Profile, *, has_deferred: bool) -> tuple[bool, str, str]:
    """(shown, rule, reason) for one built-in, following the inclusion tree and tool search mode's
    always-available tools of tool search mode."""
    name = tool.name
    mode = profile.tool_search_mode.enabled
    if tool.category == DISCOVERY:
        if mode:
            return True, "tool-search-mode-discovery", "tool search mode is on"
        return False, "builtin-needs-tool-search-mode", "tool search mode is off"
    if tool.category == OFFLOADING and mode:
        return True, "tool-search-mode-offloading", "tool search mode is on"
    if name not in profile.builtins:
        return False, "builtin-not-enabled", "not in the profile's builtins"
    if tool.category in SPECIAL_CATEGORIES and mode:
        return True, "special-category", f"category {tool.category}, tool search mode is on"
    if not profile.filters.builtin_allowed(name):
        return False, "builtin-filtered", "refused by filters.builtins"
    if name == "python_execution" and "code" not in profile.formats.enabled:
        return False, "builtin-needs-code-format", "code is not in formats.enabled"
    if name == "tool_search" and not has_deferred:
        return False, "builtin-no-deferred-tools", "no catalog tool is deferred"
    if name in ("search_schemas", "execute_sql") and not profile.has_database:
        return False, "builtin-no-database", "no enabled database source"
    if tool.unsafe and not profile.allow_unsafe:
        # naming an unsafe built-in in `builtins` is the opt-in for that one tool
        return True, "builtin-enabled", "enabled and allowed; marked unsafe, shown because " \
            "builtins names it"
    return True, "builtin-enabled", "enabled and allowed"
