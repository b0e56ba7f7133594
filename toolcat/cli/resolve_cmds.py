"""`toolcat resolve`: what the model sees for a query and a profile, and why; or a scripted
discovery session, step by step."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import (
    AllowUnsafeOpt,
    CatalogOpt,
    JsonOpt,
    ProfileOpt,
    ShapeOpt,
    TuningOpt,
)

if TYPE_CHECKING:
    from rich.console import Console, JustifyMethod
    from rich.tree import Tree

    from toolcat.model import Tool
    from toolcat.render.cache import CacheReport, CacheStep
    from toolcat.resolution import Decision, Resolution, Step

StepsOpt = Annotated[
    Path | None,
    typer.Option("--steps",
                 help="A scripted discovery session (search_tools, add_tool, show_all_tools, "
                 "tool_search, the gateway's search tool, other calls): show each step.",
                 show_default=False),
]

CacheProviderOpt = Annotated[
    str | None,
    typer.Option("--provider",
                 help="With --steps: price each request of the session for this provider "
                 "(anthropic, openai-responses, openai, ...): the prefix that stays in its "
                 "prompt cache and what that saves against rewriting the tools list.",
                 show_default=False),
]

GROUP_AT = 3  # this many leaves with the same outcome, rule and reason share one line
_STYLE = {"visible": "green", "deferred": "yellow", "excluded": "red", "eligible": "cyan",
          "selected": "cyan", "available": "green", "unavailable": "red"}


def resolve(
    query: Annotated[str | None, typer.Argument(help="The user's request.",
                                                show_default=False)] = None,
    profile: ProfileOpt = None,
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    steps: StepsOpt = None,
    provider: CacheProviderOpt = None,
    allow_unsafe: AllowUnsafeOpt = False,
    tuning: TuningOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Replay which tools the model sees for QUERY under a profile, and explain every step."""
    from toolcat.cli import build
    from toolcat.errors import UsageError
    from toolcat.resolution import Session, load_script

    cfg = build.config()  # read once: it names both the profile and the catalogs
    chosen = build.profile(profile, cfg, allow_unsafe=allow_unsafe)
    if provider is not None:
        from toolcat.render.renderer import request_provider

        if steps is None:
            raise UsageError("--provider prices the requests of a session: give --steps too")
        request_provider(provider)
    script = load_script(steps) if steps is not None else None
    text = query if query is not None else (script.query if script else None)
    if not text:
        raise UsageError("give a QUERY" + (" or a 'query' in the steps file" if script else ""))
    cat = build.load(catalog, shape, cfg=cfg)
    bar = build.ranking_bar([chosen], cat, shown=not json_)
    resolver = build.resolver(cat, chosen, tuning, cfg, progress=bar)
    if script is None:
        with bar:
            resolution = resolver.resolve(text)
        if json_:
            from toolcat.cli.output import print_json

            print_json(resolution.to_json())
        else:
            _print_resolution(resolution)
        return
    with bar:
        session = Session(cat, chosen, text, resolver=resolver)
    initial = session.resolution
    done = session.run(script.calls)
    refused = sum(step.refused for step in done)
    cache = None
    if provider is not None:
        from toolcat.cli.render_cmds import _prefix
        from toolcat.render.cache import session_cache

        cache = session_cache([initial, *(step.resolution for step in done)], cat.documents,
                              provider, prefix=_prefix())
    if json_:
        from toolcat.cli.output import print_json

        data: dict[str, Any] = {
            "query": text, "profile": {"name": chosen.name, "source": chosen.source},
            "steps_file": script.source, "initial": initial.to_json(),
            "steps": [step.to_json() for step in done], "refused": refused}
        if cache is not None:
            data["cache"] = cache.to_json()
            for entry, figures in zip(data["steps"], cache.steps[1:], strict=True):
                entry["cache"] = figures.to_json()
        print_json(data)
    else:
        _print_session(initial, done, cache)
    if refused:
        raise typer.Exit(1)


# ---- text output ------------------------------------------------------------------------------


def _print_resolution(resolution: Resolution) -> None:
    from toolcat.cli.output import console

    _print_header(console, resolution)
    _print_tools(console, resolution)
    console.print()
    console.print("[bold]why[/]")
    console.print(_tree(resolution.trace))


def _print_header(console: Console, resolution: Resolution) -> None:
    from rich.markup import escape

    profile = resolution.profile
    model = profile.model
    size = f"{model.size_b:g}B ({model.size_class})" if model.size_b is not None else \
        "size not given"
    fmt = resolution.format
    rows = [
        ("query", escape(resolution.query)),
        ("profile", escape(profile.name + (f"  {profile.source}" if profile.source else ""))),
        ("model", escape(f"{model.name} · {size} · "
                         + ("native tool calling" if model.tool_calling
                            else "no native tool calling"))),
        ("format", f"[bold]{fmt.name}[/]" + (" (fallback)" if fmt.fallback else "")
         + f" — {escape(fmt.reason)}"),
        ("cap", ("none" if resolution.cap.limit is None else str(resolution.cap.limit))
         + f" — {escape(resolution.cap.reason)}"),
        ("scorer", resolution.scorer),
        ("safety", ("unsafe tools shown (allow_unsafe)" if profile.allow_unsafe
                    else "unsafe tools left out (--allow-unsafe to show them)")
         + escape(_unknown_shown(resolution.visible))),
    ]
    if not resolution.tool_search_mode and profile.mcp.defer:
        rows.append(("floor", f"{profile.mcp.min_score:g} — the automatic search's "
                              "mcp.min_score"))
    if resolution.tool_search_mode:
        rows.append(("mode", "tool search mode"))
    if resolution.gateway is not None:
        g = resolution.gateway
        rows.append(("gateway", f"{g.strategy} — {escape(g.reason)}"))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        console.print(f"[dim]{key:<{width}}[/]  {value}", soft_wrap=True)



def _unknown_shown(visible: Sequence[Tool]) -> str:
    """The visible tools whose safety nobody stated, for resolve's safety row."""
    unknown = [t.name for t in visible if t.safety == "unknown"]
    if not unknown:
        return ""
    names = ", ".join(unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
    return f"; safety not stated for {names} (shown, marked)"

def _print_tools(console: Console, resolution: Resolution) -> None:
    from rich.markup import escape
    from rich.table import Table

    verdict = resolution.verdict_of
    table = Table(title=f"visible ({len(resolution.visible)})", title_justify="left",
                  title_style="bold green")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("name", "left"), ("server", "left"), ("rule", "left"), ("score", "right"),
        ("tokens", "right"))
    for column, justify in columns:
        table.add_column(column, justify=justify, no_wrap=column != "rule")
    for tool in resolution.visible:
        v = verdict(tool)
        table.add_row(v.name, tool.server, v.rule,
                      "" if v.score is None else f"{v.score:.3f}", f"{v.tokens:,}")
    console.print()
    console.print(table)
    if resolution.deferred:
        vias: dict[str, list[str]] = {}
        for b in resolution.briefs(resolution.deferred):
            vias.setdefault(b.via or "?", []).append(b.name)
        console.print()
        console.print(f"[bold yellow]deferred ({len(resolution.deferred)})[/]", soft_wrap=True)
        for via, names in vias.items():
            console.print(f"  via {via}: " + escape(_listed(names)), soft_wrap=True)
    if resolution.excluded:
        rules: dict[str, list[str]] = {}
        for b in resolution.briefs(resolution.excluded):
            rules.setdefault(b.rule, []).append(b.name)
        console.print()
        console.print(f"[bold red]excluded ({len(resolution.excluded)})[/]")
        for rule, names in rules.items():
            console.print(f"  {rule}: " + escape(_listed(names)), soft_wrap=True)
    t = resolution.tokens
    share = f" ({t.visible / t.all:.1%})" if t.all else ""
    console.print()
    console.print(f"[bold]tokens[/] {t.visible:,} visible of {t.all:,}{share}; "
                  f"{t.deferred:,} deferred; {t.encoding}", soft_wrap=True)


LISTED = 40  # names shown in one line of the text output; --json lists every one


def _listed(names: list[str]) -> str:
    """`a, b, c`, or the first LISTED names and how many more (a catalog of 43,000 tools
    would otherwise print a page of names per line)."""
    if len(names) <= LISTED:
        return ", ".join(names)
    return f"{', '.join(names[:LISTED])}, … and {len(names) - LISTED:,} more (--json lists all)"


def _tree(decision: Decision) -> Tree:
    from rich.tree import Tree

    root = Tree(_label(decision, root=True))
    # siblings are added in trace order; the stack only decides which subtree is filled next
    stack: list[tuple[Decision, Tree]] = [(decision, root)]
    while stack:
        node, branch = stack.pop()
        for child in _grouped(node.children):
            stack.append((child, branch.add(_label(child))))
    return root


def _grouped(children: Sequence[Decision]) -> list[Decision]:
    """Leaves that share outcome, rule and reason shown as one line naming them all (the
    JSON trace keeps one node per tool); at most LISTED lines of leaves per outcome and rule,
    then one line counting the rest (at 43,000 tools, the tools under the relevance floor
    each have a score of their own, so a reason of their own, and would print a line each)."""
    from toolcat.resolution import Decision

    groups: dict[tuple[str, str | None, str], list[Decision]] = {}
    for child in children:
        if not child.children:
            groups.setdefault((child.outcome, child.rule, child.reason), []).append(child)
    out: list[Decision] = []
    done = set()
    lines: dict[tuple[str, str | None], int] = {}
    rest: dict[tuple[str, str | None], int] = {}
    for child in children:
        key = (child.outcome, child.rule, child.reason)
        members = groups.get(key, []) if not child.children else []
        if key in done:
            continue
        if members:
            kind = (child.outcome, child.rule)
            if lines.get(kind, 0) >= LISTED:
                if kind not in rest:
                    out.append(Decision("", child.outcome, child.rule, ""))  # filled below
                rest[kind] = rest.get(kind, 0) + (len(members) if len(members) >= GROUP_AT
                                                  else 1)
                if len(members) >= GROUP_AT:
                    done.add(key)
                continue
            lines[kind] = lines.get(kind, 0) + 1
        if len(members) < GROUP_AT:
            out.append(child)
        else:
            done.add(key)
            names = _listed([m.subject for m in members])
            out.append(Decision(f"{names} ({len(members)})", child.outcome, child.rule,
                                child.reason))
    return [Decision(f"… and {rest[(c.outcome, c.rule)]:,} more", c.outcome, c.rule,
                     "each with its own reason (--json lists all)")
            if not c.subject and (c.outcome, c.rule) in rest else c for c in out]


def _label(decision: Decision, *, root: bool = False) -> str:
    from rich.markup import escape

    style = _STYLE.get(decision.outcome, "bold" if not decision.rule else "")
    outcome = f"[{style}]{escape(decision.outcome)}[/]" if style else escape(decision.outcome)
    rule = f" [dim]\\[{decision.rule}][/]" if decision.rule else ""
    subject = f"[bold]{escape(decision.subject)}[/]" if root or not decision.rule \
        else escape(decision.subject)
    return f"{subject} → {outcome}{rule} [dim]— {escape(decision.reason)}[/]"


def _print_session(initial: Resolution, steps: list[Step],
                   cache: CacheReport | None = None) -> None:
    from rich.markup import escape

    from toolcat.cli.output import console

    _print_header(console, initial)
    if cache is not None:
        _print_cache_header(console, cache)
    console.print()
    console.print(f"[bold]before the first call[/]: {len(initial.visible)} visible — "
                  + escape(", ".join(initial.names("visible"))), soft_wrap=True)
    _print_footprint(console, initial)
    if cache is not None:
        _print_cache_step(console, cache.steps[0])
    for index, step in enumerate(steps, 1):
        call = step.call
        arguments = json.dumps(dict(call.arguments), ensure_ascii=False, allow_nan=False)
        mark = "[red]refused[/]" if step.refused else "[green]ok[/]"
        console.print()
        console.print(f"[bold]step {step.number}[/]  {escape(call.name)} {escape(arguments)}  "
                      f"{mark} [dim]\\[{step.rule}][/] {escape(step.note)}", soft_wrap=True)
        console.print(f"  returned: {escape(_returned(step))}", soft_wrap=True)
        after = step.resolution
        change = "".join([f" +{n}" for n in step.added] + [f" -{n}" for n in step.removed])
        console.print(f"  visible ({len(after.visible)}): "
                      + escape(", ".join(after.names("visible")))
                      + (f"  [cyan]{escape(change.strip())}[/]" if change else ""),
                      soft_wrap=True)
        _print_footprint(console, after)
        if cache is not None:
            _print_cache_step(console, cache.steps[index])
    refused = sum(step.refused for step in steps)
    console.print()
    if cache is not None:
        console.print(f"[bold]cache[/] over {len(cache.steps)} requests: {cache.uncached:,} "
                      f"prefix tokens read uncached, against {cache.rewrite_uncached:,} when "
                      f"the tools list is rewritten each turn; saves [bold]{cache.saved:,}[/] "
                      f"({cache.method.label})", soft_wrap=True)
    console.print(f"{len(steps)} steps, {refused} refused", style="red" if refused else None)


def _print_cache_header(console: Console, cache: CacheReport) -> None:
    search = cache.search or {}
    how = {"append": "found tools are appended at the end of the conversation; the tools "
                     "array and system prompt stay cached",
           "allowed-tools": "every tool stays in the tools array; tool_choice allowed_tools "
                            "widens as tools are found, so the prefix stays cached",
           "rewrite": "the tools array is rewritten with what is visible; the cache keeps "
                      "only the leading tools that did not change"}[cache.strategy]
    variant = f" {search.get('variant')}" if search.get("variant") else ""
    console.print(f"[dim]{'cache':<7}[/]  {cache.provider}, provider_search "
                  f"{search.get('mode', 'auto')} → {search.get('used', 'auto')}{variant}: "
                  f"{how}", soft_wrap=True)


def _print_cache_step(console: Console, figures: CacheStep) -> None:
    from rich.markup import escape

    loaded = f"; loaded at the end: {', '.join(figures.loaded)} ({figures.appended:,} tokens)" \
        if figures.appended else ""
    console.print(f"  cache: {figures.cached:,} of {figures.prefix:,} prefix tokens cached"
                  f"{escape(loaded)}; rewriting the tools list: {figures.rewrite_cached:,} of "
                  f"{figures.rewrite_prefix:,} cached; saves {figures.saved:,}", soft_wrap=True)


def _returned(step: Step) -> str:
    """The response as JSON, with long descriptions shortened (`--json` has them whole)."""
    if step.response is None:
        return {"tool-call": "nothing: toolcat does not run catalog tools",
                "user-turn": "nothing: a user message"}.get(
                    step.rule, "nothing: the gateway dropped the call")
    response = step.response
    if isinstance(response, dict) and isinstance(response.get("tools"), list):
        response = {**response, "tools": [
            {**t, "description": _shorten(t["description"])}
            if isinstance(t, dict) and isinstance(t.get("description"), str) else t
            for t in response["tools"]]}
    return json.dumps(response, ensure_ascii=False, allow_nan=False)


def _shorten(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _print_footprint(console: Console, resolution: Resolution) -> None:
    t = resolution.tokens
    console.print(f"  tokens: {t.visible:,} visible of {t.all:,}; {len(resolution.deferred)} "
                  f"deferred ({t.deferred:,} tokens)", soft_wrap=True)
