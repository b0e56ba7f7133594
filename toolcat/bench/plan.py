"""A bench run as the command line asks for it: options read and checked, queries loaded and
their labels matched to the catalog, all before the long run; then the run, its bars and its
comparison with an earlier run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolcat.bench.compare import Comparison, PastRun, compare, load_past
from toolcat.bench.gates import Bar, Failure, check_bars, check_names, parse_bar
from toolcat.bench.queries import QuerySet, load_queries, resolve_labels, unknown_labels_error
from toolcat.bench.report import BenchReport, report_metrics
from toolcat.bench.runner import (
    Progress,
    check_ks,
    check_models,
    check_scorers,
    run_bench,
    run_names,
)
from toolcat.errors import UsageError
from toolcat.model import Catalog
from toolcat.wording import plural

if TYPE_CHECKING:
    from toolcat.search.tuning import Tuning


def parse_ks(text: str) -> tuple[int, ...]:
    """`1,3,5,10` -> (1, 3, 5, 10)."""
    try:
        ks = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError(f"-k takes whole numbers separated by commas, not '{text}'") from None
    return check_ks(ks)


def chosen_scorers(given: Sequence[str] | None, tools: int = 0) -> tuple[list[str], str]:
    """The scorers asked for (commas or repeats), or pick's default for a catalog of `tools`
    tools and why it is."""
    if given:
        return [n.strip() for text in given for n in text.split(",") if n.strip()], ""
    from toolcat.search import default_scorer

    name, reason = default_scorer(tools)
    return [name], f"the default scorer of pick ({reason})"


@dataclass(frozen=True)
class BenchPlan:
    """Everything a run needs, checked; `warnings` are for the user before it starts."""

    catalog: Catalog
    queries: QuerySet
    scorers: list[str]
    scorer_reason: str  # why these scorers, when none was asked for
    ks: tuple[int, ...]
    min_score: float
    bars: list[Bar]
    past: PastRun | None
    unknown_labels: list[str]
    warnings: list[str]
    tuning: Tuning | None = None  # measured as one more scorer, after the others
    models: tuple[str, ...] = ()  # embedding models of the semantic scorers (): the default


def plan_bench(catalog: Catalog, queries: Path, *, topics: Path | None = None,
               scorers: Sequence[str] | None = None, ks: str = "1,3,5,10",
               min_score: float = 0.0, fail_under: Sequence[str] = (),
               compare_with: Path | None = None, allow_unknown: bool = False,
               tuning: Tuning | None = None, models: Sequence[str] = ()) -> BenchPlan:
    """Read and check a bench run's inputs.

    Raises:
        UsageError: a bad cut-off, scorer, bar or minimum score.
        ConfigError: labels that name no tool of the catalog (unless `allow_unknown`), or a
            bar naming a metric or scorer the run will not have.
        CatalogError: the query, topics or past-run file cannot be read.
    """
    cut_offs = parse_ks(ks)
    names, reason = chosen_scorers(scorers, len(catalog.tools))
    check_scorers(names)
    models = [m.strip() for text in models for m in text.split(",") if m.strip()]
    check_models(models)
    bars = [parse_bar(text) for text in fail_under]
    past = load_past(compare_with) if compare_with is not None else None
    labeled, unknown = resolve_labels(load_queries(queries, topics=topics), catalog)
    warnings = []
    if unknown:
        problem = unknown_labels_error(unknown)
        if not allow_unknown:
            raise problem
        warnings.append(str(problem).removesuffix(f" ({problem.hint})"))
    measured = run_names(names, models)
    if tuning is not None:
        from toolcat.search.choice import choose_scorer
        from toolcat.search.tuning import bench_base  # numpy and the scorers: only when tuned

        tuned = choose_scorer(bench_base(names), len(catalog.tools), tuning).name
        measured.append(tuned)
        seen = tuning.seen(q.text for q in labeled)
        if seen:
            warnings.append(f"{plural(seen, 'query', 'queries')} of {len(labeled):,} in "
                            f"{queries} were used to make the tuning {tuning.source}: the "
                            f"{tuned} figures are optimistic (toolcat tune --cv measures "
                            "without them)")
    check_names(bars, report_metrics(labeled, cut_offs), measured)
    return BenchPlan(catalog, labeled, names, reason, cut_offs, min_score, bars, past,
                     [u.name for u in unknown], warnings, tuning, tuple(models))


@dataclass(frozen=True)
class BenchOutcome:
    report: BenchReport
    failures: list[Failure]
    comparison: Comparison | None

    def to_json(self) -> dict[str, Any]:
        return {**self.report.to_json(), "status": "fail" if self.failures else "ok",
                "failures": [f.to_json() for f in self.failures],
                "comparison": self.comparison.to_json() if self.comparison else None}


def run_plan(plan: BenchPlan, progress: Progress | None = None) -> BenchOutcome:
    """Run every scorer of `plan` over its queries, then judge the bars and the comparison."""
    report = run_bench(plan.catalog, plan.queries, plan.scorers, ks=plan.ks,
                       min_score=plan.min_score, unknown_labels=plan.unknown_labels,
                       progress=progress, tuning=plan.tuning, models=plan.models)
    return BenchOutcome(report, check_bars(report, plan.bars),
                        compare(report, plan.past) if plan.past is not None else None)
