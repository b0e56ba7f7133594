"""A report as plain tables of strings, shared by the terminal view and `--markdown`.

Metrics are rows and scorers are columns, so any number of cut-offs reads side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolcat.bench.compare import Comparison
from toolcat.bench.report import BenchReport, QueryOutcome, ScorerRun
from toolcat.wording import plural


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    best: tuple[frozenset[int], ...] = ()  # per row, the columns holding the best value
    notes: tuple[str, ...] = ()
    text_columns: int = 1  # the first columns hold text; the rest numbers (right-aligned)
    empty: bool = False  # with no rows, the title says it all: print no header


    def numeric(self, column: int) -> bool:
        return column >= self.text_columns


LOWER_IS_BETTER = frozenset({"false_accept"})


def metrics_table(report: BenchReport) -> Table:
    names = [s.name for s in report.scorers]
    rows, best = [], []
    for metric in report.metric_names():
        values = [s.metrics.get(metric) for s in report.scorers]
        rows.append((metric, *(number(v) for v in values)))
        best.append(_best_columns([None if v is None else -v for v in values]
                                  if metric in LOWER_IS_BETTER else values))
    title = (f"{plural(len(report.queries), 'query', 'queries')} ({report.without_tools} "
             f"with no fitting tool) on {plural(report.catalog.tools, 'tool')}")
    models = tuple(f"{s.name} ranked with the embedding model {s.model}"
                   for s in report.scorers if s.model is not None)
    return Table(title, ("metric", *names), tuple(rows), tuple(best), notes=models)


def cost_table(report: BenchReport) -> Table:
    runs = report.scorers
    k = report.depth
    total = report.catalog.tokens
    rows = [
        ("index build", *(seconds(r.build_s) for r in runs)),
        ("latency p50", *(milliseconds(r.latency.p50_ms) for r in runs)),
        ("latency p95", *(milliseconds(r.latency.p95_ms) for r in runs)),
        (f"tokens/query @{k}", *(_tokens(r.tokens[k], total) for r in runs)),
    ]
    return Table(f"cost (whole catalog: {total:,} tokens; −n% is the saving)",
                 ("", *(r.name for r in runs)),
                 tuple(rows))


def category_table(report: BenchReport) -> Table | None:
    if not report.queries.has_categories:
        return None
    k = report.depth
    first = report.scorers[0].categories
    rows, best = [], []
    for category, info in first.items():
        values = []
        for run in report.scorers:
            metrics = run.categories[category]["metrics"]
            values.append(metrics.get(f"recall@{k}", metrics.get("abstention_recall")))
        needs_tool = f"recall@{k}" in first[category]["metrics"]
        cells = [number(v) if needs_tool else f"abstain {number(v)}" for v in values]
        rows.append((category, str(info["queries"]), *cells))
        best.append(frozenset(c + 1 for c in _best_columns(values)))
    return Table(f"per category: recall@{k} (abstention recall where no tool fits)",
                 ("category", "queries", *(r.name for r in report.scorers)), tuple(rows),
                 tuple(best))


def kind_table(report: BenchReport) -> Table | None:
    """With a tuning: nDCG@10 per kind of query as the tuning sees it (its tools recur, or
    some have no usage) and the false-accept rate where no tool fits, before and after."""
    runs = [r for r in report.scorers if r.kinds]
    if not runs:
        return None
    rows, best = [], []
    for kind in dict.fromkeys(k for r in runs for k in r.kinds):
        metric = "false_accept" if kind == "no tool" else "ndcg@10"
        values = [r.kinds[kind]["metrics"].get(metric) if kind in r.kinds else None
                  for r in runs]
        count = next(r.kinds[kind]["queries"] for r in runs if kind in r.kinds)
        rows.append((kind, str(count), metric, *(number(v) for v in values)))
        best.append(frozenset(c + 2 for c in _best_columns(
            [None if v is None else -v for v in values] if kind == "no tool" else values)))
    return Table("per kind of query, as the tuning sees it (false_accept: the share of "
                 "queries no tool fits that pick would show a tool for)",
                 ("kind", "queries", "metric", *(r.name for r in runs)), tuple(rows),
                 tuple(best), text_columns=3)


def comparison_table(comparison: Comparison) -> Table:
    metrics = list(dict.fromkeys(d.metric for s in comparison.scorers for d in s.deltas))
    rows = []
    for metric in metrics:
        cells = []
        for scorer in comparison.scorers:
            delta = next((d for d in scorer.deltas if d.metric == metric), None)
            if delta is None or delta.delta is None:
                cells.append("–" if delta is None else f"{number(delta.old)} → "
                             f"{number(delta.new)}")
            else:
                cells.append(f"{number(delta.old)} → {number(delta.new)} ({delta.delta:+.3f})")
        rows.append((metric, *cells))
    notes = [*comparison.notes]
    for scorer in comparison.scorers:
        notes.append(f"{scorer.scorer}: {len(scorer.improved)} queries now found"
                     f"{_ids(scorer.improved)}, {len(scorer.regressed)} now missed"
                     f"{_ids(scorer.regressed)}")
    return Table(f"compared with {comparison.against}",
                 ("metric", *(s.scorer for s in comparison.scorers)), tuple(rows),
                 notes=tuple(notes))


def misses_table(report: BenchReport, run: ScorerRun) -> Table:
    rows = []
    for outcome in run.missed():
        query = report.by_id[outcome.id]
        rows.append((outcome.id, query.text, _expected(query.groups, outcome),
                     _top(outcome.ranking, 3)))
    if not rows:
        return Table(f"{run.name}: no misses", (), (), empty=True)
    k = report.depth
    return Table(f"{run.name}: {len(rows)} missed (a needed tool not in the top {k}, or a "
                 "pick where no tool fits)", ("id", "query", "expected", "top 3"), tuple(rows),
                 text_columns=4)


def number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.0f} ms"


def milliseconds(value: float) -> str:
    return f"{value:.0f} ms" if value >= 100 else f"{value:.2f} ms"


def _tokens(mean: float, total: int) -> str:
    saving = 1 - mean / total if total else 0.0
    return f"{mean:,.0f} (−{saving:.0%})"


def _best_columns(values: Sequence[float | None]) -> frozenset[int]:
    present = [v for v in values if v is not None]
    if len(values) < 2 or not present:
        return frozenset()
    top = max(present)
    return frozenset(i + 1 for i, v in enumerate(values) if v is not None and v == top)


def _expected(groups: Sequence[Sequence[str]], outcome: QueryOutcome) -> str:
    if not groups:
        return "(no tool)"
    return "\n".join(f"{' | '.join(group)} ({'not ranked' if rank is None else f'#{rank}'})"
                     for group, rank in zip(groups, outcome.ranks, strict=True))


def _top(ranking: Sequence[tuple[str, float]], n: int) -> str:
    if not ranking:
        return "(nothing)"
    return "\n".join(f"{name} {score:.2f}" for name, score in ranking[:n])


def _ids(ids: Sequence[str], shown: int = 10) -> str:
    if not ids:
        return ""
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return f" ({', '.join(ids[:shown])}{more})"
