"""`toolcat render`, `tokens` and `check-call`: the prompt and request a model gets, what
they cost, and whether the tool calls that come back are valid."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, ShapeOpt
from toolcat.providers import PROVIDERS
from toolcat.render.formats import TEXT_PARSERS

if TYPE_CHECKING:
    from toolcat.calls import CallReport, CheckedCall
    from toolcat.render.costs import CatalogCost

# Command modules import the core inside each command, so `toolcat --help` stays fast.

REQUEST_PROVIDERS = [name for name, p in PROVIDERS.items() if p.request]
CALL_PROVIDERS = [name for name, p in PROVIDERS.items() if p.parse_calls]

ProviderOpt = Annotated[
    str | None,
    typer.Option("--provider", help="Provider whose request payload to write: "
                 f"{', '.join(REQUEST_PROVIDERS)}.", show_default=False),
]
EncodingOpt = Annotated[
    str | None,
    typer.Option("--encoding", help="Count tokens in this OpenAI encoding (o200k_base, "
                 "cl100k_base). Default: the model's, else o200k_base.", show_default=False),
]
ModelOpt = Annotated[
    str | None,
    typer.Option("--model", help="Model id, for the payload and the token method "
                 "(default: the profile's).", show_default=False),
]


def check_call(
    response: Annotated[Path, typer.Argument(
        help="A provider response (JSON) or, with --format, a text completion.",
        show_default=False)],
    provider: Annotated[str | None, typer.Option(
        "--provider", help=f"The response's provider: {', '.join(CALL_PROVIDERS)}.",
        show_default=False)] = None,
    format_: Annotated[str | None, typer.Option(
        "--format", "-f", help="Read a text completion in this format: "
        f"{', '.join(TEXT_PARSERS)}.", show_default=False)] = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Validate the tool calls a model returned: parse, find the tool, validate the arguments
    against its schema. Exit 1 when any call is refused."""
    from toolcat.calls import check_response
    from toolcat.cli import build
    from toolcat.cli.output import print_json

    cat = build.load(catalog, shape)
    report = check_response(cat, response, provider=provider, fmt=format_)
    if json_:
        print_json(report.to_json())
    else:
        _print_report(report)
    if not report.ok:
        raise typer.Exit(1)


def _print_report(report: CallReport) -> None:
    from toolcat.cli.output import console

    if not report.calls:
        console.print(f"no tool calls in {report.source}", markup=False)
        return
    for checked in report.calls:
        _print_call(report.source, checked)
    accepted = len(report.calls) - report.refused
    unvalidated = sum(c.accepted and not c.validated for c in report.calls)
    summary = f"{len(report.calls)} calls: {accepted} accepted"
    if unvalidated:
        summary += f" ({unvalidated} without validation)"
    summary += f", {report.refused} refused"
    console.print(summary, markup=False)


def _print_call(source: str, checked: CheckedCall) -> None:
    from rich.markup import escape

    from toolcat.cli.output import console

    call = checked.call
    where = f"{source}:{call.line}:{call.column}" if call.line else source
    label = escape(call.name or "(unnamed call)") + (f" ({escape(call.id)})" if call.id else "")
    if not checked.accepted:
        status = "[red]refused[/]"
    elif checked.validated:
        status = "[green]accepted[/]"
    else:
        status = f"[yellow]accepted without validation[/] (no_schema_mode " \
                 f"{checked.no_schema_mode})"
    console.print(f"[dim]{escape(where)}[/]  [bold]{label}[/]  {status}", soft_wrap=True)
    for error in checked.errors:
        at = f"{error.pointer or '/'}: " if error.code == "schema-violation" else ""
        console.print(f"    {escape(at + error.message)}  [dim]{error.code}[/]", soft_wrap=True)


def tokens(
    query: Annotated[str | None, typer.Argument(
        help="A request: also show what the visible set resolve picks for it saves.",
        show_default=False)] = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    encoding: EncodingOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Token cost of every tool definition, largest first, per server and for the whole
    catalog; with a QUERY, what resolve's visible set saves."""
    from toolcat.cli import build
    from toolcat.cli.output import print_json
    from toolcat.render.costs import catalog_cost, method_for
    from toolcat.render.render import request_provider

    cat = build.load(catalog, shape)
    if provider:
        request_provider(provider)
    method = method_for(provider, model, encoding)
    cost = catalog_cost(cat.tools, method, provider or "canonical")
    if json_:
        print_json(_cost_json(cost, cat))
    else:
        _print_cost(cost, cat)


def _cost_json(cost: CatalogCost, cat: object) -> dict:
    return {
        "method": cost.method.to_json(),
        "shape": cost.shape,
        "total": cost.total,
        "tools": [{"name": c.tool.name, "qualified_name": c.tool.qualified_name,
                   "server": c.tool.server, "tokens": c.tokens} for c in cost.tools],
        "servers": [{"name": s.name, "tools": s.tools, "tokens": s.tokens}
                    for s in cost.servers],
    }


def _print_cost(cost: CatalogCost, cat: object) -> None:
    from rich.table import Table

    from toolcat.cli.output import console

    total = cost.total or 1
    method = cost.method
    how = "compact JSON definitions" if cost.shape == "canonical" \
        else f"definitions as {PROVIDERS[cost.shape].label} requests carry them"
    console.print(f"[bold]{cost.total:,} tokens[/] for {len(cost.tools)} tools on "
                  f"{len(cost.servers)} servers ({method.label}; {how})", soft_wrap=True)
    console.print(f"[dim]{method.basis}[/]", soft_wrap=True)
    servers = Table(title="per server", title_justify="left")
    servers.add_column("server", no_wrap=True)
    servers.add_column("tools", justify="right")
    servers.add_column("tokens", justify="right")
    servers.add_column("share", justify="right")
    for server in cost.servers:
        servers.add_row(server.name or "-", str(server.tools), f"{server.tokens:,}",
                        f"{server.tokens / total:.1%}")
    console.print(servers)
    tools = Table(title="per tool, largest first", title_justify="left")
    tools.add_column("tool", no_wrap=True, style="bold")
    tools.add_column("server", no_wrap=True)
    tools.add_column("tokens", justify="right")
    tools.add_column("share", justify="right")
    for item in cost.tools:
        tools.add_row(item.tool.name, item.tool.server, f"{item.tokens:,}",
                      f"{item.tokens / total:.1%}")
    console.print(tools)
