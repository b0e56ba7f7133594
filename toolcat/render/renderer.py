"""Render: the system prompt, the provider request and their token cost, from plain inputs.

The inputs are what resolve decides (the tools to show, the built-ins, the deferred tools, the
format, the base prompt, tool search mode and its categories), so this module does not depend
on how they were decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from toolcat.errors import UsageError
from toolcat.model import Json, Tool
from toolcat.providers import PROVIDERS
from toolcat.providers.contract import Provider
from toolcat.providers.names import ANY_NAME, NameMap, PrefixPolicy, name_map
from toolcat.providers.writing import Note, RequestInput, SearchPlan, summarize
from toolcat.render.costs import Method, TokenCount, count_request, method_for
from toolcat.render.formats import get_format
from toolcat.render.prompt import Prompt, Section, build_prompt
from toolcat.source.refs import base_uri_for, bundle

if TYPE_CHECKING:
    from toolcat.resolution import Profile, Resolution
    from toolcat.resolution.profile import ProviderSearch

DISCOVERY_TOOLS = frozenset({"tool_search", "search_tools", "add_tool"})


@dataclass(frozen=True)
class RenderInput:
    """Everything a render needs. `tools` are shown in this order (by relevance, already
    capped); `builtins` come before them; `deferred` tools are loaded later through tool
    search. `documents` are the files the catalog's `$ref`s point into (Catalog.documents)."""

    query: str = ""
    base_prompt: str = ""
    format: str = "native"
    builtins: tuple[Tool, ...] = ()
    tools: tuple[Tool, ...] = ()
    deferred: tuple[Tool, ...] = ()
    tool_search: bool = False
    categories: tuple[str, ...] = ()
    model: str | None = None
    documents: Mapping[str, Json] = field(default_factory=dict)
    # every tool names must stay distinct from (the whole catalog and the built-ins), so a
    # tool's wire name does not depend on which tools one request carries; default: the
    # tools above. `prefix` says which tools get their server in front of their name.
    universe: tuple[Tool, ...] = ()
    prefix: PrefixPolicy = "collisions"
    # the profile's provider_search (None: mode auto); servers: name -> description, for
    # the namespaces a request groups deferred tools in
    search: ProviderSearch | None = None
    servers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchUse:
    """What a request does with its deferred tools: the profile's mode, what it came to for
    this provider (`native`, `local`, `auto`, or `none` when nothing is deferred), the
    provider's search variant, how deferred tools travel (`defer`, `allowed`, `omit`) and how
    what a session finds reaches later requests (`append`: at the end of the conversation,
    `allowed-tools`: by tool_choice, `rewrite`: in a new tools array). `prefix` is the tokens
    of the tools array and system prompt, which stay cached unless the strategy is
    `rewrite`."""

    mode: str
    used: str
    variant: str | None
    deferred: str
    strategy: str
    prefix: int
    client_runs: bool = False  # the client answers the searches (local, or a client variant)

    def to_json(self) -> dict[str, Json]:
        return {"mode": self.mode, "used": self.used, "variant": self.variant,
                "deferred": self.deferred, "strategy": self.strategy, "prefix": self.prefix,
                "client_runs": self.client_runs}


@dataclass(frozen=True)
class Rendered:
    """A rendered prompt: its text and sections, which tools went where, the provider payload
    (None without a provider), the token cost and notes on what could not be kept as it is."""

    query: str
    format: str
    provider: str | None
    model: str | None
    system_prompt: str
    sections: tuple[Section, ...]
    prompt_tools: tuple[Tool, ...]
    payload_tools: tuple[Tool, ...]
    deferred: tuple[Tool, ...]
    payload: Json | None
    tokens: TokenCount
    notes: tuple[str, ...]
    summary: tuple[str, ...] = ()  # the notes, one line per kind with a count
    rejected: tuple[str, ...] = ()  # what the provider will refuse that could not be mapped
    names: Mapping[str, str] = field(default_factory=dict)  # server:tool -> name sent
    search: SearchUse | None = None  # None without a provider or with a text format

    def to_json(self) -> dict[str, Json]:
        return {
            "query": self.query,
            "format": self.format,
            "provider": self.provider,
            "model": self.model,
            "system_prompt": self.system_prompt,
            "sections": [{"name": s.name, "text": s.text} for s in self.sections],
            "tools": {
                "prompt": [t.qualified_name for t in self.prompt_tools],
                "payload": [t.qualified_name for t in self.payload_tools],
                "deferred": [t.qualified_name for t in self.deferred],
            },
            "payload": self.payload,
            "tokens": self.tokens.to_json(),
            "notes": list(self.notes),
            "summary": list(self.summary),
            "rejected": list(self.rejected),
            "names": dict(self.names),
            "search": None if self.search is None else self.search.to_json(),
        }


def from_resolution(resolution: Resolution, documents: Mapping[str, Json] | None = None, *,
                    format: str | None = None, model: str | None = None,
                    prefix: PrefixPolicy = "collisions") -> RenderInput:
    """The render inputs of a resolution; `format` and `model` override the profile's."""
    categories = tuple(f"{c.name} ({c.description})" if c.description else c.name
                       for c in resolution.categories)
    return RenderInput(
        query=resolution.query,
        base_prompt=resolution.prompt,
        format=format or resolution.format.name,
        builtins=resolution.builtins,
        tools=resolution.catalog_tools,
        deferred=_provider_deferred(resolution),
        tool_search=resolution.tool_search_mode,
        categories=categories,
        model=model or model_id(resolution.profile),
        documents=documents or {},
        universe=(*resolution.visible, *resolution.deferred, *resolution.excluded),
        prefix=prefix,
        search=resolution.profile.provider_search,
        servers={c.name: c.description for c in resolution.categories},
    )


def _provider_deferred(resolution: Resolution) -> tuple[Tool, ...]:
    """The deferred tools a request carries for the provider to load (defer_loading). Those
    behind a gateway's search tool stay out: the gateway injects them when its tool finds
    them, and a second, provider-side search over the same tools would compete."""
    behind = resolution.gateway.search_tool if resolution.gateway else None
    if behind is None:
        return resolution.deferred
    via = {v.tool.qualified_name: v.via for v in resolution.verdicts}
    return tuple(t for t in resolution.deferred if via.get(t.qualified_name) != behind)


def model_id(profile: Profile) -> str | None:
    """The model id a profile names; None for the built-in default profile, whose model is a
    description ("a large model with native tool calling"), not an id a provider knows."""
    name = profile.model.name
    return name if profile.source is not None and name and name != "default" else None


def request_provider(name: str) -> Provider:
    """The provider called `name`, if it can build requests; UsageError listing those that can."""
    provider = PROVIDERS.get(name)
    if provider is None or provider.request is None:
        known = ", ".join(REQUEST_PROVIDERS)
        raise UsageError(f"unknown provider '{name}'; known: {known}")
    return provider


REQUEST_PROVIDERS: tuple[str, ...] = tuple(n for n, p in PROVIDERS.items() if p.request)


def self_contained(tool: Tool, documents: Mapping[str, Json]) -> Tool:
    """`tool` with references into other files moved into its schema's `$defs` (a new Tool;
    the canonical one is untouched), so a prompt or payload needs nothing else."""
    # no document to bundle from (a catalog without file $refs): nothing to do, and no path
    # to resolve per tool (at 43,000 deferred tools that was most of a render)
    # (documents first: a remembered tool's parameters are decoded when first read)
    if not documents or tool.origin is None or not isinstance(tool.parameters, dict):
        return tool
    bundled = bundle(tool.parameters, base_uri_for(tool.origin.file), documents)
    return tool if bundled is tool.parameters else replace(tool, parameters=bundled)


def render(inp: RenderInput, provider: str | None = None,
           encoding: str | None = None) -> Rendered:
    """The system prompt for `inp` and, with a provider, the request payload for it.

    Tools go out under their wire names (see toolcat.providers.names): a name two servers
    share gets its server in front, a name the provider rejects is sanitized; each change is
    a note, and check-call maps the names back.

    Raises:
        UsageError: an unknown format, provider or encoding.
    """
    fmt = get_format(inp.format)
    target = request_provider(provider) if provider else None
    docs = inp.documents
    # a text prompt's names are text the model writes back (check-call --format): only the
    # tools array of a native request must follow the provider's name rule
    rule = target.limits.names if target and fmt.name == "native" else ANY_NAME
    names = name_map(inp.universe or (*inp.builtins, *inp.tools, *inp.deferred), rule,
                     inp.prefix)
    builtins = tuple(_wired(self_contained(t, docs), names) for t in inp.builtins)
    tools = tuple(_wired(self_contained(t, docs), names) for t in inp.tools)
    deferred = tuple(_wired(self_contained(t, docs), names) for t in inp.deferred) \
        if fmt.name == "native" else ()
    prompt = build_prompt(fmt, base_prompt=inp.base_prompt, builtins=builtins, tools=tools,
                          tool_search=inp.tool_search, categories=inp.categories)
    shown = [*builtins, *tools, *deferred]
    notes: list[str | Note] = [*prompt.notes,
                               *_renamed(names, shown, target if rule is not ANY_NAME else None)]
    method = method_for(provider, inp.model, encoding)
    if target is not None and target.request is not None:
        request = _request(inp, target, prompt, names, (*builtins, *tools), deferred,
                           native=fmt.name == "native", method=method)
        payload, tokens, use = request.payload, request.tokens, request.search
        notes += request.notes
        rejected: tuple[str, ...] = request.rejected
        payload_shown = request.tools
    else:
        items = [t.definition() for t in prompt.payload_tools]
        tokens = count_request(prompt.text, items, method)
        payload, use, rejected, payload_shown = None, None, (), prompt.payload_tools
    back = names.back
    return Rendered(
        query=inp.query, format=fmt.name, provider=provider, model=inp.model,
        system_prompt=prompt.text,
        sections=prompt.sections, prompt_tools=back(prompt.prompt_tools),
        payload_tools=back(payload_shown), deferred=back(deferred), payload=payload,
        tokens=tokens, notes=tuple(dict.fromkeys(str(n) for n in notes)),
        summary=summarize(notes), rejected=rejected,
        names={r.tool.qualified_name: r.wire for r in names.renamed},
        search=use,
    )


@dataclass(frozen=True)
class _Request:
    """A render's provider request: its body, what writing it noted, what the provider will
    refuse, its tokens, how its deferred tools are found, the tools its array carries."""

    payload: Json
    notes: tuple[str | Note, ...]
    rejected: tuple[str, ...]
    tokens: TokenCount
    search: SearchUse
    tools: tuple[Tool, ...]


def _request(inp: RenderInput, target: Provider, prompt: Prompt, names: NameMap,
             visible: tuple[Tool, ...], deferred: tuple[Tool, ...], *, native: bool,
             method: Method) -> _Request:
    """The request `target` is sent for `prompt` (`visible`: the builtins and tools shown,
    under their wire names; `native`: the native format, whose deferred tools the provider's
    own search may find)."""
    assert target.request is not None
    discovery = any(names.original(t.name) in DISCOVERY_TOOLS for t in visible)
    payload_tools = prompt.payload_tools
    notes: list[str | Note] = []
    plan = search_plan(inp.search, target, bool(deferred), discovery) if native else None
    if plan is not None and plan.native is not None:
        # the provider's search replaces toolcat's discovery tools in the request
        replaced = [t for t in payload_tools if names.original(t.name) in DISCOVERY_TOOLS]
        payload_tools = tuple(t for t in payload_tools if t not in replaced)
        if replaced:
            notes.append(f"{', '.join(names.original(t.name) for t in replaced)} left out "
                         f"of the request: the provider's own tool search "
                         f"({plan.native}) finds the deferred tools")
        plan = replace(plan, client_search=_client_search(replaced))
    request = RequestInput(
        system=prompt.text, query=inp.query, tools=payload_tools,
        deferred=deferred, model=inp.model, discovery=discovery, plan=plan,
        servers=inp.servers,
    )
    payload, request_notes = target.request(request)
    notes += request_notes
    sent = (*payload_tools, *(deferred if target.defers or plan is not None else ()))
    rejected = tuple(problem for t in sent for problem in _refused(t, target))
    if plan is None:
        items = [target.tool_for_request(t)[0] for t in payload_tools]
        tokens = count_request(prompt.text, items, method)
    else:
        tokens = count_request(prompt.text, upfront_items(payload, target), method)
    use = search_use(inp.search, plan, target, bool(deferred), tokens, discovery)
    return _Request(payload, tuple(notes), rejected, tokens, use, payload_tools)


def search_plan(search: ProviderSearch | None, provider: Provider, has_deferred: bool,
                discovery: bool) -> SearchPlan | None:
    """The SearchPlan of a request to `provider` under the profile's provider_search; None
    for mode auto (deferred tools as the provider writes them by default).

    Raises:
        UsageError: mode native for a provider without a tool search of its own.
    """
    if search is None or search.mode == "auto":
        return None
    if search.mode == "native" and not provider.native_search:
        able = ", ".join(n for n, p in PROVIDERS.items() if p.native_search)
        raise UsageError(f"the profile's provider_search.mode is native, but {provider.label} "
                         f"has no tool search of its own (those that do: {able}); use "
                         "native-or-local or local")
    if search.mode in ("native", "native-or-local") and provider.native_search:
        if not has_deferred:
            return SearchPlan(deferred="omit")
        variant = next(v for v in (search.anthropic, search.openai, *provider.native_search)
                       if v in provider.native_search)
        return SearchPlan(native=variant, deferred="defer", namespaces=search.namespaces)
    # local: toolcat's own discovery tools find the deferred tools
    if search.discovery == "keep-cache" and discovery and provider.references:
        return SearchPlan(deferred="defer")
    if search.discovery == "keep-cache" and provider.allowed_tools:
        return SearchPlan(deferred="allowed")
    return SearchPlan(deferred="omit")


def search_use(search: ProviderSearch | None, plan: SearchPlan | None, provider: Provider,
               has_deferred: bool, tokens: TokenCount, discovery: bool) -> SearchUse:
    """How a rendered request handles its deferred tools (Rendered.search)."""
    mode = search.mode if search is not None else "auto"
    if plan is None:
        carried = provider.defers and has_deferred
        return SearchUse(mode, "auto", None, "defer" if carried else "omit",
                         "append" if carried else "rewrite", tokens.total,
                         carried and discovery)
    if not has_deferred:  # nothing to find: no search, and the prefix stays as it is
        return SearchUse(mode, "none", None, "omit", "append", tokens.total)
    strategy = {"defer": "append", "allowed": "allowed-tools", "omit": "rewrite"}[plan.deferred]
    client = plan.native is None or plan.native in provider.client_variants
    return SearchUse(mode, "native" if plan.native else "local", plan.native, plan.deferred,
                     strategy, tokens.total, client)


def upfront_items(payload: Json, provider: Provider) -> list[Json]:
    """The tools-array items of `payload` as the model sees them before any search: what
    the request's prefix costs."""
    items = payload.get("tools", []) if isinstance(payload, dict) else []
    if provider.upfront is None:
        return list(items)
    return [seen for item in items if (seen := provider.upfront(item)) is not None]


def _client_search(replaced: list[Tool]) -> Tool:
    """The definition a search run by the client is described with: the profile's
    tool_search built-in when it was shown, else the shipped one."""
    shown = next((t for t in replaced if t.name == "tool_search"), None)
    if shown is not None:
        return shown
    from toolcat.resolution.builtins import builtin_catalog

    return next(t for t in builtin_catalog().tools if t.name == "tool_search")


def _wired(tool: Tool, names: NameMap) -> Tool:
    wire = names.wire(tool)
    return tool if wire == tool.name else replace(tool, name=wire)


_WHY = {"shared": "its name is shared by several servers",
        "rejected": "{label} rejects the name as it is",
        "both": "its name is shared by several servers and {label} rejects it as it is"}


def _renamed(names: NameMap, shown: list[Tool], target: Provider | None) -> list[Note]:
    label = target.label if target else "the prompt"
    sent = {t.name for t in shown}
    return [Note(f"{r.tool.qualified_name} is sent as '{r.wire}': "
                 f"{_WHY[r.reason].format(label=label)}",
                 "tool names changed for " + label + " (check-call maps them back)",
                 r.tool.qualified_name)
            for r in names.renamed if r.wire in sent]


JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})


def _refused(tool: Tool, provider: Provider) -> list[str]:
    """What `provider` answers 400 to in `tool`, that toolcat did not map: a root schema that
    is not an object, and `type` names that JSON Schema does not have."""
    schema = tool.parameters
    if not isinstance(schema, dict):
        return []
    problems = []
    root = schema.get("type", "object")
    if root != "object" and not (isinstance(root, list) and "object" in root):
        problems.append(f"{tool.name}: {provider.label} needs an object schema at the root, "
                        f"not type {root!r}")
    bad = sorted(set(_type_names(schema)) - JSON_TYPES)
    if bad:
        problems.append(f"{tool.name}: type {', '.join(map(repr, bad))} is not a JSON Schema "
                        f"type; {provider.label} rejects the schema")
    names = provider.limits.rejected_properties(schema)
    if names:
        rule = provider.limits.property_names
        shown = ", ".join(map(repr, names[:3])) + (f" and {len(names) - 3} more"
                                                   if len(names) > 3 else "")
        problems.append(f"{tool.name}: {provider.label} rejects the parameter name"
                        f"{'s' * (len(names) > 1)} {shown}: "
                        f"{'they' if len(names) > 1 else 'it'} must match "
                        f"{rule.pattern if rule else ''} (lint TC406)")
    return problems


def _type_names(node: Json) -> list[str]:
    """Every string under a `type` key of a schema (a property called `type` is a schema, so
    it is walked, not read)."""
    found: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, list):
            stack.extend(current)
        elif isinstance(current, dict):
            for key, value in current.items():
                if key == "type" and isinstance(value, str):
                    found.append(value)
                elif key == "type" and isinstance(value, list):
                    found += [v for v in value if isinstance(v, str)]
                elif key not in ("enum", "const", "default", "examples", "example"):
                    stack.append(value)
    return found
