"""Compare a run with an earlier `bench --json` report: per-metric deltas and the queries
that flipped between missed and found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcat.bench.report import FORMAT, BenchReport, rounded
from toolcat.errors import CatalogError, ConfigError
from toolcat.model import SourceRef
from toolcat.source.files import parse_file


@dataclass(frozen=True)
class PastRun:
    """What comparing needs from an earlier report."""

    source: str
    ks: tuple[int, ...]
    catalog_fingerprint: str
    query_fingerprint: str
    metrics: Mapping[str, Mapping[str, float | None]]  # scorer -> metric -> value
    missed: Mapping[str, Mapping[str, bool]]           # scorer -> query id -> missed


@dataclass(frozen=True)
class MetricDelta:
    """A metric of both runs, as the JSON reports keep it (rounded alike)."""

    metric: str
    old: float | None
    new: float | None

    @property
    def delta(self) -> float | None:
        return None if self.old is None or self.new is None else self.new - self.old

    def to_json(self) -> dict[str, Any]:
        delta = self.delta
        return {"old": self.old, "new": self.new, "delta": rounded(delta)}


@dataclass(frozen=True)
class ScorerComparison:
    """One scorer in both runs: its metric deltas, and the queries it now finds (`improved`)
    or now misses (`regressed`)."""

    scorer: str
    deltas: tuple[MetricDelta, ...]
    improved: tuple[str, ...]
    regressed: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    against: str
    scorers: tuple[ScorerComparison, ...]
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "against": self.against,
            "notes": list(self.notes),
            "scorers": {
                s.scorer: {"metrics": {d.metric: d.to_json() for d in s.deltas},
                           "improved": list(s.improved), "regressed": list(s.regressed)}
                for s in self.scorers
            },
        }


def load_past(path: str | Path) -> PastRun:
    """Read an earlier `bench --json` output.

    Raises:
        ConfigError: the file is not JSON or not a toolcat bench report.
    """
    try:  # the catalog reader: strict JSON, positions, limits, lone surrogates refused
        parsed = parse_file(Path(path))
    except CatalogError as exc:
        raise ConfigError(exc.message, where=exc.where) from None
    return past_from_json(parsed.data, str(path))


def past_from_json(data: Any, source: str) -> PastRun:
    where = SourceRef(source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConfigError(f"not a report of `toolcat bench --json` (format {FORMAT})",
                          where=where)
    try:
        scorers = data["scorers"]
        return PastRun(
            source=source,
            ks=tuple(data["settings"]["k"]),
            catalog_fingerprint=data["catalog"]["fingerprint"],
            query_fingerprint=data["query_set"]["fingerprint"],
            metrics={s["name"]: dict(s["metrics"]) for s in scorers},
            missed={s["name"]: {q["id"]: bool(q["missed"]) for q in s["queries"]}
                    for s in scorers},
        )
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"bench report is incomplete (missing {exc})", where=where) from exc


def compare(report: BenchReport, past: PastRun) -> Comparison:
    """Deltas (new - old) of every metric both runs have, for every scorer both ran."""
    notes = []
    if past.catalog_fingerprint != report.catalog.fingerprint:
        notes.append("the catalog changed since the earlier run")
    if past.query_fingerprint != report.queries.fingerprint():
        notes.append("the query set changed since the earlier run")
    if past.ks[-1:] != report.ks[-1:]:
        notes.append(f"the earlier run cut at k={max(past.ks, default=0)} and this one at "
                     f"k={report.depth}, so misses are counted at different depths")
    names = [s.name for s in report.scorers]
    for name in past.metrics:
        if name not in names:
            notes.append(f"scorer {name} is only in the earlier run")
    compared = []
    for run in report.scorers:
        if run.name not in past.metrics:
            notes.append(f"scorer {run.name} is new in this run")
            continue
        old = past.metrics[run.name]
        deltas = tuple(MetricDelta(m, old[m], rounded(run.metrics[m]))
                       for m in report.metric_names() if m in old and m in run.metrics)
        was = past.missed[run.name]
        improved = tuple(o.id for o in run.outcomes if was.get(o.id) is True and not o.missed)
        regressed = tuple(o.id for o in run.outcomes if was.get(o.id) is False and o.missed)
        compared.append(ScorerComparison(run.name, deltas, improved, regressed))
    return Comparison(past.source, tuple(compared), tuple(notes))
