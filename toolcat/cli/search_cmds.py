"""`toolcat search` and `toolcat pick`: rank the catalog for a query, choose the few to show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.encoding import EncodingBar
from toolcat.cli.options import AllowUnsafeOpt, CatalogOpt, JsonOpt, ShapeOpt, TuningOpt
from toolcat.search import SCORERS, SEMANTIC

if TYPE_CHECKING:
    from rich.text import Text

    from toolcat.model import Tool
    from toolcat.search.pick import PickResult

# Command modules import the core inside each command, so `toolcat --help` stays fast.

_SEMANTIC_NAMES = f"{', '.join(SEMANTIC[:-1])} and {SEMANTIC[-1]}"
SearchArg = Annotated[str, typer.Argument(
    help="A regex pattern (words work too; see --scorer).", show_default=False)]
RequestArg = Annotated[str, typer.Argument(help="The request the tools are for.",
                                           show_default=False)]
ModelOpt = Annotated[
    str | None,
    typer.Option("--model", help="Sentence-transformers model name or path for "
                 f"{_SEMANTIC_NAMES} (default: minilm-tools, the offline all-MiniLM-L6-v2 with "
                 "toolcat's update for tool retrieval; all-MiniLM-L6-v2: the model without it).",
                 show_default=False),
]


def _scorer_opt(default_help: str) -> object:
    return typer.Option("--scorer", help=f"Scorer: {', '.join(SCORERS)}. {default_help}",
                        show_default=False)


DeviceOpt = Annotated[
    str | None,
    typer.Option("--device", help=f"Where {_SEMANTIC_NAMES} run the embedding model: "
                 "auto (a GPU when torch sees one), cpu, cuda or mps. Default: "
                 "$TOOLCAT_DEVICE, else `device:` in toolcat.yaml, else auto.",
                 show_default=False),
]


def _options(scorer: str | None, model: str | None, device: str | None = None,
             bar: EncodingBar | None = None) -> dict[str, Any]:
    """The scorer options the command line gives: the model, the device (option, else
    $TOOLCAT_DEVICE, else toolcat.yaml) and a progress bar while tools are encoded."""
    import os

    from toolcat.cli import build
    from toolcat.errors import UsageError
    from toolcat.search.device import DEVICE_ENV

    for name, value in (("--model", model), ("--device", device)):
        if value is not None and scorer not in SEMANTIC:
            raise UsageError(f"{name} applies to the {_SEMANTIC_NAMES} scorers only")
    if scorer not in SEMANTIC:
        return {}
    options: dict[str, Any] = {} if model is None else {"model": model}
    if device is None and not os.environ.get(DEVICE_ENV):
        device = build.config().device  # checked where the file is read
    if device is not None:
        options["device"] = device
    if bar is not None:
        options["progress"] = bar
    return options


def search(
    query: SearchArg,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    scorer: Annotated[str | None, _scorer_opt(
        "Default: the query as a case-insensitive regex, fuzzy search when nothing "
        "matches.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="At most this many.")] = 5,
    model: ModelOpt = None,
    device: DeviceOpt = None,
    tuning: TuningOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Search the catalog: regex first, fuzzy when nothing matches, best 5; with
    --tuning, the tuned hybrid scorer."""
    from toolcat.cli import build
    from toolcat.cli.output import console, note, print_json
    from toolcat.search.choice import takes_tuning
    from toolcat.search.find import search_tools

    cfg = build.config()
    cat = build.load(catalog, shape, cfg=cfg)
    # --tuning without --scorer means the tuned hybrid; toolcat.yaml's tuning applies to
    # `--scorer hybrid` and `cascade` only (the default search is the regex one)
    learned = build.tuning(tuning, cfg) if tuning is not None or takes_tuning(scorer) else None
    if tuning is not None and scorer is None:
        scorer = "hybrid"
    learned = build.applied_tuning(learned, scorer, cat.tools, model)
    with EncodingBar(shown=not json_, loads=scorer in SEMANTIC) as bar:
        options = _options(scorer, model, device, bar)
        chosen: Any = None
        if scorer is not None:  # from the persisted index when the catalog was seen before
            from toolcat.search import notice
            from toolcat.search.index import scorer_for

            chosen = scorer_for(scorer, cat, tuning=learned, **options)
            options = {}
            if notice(chosen):
                note(f"note: {notice(chosen)}")
        result = search_tools(query, cat.tools, scorer=chosen, limit=limit, **options)
    if result.error is not None:
        from toolcat.errors import UsageError

        raise UsageError(result.error, hint="escape the special characters (\\( \\+ \\?), "
                         "or search words with --scorer bm25")
    if json_:
        print_json(result.to_json())
        return
    if not result.results:
        console.print(result.message)
        return
    found = f"{result.found} found ({result.scorer}"
    found += f", tuning {learned.label})" if learned is not None else ")"
    if not console.is_terminal:
        # into a pipe: one tab-separated line per tool (rank, name, server, score, the first
        # sentence of its description), as `list` writes; the count and scorer on stderr
        from toolcat.cli.output import note, write_lines

        note(found)
        write_lines(f"{item.rank}\t{cat.ident(item.tool)}\t{item.tool.server}\t"
                    f"{item.score:.2f}\t{_one_line(_first_sentence(item.tool.description))}"
                    for item in result.results)
        return
    from rich.table import Table

    table = Table(title=found, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("name", no_wrap=True)
    table.add_column("server", no_wrap=True)
    table.add_column("score", justify="right")
    table.add_column("description")
    for item in result.results:
        table.add_row(str(item.rank), _marked(cat.ident(item.tool), query, result.scorer),
                      item.tool.server, f"{item.score:.2f}",
                      _marked(_first_sentence(item.tool.description), query, result.scorer))
    console.print(table)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _first_sentence(text: str, limit: int = 160) -> str:
    end = text.find(". ")
    sentence = text if end < 0 else text[:end + 1]
    return sentence if len(sentence) <= limit else sentence[:limit - 1].rstrip() + "…"


def _marked(text: str, query: str, scorer: str) -> Text:
    from rich.text import Text

    from toolcat.search.highlight import spans

    marked = Text(text)
    for start, end in spans(text, query, scorer):
        marked.stylize("bold yellow", start, end)
    return marked


def pick(
    query: RequestArg,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    max_candidates: Annotated[int, typer.Option(
        "--max-candidates", "-k", min=1, help="Pick at most this many tools.")] = 3,
    min_score: Annotated[float | None, typer.Option(
        "--min-score", min=0.0, max=1.0, help="Leave out tools scoring under this. Default: "
        "the threshold the tuning fitted, else 0.05.", show_default=False)] = None,
    allow_unsafe: AllowUnsafeOpt = False,
    scorer: Annotated[str | None, _scorer_opt(
        "Default: the most accurate one installed (hybrid, else bm25).")] = None,
    timeout_ms: Annotated[float | None, typer.Option(
        "--timeout-ms", help="Time for indexing and scoring; past it, pick the first tools "
        "in registration order.", show_default=False)] = None,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Say why each tool was picked and where it is defined.")] = False,
    no_cut: Annotated[bool, typer.Option(
        "--no-cut", help="Keep every tool over the floor up to -k, also past where the fit "
        "ends.")] = False,
    model: ModelOpt = None,
    device: DeviceOpt = None,
    tuning: TuningOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Pick the few tools a model should see for a query."""
    from toolcat.cli import build
    from toolcat.cli.output import note, print_json
    from toolcat.errors import UsageError
    from toolcat.search import default_scorer
    from toolcat.search.pick import pick as pick_tools

    if timeout_ms is not None and timeout_ms <= 0:
        raise UsageError("--timeout-ms must be more than 0")
    cfg = build.config()
    cat = build.load(catalog, shape, cfg=cfg)
    if scorer is None:
        scorer, why = default_scorer(len(cat.tools))
        if scorer != "hybrid":
            note(f"note: {why}")
    learned = build.applied_tuning(build.tuning(tuning, cfg), scorer, cat.tools, model)
    with EncodingBar(shown=not json_, loads=scorer in SEMANTIC) as bar:
        result = pick_tools(query, cat, max_candidates=max_candidates, min_score=min_score,
                            allow_unsafe=allow_unsafe, scorer=scorer, timeout_ms=timeout_ms,
                            tuning=learned, cut_off=not no_cut,
                            **_options(scorer, model, device, bar))
    if result.notice:
        note(f"note: {result.notice}")
    if json_:
        print_json(result.to_json())
        return
    _print_picks(result, explain, None if learned is None else learned.label)


def _safety_mark(tool: Tool) -> str:
    """What a pick's line says of its safety: nothing for a safe tool."""
    from rich.markup import escape

    if tool.safety == "unknown":
        return "  [yellow]safety not stated[/]"
    if tool.unsafe:
        return f"  [red]unsafe, allowed ({escape(tool.safety_cause)})[/]"
    return ""


def _print_picks(result: PickResult, explain: bool, tuning: str | None = None) -> None:
    from toolcat.cli.output import console

    if result.timed_out:
        console.print(f"[yellow]{result.message}[/]")
    elif not result.fits:
        console.print(f"[bold]{result.message}[/]")
    else:
        console.print(f"{result.message}:", markup=False)
    width = max((len(p.tool.qualified_name) for p in result.picks), default=0)
    shared = _shared_clauses([p.reason for p in result.picks]) if explain else []
    if shared:
        console.print(f"   why, for every pick: {'; '.join(shared)}", markup=False,
                      soft_wrap=True)
    for item in result.picks:
        console.print(f"{item.rank}. [bold]{item.tool.qualified_name:<{width}}[/]  "
                      f"{item.score:.2f}{_safety_mark(item.tool)}", highlight=False)
        if explain:
            origin = item.provenance.get("origin")
            where = f"{origin['file']}:{origin['line']}:{origin['column']}" if origin else "-"
            own = [c for c in item.reason.split(CLAUSE) if c not in shared]
            console.print(f"   why: {CLAUSE.join(own)}", markup=False, soft_wrap=True)
            tuned_by = f", tuning {tuning}" if tuning else ""
            model = item.provenance["details"].get("model")
            ranked_by = f", model {str(model).split('@')[0]}" if model else ""
            console.print(f"   from: {where} (scorer {item.provenance['scorer']}{ranked_by}"
                          f"{tuned_by})",
                          markup=False, soft_wrap=True)
    if result.excluded_unsafe and not result.timed_out and (
            explain or (not result.fits and result.best_unsafe is None)):
        console.print(_unsafe_left_out(result), markup=False, soft_wrap=True)
    # `hybrid`, or `hybrid+tuning` with a tuning's clauses after the same two parts
    scorers = {str(p.provenance.get("scorer")).split("+")[0] for p in result.picks}
    if explain and len(scorers) == 1 and (scorer := scorers.pop()) in EVIDENCE_LEGEND:
        console.print(f"how to read why ({scorer}): {_legend(scorer, result)}", markup=False,
                      soft_wrap=True)


CLAUSE = "; "  # what separates the clauses of a reason
# What the figures of an evidence scorer's reasons are, said once under the picks rather than
# in every reason: hybrid.why writes `lexical 6.9 (BM25F of the terms ...) + semantic 7.7
# (cosine 0.64 × 12)`, and each further clause ends with the evidence it adds, `(+1.0)`.
_EVIDENCE = (
    "the figures are evidence in nats, and the score grows with their sum (a sum of {half} "
    "scores 0.5, of {twice} scores 0.89); lexical is BM25F: the request's terms (its words, "
    "stemmed) found in the tool's name, title, description and parameters, a rare term "
    "counting more than a common one; semantic is the cosine similarity of the request and "
    "the tool's text under the embedding model, times the weight after it (which grows "
    "with a request longer than eight words); a signed figure "
    "at the end of a clause is what that rule adds or takes away")
EVIDENCE_LEGEND = {"hybrid": _EVIDENCE, "cascade": _EVIDENCE}


def _legend(scorer: str, result: PickResult) -> str:
    """EVIDENCE_LEGEND's line for `scorer`, with the embedding model's midpoint (the sum that
    scores 0.5: toolcat.search.calibration) when one model ranked every pick."""
    from toolcat.search.hybrid import MIDPOINT, midpoint_of

    models = {str(p.provenance["details"].get("model")) for p in result.picks}
    half = midpoint_of(models.pop()) if len(models) == 1 else MIDPOINT
    return EVIDENCE_LEGEND[scorer].format(half=f"{half:g}", twice=f"{2 * half:g}")


def _shared_clauses(reasons: list[str]) -> list[str]:
    """The clauses (CLAUSE-separated) that every one of two or more reasons has word for
    word, as the first reason orders them: said once, not once per pick."""
    if len(reasons) < 2:
        return []
    others = [set(reason.split(CLAUSE)) for reason in reasons[1:]]
    return [clause for clause in dict.fromkeys(reasons[0].split(CLAUSE))
            if all(clause in other for other in others)]


def _unsafe_left_out(result: PickResult) -> str:
    """The line on the unsafe tools left out: those that would have fitted, by name."""
    count = len(result.excluded_unsafe)
    tools = "tool" if count == 1 else "tools"
    if not result.unsafe_fits:
        return f"none of the {count} unsafe {tools} left out would have been picked"
    fits = len(result.unsafe_fits)
    return (f"left out as unsafe, though {'it' if fits == 1 else 'they'} would have fitted: "
            f"{', '.join(result.unsafe_fits)} ({fits} of the {count} unsafe {tools}; "
            "--allow-unsafe to consider them)")
