"""`toolcat bench`: tool-selection accuracy on a labeled query set, scorers side by side."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, ShapeOpt, TuningOpt
from toolcat.search import SCORERS, SEMANTIC

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.console import RenderableType
    from rich.progress import TaskID

    from toolcat.bench.compare import Comparison
    from toolcat.bench.plan import BenchOutcome
    from toolcat.bench.report import BenchReport
    from toolcat.bench.runner import Progress
    from toolcat.bench.tables import Table

# Command modules import the core inside each command, so `toolcat --help` stays fast.


def bench(
    queries: Annotated[Path, typer.Option(
        "-q", "--queries", help="Labeled query set: .jsonl, .yaml or .json with {id, query, "
        "relevant, relevant_groups, category}; any other file is TREC qrels (with --topics); "
        "'-' reads standard input (JSON Lines).",
        show_default=False)],
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    scorer: Annotated[list[str] | None, typer.Option(
        "--scorer", "-s", help=f"Scorers to compare, comma-separated or repeated: "
        f"{', '.join(SCORERS)}. Default: the default scorer of pick.",
        show_default=False)] = None,
    k: Annotated[str, typer.Option(
        "-k", help="Cut-offs for recall@k, precision@k and nDCG@k, comma-separated.")
    ] = "1,3,5,10",
    min_score: Annotated[float, typer.Option(
        "--min-score", help="Pick only tools scoring at least this (0..1); a scorer that "
        "picks nothing abstains.")] = 0.0,
    topics: Annotated[Path | None, typer.Option(
        "--topics", help="Query texts for a TREC qrels file: 'id<TAB>text' lines or <top> "
        "blocks.", show_default=False)] = None,
    json_: JsonOpt = False,
    markdown: Annotated[bool, typer.Option(
        "--markdown", help="Print Markdown tables (for a README or a PR comment).")] = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write a plot of recall@k per scorer: PNG, SVG or PDF by the file's "
        "suffix (needs the plot extra).",
        show_default=False)] = None,
    compare: Annotated[Path | None, typer.Option(
        "--compare", help="An earlier `bench --json` output: show metric deltas and the "
        "queries that flipped.", show_default=False)] = None,
    fail_under: Annotated[list[str] | None, typer.Option(
        "--fail-under", help="METRIC=VALUE or SCORER:METRIC=VALUE (repeatable): exit 1 when "
        "a metric is under its bar.", show_default=False)] = None,
    misses: Annotated[bool, typer.Option(
        "--misses", help="List the queries each scorer got wrong.")] = False,
    allow_unknown: Annotated[bool, typer.Option(
        "--allow-unknown", help="Warn about labels that name no tool of the catalog instead "
        "of stopping; they count as misses.")] = False,
    tuning: TuningOpt = None,
    model: Annotated[list[str] | None, typer.Option(
        "--model", help="Embedding models for semantic, hybrid and cascade, comma-separated or "
        "repeated: with two or more, each of those scorers runs once per model, side by side "
        "(e.g. minilm-tools,all-MiniLM-L6-v2). Default: the default model.",
        show_default=False)] = None,
) -> None:
    """Measure how well each scorer selects the labeled tools: hit@1, recall@k, precision@k,
    MRR, nDCG@k, abstention, cost; compare runs; fail CI under a bar."""
    from toolcat.bench.plan import plan_bench, run_plan
    from toolcat.cli import build
    from toolcat.cli.output import check_output, err_console, note, warn, write_output
    from toolcat.errors import UsageError

    if json_ and markdown:
        raise UsageError("--json and --markdown print different things; choose one")
    from toolcat.source.files import named_path

    queries = named_path(queries)
    cfg = build.config()
    cat = build.load(catalog, shape, cfg=cfg)
    learned = build.tuning(tuning, cfg)
    if learned is not None:
        from toolcat.tune.policy import applied

        build.said(applied(learned, "bench's +tuning rows", cat.tools))
    plan = plan_bench(cat, queries, topics=topics, scorers=scorer, ks=k, min_score=min_score,
                      fail_under=fail_under or [], compare_with=compare,
                      allow_unknown=allow_unknown, tuning=learned, models=model or [])
    inputs: list[str | Path] = [queries, *cat.sources,
                                *(p for p in (topics, compare) if p is not None)]
    if plot is not None:  # before a long run, not after it
        from toolcat.bench.plot import plot_format, recall_plot, require_matplotlib

        check_output(plot, protect=inputs)
        image_format = plot_format(plot)
        require_matplotlib()
    for line in plan.warnings:
        warn(line)
    if plan.scorer_reason and not json_:
        note(f"scorer {plan.scorers[0]}: {plan.scorer_reason}")

    with progress_bar(shown=not json_ and err_console.is_terminal) as progress:
        outcome = run_plan(plan, progress)
    show(outcome, len(plan.bars), json_=json_, markdown=markdown, misses=misses)
    if plot is not None:
        write_output(plot, recall_plot(outcome.report, image_format), protect=inputs)
        if not json_:
            note(f"wrote {plot}")
    if outcome.failures:
        raise typer.Exit(1)


def show(outcome: BenchOutcome, bars: int, *, json_: bool, markdown: bool,
         misses: bool) -> None:
    """Print a run as JSON, Markdown or tables with its bars."""
    from toolcat.bench.markdown import to_markdown
    from toolcat.cli.output import console, print_json
    from toolcat.wording import plural

    if json_:
        print_json(outcome.to_json())
    elif markdown:
        typer.echo(to_markdown(outcome.report, comparison=outcome.comparison,
                               failures=outcome.failures, bars=bars, misses=misses), nl=False)
    else:
        print_tables(outcome.report, outcome.comparison, misses)
        for failure in outcome.failures:
            console.print(f"[red]under the bar[/] {failure}", highlight=False)
        if bars and not outcome.failures:
            console.print(f"[green]{'all ' if bars > 1 else ''}{plural(bars, 'bar')} "
                          "cleared[/]")


@contextmanager
def progress_bar(*, shown: bool) -> Iterator[Progress | None]:
    """A rich progress bar per scorer on stderr, or nothing when hidden."""
    if not shown:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    from toolcat.cli.output import err_console

    tasks: dict[str, TaskID] = {}
    with Bar("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             console=err_console, transient=True) as bar:

        def advance(scorer: str, done: int, total: int) -> None:
            # a run of a semantic scorer is named `hybrid`, `hybrid@MODEL` or `hybrid+tuning`
            loads = re.split(r"[@+]", scorer, maxsplit=1)[0] in SEMANTIC
            label = scorer if done else (f"{scorer}: loading the embedding model, indexing"
                                         if loads else f"{scorer}: indexing")
            if scorer not in tasks:
                tasks[scorer] = bar.add_task(label, total=total)
            bar.update(tasks[scorer], completed=done, description=label)

        yield advance


def print_tables(report: BenchReport, comparison: Comparison | None, misses: bool) -> None:
    from toolcat.bench.tables import (
        category_table,
        comparison_table,
        cost_table,
        kind_table,
        metrics_table,
        misses_table,
    )
    from toolcat.cli.output import console

    tables = [metrics_table(report), cost_table(report), category_table(report),
              kind_table(report)]
    if comparison is not None:
        tables.append(comparison_table(comparison))
    if misses:
        tables += [misses_table(report, run) for run in report.scorers]
    for table in tables:
        if table is not None:
            for renderable in rich_table(table):
                console.print(renderable)


def rich_table(data: Table) -> Iterator[RenderableType]:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    yield Text(data.title, style="bold")
    if data.empty:
        return
    table = Table()
    for i, name in enumerate(data.header):
        table.add_column(name, justify="right" if data.numeric(i) else "left",
                         no_wrap=i == 0, overflow="fold")
    for i, row in enumerate(data.rows):
        best = data.best[i] if i < len(data.best) else frozenset()
        table.add_row(*(f"[bold green]{escape(c)}[/]" if j in best else escape(c)
                        for j, c in enumerate(row)))
    yield table
    for line in data.notes:
        yield escape(line)
