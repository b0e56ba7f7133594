"""`toolcat list`, `show`, `stats` and `convert`: look at a catalog and rewrite it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, OutputOpt, ShapeOpt
from toolcat.providers import PROVIDERS
from toolcat.wording import plural

if TYPE_CHECKING:
    from toolcat.model import Catalog, Tool

# Command modules import the core inside each command, so `toolcat --help` stays fast.

ServerOpt = Annotated[
    list[str] | None,
    typer.Option("--server", "-s", help="Only tools of these servers (repeatable; wildcards).",
                 show_default=False),
]


def _filtered(catalog: Catalog, servers: list[str] | None) -> list[Tool]:
    if not servers:
        return list(catalog.tools)
    return list(catalog.select([f"{s}:*" for s in servers]))


def summary_json(catalog: Catalog, tool: Tool) -> dict[str, Any]:
    return {
        "name": catalog.ident(tool),
        "qualified_name": tool.qualified_name,
        "server": tool.server,
        "description": tool.description,
        "kind": tool.kind,
        "source": tool.source,
        "level": tool.level,
        "tags": list(tool.tags),
        "safe": tool.safe,
        "safety": tool.safety,
        "safety_reason": tool.safety_reason,
        "size": tool.size(),
        "origin": tool.origin.to_json() if tool.origin else None,
    }


TERMINAL_ROWS = 50  # rows of a table shown on a terminal unless --all or --limit
LimitOpt = Annotated[int | None, typer.Option(
    "--limit", "-n", min=1, show_default=False,
    help=f"Show at most this many rows (on a terminal the default is {TERMINAL_ROWS}).")]
AllOpt = Annotated[bool, typer.Option("--all", help="Show every row, even on a terminal.")]


def list_tools(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    server: ServerOpt = None,
    limit: LimitOpt = None,
    all_: AllOpt = False,
    json_: JsonOpt = False,
) -> None:
    """List the tools of the catalog: name, server, level, tags, safe, definition size.

    On a terminal, a table of the first rows and how many more there are; otherwise one
    tab-separated line per tool (name, server, level, tags, safe, bytes), streamed.
    """
    from toolcat.cli import build
    from toolcat.cli.output import console, print_json, write_lines

    cat = build.load(catalog, shape)
    tools = _filtered(cat, server)
    if json_:
        print_json({"sources": list(cat.sources), "count": len(tools),
                    "tools": [summary_json(cat, t) for t in tools]})
        return
    if not console.is_terminal:
        shown = tools if limit is None else tools[:limit]
        write_lines(f"{cat.ident(t)}\t{t.server}\t{t.level}\t{','.join(t.tags)}\t"
                     f"{_safe_text(t)}\t{t.size()}" for t in shown)
        return
    from rich.table import Table

    shown = tools[:_rows(limit, all_)]
    # a narrow terminal keeps whole words: the columns that matter least go first (size, then
    # tags), and the reason for a tool's safety shows only where it fits (`show` has it)
    width = console.width
    table = Table(title=plural(len(tools), "tool"), title_justify="left")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("server", no_wrap=True, overflow="ellipsis")
    table.add_column("level", justify="right", no_wrap=True)
    if width >= NARROW_TAGS:
        table.add_column("tags")
    table.add_column("safe", no_wrap=width < WIDE_SAFETY)
    if width >= NARROW_SIZE:
        table.add_column("size", justify="right", no_wrap=True)
    for tool in shown:
        cells = [cat.ident(tool), tool.server, str(tool.level)]
        if width >= NARROW_TAGS:
            cells.append(", ".join(tool.tags))
        cells.append(_safe_cell(tool) if width >= WIDE_SAFETY else _safe_cell(tool, why=False))
        if width >= NARROW_SIZE:
            cells.append(f"{tool.size():,} B")
        table.add_row(*cells)
    console.print(table)
    _more(len(tools) - len(shown), "tool")


def _rows(limit: int | None, all_: bool) -> int | None:
    return None if all_ else limit or TERMINAL_ROWS


def _more(hidden: int, noun: str) -> None:
    from toolcat.cli.output import console

    if hidden > 0:
        console.print(f"… {plural(hidden, 'more ' + noun)} (--all to show them, --limit N "
                      "for N rows)", highlight=False)


def _safe_text(tool: Tool) -> str:
    word = SAFETY_WORDS[tool.safety]
    return word + (f" ({tool.safety_reason})" if tool.safety_reason else "")


# terminal widths under which `list` leaves out tags, sizes, and the reasons for safety
NARROW_TAGS, NARROW_SIZE, WIDE_SAFETY = 80, 72, 110
# how `list` writes each safety state ("safe" column); `show` writes the state itself
SAFETY_WORDS = {"safe": "yes", "unsafe": "no", "unknown": "unknown"}
SAFETY_STYLES = {"safe": "", "unsafe": "red", "unknown": "yellow"}


def _safe_cell(tool: Tool, words: dict[str, str] | None = None, why: bool = True) -> str:
    """The tool's safety state, and why when no one wrote it: "unknown (safety not stated:
    no annotations)"."""
    from rich.markup import escape

    word = (words or SAFETY_WORDS)[tool.safety]
    style = SAFETY_STYLES[tool.safety]
    cell = f"[{style}]{word}[/]" if style else word
    return cell + (f" [dim]({escape(tool.safety_reason)})[/]"
                   if why and tool.safety_reason else "")


def show(
    name: Annotated[str, typer.Argument(help="Tool name, or server:tool.")],
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Show one tool's full definition, as written, with where it came from."""
    from toolcat.catalog.convert import to_text
    from toolcat.cli import build
    from toolcat.cli.output import UNWRAPPED, console, print_code, print_json

    cat = build.load(catalog, shape)
    tool = find_tool(cat, name)
    if json_:
        print_json({**tool.to_json(), "raw": tool.raw})
        return
    console.print(f"[bold]{tool.qualified_name}[/]  [dim]{tool.origin}[/]")
    facts = [f"kind {tool.kind}", f"level {tool.level}", f"source {tool.source}",
             _safe_cell(tool, {s: s for s in SAFETY_WORDS})]
    if tool.tags:
        facts.append("tags " + ", ".join(tool.tags))
    console.print("  ".join(facts))
    if tool.description:
        console.print(tool.description, markup=False)
    is_yaml = bool(tool.origin and tool.origin.file.endswith((".yaml", ".yml")))
    text = to_text(tool.raw, as_yaml=is_yaml, width=UNWRAPPED)  # one line per value, as typed
    print_code(text, "yaml" if is_yaml else "json")


def find_tool(catalog: Catalog, name: str) -> Tool:
    """The tool called `name`; an unknown or ambiguous name is a usage error with hints."""
    from toolcat.errors import UsageError

    found = catalog.find(name)
    if len(found) == 1:
        return found[0]
    if found:
        options = ", ".join(t.qualified_name for t in found)
        raise UsageError(f"'{name}' is on several servers; say which: {options}")
    from rapidfuzz import process

    close = process.extract(name, [t.name for t in catalog.tools], limit=3, score_cutoff=60)
    hint = f"did you mean {', '.join(c[0] for c in close)}?" if close else None
    raise UsageError(f"no tool named '{name}' in the catalog", hint=hint)


def stats(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    limit: LimitOpt = None,
    all_: AllOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Counts per server, per level, per kind and per tag, and the size of the definitions.

    On a terminal, tables of the largest counts and how many more rows there are; otherwise
    plain lines: the summary, then `per <what>` and one tab-separated `name, count` a row.
    """
    from toolcat.cli import build
    from toolcat.cli.output import console, print_json, write_lines
    from toolcat.resolution.stats import catalog_stats

    counted = catalog_stats(build.load(catalog, shape))
    if json_:
        print_json(counted.to_json())
        return
    head, tail = counted.summary()
    if not console.is_terminal:
        def lines() -> Iterator[str]:
            yield f"{head} {tail}"
            yield f"advice: {counted.advice.text}"
            for title, counts in counted.sections():
                yield f"per {title}"
                rows = list(counts.items())
                yield from (f"{key}\t{count}" for key, count in
                            (rows if limit is None else rows[:limit]))
        write_lines(lines())
        return
    from rich.table import Table

    console.print(f"[bold]{head}[/] {tail}", soft_wrap=True)
    console.print(f"advice: {counted.advice.text}", markup=False, soft_wrap=True)
    rows = _rows(limit, all_)
    for title, counts in counted.sections():
        table = Table(title=f"per {title}", title_justify="left")
        table.add_column(title, no_wrap=True)
        table.add_column("tools", justify="right")
        items = list(counts.items())
        for key, count in items[:rows]:
            table.add_row(str(key), str(count))
        console.print(table)
        _more(len(items) - len(items[:rows]), title)


def convert(
    to: Annotated[str, typer.Option("--to", help=f"Target shape: {', '.join(PROVIDERS)}.")],
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    output: OutputOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Write the catalog in another shape (JSON, or YAML for .yaml/.yml and YAML-native shapes)."""
    from toolcat.catalog.convert import convert as convert_tools
    from toolcat.catalog.convert import to_text
    from toolcat.cli import build
    from toolcat.cli.output import check_output, print_json, say_written, warn, write_output

    cat = build.load(catalog, shape)
    if output is not None:
        check_output(output, protect=cat.sources)  # before converting and its warnings
    result = convert_tools(cat.tools, to, cat.servers)
    for text in result.notes:
        warn(text)
    if output is not None:
        as_yaml = output.suffix.lower() in (".yaml", ".yml")
        write_output(output, to_text(result.payload, as_yaml=as_yaml), protect=cat.sources)
    if json_:
        summary = {"shape": result.shape, "tools": result.count, "notes": list(result.notes)}
        print_json(summary if output else {**summary, "payload": result.payload})
    elif output is None:
        as_yaml = PROVIDERS[to].yaml_native
        write_output(Path("-"), to_text(result.payload, as_yaml=as_yaml))
    else:
        say_written(f"wrote {plural(result.count, 'tool')} as {to} to {output}")
