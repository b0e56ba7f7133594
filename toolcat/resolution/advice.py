"""The seeds' advice on how to show a number of tools to a model.

Normal mode (every tool shown) is better under 30 tools; with 30 or more, use tool
search mode. Pick the tools per request (pickTools) over 20 tools; skip picking
under 10. `stats` prints the advice for a catalog, and `resolve` adds it to the trace when a
model is shown 30 tools or more at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOOL_SEARCH_FROM = 30  # tool search mode's "Good use cases: 30+ tools"; normal mode "<30 tools"
PICK_ABOVE = 20  # use pickTools when the catalog is large (>20 tools)
SKIP_PICK_BELOW = 10  # skip pickTools when the catalog is small (<10)


@dataclass(frozen=True)
class Advice:
    """`key`: show-all, pick-optional, pick or tool-search; `text`: one line saying why."""

    key: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "text": self.text}


def advise(count: int) -> Advice:
    """What the design advises for a model that could be shown `count` tools."""
    tools = f"{count} tool" + ("" if count == 1 else "s")
    if count >= TOOL_SEARCH_FROM:
        return Advice("tool-search", f"{tools}: with {TOOL_SEARCH_FROM} or more, use tool "
                      "search mode (tool_search_mode, or --profile tool-search), and over "
                      f"{PICK_ABOVE} pick the tools per request (toolcat pick)")
    if count > PICK_ABOVE:
        return Advice("pick", f"{tools}: over {PICK_ABOVE}, pick the tools per request "
                      f"(toolcat pick); under {TOOL_SEARCH_FROM}, normal mode can still show "
                      "them all")
    if count >= SKIP_PICK_BELOW:
        return Advice("pick-optional", f"{tools}: normal mode can show them all (under "
                      f"{TOOL_SEARCH_FROM}); picking per request is optional (it pays over "
                      f"{PICK_ABOVE})")
    return Advice("show-all", f"{tools}: under {SKIP_PICK_BELOW}, show them all (normal mode; "
                  "picking per request gains nothing)")
