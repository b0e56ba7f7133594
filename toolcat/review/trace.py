"""The decision trace as a Markdown list: one line per decision, in the order resolve took them.

Leaves that share outcome, rule and reason are one line naming them (as `toolcat resolve`
prints them); a stage with more than SHOWN leaves lists the first ones and counts the rest by
outcome and rule, so a trace stays a page long at 43,000 tools.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from toolcat.resolution import Decision

GROUP_AT = 3  # this many leaves alike share one line
SHOWN = 40  # lines of leaves under one stage; the rest are counted
NAMES = 12  # names on a grouped line


def trace_markdown(root: Decision) -> str:
    """The trace under `root` as nested Markdown list items, `<`, `>` and `&` escaped."""
    lines: list[str] = []
    stack: list[tuple[Decision | str, int]] = [(root, 0)]
    while stack:  # depth first, iterative: a deep trace cannot exhaust Python's stack
        node, depth = stack.pop()
        if isinstance(node, str):
            lines.append("  " * depth + "- " + node)
            continue
        lines.append(_line(node, depth))
        stack.extend((entry, depth + 1) for entry in reversed(_entries(node.children)))
    return "\n".join(lines) + "\n"


def _entries(children: Sequence[Decision]) -> list[Decision | str]:
    """The children to write: stages and single leaves as they are, alike leaves grouped,
    and past SHOWN leaf lines one line per outcome and rule counting the rest."""
    alike: dict[tuple[str, str | None, str], list[Decision]] = {}
    for child in children:
        if not child.children:
            alike.setdefault((child.outcome, child.rule, child.reason), []).append(child)
    out: list[Decision | str] = []
    done: set[tuple[str, str | None, str]] = set()
    rest: Counter[tuple[str, str | None]] = Counter()
    shown = 0
    for child in children:
        if child.children:
            out.append(child)
            continue
        key = (child.outcome, child.rule, child.reason)
        if key in done:
            continue
        members = alike[key]
        item, count = child, 1
        if len(members) >= GROUP_AT:
            done.add(key)
            names = ", ".join(m.subject for m in members[:NAMES])
            more = f" and {len(members) - NAMES:,} more" if len(members) > NAMES else ""
            item = Decision(f"{names}{more} ({len(members):,})", child.outcome, child.rule,
                            child.reason)
            count = len(members)
        if shown < SHOWN:
            out.append(item)
            shown += 1
        else:
            rest[(child.outcome, child.rule)] += count
    out += [f"… and {count:,} more → {_escape(outcome)}" + (f" [{rule}]" if rule else "")
            for (outcome, rule), count in rest.items()]
    return out


def _line(decision: Decision, depth: int) -> str:
    rule = f" [{decision.rule}]" if decision.rule else ""
    return ("  " * depth + f"- {_escape(decision.subject)} → {_escape(decision.outcome)}{rule}"
            f" — {_escape(decision.reason)}")


def _escape(text: str) -> str:
    """Text as Markdown shows it: no HTML tag a viewer would run (`<` as `&lt;`), one line."""
    return " ".join(text.replace("<", "&lt;").split())
