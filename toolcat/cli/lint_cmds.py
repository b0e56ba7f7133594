"""`toolcat lint` and `toolcat rules`: check a catalog in CI, and explain the rules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, LockfileOpt, OutputOpt, ShapeOpt
from toolcat.lint.report import REPORTERS
from toolcat.lint.targets import targets

if TYPE_CHECKING:
    from rich.console import Console

    from toolcat.lint.findings import LintReport, Rule
    from toolcat.lint.run import LintRun

FORMATS = tuple(REPORTERS)
STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}

PathsArg = Annotated[
    list[str] | None,
    typer.Argument(help="Catalog files or folders (the same as -c).", show_default=False),
]
TargetOpt = Annotated[
    list[str] | None,
    typer.Option("--target", "-t", help="Also check what these providers reject or ignore "
                 f"(comma-separated or repeated): {', '.join(targets())}, all.",
                 show_default=False),
]
SelectOpt = Annotated[
    list[str] | None,
    typer.Option("--select", help="Run only these rules: ids, prefixes (TC3) or names "
                 "(comma-separated or repeated). Replaces the configured selection.",
                 show_default=False),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option("--ignore", help="Skip these rules, on top of the configured ignores.",
                 show_default=False),
]
FormatOpt = Annotated[
    str, typer.Option("--format", "-f", help=f"Report format: {', '.join(FORMATS)}.")
]
StrictOpt = Annotated[
    bool, typer.Option("--strict", help="Exit 1 on warnings too, not only on errors.")
]
BaselineOpt = Annotated[
    Path | None,
    typer.Option("--baseline", help="Leave out the findings this baseline file accepts "
                 "(replaces `lint: baseline:` of toolcat.yaml).", show_default=False),
]
WriteBaselineOpt = Annotated[
    Path | None,
    typer.Option("--write-baseline", help="Accept every current finding: write them to this "
                 "baseline file and exit 0.", show_default=False),
]
LockedOpt = Annotated[
    bool, typer.Option("--locked", help="Also report tools that changed, appeared or vanished "
                       "since `toolcat lock` (TC604).")
]


def lint(
    paths: PathsArg = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    target: TargetOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    format_: FormatOpt = "text",
    json_: JsonOpt = False,
    output: OutputOpt = None,
    strict: StrictOpt = False,
    locked: LockedOpt = False,
    lockfile: LockfileOpt = None,
    baseline: BaselineOpt = None,
    write_baseline: WriteBaselineOpt = None,
) -> None:
    """Check a catalog: schemas, names, descriptions, provider limits, tool poisoning.

    Lints the files and folders given, else $TOOLCAT_CATALOG or the catalogs of toolcat.yaml;
    with none of them, exit 2 (`-c demo` lints the bundled demo catalog). Exit 1 when an error
    remains (with --strict, a warning too), 0 when clean, 2 when the catalog cannot be read.
    Rules: `toolcat rules`; settings: the `lint:` section of toolcat.yaml or
    [tool.toolcat.lint] in pyproject.toml. Reviewed findings are accepted in a baseline
    file (--write-baseline, --baseline), never in the catalog itself.
    """
    from toolcat.cli import build
    from toolcat.cli.output import note
    from toolcat.lint.collector import paused
    from toolcat.lint.run import accept_all, lint_request, run_lint, settings_for

    fmt = _format(format_, json_)
    cfg = build.config()
    settings = settings_for(cfg, lint_request(select=select, ignore=ignore, targets=target,
                                              baseline=baseline, locked=locked,
                                              lockfile=lockfile), Path.cwd())
    sources = [*(paths or []), *(catalog or [])]
    with paused():  # reading a large catalog allocates as much as linting it
        cat = build.load(sources or None, shape, lenient=True, cfg=cfg, demo=False)
    if write_baseline is not None:
        from toolcat.cli.output import write_output

        text, said = accept_all(cat, settings, write_baseline)
        write_output(write_baseline, text, protect=cat.sources)
        note(said)
        return
    if output is not None:
        from toolcat.cli.output import check_output

        check_output(output, protect=cat.sources)  # before linting, which may take a while
    run = run_lint(cat, settings)
    emit(run, fmt, output=output, strict=strict, protect=cat.sources)
    for line in run.notes:
        note(line)
    if run.report.failed(strict=strict):
        raise typer.Exit(1)


def _format(name: str, json_: bool) -> str:
    from toolcat.errors import UsageError

    if name not in FORMATS:
        raise UsageError(f"unknown format '{name}'; known: {', '.join(FORMATS)}")
    if json_ and name not in ("text", "json"):
        raise UsageError(f"--json and --format {name} contradict each other")
    return "json" if json_ else name


def emit(run: LintRun, fmt: str, *, output: Path | None, strict: bool,
         protect: tuple[str, ...] = ()) -> None:
    """Print the report in `fmt`, or write it to `output` with a one-line summary."""
    from toolcat.cli.output import console, note, write_output
    from toolcat.lint.report import summary

    if output is None and fmt == "text" and console.is_terminal:
        print_table(run.report, console)
        return
    text = run.text(fmt, strict=strict)
    if output is None:
        typer.echo(text, nl=False)
        return
    write_output(output, text, protect=protect)
    note(f"{summary(run.report)}; wrote the {fmt} report to {output}")


def print_table(report: LintReport, console: Console) -> None:
    """The text report's rows laid out as a coloured table per file, for a terminal."""
    from rich.table import Table
    from rich.text import Text

    from toolcat.lint.report import by_file, file_heading, summary, text_row

    for file, findings in by_file(report).items():
        console.print(Text(file_heading(file), style="bold underline"))
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")
        for finding in findings:
            position, severity, rule, message = text_row(finding)
            text, _, name = message.rpartition("  ")
            table.add_row(position, Text(severity, style=STYLES[severity]), rule,
                          Text.assemble(text, (f"  {name}", "dim")))
        console.print(table)
        console.print()
    style = "bold red" if report.failed() else ("yellow" if report.findings else "green")
    console.print(Text(summary(report), style=style))
    if report.baseline:
        console.print(Text(f"{report.accepted} accepted in the baseline {report.baseline}",
                           style="dim"))


def rules(
    rule: Annotated[str | None, typer.Argument(
        help="A rule id or name to explain, or a prefix such as TC3 to list a family.",
        show_default=False)] = None,
    json_: JsonOpt = False,
) -> None:
    """List the lint rules (id, name, default severity, summary), or explain one."""
    from toolcat.cli.output import console, print_json

    chosen = _chosen_rules(rule)
    if rule is not None and len(chosen) == 1:
        if json_:
            print_json(chosen[0].to_json())
        else:
            explain(chosen[0], console)
        return
    if json_:
        print_json({"rules": [r.to_json() for r in chosen]})
        return
    from rich.table import Table
    from rich.text import Text

    name_width = max(len(r.name) for r in chosen)
    families: dict[str, list[Rule]] = {}
    for item in chosen:
        families.setdefault(item.family, []).append(item)
    for family, members in families.items():
        table = Table(box=None, pad_edge=False, show_header=False, title=family,
                      title_justify="left", title_style="bold underline")
        table.add_column(no_wrap=True, min_width=5)
        table.add_column(no_wrap=True, min_width=name_width)
        table.add_column(no_wrap=True, min_width=7)
        table.add_column()
        for item in members:
            summary_text = item.summary + (" (with --target)" if item.needs_target else "")
            table.add_row(item.id, item.name, Text(item.severity, style=STYLES[item.severity]),
                          summary_text)
        console.print(table)


def _chosen_rules(pattern: str | None) -> list[Rule]:
    from toolcat.errors import UsageError
    from toolcat.lint.rules import RULES
    from toolcat.lint.settings import rule_matches

    if pattern is None or pattern.upper() == "ALL":
        return list(RULES.values())
    found = [r for r in RULES.values() if rule_matches(pattern, r)]
    if not found:
        from rapidfuzz import process

        names = [*RULES, *(r.name for r in RULES.values())]
        close = process.extract(pattern, names, limit=3, score_cutoff=60)
        hint = f"did you mean {', '.join(c[0] for c in close)}?" if close else None
        raise UsageError(f"no rule '{pattern}'; `toolcat rules` lists them", hint=hint)
    return found


def explain(rule: Rule, console: Console) -> None:
    """One rule in full: summary, explanation, options, and a bad and a good example."""
    import yaml
    from rich.syntax import Syntax
    from rich.text import Text

    console.print(Text.assemble((f"{rule.id} {rule.name}", "bold"), "  ",
                                (rule.severity, STYLES[rule.severity]),
                                f"  {rule.family}, checks each "
                                f"{'tool' if rule.scope == 'tool' else 'catalog'}"))
    console.print(Text(rule.summary, style="bold"))
    console.print()
    console.print(rule.explanation, markup=False, highlight=False)
    if rule.needs_target:
        console.print()
        console.print(f"Runs only with --target ({', '.join(targets())}).", markup=False)
    if rule.options:
        console.print()
        console.print("Options (lint: options: in toolcat.yaml):", markup=False)
        for name, default in rule.options.items():
            console.print(f"  {name}: {default}", markup=False, highlight=False)
    if rule.example_settings:
        console.print()
        settings = yaml.safe_dump({"lint": dict(rule.example_settings)},
                                  default_flow_style=None, sort_keys=False).strip()
        console.print(f"The examples are linted with:\n{settings}", markup=False,
                      highlight=False)
    for title, example in (("Bad", rule.bad), ("Good", rule.good)):
        console.print()
        console.print(Text(f"{title}:", style="bold red" if title == "Bad" else "bold green"))
        console.print(Syntax(example.rstrip("\n"), "yaml", theme="ansi_dark",
                             background_color="default", word_wrap=True))
