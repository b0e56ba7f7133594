"""`bench --markdown`: the report as GitHub-flavoured Markdown for a README or a PR comment."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolcat.bench.compare import Comparison
from toolcat.bench.gates import Failure
from toolcat.bench.report import BenchReport
from toolcat.bench.tables import (
    Table,
    category_table,
    comparison_table,
    cost_table,
    metrics_table,
    misses_table,
)
from toolcat.wording import plural


def to_markdown(
    report: BenchReport,
    *,
    comparison: Comparison | None = None,
    failures: Sequence[Failure] = (),
    bars: int = 0,
    misses: bool = False,
) -> str:
    """The report's tables in Markdown; `bars` is how many bars were checked."""
    name = Path(report.queries.source).name
    parts = [f"### toolcat bench: {name}", table(metrics_table(report)),
             table(cost_table(report))]
    categories = category_table(report)
    if categories is not None:
        parts.append(table(categories))
    if comparison is not None:
        parts.append(table(comparison_table(comparison)))
    if bars:
        if failures:
            parts.append("\n".join(f"- **under the bar** {f}" for f in failures))
        else:
            parts.append(f"{'All ' if bars > 1 else ''}{plural(bars, 'bar')} cleared.")
    if misses:
        parts += [table(misses_table(report, run)) for run in report.scorers]
    return "\n\n".join(parts) + "\n"


def table(data: Table) -> str:
    """One table: a bold title line, a pipe table (numbers right-aligned), then its notes."""
    lines = [f"**{data.title}**", ""]
    if not data.rows:
        return f"**{data.title}**" if data.empty else "\n".join([*lines, "None."])
    lines.append("| " + " | ".join(_cell(h) for h in data.header) + " |")
    lines.append("|" + "|".join("--:" if data.numeric(i) else "---"
                                for i in range(len(data.header))) + "|")
    for i, row in enumerate(data.rows):
        best = data.best[i] if i < len(data.best) else frozenset()
        cells = [f"**{_cell(c)}**" if j in best else _cell(c) for j, c in enumerate(row)]
        lines.append("| " + " | ".join(cells) + " |")
    if data.notes:
        lines += ["", *(f"- {note}" for note in data.notes)]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")
