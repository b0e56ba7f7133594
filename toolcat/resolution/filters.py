"""Which catalog tools the agent may use at all: server.enabled, server_allowed and
tool_allowed, with the filtering table.

| profile | discoverable |
|---|---|
| no filter | every tool |
| `filters.servers.allow` only (selectedServers) | every tool of those servers |
| `filters.tools.allow` only (selectedTools) | only those tools |
| both | tools matching either |
| `server:*` in `filters.tools.allow` | every tool of that server |

Deny lists win over allow lists. In tool search mode, tools of category structured_output or
human bypass the filters. A tool marked `safe: false` that the filters let through
is excluded (rule `unsafe`) unless the profile says `allow_unsafe: true`.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping

from toolcat.model import Server, Tool, matches
from toolcat.resolution.profile import SPECIAL_CATEGORIES, Profile


def eligibility(tool: Tool, profile: Profile, servers: Mapping[str, Server]
                ) -> tuple[bool, str, str]:
    """(eligible, rule, reason) for one catalog tool; `servers` are the catalog's by name.

    The filters speak first; a tool they let through that is marked unsafe (`safe: false`, an
    MCP destructiveHint) is then left out unless the profile allows unsafe tools
    (allow_unsafe); one whose safety is unknown is kept, its reason saying so.
    """
    server = tool.server
    if server in profile.servers:
        enabled, by = profile.servers[server], "the profile"
    else:
        declared = servers.get(server)
        enabled, by = (declared.enabled if declared else True), "the catalog"
    if not enabled:
        return False, "server-disabled", f"server {server} is disabled by {by}"
    ok, rule, reason = _filtered(tool, profile)
    if ok and tool.unsafe:
        if not profile.allow_unsafe:
            return False, "unsafe", f"{tool.safety_cause}; {UNSAFE_HOW}"
        reason += f"; {tool.safety_cause}, allowed by allow_unsafe"
    elif ok and tool.safety == "unknown":
        reason += f"; {tool.safety_cause}"
    return ok, rule, reason


UNSAFE_HOW = ("allow_unsafe is off (--allow-unsafe, or allow_unsafe: true in the profile, to "
              "show it)")


def _filtered(tool: Tool, profile: Profile) -> tuple[bool, str, str]:
    server = tool.server
    if profile.tool_search_mode.enabled and tool.category in SPECIAL_CATEGORIES:
        return True, "special-category", f"category {tool.category} bypasses the filters"
    rules = profile.filters
    if pattern := _first(rules.servers.deny, lambda p: fnmatch.fnmatchcase(server, p)):
        return False, "server-denied", f"server {server} matches filters.servers.deny {pattern}"
    if pattern := _first(rules.tools.deny, lambda p: matches(p, tool)):
        return False, "tool-denied", f"matches filters.tools.deny {pattern}"
    if not (rules.servers.allow or rules.tools.allow):
        return True, "no-filter", "no servers or tools are selected"
    if pattern := _first(rules.servers.allow, lambda p: fnmatch.fnmatchcase(server, p)):
        return True, "server-selected", f"server {server} matches filters.servers.allow {pattern}"
    if pattern := _first(rules.tools.allow, lambda p: matches(p, tool)):
        return True, "tool-selected", f"matches filters.tools.allow {pattern}"
    return False, "not-selected", "neither its server nor the tool is selected"


def _first(patterns: tuple[str, ...], test: Callable[[str], bool]) -> str | None:
    return next((p for p in patterns if test(p)), None)
