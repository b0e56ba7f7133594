"""Bars a run must clear: `METRIC=VALUE`, or `SCORER:METRIC=VALUE` for one scorer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.bench.report import BenchReport
from toolcat.errors import UsageError

# short spellings people write, mapped to the report's metric names
_ALIASES = {"r": "recall", "p": "precision", "hit": "hit", "success": "hit", "rr": "mrr"}
# means of many fractions land a rounding error away from the bar they were meant to hit
_SLACK = 1e-9
_BAR = re.compile(r"^(?:(?P<scorer>[^:=]+):)?(?P<metric>[^=]+)=(?P<value>.+)$")


@dataclass(frozen=True)
class Bar:
    """A metric that must be at least `value` (for `scorer`, or for every scorer)."""

    metric: str
    value: float
    scorer: str | None = None

    def __str__(self) -> str:
        prefix = f"{self.scorer}:" if self.scorer else ""
        return f"{prefix}{self.metric}={self.value:g}"


@dataclass(frozen=True)
class Failure:
    scorer: str
    metric: str
    value: float | None
    bar: float

    def __str__(self) -> str:
        if self.value is None:
            return (f"{self.scorer}: {self.metric} is undefined for this run, "
                    f"so it does not reach {self.bar:g}")
        return f"{self.scorer}: {self.metric} = {self.value:.4f}, under {self.bar:g}"

    def to_json(self) -> dict[str, Any]:
        return {"scorer": self.scorer, "metric": self.metric, "value": self.value,
                "bar": self.bar}


def parse_bar(text: str) -> Bar:
    """`recall@5=0.85`, `R@5=0.85`, `bm25:mrr=0.7`.

    Raises:
        UsageError: not of that form, or the value is not a number in 0..1.
    """
    match = _BAR.match(text.strip())
    if not match:
        raise UsageError(f"--fail-under takes METRIC=VALUE (like recall@5=0.85), not '{text}'")
    try:
        value = float(match["value"])
    except ValueError:
        raise UsageError(f"--fail-under {text}: '{match['value']}' is not a number") from None
    if not 0 <= value <= 1:
        raise UsageError(f"--fail-under {text}: the bar must be between 0 and 1")
    metric = match["metric"].strip().lower()
    stem, at, cut = metric.partition("@")
    metric = _ALIASES.get(stem, stem) + at + cut
    scorer = match["scorer"].strip() if match["scorer"] else None
    return Bar(metric, value, scorer)


def check_names(bars: Sequence[Bar], metrics: Sequence[str], scorers: Sequence[str]) -> None:
    """Fail early on a bar no run of these metrics and scorers could be measured against.

    Raises:
        UsageError: a bar names a metric or scorer that the run does not have.
    """
    for bar in bars:
        if bar.metric not in metrics:
            raise UsageError(f"--fail-under {bar}: this run has no metric '{bar.metric}'; "
                             f"it has {', '.join(metrics)}")
        if bar.scorer is not None and bar.scorer not in scorers:
            raise UsageError(f"--fail-under {bar}: scorer '{bar.scorer}' is not in this run; "
                             f"it has {', '.join(scorers)}")


def check_bars(report: BenchReport, bars: Sequence[Bar]) -> list[Failure]:
    """Every (scorer, metric) under its bar. An undefined value (an abstention precision of a
    scorer that never abstained) does not clear a bar.

    Raises:
        UsageError: a bar names a metric or scorer that this run does not have.
    """
    check_names(bars, report.metric_names(), [s.name for s in report.scorers])
    failures = []
    for bar in bars:
        for run in report.scorers:
            if bar.scorer not in (None, run.name):
                continue
            value = run.metrics.get(bar.metric)
            if value is None or value < bar.value - _SLACK:
                failures.append(Failure(run.name, bar.metric, value, bar.value))
    return failures
