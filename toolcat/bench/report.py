"""What a benchmark run produced: frozen values with one stable JSON shape.

The JSON keeps the labels and, per scorer, each query's top tools with their scores and the
rank of the first relevant tool, so anyone can recompute every metric from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from toolcat.bench.metrics import ABSTENTION_METRICS, metric_names
from toolcat.bench.queries import LabeledQuery, QuerySet

FORMAT = "toolcat-bench/1"


def report_metrics(queries: QuerySet, ks: Sequence[int]) -> list[str]:
    """The metrics a run of `queries` reports, in order: the ranking metrics when a query
    needs a tool, abstention when a query needs none."""
    names = metric_names(ks) if any(q.needs_tool for q in queries) else []
    return names + (list(ABSTENTION_METRICS) if any(not q.needs_tool for q in queries) else [])


@dataclass(frozen=True)
class QueryOutcome:
    """How one scorer ranked one query.

    `ranking` is the top max(k) tools (fewer when fewer scored); `ranks` the 1-based rank of
    each relevant group's best-ranked member in the whole ranking (None: not ranked at all),
    aligned with the query's groups; `missed` means a group is not in the top max(k), or, for
    a query no tool fits, that the scorer picked something instead of abstaining; `tokens`
    the tokens of the top max(k) definitions.
    """

    id: str
    ranking: tuple[tuple[str, float], ...]
    ranks: tuple[int | None, ...]
    missed: bool
    tokens: int = 0

    @property
    def first_relevant(self) -> int | None:
        return min((r for r in self.ranks if r is not None), default=None)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id,
                "ranking": [{"name": n, "score": round(s, 6)} for n, s in self.ranking],
                "ranks": list(self.ranks), "first_relevant": self.first_relevant,
                "missed": self.missed, "tokens": self.tokens}


@dataclass(frozen=True)
class Latency:
    """Wall time of single `scores(query)` calls, in milliseconds."""

    p50_ms: float
    p95_ms: float
    samples: int

    def to_json(self) -> dict[str, Any]:
        return {"p50": round(self.p50_ms, 3), "p95": round(self.p95_ms, 3),
                "samples": self.samples}


@dataclass(frozen=True)
class ScorerRun:
    """One scorer's results: metrics, per-category metrics, cost, and every query."""

    name: str
    metrics: Mapping[str, float | None]
    categories: Mapping[str, Mapping[str, Any]]
    build_s: float
    run_s: float
    latency: Latency
    tokens: Mapping[int, float]  # k -> mean tokens of the top-k definitions per query
    outcomes: tuple[QueryOutcome, ...]
    batched: bool = False
    # with a tuning: metrics per kind of query (recurring, new tools, no tool; see run_bench)
    kinds: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    model: str | None = None  # the embedding model that ranked (None: no model)

    def missed(self) -> list[QueryOutcome]:
        return [o for o in self.outcomes if o.missed]


@dataclass(frozen=True)
class CatalogSummary:
    sources: tuple[str, ...]
    tools: int
    tokens: int
    fingerprint: str

    def to_json(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "tools": self.tools, "tokens": self.tokens,
                "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class BenchReport:
    """Scorers side by side on one labeled query set and one catalog."""

    catalog: CatalogSummary
    queries: QuerySet
    scorers: tuple[ScorerRun, ...]
    ks: tuple[int, ...]
    min_score: float
    encoding: str
    unknown_labels: tuple[str, ...] = ()

    @cached_property
    def by_id(self) -> dict[str, LabeledQuery]:
        return {q.id: q for q in self.queries}

    @property
    def depth(self) -> int:
        return max(self.ks)

    @property
    def with_tools(self) -> int:
        return sum(q.needs_tool for q in self.queries)

    @property
    def without_tools(self) -> int:
        return len(self.queries) - self.with_tools

    def metric_names(self) -> list[str]:
        return report_metrics(self.queries, self.ks)

    def scorer(self, name: str) -> ScorerRun:
        return next(s for s in self.scorers if s.name == name)

    def to_json(self) -> dict[str, Any]:
        """The documented `bench --json` shape (without the CLI's status, failures and
        comparison keys)."""
        return {
            "format": FORMAT,
            "catalog": self.catalog.to_json(),
            "query_set": {
                "source": self.queries.source,
                "queries": len(self.queries),
                "with_tools": self.with_tools,
                "without_tools": self.without_tools,
                "categories": sorted({q.category for q in self.queries
                                      if q.category is not None}),
                "unknown_labels": list(self.unknown_labels),
                "fingerprint": self.queries.fingerprint(),
            },
            "settings": {"k": list(self.ks), "min_score": self.min_score,
                         "encoding": self.encoding},
            "metrics": self.metric_names(),
            "scorers": [self._scorer_json(s) for s in self.scorers],
            "queries": [q.to_json() for q in self.queries],
        }

    def _scorer_json(self, run: ScorerRun) -> dict[str, Any]:
        total = self.catalog.tokens
        return {
            "name": run.name,
            "model": run.model,
            "metrics": _rounded(run.metrics),
            "categories": {name: {"queries": cat["queries"], "metrics": _rounded(cat["metrics"])}
                           for name, cat in run.categories.items()},
            "cost": {
                "build_s": round(run.build_s, 4),
                "run_s": round(run.run_s, 4),
                "batched": run.batched,
                "latency_ms": run.latency.to_json(),
                "tokens": {str(k): {"mean": round(mean, 2),
                                    "saving": round(1 - mean / total, 4) if total else 0.0}
                           for k, mean in run.tokens.items()},
            },
            **({"kinds": {name: {"queries": kind["queries"],
                                 "metrics": _rounded(kind["metrics"])}
                          for name, kind in run.kinds.items()}} if run.kinds else {}),
            "queries": [o.to_json() for o in run.outcomes],
        }


def rounded(value: float | None) -> float | None:
    """A metric as the JSON keeps it: six decimals are far below any difference that
    matters, and keep the file readable."""
    return None if value is None else round(value, 6)


def _rounded(values: Mapping[str, float | None]) -> dict[str, float | None]:
    return {k: rounded(v) for k, v in values.items()}
