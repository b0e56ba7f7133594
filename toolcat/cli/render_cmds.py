"""`toolcat render`, `tokens` and `check-call`: the prompt and request a model gets, what
they cost, and whether the tool calls that come back are valid."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import (
    AllowUnsafeOpt,
    CatalogOpt,
    JsonOpt,
    OutputOpt,
    ProfileOpt,
    ShapeOpt,
    TuningOpt,
)
from toolcat.providers import PROVIDERS
from toolcat.render.formats import FORMATS, TEXT_PARSERS
from toolcat.wording import plural

if TYPE_CHECKING:
    from toolcat.calls.check import CallReport, CheckedCall
    from toolcat.model import Catalog
    from toolcat.providers.names import PrefixPolicy
    from toolcat.render.costs import CatalogCost
    from toolcat.render.renderer import Rendered
    from toolcat.resolution import Profile, Resolution

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
FormatOpt = Annotated[
    str | None,
    typer.Option("--format", "-f", help="Prompt format instead of the profile's choice: "
                 f"{', '.join(FORMATS)}.", show_default=False),
]
ModelOpt = Annotated[
    str | None,
    typer.Option("--model", help="Model id, for the payload and the token method "
                 "(default: the profile's).", show_default=False),
]


def render(
    query: Annotated[str, typer.Argument(help="The user's request.", show_default=False)],
    profile: ProfileOpt = None,
    provider: ProviderOpt = None,
    format_: FormatOpt = None,
    model: ModelOpt = None,
    encoding: EncodingOpt = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    output: OutputOpt = None,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Print every note, not one line per kind of note.")] = False,
    allow_unsafe: AllowUnsafeOpt = False,
    tuning: TuningOpt = None,
    json_: JsonOpt = False,
) -> None:
    """The system prompt the model gets for QUERY, or with --provider the whole request
    payload, built from what resolve decides under the profile. Exit 1 when the payload holds
    something the provider rejects that toolcat could not map."""
    import json

    from toolcat.cli.output import check_output, note, print_json, warn, write_output
    from toolcat.render.formats import get_format
    from toolcat.render.renderer import from_resolution
    from toolcat.render.renderer import render as render_request

    if format_ is not None:
        get_format(format_)
    if output is not None:
        check_output(output)  # before any work; the inputs are protected when it is written
    cat, chosen, resolution = _resolve(query, profile, catalog, shape, allow_unsafe, tuning,
                                      json_=json_)
    inp = from_resolution(resolution, cat.documents, format=format_, model=model,
                          prefix=_prefix())
    rendered = render_request(inp, provider, encoding)
    notes = list(rendered.notes)
    shown = list(rendered.notes if verbose else rendered.summary)
    if format_ == "native" and not chosen.model.tool_calling:
        first = f"the profile's model {chosen.model.name} has no native tool calling"
        notes.insert(0, first)
        shown.insert(0, first)
    for text in shown:
        warn(text)
    for text in rendered.rejected:
        note(f"error: {text}")
    if provider is None:
        text = rendered.system_prompt + "\n"
    else:
        text = json.dumps(rendered.payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if output is not None:
        write_output(output, text, protect=[*cat.sources, *([chosen.source] if chosen.source
                                                           else [])])
    if json_:
        print_json(_render_json(rendered, resolution, chosen, format_, notes))
        if rendered.rejected:
            raise typer.Exit(1)
        return
    if output is None:
        typer.echo(text, nl=False)
    else:
        note(f"wrote the {'request' if provider else 'system prompt'} to {output}")
    note(_summary(rendered, resolution, format_))
    if rendered.rejected:
        raise typer.Exit(1)


def _prefix() -> PrefixPolicy:
    """toolcat.yaml's `names: {prefix: ...}`."""
    from toolcat.cli import build
    from toolcat.providers.names import prefix_setting

    cfg = build.config()
    return prefix_setting(cfg.section("names"), cfg.reader())


def _resolve(query: str, profile: str | None, catalog: list[str] | None,
             shape: str | None, allow_unsafe: bool, tuning: Path | None = None, *,
             json_: bool = False) -> tuple[Catalog, Profile, Resolution]:
    from toolcat.cli import build

    cfg = build.config()  # read once: it names both the profile and the catalogs
    chosen = build.profile(profile, cfg, allow_unsafe=allow_unsafe)
    cat = build.load(catalog, shape, cfg=cfg)
    bar = build.ranking_bar([chosen], cat, shown=not json_)
    resolver = build.resolver(cat, chosen, tuning, cfg, progress=bar)
    with bar:
        return cat, chosen, resolver.resolve(query)


def _render_json(rendered: Rendered, resolution: Resolution, profile: Profile,
                 format_: str | None, notes: list[str]) -> dict[str, Any]:
    data = rendered.to_json()
    reason = "chosen with --format" if format_ else resolution.format.reason
    return {
        "query": data.pop("query"),
        "profile": {"name": profile.name, "source": profile.source},
        "format": data.pop("format"),
        "format_reason": reason,
        "provider": data.pop("provider"),
        **data,
        "notes": notes,
    }


def _where_tools_went(rendered: Rendered) -> str:
    """Counts that match the payload: a provider with deferred loading carries the deferred
    tools in it (marked defer_loading); the others leave them out."""
    text = (f"{plural(len(rendered.prompt_tools), 'tool')} described in the prompt, "
            f"{len(rendered.payload_tools):,} in the payload")
    if not rendered.deferred:
        return text
    how = rendered.search.deferred if rendered.search is not None else "omit"
    deferred = len(rendered.deferred)
    return text + {"defer": f" and {deferred:,} more in it with defer_loading",
                   "allowed": f" and {deferred:,} more in it, not allowed by tool_choice yet",
                   "omit": f", {deferred:,} deferred and left out of it"}[how]


_STRATEGY = {"append": "found tools are appended at the end of the conversation",
             "allowed-tools": "found tools are allowed by tool_choice",
             "rewrite": "found tools go into a rewritten tools list"}


def _search_summary(rendered: Rendered) -> str:
    """The provider search a request uses and what stays cached (empty for mode auto)."""
    use = rendered.search
    if use is None or use.mode == "auto":
        return ""
    variant = f" {use.variant}" if use.variant else ""
    kept = (f"the {use.prefix:,}-token prefix stays cached, so each later turn reads it "
            "from the cache (resolve --steps --provider prices a session)"
            if use.strategy != "rewrite" else
            "the prefix changes as tools are found, and the cache with it")
    return (f"provider_search {use.mode}: {use.used}{variant}; {_STRATEGY[use.strategy]}, "
            f"{kept}")


def _summary(rendered: Rendered, resolution: Resolution, format_: str | None) -> str:
    tokens = rendered.tokens
    reason = "chosen with --format" if format_ else resolution.format.reason
    parts = [f"format {rendered.format} ({reason})", _where_tools_went(rendered)]
    cost = f"{tokens.total:,} tokens: system prompt {tokens.system:,}"
    if tokens.tools or tokens.overhead:
        cost += f" + tools {tokens.tools:,}"
    if tokens.overhead:
        cost += f" + tool-use overhead {tokens.overhead:,}"
    parts.append(f"{cost} ({tokens.method.label})")
    search = _search_summary(rendered)
    if search:
        parts.append(search)
    return "; ".join(parts)


def check_call(
    response: Annotated[Path, typer.Argument(
        help="A provider response (JSON) or, with --format, a text completion; - reads "
        "standard input.",
        show_default=False)],
    provider: Annotated[str | None, typer.Option(
        "--provider", help=f"The response's provider: {', '.join(CALL_PROVIDERS)}.",
        show_default=False)] = None,
    format_: Annotated[str | None, typer.Option(
        "--format", "-f", help="Read a text completion in this format: "
        f"{', '.join(TEXT_PARSERS)}.", show_default=False)] = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    request: Annotated[Path | None, typer.Option(
        "--request", help="What the model was shown: the output of `toolcat render --json` "
        "for this request. Only calls to the tools it lists are accepted.",
        show_default=False)] = None,
    profile: ProfileOpt = None,
    builtins: Annotated[bool | None, typer.Option(
        "--builtins/--no-builtins", help="Accept calls to every toolcat built-in tool "
        "(tool_search, python_execution, ...), or to none. Default: those the profile "
        "shows.", show_default=False)] = None,
    instantiate: Annotated[bool, typer.Option(
        "--instantiate", help="Also build the instances the valid calls hydrate into (tools "
        "defined in Python with @toolcat.tool; run() is never called) and report each call "
        "as instantiated, instantiated without validation, refused, or without a class.")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Validate the tool calls a model returned: parse, find the tool, validate the arguments
    against its schema. Exit 1 when any call is refused."""
    from toolcat.cli import build
    from toolcat.cli.output import print_json
    from toolcat.render.responses import check_response
    from toolcat.source.files import named_path

    response = named_path(response)
    cfg = build.config()
    cat = build.load(catalog, shape, cfg=cfg)
    own = frozenset(t.qualified_name for t in cat.tools)
    if builtins is not False:
        cat = _with_builtins(cat)
    if instantiate:
        from toolcat.cli.define_cmds import check_instances

        check_instances(cat, response, provider=provider, fmt=format_, json_=json_)
        return
    if request is not None:
        offered, offered_from = _offered_by_request(named_path(request)), \
            f"the request in {request} does not list it"
    elif builtins is None:
        chosen = build.profile(profile, cfg)
        offered = own | _builtins_shown(cat, chosen)
        offered_from = (f"profile '{chosen.name}' shows no such built-in (pass the request "
                        "render wrote with --request, or --builtins to accept every built-in)")
    else:
        offered, offered_from = None, ""
    report = check_response(cat, response, provider=provider, fmt=format_, prefix=_prefix(),
                            offered=offered, offered_from=offered_from)
    if json_:
        print_json(report.to_json())
    else:
        _print_report(report)
    if not report.ok:
        raise typer.Exit(1)


def _builtins_shown(cat: Catalog, profile: Profile) -> frozenset[str]:
    """The built-ins `profile` puts in front of the model (tool_search counted as shown,
    since a request may defer catalog tools)."""
    from toolcat.resolution.builtins import decide_builtin

    return frozenset(t.qualified_name for t in cat.tools if t.source == "builtin"
                     and decide_builtin(t, profile, has_deferred=True)[0])


def _offered_by_request(path: Path) -> frozenset[str]:
    """The qualified names of the tools a request put in front of the model: what `render
    --json` lists as described in the prompt, sent in the payload, or deferred in it (when
    the provider carries deferred tools, the model can load them).

    Raises:
        UsageError: the file is not what `render --json` writes.
    """
    from toolcat.errors import UsageError
    from toolcat.source.files import parse_file

    data = parse_file(path).data
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, dict) or not all(
            isinstance(tools.get(key), list) for key in ("prompt", "payload", "deferred")):
        raise UsageError(f"--request {path}: not the output of `toolcat render --json` (no "
                         "\"tools\": {\"prompt\", \"payload\", \"deferred\"})")
    provider = data.get("provider")
    carried = isinstance(provider, str) and provider in PROVIDERS and \
        "defer_loading" in PROVIDERS[provider].carries
    keys = ("prompt", "payload", "deferred") if carried else ("prompt", "payload")
    return frozenset(str(name) for key in keys for name in tools[key])


def _with_builtins(cat: Catalog) -> Catalog:
    """The catalog plus the shipped built-in tools whose names it does not use itself."""
    from dataclasses import replace

    from toolcat.catalog.load import load_catalog
    from toolcat.config.paths import builtins_catalog

    shipped = load_catalog(builtins_catalog(), default_source="builtin")
    taken = {t.name for t in cat.tools}
    extra = tuple(t for t in shipped.tools if t.name not in taken)
    servers = cat.servers + tuple(s for s in shipped.servers if not cat.server(s.name))
    return replace(cat, tools=cat.tools + extra, servers=servers,
                   positions={**shipped.positions, **cat.positions})


def _print_report(report: CallReport) -> None:
    from toolcat.cli.output import console

    if not report.calls:
        console.print(f"no tool calls in {report.source}", markup=False)
        return
    for checked in report.calls:
        _print_call(report.source, checked)
    accepted = len(report.calls) - report.refused
    unvalidated = sum(c.accepted and not c.validated for c in report.calls)
    summary = f"{plural(len(report.calls), 'call')}: {accepted} accepted"
    if unvalidated:
        summary += f" ({unvalidated} without validation)"
    summary += f", {report.refused} refused"
    console.print(summary, markup=False)


def _print_call(source: str, checked: CheckedCall) -> None:
    from toolcat.cli.call_lines import print_call

    if not checked.accepted:
        status = "[red]refused[/]"
    elif checked.validated:
        status = "[green]accepted[/]"
    else:
        status = f"[yellow]accepted without validation[/] (no_schema_mode " \
                 f"{checked.no_schema_mode})"
    print_call(source, checked.call, status, checked.errors)


def tokens(
    query: Annotated[str | None, typer.Argument(
        help="A request: also show what the visible set resolve picks for it saves.",
        show_default=False)] = None,
    profile: ProfileOpt = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    provider: Annotated[str | None, typer.Option(
        "--provider", help="Price each definition as this provider's requests carry it: "
        f"{', '.join(REQUEST_PROVIDERS)}.", show_default=False)] = None,
    model: Annotated[str | None, typer.Option(
        "--model", help="Model id that picks the tokenizer and overhead (default: the "
        "profile's).", show_default=False)] = None,
    encoding: EncodingOpt = None,
    allow_unsafe: AllowUnsafeOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Token cost of every tool definition, largest first, per server and for the whole
    catalog; with a QUERY, what resolve's visible set saves."""
    from toolcat.cli import build
    from toolcat.cli.output import print_json
    from toolcat.render.costs import catalog_cost, method_for
    from toolcat.render.renderer import model_id, request_provider

    if provider:
        request_provider(provider)
    visible = None
    if query is not None:
        cat, chosen, resolution = _resolve(query, profile, catalog, shape, allow_unsafe,
                                          json_=json_)
        model = model or model_id(chosen)
    else:
        cat = build.load(catalog, shape)
    method = method_for(provider, model, encoding)
    cost = catalog_cost(cat.tools, method, provider or "canonical")
    if query is not None:
        visible = _visible_saving(cost, resolution, chosen)
    if json_:
        print_json({**cost.to_json(), "visible": visible})
        return
    _print_cost(cost)
    if visible is not None:
        _print_saving(visible)


def _visible_saving(cost: CatalogCost, resolution: Resolution,
                    profile: Profile) -> dict[str, Any]:
    from toolcat.render.costs import visible_saving

    saving = visible_saving(cost, resolution.visible)
    return {"query": resolution.query,
            "profile": {"name": profile.name, "source": profile.source},
            "tools": [t.qualified_name for t in resolution.visible],
            "tokens": saving.visible, "all": saving.all, "saved": saving.saved,
            "saved_share": round(saving.share, 4)}


def _print_saving(visible: dict[str, Any]) -> None:
    from rich.markup import escape

    from toolcat.cli.output import console

    console.print(f"visible set for [bold]\"{escape(visible['query'])}\"[/] under profile "
                  f"{escape(visible['profile']['name'])}: {plural(len(visible['tools']), 'tool')}, "
                  f"{visible['tokens']:,} of {visible['all']:,} tokens; saves "
                  f"[bold]{visible['saved']:,}[/] ({visible['saved_share']:.1%})",
                  soft_wrap=True)


def _print_cost(cost: CatalogCost) -> None:
    from rich.table import Table

    from toolcat.cli.output import console

    total = cost.total or 1
    method = cost.method
    how = "compact JSON definitions" if cost.shape == "canonical" \
        else f"definitions as {PROVIDERS[cost.shape].label} requests carry them"
    console.print(f"[bold]{plural(cost.total, 'token')}[/] for {plural(len(cost.tools), 'tool')} "
                  f"on {plural(len(cost.servers), 'server')} ({method.label}; {how})",
                  soft_wrap=True)
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
