"""What changed for one request between a baseline and now: tools that joined or left the
visible set and why, definitions that changed (old → new values, from toolcat.pin.diff), token
deltas, and whether the prompt or a payload changed at all."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from toolcat.model import Tool
from toolcat.pin.diff import FieldChange, tool_changes
from toolcat.pin.lock import PINNED_FIELDS, Pin, pin
from toolcat.review.record import Record

Kind = Literal["same", "changed", "new"]
Fate = Callable[[str], str | None]  # a qualified tool name -> where it ended, if known
Definitions = Callable[[str], Tool | None]  # a qualified tool name -> its definition


@dataclass(frozen=True)
class Moved:
    """A tool that joined (or left) the visible set: the rule that shows it on the side where
    it is visible, and where it ended on the other side."""

    tool: str
    name: str
    rule: str
    reason: str
    other: str


@dataclass(frozen=True)
class Redefined:
    """A visible tool whose definition changed: each field old → new; against a lock file,
    only which pinned fields changed (a lock keeps hashes, not values), or `note`."""

    tool: str
    changes: tuple[FieldChange, ...] = ()
    fields: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Delta:
    target: str
    old: int
    new: int


@dataclass(frozen=True)
class RequestChange:
    """The comparison of one request (under one profile) with the baseline."""

    folder: str
    kind: Kind
    joined: tuple[Moved, ...] = ()
    left: tuple[Moved, ...] = ()
    redefined: tuple[Redefined, ...] = ()
    tokens: tuple[Delta, ...] = ()
    prompt: bool = False
    payloads: tuple[str, ...] = ()

    @property
    def affected(self) -> tuple[int, int, int, int]:
        """How much changed, to sort the most affected requests first: tools moved,
        definitions changed, the token delta, anything else."""
        delta = abs(self.tokens[0].new - self.tokens[0].old) if self.tokens else 0
        return (len(self.joined) + len(self.left), len(self.redefined), delta,
                int(self.prompt or bool(self.payloads) or self.kind == "new"))


def compare(new: Record, old: Record | None, *, new_fate: Fate, old_fate: Fate,
            new_tools: Definitions, old_tools: Definitions) -> RequestChange:
    """`new` against `old` (None: the baseline has no such request)."""
    if old is None:
        return RequestChange(new.folder, "new")
    before = {p.tool: p for p in old.visible}
    after = {p.tool: p for p in new.visible}
    joined = tuple(Moved(p.tool, p.name, p.rule, p.reason,
                         old_fate(p.tool) or "not visible")
                   for key, p in after.items() if key not in before)
    left = tuple(Moved(p.tool, p.name, p.rule, p.reason,
                       new_fate(p.tool) or "not in the catalog")
                 for key, p in before.items() if key not in after)
    redefined = []
    for key in dict.fromkeys([*after, *before]):
        was, now = old_tools(key), new_tools(key)
        if was is not None and now is not None:
            changes = tool_changes(was, now)
            if changes:
                redefined.append(Redefined(key, changes))
    old_costs = {c.target: c.total for c in old.costs}
    tokens = tuple(Delta(c.target, old_costs[c.target], c.total) for c in new.costs
                   if c.target in old_costs and old_costs[c.target] != c.total)
    payloads = tuple(p for p, text in new.payloads.items()
                     if p in old.payloads and old.payloads[p] != text)
    change = RequestChange(new.folder, "same", joined, left, tuple(redefined), tokens,
                           new.prompt != old.prompt, payloads)
    if any(change.affected) or new.trace != old.trace or new.groups != old.groups:
        return RequestChange(new.folder, "changed", joined, left, tuple(redefined), tokens,
                             change.prompt, payloads)
    return change


def compare_with_lock(new: Record, pins: Mapping[str, Pin],
                      new_tools: Definitions) -> RequestChange:
    """`new` against a lock file: the visible tools whose definition differs from the pinned
    one (which fields), and those the lock does not know. A lock holds no visible sets and no
    token counts, so nothing joined or left."""
    redefined = []
    for placed in new.visible:
        tool = new_tools(placed.tool)
        if tool is None or tool.source in ("builtin", "virtual"):
            continue
        locked = pins.get(placed.tool)
        if locked is None:
            redefined.append(Redefined(placed.tool, note="not in the lock"))
            continue
        now = pin(tool)
        if now.digest != locked.digest:
            redefined.append(Redefined(placed.tool, fields=tuple(
                f for f in PINNED_FIELDS if locked.fields.get(f) != now.fields[f])))
    return RequestChange(new.folder, "changed" if redefined else "same",
                         redefined=tuple(redefined))
