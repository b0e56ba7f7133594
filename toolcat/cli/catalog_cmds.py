"""`toolcat list`, `show`, `stats` and `convert`: look at a catalog and rewrite it."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, OutputOpt, ShapeOpt
from toolcat.providers import PROVIDERS

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


def summary_json(catalog: Catalog, tool: Tool) -> dict:
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
        "size": tool.size(),
        "origin": tool.origin.to_json() if tool.origin else None,
    }


def list_tools(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    server: ServerOpt = None,
    json_: JsonOpt = False,
) -> None:
    """List the tools of the catalog: name, server, level, tags, safe, definition size."""
    from rich.table import Table

    from toolcat.cli import build
    from toolcat.cli.output import console, print_json

    cat = build.load(catalog, shape)
    tools = _filtered(cat, server)
    if json_:
        print_json({"sources": list(cat.sources), "count": len(tools),
                    "tools": [summary_json(cat, t) for t in tools]})
        return
    table = Table(title=f"{len(tools)} tools", title_justify="left")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("server", no_wrap=True)
    table.add_column("level", justify="right")
    table.add_column("tags")
    table.add_column("safe")
    table.add_column("size", justify="right")
    for tool in tools:
        table.add_row(cat.ident(tool), tool.server, str(tool.level), ", ".join(tool.tags),
                      "yes" if tool.safe else "[red]no[/]", f"{tool.size():,} B")
    console.print(table)


def show(
    name: Annotated[str, typer.Argument(help="Tool name, or server:tool.")],
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Show one tool's full definition, as written, with where it came from."""
    from rich.syntax import Syntax

    from toolcat.catalog.convert import to_text
    from toolcat.cli import build
    from toolcat.cli.output import console, print_json

    cat = build.load(catalog, shape)
    tool = find_tool(cat, name)
    if json_:
        print_json({**tool.to_json(), "raw": tool.raw})
        return
    console.print(f"[bold]{tool.qualified_name}[/]  [dim]{tool.origin}[/]")
    facts = [f"kind {tool.kind}", f"level {tool.level}", f"source {tool.source}",
             "safe" if tool.safe else "[red]unsafe[/]"]
    if tool.tags:
        facts.append("tags " + ", ".join(tool.tags))
    console.print("  ".join(facts))
    if tool.description:
        console.print(tool.description, markup=False)
    is_yaml = bool(tool.origin and tool.origin.file.endswith((".yaml", ".yml")))
    text = to_text(tool.raw, as_yaml=is_yaml)
    console.print(Syntax(text, "yaml" if is_yaml else "json", theme="ansi_dark",
                         background_color="default", word_wrap=True))


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
    json_: JsonOpt = False,
) -> None:
    """Counts per server, per level and per tag, and the size of the definitions."""
    from rich.table import Table

    from toolcat.cli import build
    from toolcat.cli.output import console, print_json

    cat = build.load(catalog, shape)
    data = catalog_stats(cat)
    if json_:
        print_json(data)
        return
    size = data["size"]
    console.print(f"[bold]{data['tools']} tools[/] on {len(data['servers'])} servers "
                  f"from {len(cat.sources)} files; {data['unsafe']} unsafe; definitions "
                  f"{size['total']:,} bytes (mean {size['mean']:,}, largest "
                  f"{size['largest']['name']} {size['largest']['bytes']:,})", soft_wrap=True)
    console.print(f"advice: {data['advice']['text']}", markup=False, soft_wrap=True)
    for title, counts in (("server", data["servers"]), ("level", data["levels"]),
                          ("kind", data["kinds"]), ("tag", data["tags"])):
        table = Table(title=f"per {title}", title_justify="left")
        table.add_column(title, no_wrap=True)
        table.add_column("tools", justify="right")
        for key, count in counts.items():
            table.add_row(str(key), str(count))
        console.print(table)


def catalog_stats(cat: Catalog) -> dict:
    from toolcat.resolution.advice import advise

    sizes = {t.qualified_name: t.size() for t in cat.tools}
    largest = max(sizes, key=lambda k: sizes[k]) if sizes else ""
    tags: Counter[str] = Counter(tag for t in cat.tools for tag in t.tags)
    return {
        "tools": len(cat.tools),
        "servers": dict(Counter(t.server for t in cat.tools)),
        "levels": {str(k): v for k, v in sorted(Counter(t.level for t in cat.tools).items())},
        "kinds": dict(Counter(t.kind for t in cat.tools)),
        "tags": dict(tags.most_common()),
        "unsafe": sum(not t.safe for t in cat.tools),
        "size": {
            "total": sum(sizes.values()),
            "mean": round(sum(sizes.values()) / len(sizes)) if sizes else 0,
            "largest": {"name": largest, "bytes": sizes.get(largest, 0)},
        },
        "advice": advise(len(cat.tools)).to_json(),
    }


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
    from toolcat.cli.output import console, print_json, warn, write_output

    cat = build.load(catalog, shape)
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
        typer.echo(to_text(result.payload, as_yaml=as_yaml), nl=False)
    else:
        console.print(f"wrote {result.count} tools as {to} to {output}")
