"""Compare a run with an earlier `bench --json` report: per-metric deltas and the queries
that flipped between missed and found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcat.bench.report import FORMAT, BenchReport, rounded
from toolcat.errors import CatalogError, ConfigError
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_text, read_text
from toolcat.source.positions import PositionIndex, join


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
        ConfigError: the file is not JSON or not a toolcat bench report (at file:line:column).
    """
    shown = str(path)
    try:  # bounded, strict JSON with positions, as every input is read
        parsed = parse_text(read_text(Path(path)), shown, yaml_syntax=False)
    except CatalogError as exc:
        raise ConfigError(exc.message, where=exc.where) from None
    return past_from_json(parsed.data, shown, parsed.index)


def past_from_json(data: Any, source: str, index: PositionIndex | None = None) -> PastRun:
    """What comparing needs from a report's JSON, each value checked (a report may have been
    edited by hand): a wrong one is an error at its place when `index` gives positions."""
    read = FieldReader(source, index, document="the bench report")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise read.error("", f"not a report of `toolcat bench --json` (format {FORMAT})")

    def get(at: str, mapping: Mapping[str, Any], key: str, kinds: type | tuple[type, ...],
            what: str) -> Any:
        if key not in mapping:
            raise read.error(at, f"bench report is incomplete (missing '{key}')")
        return read.typed(join(at, key), mapping[key], kinds, what)

    settings = get("", data, "settings", dict, "a mapping")
    ks = get("/settings", settings, "k", list, "a list of whole numbers")
    for i, k in enumerate(ks):
        read.typed(f"/settings/k/{i}", k, int, "a whole number")
    catalog = get("", data, "catalog", dict, "a mapping")
    query_set = get("", data, "query_set", dict, "a mapping")
    metrics: dict[str, dict[str, float | None]] = {}
    missed: dict[str, dict[str, bool]] = {}
    for i, scorer in enumerate(get("", data, "scorers", list, "a list")):
        at = f"/scorers/{i}"
        read.typed(at, scorer, dict, "a mapping")
        name = get(at, scorer, "name", str, "a string")
        values = get(at, scorer, "metrics", dict, "a mapping of metric names to numbers")
        for metric, value in values.items():
            read.typed(join(at, "metrics", metric), value, (int, float, type(None)), "a number")
        metrics[name] = dict(values)
        missed[name] = {}
        for j, query in enumerate(get(at, scorer, "queries", list, "a list")):
            where = f"{at}/queries/{j}"
            read.typed(where, query, dict, "a mapping")
            qid = get(where, query, "id", (str, int), "a string or a number")
            missed[name][str(qid)] = get(where, query, "missed", bool, "true or false")
    return PastRun(
        source=source, ks=tuple(ks),
        catalog_fingerprint=get("/catalog", catalog, "fingerprint", str, "a string"),
        query_fingerprint=get("/query_set", query_set, "fingerprint", str, "a string"),
        metrics=metrics, missed=missed)


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
