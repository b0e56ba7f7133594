"""`toolcat tune`: learn a tuning from labeled queries, call logs and chat transcripts; measure
it by k-fold cross-validation."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, OutputOpt, ShapeOpt
from toolcat.cli.search_cmds import DeviceOpt, ModelOpt

if TYPE_CHECKING:
    from toolcat.search.tuning import Tuning
    from toolcat.tune import CrossValidation, Usage

# Command modules import the core inside each command, so `toolcat --help` stays fast.

MAX_WARNED = 5  # tools whose bounded example requests get a warning line each


def tune(
    queries: Annotated[list[Path] | None, typer.Option(
        "-q", "--queries", help="What to learn from (repeatable): a labeled query set in "
        "any format bench reads, a call log (JSONL of {query, called: [tool names]}), or "
        "OpenAI-style chat transcripts (assistant tool_calls; the user message before is "
        "the request). The example_requests of the catalog's tools always count.",
        show_default=False)] = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    output: OutputOpt = None,
    cv: Annotated[int | None, typer.Option(
        "--cv", min=2, help="Measure by K-fold cross-validation: nDCG@10 and Recall@5 "
        "before and after, each fold scored by a tuning that never saw it.",
        show_default=False)] = None,
    topics: Annotated[Path | None, typer.Option(
        "--topics", help="Query texts for a TREC qrels file (as bench takes them).",
        show_default=False)] = None,
    model: ModelOpt = None,
    device: DeviceOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Learn from the requests a catalog really gets; -o writes the tuning file that pick,
    search, resolve, render and bench take with --tuning; --cv K says how much it helps."""
    from toolcat.cli import build
    from toolcat.cli.encoding import EncodingBar
    from toolcat.cli.output import check_output, note, print_json, warn, write_output
    from toolcat.cli.search_cmds import _options
    from toolcat.errors import UsageError
    from toolcat.tune import cross_validate, dumps, learn, prepare_material, read_sources
    from toolcat.tune.usage import KINDS

    queries = queries or []
    if output is None and cv is None:
        raise UsageError("give -o FILE to write a tuning, --cv K to measure one, or both")
    cat = build.load(catalog, shape)
    inputs: list[str | Path] = [*queries, *cat.sources, *([topics] if topics else [])]
    if output is not None:
        check_output(output, protect=inputs)  # before the work, not after it
    usage = read_sources(cat, queries, topics=topics)
    _warn_unknown(usage, warn)
    useful = [r for r in usage.requests if r.groups]
    if not useful:
        raise UsageError("no request names a tool of the catalog: nothing to learn from",
                         hint="give -q with a query set, call log or transcripts, or write "
                         "example_requests on the tools")
    with EncodingBar(shown=not json_, loads=True) as bar:
        material = prepare_material(cat, usage, **_options("hybrid", model, device, bar))
    for bounded in material.bounded[:MAX_WARNED]:
        warn(f"{bounded.source}: example requests of {bounded.tool} bounded, "
             f"{bounded.kept} of {bounded.written} learned from ({bounded.reason})")
    if len(material.bounded) > MAX_WARNED:
        warn(f"example requests of {len(material.bounded) - MAX_WARNED} more tools bounded "
             "(--json lists them under 'bounded')")
    report: dict[str, Any] = {
        "catalog": [str(s) for s in cat.sources], "sources": list(usage.sources),
        "requests": {kind: usage.count(kind) for kind in KINDS},
        "learned_from": material.provenance(),
        "bounded": [b.to_json() for b in material.bounded]}
    if not json_:
        _print_provenance(report["learned_from"])
    if cv is not None:
        distinct = len(set(material.digests))
        if cv > distinct or not any(material.requests[i].groups for i in material.measured):
            raise UsageError(f"--cv {cv} needs at least {cv} distinct requests besides the "
                             f"tools' example requests; there are {distinct}")
        validation = cross_validate(material, cv)
        report["cross_validation"] = validation.to_json()
        if not json_:
            _print_cv(validation)
    if output is not None:
        tuning = learn(material)
        write_output(output, dumps(tuning), protect=inputs)
        abstention = tuning.abstention
        report["tuning"] = {"file": str(output), **dict(tuning.report),
                            "min_score": tuning.min_score,
                            "abstain": None if abstention is None else {
                                "margin": abstention.margin,
                                "requests": len(abstention.vectors)}}
        if not json_:
            _print_tuning(tuning, output, note)
    if json_:
        print_json(report)


def _warn_unknown(usage: Usage, warn: Callable[[str], None]) -> None:
    from toolcat.wording import plural

    if usage.unknown:
        names = sorted(usage.unknown, key=lambda n: -usage.unknown[n])
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        warn(f"{plural(len(names), 'tool name')} in the requests name no single tool of "
             f"the catalog, skipped: {shown}")


def _print_provenance(sources: list[dict[str, Any]]) -> None:
    from toolcat.cli.output import console
    from toolcat.wording import plural, printable

    console.print("learned from:", highlight=False)
    for entry in sources:
        what = ("example requests in the catalog" if entry["kind"] == "example"
                else entry["kind"])
        console.print(f"  {printable(entry['source'])} ({what}): "
                      f"{plural(entry['requests'], 'request')} "
                      f"for {plural(entry['tools'], 'tool')}", highlight=False, markup=False)


def _print_cv(validation: CrossValidation) -> None:
    from toolcat.cli.output import console

    (b_ndcg, b_recall), (a_ndcg, a_recall) = validation.before, validation.after
    console.print(f"[bold]{validation.k}-fold cross-validation[/] over {validation.requests:,} "
                  "requests (each fold scored by a tuning learned from the others)",
                  highlight=False)
    console.print(f"  nDCG@10   zero-shot {b_ndcg:.3f}  tuned {a_ndcg:.3f}  "
                  f"({a_ndcg - b_ndcg:+.3f})", highlight=False)
    console.print(f"  Recall@5  zero-shot {b_recall:.3f}  tuned {a_recall:.3f}  "
                  f"({a_recall - b_recall:+.3f})", highlight=False)
    for line in kind_lines(validation.kinds):
        console.print(f"  {line}", highlight=False)
    if validation.fallbacks:
        console.print(f"  {validation.fallbacks} of {validation.k} folds kept the zero-shot "
                      "weights: their held-out checks found no gain", highlight=False)


def kind_lines(kinds: dict[str, dict[str, Any]]) -> list[str]:
    """One line per kind of held-out request: nDCG@10 before and after, or the false-accept
    rate where no tool fits (before: pick's 0.05; after: the fitted threshold and the
    abstention, and the threshold alone beside it)."""
    from toolcat.tune.choose import UNSEEN_BOUND

    out = []
    for kind, entry in kinds.items():
        count = entry.get("requests", 0)
        if not count:
            out.append(f"{kind + ':':<13} no held-out request of this kind")
        elif "zero_shot_false_accept" in entry:
            before, after = entry["zero_shot_false_accept"], entry["tuned_false_accept"]
            hidden = (f"; needed tools under it {entry['zero_shot_hidden']:.0%} -> "
                      f"{entry['tuned_hidden']:.0%}" if "tuned_hidden" in entry else "")
            if "threshold_false_accept" in entry:
                hidden = (f"; the threshold alone {entry['threshold_false_accept']:.0%}"
                          + hidden)
            if "turned_away" in entry:
                hidden += f"; requests that need a tool turned away {entry['turned_away']:.1%}"
            out.append(f"{kind + ':':<13} false accepts {before:.0%} -> {after:.0%} "
                       f"({count:,} requests no tool fits{hidden})")
        else:
            before, after = entry["zero_shot_ndcg@10"], entry["tuned_ndcg@10"]
            bound = (f"; the bound on this loss is {UNSEEN_BOUND}"
                     if kind in ("new tools", "unseen tools") else "")
            out.append(f"{kind + ':':<13} nDCG@10 {before:.3f} -> {after:.3f} "
                       f"({after - before:+.3f}, {count:,} requests{bound})")
    return out


def _print_tuning(tuning: Tuning, output: Path, note: Callable[[str], None]) -> None:
    from toolcat.cli.output import console
    from toolcat.tune.choose import MIN_CHECK
    from toolcat.wording import plural

    report = tuning.report
    w = tuning.weights
    console.print(f"learned from {plural(report.get('requests', 0), 'request')} and "
                  f"{plural(report.get('examples', 0), 'example request')}: usage for "
                  f"{plural(report.get('tools_with_usage', 0), 'tool')}", highlight=False)
    if not report.get("checked"):
        console.print(f"  weights: zero-shot; too few requests to check a gain on held-out "
                      f"ones (at least {MIN_CHECK} are held out), so the tuning changes nothing",
                      highlight=False)
    elif report.get("fallback"):
        console.print("  weights: zero-shot; the held-out checks found no clear gain, so the "
                      "tuning changes nothing", highlight=False)
    else:
        console.print(f"  weights (chosen on held-out requests): semantic {w.semantic_weight:g}, "
                      f"past requests {w.usage_weight:g} above cosine {w.usage_floor:g}, their "
                      f"words {w.term_weight:g}"
                      + (f", Tool2Vec mix {w.mix:g}" if w.mix else "")
                      + (f", per-tool calibration {w.calibration:g}" if w.calibration else "")
                      + (f", declined by requests like it {w.negative_weight:g}"
                         if w.negative_weight else ""), highlight=False)
    for line in kind_lines(report.get("checks") or {}):
        console.print(f"  held-out {line}", highlight=False)
    if tuning.min_score is not None:
        console.print(f"  pick's no-tool-fits threshold: {tuning.min_score:g} (fitted above "
                      "chit-chat and the requests labeled with no tool)", highlight=False)
    if tuning.abstention is not None:
        console.print(f"  abstention: a request nearer to the "
                      f"{plural(len(tuning.abstention.vectors), 'request')} no tool fits than "
                      f"to any tool, by more than {tuning.abstention.margin:g} in cosine, gets "
                      "no tool", highlight=False)
    note(f"wrote {output}")
