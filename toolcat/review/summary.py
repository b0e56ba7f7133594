"""A comparison in words: one line per request for a terminal, and the Markdown page
`changes.md` a reviewer reads beside the diff."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from toolcat.pin.diff import ABSENT, FieldChange, word_diff
from toolcat.review.compare import Redefined, RequestChange
from toolcat.review.record import Record

VALUE_WIDTH = 120  # characters of an old or new value shown in a line
CONTEXT = 30  # characters of unchanged text kept on each side of a change in a text


def short_line(record: Record, change: RequestChange) -> str:
    """`q3 (default): +read_graph -move_file; 1 definition changed; tokens 2,382 → 2,678`."""
    parts = []
    moved = [f"+{m.name}" for m in change.joined] + [f"-{m.name}" for m in change.left]
    if moved:
        parts.append("visible " + " ".join(moved))
    if change.redefined:
        names = ", ".join(r.tool for r in change.redefined[:3])
        more = f" and {len(change.redefined) - 3} more" if len(change.redefined) > 3 else ""
        parts.append(f"definition changed: {names}{more}")
    parts += [f"tokens{'' if d.target == 'prompt' else ' ' + d.target} {d.old:,} → {d.new:,}"
              f" ({d.new - d.old:+,})" for d in change.tokens]
    if change.prompt and not moved and not change.redefined:
        parts.append("system prompt changed")
    if change.payloads and not moved and not change.redefined:
        parts.append("payload changed: " + ", ".join(change.payloads))
    if change.kind == "new":
        parts.append("new request")
    if not parts and change.kind == "changed":
        parts.append("trace changed")
    return f"{record.request.id} ({record.profile}): " + ("; ".join(parts) or "no change")


def value(text: Any) -> str:
    """A value as compact JSON, shortened; `(absent)` where a side has none."""
    if text is ABSENT:
        return "(absent)"
    shown = json.dumps(text, ensure_ascii=False, allow_nan=False)
    return shown if len(shown) <= VALUE_WIDTH else shown[:VALUE_WIDTH - 1] + "…"


def field_lines(change: FieldChange) -> list[tuple[str, Any, Any]]:
    """(where, old, new) for each changed place of a field: the whole field, or each node of
    a schema that differs."""
    if change.values and change.paths != ("",):
        return [(f"{change.field} {v.path}", v.old, v.new) for v in change.values]
    return [(change.field, change.old, change.new)]


def change_text(old: Any, new: Any) -> str:
    """`old → new`; for two texts, a word diff ([-deleted-]{+inserted+}) whose unchanged runs
    are shortened to the words around each change."""
    if not (isinstance(old, str) and isinstance(new, str)):
        return f"{value(old)} → {value(new)}"
    ops = [(op, _unmarked(text)) for op, text in word_diff(old, new)]
    parts = []
    for i, (op, text) in enumerate(ops):
        if op == "delete":
            parts.append(f"[-{text}-]")
        elif op == "insert":
            parts.append(f"{{+{text}+}}")
        elif len(text) <= 2 * CONTEXT:
            parts.append(text)
        else:
            head = text[:CONTEXT] if i > 0 else ""
            tail = text[-CONTEXT:] if i < len(ops) - 1 else ""
            parts.append(f"{head}…{tail}")
    return '"' + "".join(parts) + '"'


_MARKER = re.compile(r"\[-|-\]|\{\+|\+\}")


def _unmarked(text: str) -> str:
    """`text` with every diff marker it holds broken by a backslash (`[\\-`, `+\\}`): a
    description cannot forge a deletion or an insertion, in changes.md or on the page."""
    return _MARKER.sub(lambda m: f"{m.group()[0]}\\{m.group()[1]}", text)


def redefined_lines(redefined: Redefined) -> list[str]:
    if redefined.note:
        return [redefined.note]
    if redefined.fields:
        return [f"{', '.join(redefined.fields)} changed since the lock (the lock keeps "
                "hashes, not the old values)"]
    return [f"{where}: {change_text(old, new)}" for c in redefined.changes
            for where, old, new in field_lines(c)]


def changes_markdown(entries: Iterable[tuple[Record, RequestChange]], label: str) -> str:
    """changes.md: the requests whose view changed, most affected first, then a count of the
    others."""
    ordered = sorted(entries, key=lambda e: tuple(-x for x in e[1].affected))
    changed = [(r, c) for r, c in ordered if c.kind != "same"]
    lines = [f"# Changes against {_md(label)}", "",
             f"{len(changed):,} of {len(ordered):,} requests changed.", ""]
    for record, change in changed:
        lines += _request_section(record, change)
    return "\n".join(lines).rstrip("\n") + "\n"


def _request_section(record: Record, change: RequestChange) -> Sequence[str]:
    lines = [f"## {_md(record.request.id)} ({_md(record.profile)})", "",
             f"> {_md(record.request.text)}", "", f"Files: `{record.folder}/`", ""]
    if change.kind == "new":
        lines += ["- new request: not in the baseline", ""]
        return lines
    lines += [f"- joined: **{_md(m.name)}** [{m.rule}] {_md(m.reason)} (before: {_md(m.other)})"
              for m in change.joined]
    lines += [f"- left: **{_md(m.name)}** (was [{m.rule}] {_md(m.reason)}; now: {_md(m.other)})"
              for m in change.left]
    for redefined in change.redefined:
        lines.append(f"- definition of **{_md(redefined.tool)}**:")
        lines += [f"  - {_md(line)}" for line in redefined_lines(redefined)]
    lines += [f"- tokens ({d.target}): {d.old:,} → {d.new:,} ({d.new - d.old:+,})"
              for d in change.tokens]
    if change.prompt:
        lines.append("- the system prompt changed")
    lines += [f"- the {p} payload changed" for p in change.payloads]
    if lines[-1] == "":
        lines.append("- the decision trace changed")
    lines.append("")
    return lines


def _md(text: str) -> str:
    """Text shown literally in Markdown: one line, no HTML a viewer would run."""
    return " ".join(text.replace("<", "&lt;").split())
