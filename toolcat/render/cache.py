"""What a session's requests keep in the provider's prompt cache, step by step.

A provider caches the longest prefix a request shares with an earlier one; the tools array
comes first (Anthropic: tools, then system, then messages), so a request whose tools array
changes loses the cache from the first changed tool on. A session that finds tools can:

- `append`: keep the first request's tools array and system prompt, and load what it finds at
  the end of the conversation (Anthropic `tool_reference` blocks, OpenAI's tool search
  injecting the definitions at the end of the context): the whole prefix stays cached and only
  the loaded definitions are new;
- `allowed-tools`: keep every tool in the array and widen `tool_choice` (OpenAI): the prefix
  stays cached and nothing is appended;
- `rewrite`: send the tools now visible as a new tools array: what the array shares with the
  previous one stays cached, the rest is read again.

Each step is priced against `rewrite`, which is what a client that rebuilds the tools list
every turn pays. Counts are of the prefix only (tools, system prompt, the provider's tool-use
overhead); the conversation after a changed prefix is read again too, so the saving is a floor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from toolcat.model import Json, compact_json
from toolcat.providers.contract import Provider
from toolcat.providers.names import PrefixPolicy
from toolcat.providers.tokens import count_tokens
from toolcat.render.costs import Method, method_for
from toolcat.render.renderer import (
    Rendered,
    from_resolution,
    model_id,
    render,
    request_provider,
    upfront_items,
)
from toolcat.resolution import Resolution

Found = tuple[dict[str, Json] | None, dict[str, Json]]


@dataclass(frozen=True)
class CacheStep:
    """One request of a session: its prefix tokens, how many of them the provider reads from
    its cache, the definitions loaded at the end of the conversation (and the item that loads
    them when the client runs the search), and the same figures had the tools list been
    rewritten."""

    step: int  # 0: the first request
    prefix: int
    cached: int
    appended: int
    loaded: tuple[str, ...]
    wire: Json | None
    rewrite_prefix: int
    rewrite_cached: int

    @property
    def uncached(self) -> int:
        return self.prefix - self.cached + self.appended

    @property
    def rewrite_uncached(self) -> int:
        return self.rewrite_prefix - self.rewrite_cached

    @property
    def saved(self) -> int:
        return self.rewrite_uncached - self.uncached

    def to_json(self) -> dict[str, Json]:
        return {"step": self.step, "prefix": self.prefix, "cached": self.cached,
                "appended": self.appended, "uncached": self.uncached,
                "loaded": list(self.loaded), "wire": self.wire,
                "rewrite": {"prefix": self.rewrite_prefix, "cached": self.rewrite_cached,
                            "uncached": self.rewrite_uncached},
                "saved": self.saved}


@dataclass(frozen=True)
class CacheReport:
    provider: str
    strategy: str
    search: Json
    method: Method
    steps: tuple[CacheStep, ...]

    @property
    def saved(self) -> int:
        return sum(s.saved for s in self.steps)

    @property
    def uncached(self) -> int:
        return sum(s.uncached for s in self.steps)

    @property
    def rewrite_uncached(self) -> int:
        return sum(s.rewrite_uncached for s in self.steps)

    def to_json(self) -> dict[str, Json]:
        return {"provider": self.provider, "strategy": self.strategy, "search": self.search,
                "method": self.method.to_json(), "uncached": self.uncached,
                "rewrite_uncached": self.rewrite_uncached, "saved": self.saved,
                "steps": [s.to_json() for s in self.steps]}


@dataclass(frozen=True)
class _Prefix:
    items: tuple[str, ...]  # each tools-array item as the model sees it, compact JSON
    item_tokens: tuple[int, ...]
    system: str
    system_tokens: int
    overhead: int

    @property
    def total(self) -> int:
        return sum(self.item_tokens) + self.system_tokens + self.overhead


def session_cache(resolutions: Sequence[Resolution], documents: Mapping[str, Json],
                  provider: str, *, model: str | None = None, encoding: str | None = None,
                  prefix: PrefixPolicy = "collisions") -> CacheReport:
    """The cache figures of a session's requests to `provider`: `resolutions` are what the
    model sees before the first call and after each step.

    Raises:
        UsageError: an unknown provider or encoding, or a profile whose provider_search
            cannot be used with this provider.
    """
    target = request_provider(provider)
    first_resolution = resolutions[0]
    model = model or model_id(first_resolution.profile)
    method = method_for(provider, model, encoding)

    def rendered(resolution: Resolution, *, rewrite: bool = False) -> Rendered:
        inp = from_resolution(resolution, documents, model=model, prefix=prefix)
        if rewrite:
            inp = replace(inp, deferred=(), search=None)
        return render(inp, provider, encoding)

    first = rendered(first_resolution)
    use = first.search
    strategy = use.strategy if use is not None else "rewrite"
    chosen = _prefix(first, target, method)
    items = _items(first.payload)
    seen = {t.qualified_name for t in first_resolution.visible}
    steps: list[CacheStep] = []
    previous: _Prefix | None = None
    for number, resolution in enumerate(resolutions):
        again = _prefix(rendered(resolution, rewrite=True), target, method)
        rewrite_cached = _shared(previous, again)
        previous = again
        if strategy == "rewrite":
            steps.append(CacheStep(number, again.total, rewrite_cached, 0, (), None,
                                   again.total, rewrite_cached))
            continue
        new = [t for t in resolution.visible if t.qualified_name not in seen]
        seen.update(t.qualified_name for t in new)
        if strategy == "allowed-tools":  # already in the array: tool_choice allows them
            loaded, found = tuple(t.qualified_name for t in new), []
        else:  # the deferred tools of the first request that are visible now
            pairs = [(t.qualified_name, items[w]) for t in new
                     if (w := first.names.get(t.qualified_name, t.name)) in items]
            loaded, found = tuple(q for q, _ in pairs), [f for _, f in pairs]
        appended = sum(count_tokens(compact_json(_loaded(item)), method.encoding)
                       for _, item in found)
        wire = None
        if found and use is not None and use.client_runs and target.loaded is not None:
            wire = target.loaded(f"toolcat_step_{number}", found)
        # the system prompt as this request sends it: when it is not the first's (a section
        # that changed), the provider reads only the tools array from its cache
        sent = chosen if not number else _with_system(chosen, rendered(resolution),
                                                      method)
        cached = 0 if not number else chosen.total if sent.system == chosen.system else \
            chosen.total - chosen.system_tokens
        steps.append(CacheStep(number, sent.total, cached, appended, loaded, wire,
                               again.total, rewrite_cached))
    return CacheReport(provider, strategy, None if use is None else use.to_json(), method,
                       tuple(steps))


def _prefix(rendered: Rendered, target: Provider, method: Method) -> _Prefix:
    seen = [compact_json(item) for item in upfront_items(rendered.payload, target)]
    tokens = tuple(count_tokens(text, method.encoding) for text in seen)
    return _Prefix(tuple(seen), tokens, rendered.system_prompt,
                   count_tokens(rendered.system_prompt, method.encoding),
                   method.overhead if seen else 0)


def _with_system(prefix: _Prefix, rendered: Rendered, method: Method) -> _Prefix:
    """`prefix` (the tools array the session keeps) with `rendered`'s system prompt."""
    if rendered.system_prompt == prefix.system:
        return prefix
    return replace(prefix, system=rendered.system_prompt,
                   system_tokens=count_tokens(rendered.system_prompt, method.encoding))


def _shared(before: _Prefix | None, now: _Prefix) -> int:
    """The tokens of `now`'s prefix that `before` already had, in order: the leading tools
    both arrays have, then the system prompt when every tool was the same."""
    if before is None:
        return 0
    shared = now.overhead if before.overhead == now.overhead else 0
    same = 0
    for old, new in zip(before.items, now.items, strict=False):
        if old != new:
            break
        same += 1
    shared += sum(now.item_tokens[:same])
    if same == len(now.items) == len(before.items) and before.system == now.system:
        shared += now.system_tokens
    return shared


def _items(payload: Json) -> dict[str, Found]:
    """Each tool of a request's tools array by the name it is sent under, with the namespace
    item that holds it (None for a top-level tool)."""
    found: dict[str, Found] = {}
    for item in payload.get("tools", []) if isinstance(payload, dict) else []:
        if item.get("type") == "namespace":
            for inner in item.get("tools", []):
                found[inner["name"]] = (item, inner)
        elif isinstance(item.get("name"), str):
            found[item["name"]] = (None, item)
        elif isinstance(item.get("function"), dict):
            found[item["function"]["name"]] = (None, item)
    return found


def _loaded(item: dict[str, Json]) -> dict[str, Json]:
    """A deferred tool's definition as it is loaded: without its defer_loading mark."""
    return {k: v for k, v in item.items() if k != "defer_loading"}
