"""Render: the system prompt, the provider request and their token cost, from plain inputs.

The inputs are what resolve decides (the tools to show, the built-ins, the deferred tools, the
format, the base prompt, tool search mode and its categories), so this module does not depend
on how they were decided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from toolcat.catalog.refs import base_uri_for, bundle
from toolcat.errors import UsageError
from toolcat.model import Json, Tool
from toolcat.providers import PROVIDERS
from toolcat.providers.base import Provider, RequestInput
from toolcat.render.costs import TokenCount, count_request, method_for
from toolcat.render.formats import get_format
from toolcat.render.prompt import Section, build_prompt

if TYPE_CHECKING:
    from toolcat.resolution import Profile, Resolution

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
        }


def from_resolution(resolution: Resolution, documents: Mapping[str, Json] | None = None, *,
                    format: str | None = None, model: str | None = None) -> RenderInput:
    """The render inputs of a resolution; `format` and `model` override the profile's."""
    categories = tuple(f"{c.name} ({c.description})" if c.description else c.name
                       for c in resolution.categories)
    return RenderInput(
        query=resolution.query,
        base_prompt=resolution.prompt,
        format=format or resolution.format.name,
        builtins=resolution.builtins,
        tools=resolution.catalog_tools,
        deferred=resolution.deferred,
        tool_search=resolution.tool_search_mode,
        categories=categories,
        model=model or model_id(resolution.profile),
        documents=documents or {},
    )


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
    if not isinstance(tool.parameters, dict) or tool.origin is None:
        return tool
    bundled = bundle(tool.parameters, base_uri_for(tool.origin.file), documents)
    return tool if bundled is tool.parameters else replace(tool, parameters=bundled)


def render(inp: RenderInput, provider: str | None = None,
           encoding: str | None = None) -> Rendered:
    """The system prompt for `inp` and, with a provider, the request payload for it.

    Raises:
        UsageError: an unknown format, provider or encoding.
    """
    fmt = get_format(inp.format)
    target = request_provider(provider) if provider else None
    docs = inp.documents
    builtins = tuple(self_contained(t, docs) for t in inp.builtins)
    tools = tuple(self_contained(t, docs) for t in inp.tools)
    deferred = tuple(self_contained(t, docs) for t in inp.deferred) \
        if fmt.name == "native" else ()
    prompt = build_prompt(fmt, base_prompt=inp.base_prompt, builtins=builtins, tools=tools,
                          tool_search=inp.tool_search, categories=inp.categories)
    notes = [*prompt.notes, *_shared_names([*builtins, *tools, *deferred])]
    payload = None
    if target is not None and target.request is not None:
        visible = (*builtins, *tools)
        request = RequestInput(
            system=prompt.text, query=inp.query, tools=prompt.payload_tools,
            deferred=deferred, model=inp.model,
            discovery=any(t.name in DISCOVERY_TOOLS for t in visible),
        )
        payload, request_notes = target.request(request)
        notes += request_notes
        items = [target.tool_for_request(t)[0] for t in prompt.payload_tools]
    else:
        items = [t.definition() for t in prompt.payload_tools]
    tokens = count_request(prompt.text, items, method_for(provider, inp.model, encoding))
    return Rendered(
        query=inp.query, format=fmt.name, provider=provider, model=inp.model,
        system_prompt=prompt.text,
        sections=prompt.sections, prompt_tools=prompt.prompt_tools,
        payload_tools=prompt.payload_tools, deferred=deferred, payload=payload,
        tokens=tokens, notes=tuple(dict.fromkeys(notes)),
    )


def _shared_names(tools: list[Tool]) -> list[str]:
    counts = Counter(t.name for t in tools)
    return [f"{name}: {n} tools of different servers share this name; a model cannot tell "
            "them apart" for name, n in counts.items() if n > 1]
