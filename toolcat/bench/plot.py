"""`bench --plot`: recall@k curves, one per scorer, as PNG, SVG or PDF bytes (needs the `plot`
extra)."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

from toolcat.bench.report import BenchReport
from toolcat.errors import MissingExtraError, UsageError

# file suffix -> matplotlib's format name
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: Path) -> str:
    """The image format a plot file's suffix asks for.

    Raises:
        UsageError: the suffix is not one of PLOT_FORMATS.
    """
    fmt = PLOT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise UsageError(f"--plot {path}: cannot tell the image format from "
                         f"'{path.suffix or 'no suffix'}'; use {', '.join(PLOT_FORMATS)}")
    return fmt


def require_matplotlib() -> None:
    """Raises MissingExtraError unless matplotlib can be imported."""
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingExtraError("--plot", "plot")


def recall_plot(report: BenchReport, fmt: str = "png") -> bytes:
    """An image (`fmt`: png, svg or pdf) of recall@k against k for every scorer of the report.

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
    figure.savefig(buffer, format=fmt)
    return buffer.getvalue()
