"""`bench --plot`: recall@k curves, one per scorer, as PNG bytes (needs the `plot` extra)."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

from toolcat.bench.report import BenchReport
from toolcat.errors import MissingExtraError


def require_matplotlib() -> None:
    """Raises MissingExtraError unless matplotlib can be imported."""
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingExtraError("--plot", "plot")


def recall_plot(report: BenchReport) -> bytes:
    """A PNG of recall@k against k for every scorer of the report.

    Raises:
        MissingExtraError: matplotlib is not installed.
    """
    require_matplotlib()
    # the object-oriented API: no pyplot, so no global state and no GUI backend
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.5), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    ks = list(report.ks)
    for run in report.scorers:
        values = [run.metrics.get(f"recall@{k}") for k in ks]
        axes.plot(ks, [0.0 if v is None else v for v in values], marker="o", label=run.name)
    axes.set_xticks(ks)
    axes.set_xlabel("k (tools picked)")
    axes.set_ylabel("recall@k")
    axes.set_ylim(0, 1.02)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    axes.set_title(f"{Path(report.queries.source).name}: {report.with_tools} queries, "
                   f"{report.catalog.tools} tools", fontsize=10)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
