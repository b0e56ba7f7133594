"""The discovery tools' names as a client sees them (`--discovery-name`), and the
instructions serve's handshake gives: both known before the catalog is read, so that the
handshake needs nothing else (toolcat.serve answers it while the catalog loads)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from toolcat.errors import UsageError
from toolcat.model import Catalog
from toolcat.serve.proxy import INSTRUCTIONS as CALL_INSTRUCTIONS

INSTRUCTIONS = (
    "This server fronts a large catalog of tools that are not loaded by default. Call "
    "search_tools with a regex or a few words describing the task, then add_tool with the "
    "names you need; they become callable (the tool list changes). show_all_tools lists "
    "every name.")
DISCOVERY_NAMES = ("search_tools", "add_tool", "show_all_tools", "call_tool")
# a discovery tool's name in a message: not part of a longer name or of `server:tool`
_MENTION = re.compile(r"(?<![\w:.-])(search_tools|add_tool|show_all_tools|call_tool)"
                      r"(?![\w:.-])")


def discovery_names(names: Mapping[str, str], catalog: Catalog) -> dict[str, str]:
    """The names the discovery tools are shown by, checked: {built-in name: name shown}.

    Raises:
        UsageError: an unknown discovery tool, a name MCP does not allow, or one that is
            already taken (by another discovery tool or a catalog tool).
    """
    chosen = {old: new for old, new in names.items() if old != new}
    for old, new in chosen.items():
        where = f"--discovery-name {old}={new}"
        if old not in DISCOVERY_NAMES:
            raise UsageError(f"{where}: '{old}' is not a discovery tool; known: "
                             f"{', '.join(DISCOVERY_NAMES)}")
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,128}", new):
            raise UsageError(f"{where}: an MCP tool name is 1 to 128 of A-Z a-z 0-9 _ - .")
        taken = [o for o in DISCOVERY_NAMES if o != old and chosen.get(o, o) == new]
        if taken or catalog.find(new):
            raise UsageError(f"{where}: '{new}' is already the name of "
                             + (f"the discovery tool {taken[0]}" if taken else
                                "a catalog tool"))
    return chosen


def say(text: str, discovery: Mapping[str, str]) -> str:
    """`text` with the discovery tools called by the names the client knows them by."""
    if not discovery:
        return text
    return _MENTION.sub(lambda m: discovery.get(m.group(1), m.group(1)), text)


def instructions(mode: str, discovery: Mapping[str, str]) -> str:
    """What the handshake tells the client, in `mode`."""
    return say(CALL_INSTRUCTIONS if mode == "call" else INSTRUCTIONS, discovery)
