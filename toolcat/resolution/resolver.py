"""The resolver: replays, for one query, every decision of which tools the model sees.

The stages, in order (each tool's fate is decided by the first stage that settles it):

1. the model's size class and the cap of catalog tools in the prompt; normal mode
   has no cap by size;
2. catalog tools: server enabled, server and tool filters (the filtering table), then
   safety (allow_unsafe);
3. the three levels, when the profile has `levels`;
4. tools shown without a search: special categories and pre-discovered tools (tool search
   mode), core tools (levels), tools the model discovered earlier in a session;
5. built-ins (the inclusion tree, the always-available tools) and the format;
6. the rest of the catalog tools, in order of preference (relevance, priority):
   deferred, with the automatic search materializing those that reach the relevance
   floor (0.05) up to the cap; or shown directly in normal mode (`mcp.defer: false`);
7. the gateway, when the profile has one: it sees the request the agent built;
8. a deferred tool that no reachable search tool can reveal is excluded (keeping `over-cap`
   when the cap cut it);
9. the seeds' advice when 30 catalog tools or more are shown at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import compress, repeat
from typing import TYPE_CHECKING, Any

import toolcat.resolution.levels as level_rules
from toolcat.errors import ConfigError, UsageError
from toolcat.model import Catalog, Tool
from toolcat.providers.tokens import (
    DEFAULT_ENCODING,
    count_tokens,
    definition_text,
    definition_tokens,
)
from toolcat.resolution.advice import TOOL_SEARCH_FROM, advise
from toolcat.resolution.builtins import builtin_catalog, decide_builtin
from toolcat.resolution.decisions import (
    Brief,
    Cap,
    Category,
    Decision,
    FormatChoice,
    GatewayOutcome,
    Lazy,
    Resolution,
    Status,
    TokenCost,
    Verdict,
    Verdicts,
)
from toolcat.resolution.filters import eligibility
from toolcat.resolution.formats import choose_format
from toolcat.resolution.gateway import phantom_tool, run_gateway
from toolcat.resolution.order import by_preference, preference_indexes, priority_ranks
from toolcat.resolution.order import describe as describe_order
from toolcat.resolution.order import notes as priority_notes
from toolcat.resolution.profile import (
    DEFAULT_PROFILE,
    SPECIAL_CATEGORIES,
    Profile,
    ProviderSearch,
    profile_warnings,
)
from toolcat.search import TUNABLE, default_scorer, tuned_name
from toolcat.search.cut import RATIO, fitting

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.tuning import Tuning

SCORE_CACHE = 8  # queries whose scores are kept (a session alternates a few queries)


@dataclass(frozen=True)
class SessionState:
    """What a session has changed so far; all values are qualified tool names.

    `discovered`: tools the model added (add_tool) or loaded (tool_search); `expanded`: tools
    the gateway reinjected after a search; `recently_used`: tools the model called.
    """

    discovered: tuple[str, ...] = ()
    expanded: tuple[str, ...] = ()
    recently_used: tuple[str, ...] = ()


@dataclass(eq=False)
class _Fate:
    """Where a tool ends, by which rule and why. One fate may be shared by many tools (most
    of a big catalog ends the same way): `explain` then gives each tool's own reason, made
    only when a verdict or a trace node is read."""

    status: Status
    rule: str
    reason: str
    via: str | None = None  # key of the search tool that can reveal a deferred tool
    explain: Callable[[str], str] | None = None

    def reason_of(self, key: str) -> str:
        return self.reason if self.explain is None else self.explain(key)


@dataclass(frozen=True)
class _Agent:
    """What the agent decided before the gateway: its request is `request`."""

    cap: Cap
    format: FormatChoice
    request: tuple[Tool, ...]
    decisions: tuple[Decision, ...]


def provider_search_decision(search: ProviderSearch) -> Decision:
    """The trace node saying what the profile's provider_search makes of a provider request."""
    namespaces = ", grouped in one namespace per server" if search.namespaces else ""
    runs = "run by the client with toolcat's search" if search.openai == "client" \
        else "hosted"
    native = (f"the provider's own tool search: Anthropic's tool_search_tool_{search.anthropic}, "
              f"OpenAI Responses' tool_search ({runs}); deferred tools marked "
              f"defer_loading{namespaces}")
    keep = ("found tools are loaded by tool_reference (Anthropic) or allowed by tool_choice "
            "allowed_tools (OpenAI), so the tools array stays as it was"
            if search.discovery == "keep-cache"
            else "found tools are written into a new tools array on the next request")
    reasons = {
        "auto": "deferred tools go out with defer_loading where the provider has deferred "
                "loading, next to its own search when the request brings none",
        "native": native + "; render refuses a provider without one",
        "local": f"toolcat's own search tools, sent as ordinary tools; {keep}",
        "native-or-local": native + f"; elsewhere toolcat's own search tools ({keep})",
    }
    return Decision("provider search", search.mode, "provider-search", reasons[search.mode])


def is_normal_mode(profile: Profile) -> bool:
    """Normal mode: catalog tools shown directly (`mcp.defer: false`)."""
    return not profile.tool_search_mode.enabled and not profile.mcp.defer


def choose_cap(profile: Profile) -> tuple[Cap, Decision]:
    """The cap of catalog tools in the prompt, by model size or as the profile says.

    The cap bounds the tools the automatic search materializes; normal mode shows
    every tool. So the caps by size apply to deferred catalog tools, and normal mode is capped
    only by an explicit `mcp.max_in_prompt`.
    """
    model = profile.model
    size = model.size_class
    size_text = f"{model.size_b:g}B" if model.size_b is not None else "size not given"
    model_decision = Decision(
        "model", size, "model-size" if size != "unknown" else "model-size-unknown",
        f"{model.name}, {size_text}, "
        + ("native tool calling" if model.tool_calling else "no native tool calling"))
    limit = profile.mcp.max_in_prompt
    if limit == "all":
        cap = Cap(None, size, "cap-none", "mcp.max_in_prompt is all: no cap")
    elif isinstance(limit, int):
        cap = Cap(limit, size, "cap-profile", f"mcp.max_in_prompt is {limit}")
    elif is_normal_mode(profile):
        cap = Cap(None, size, "cap-normal-mode", "normal mode (mcp.defer: false) shows every "
                  "tool; the caps by size bound the automatic search; "
                  "mcp.max_in_prompt caps normal mode")
    else:
        n = getattr(profile.mcp.caps, size)
        why = (f"{size} model ({size_text})" if size != "unknown"
               else "the model size is not given; the default cap")
        cap = Cap(n, size, "cap-by-size" if size != "unknown" else "model-size-unknown",
                  f"{n} catalog tools for a {why}" if size != "unknown" else f"{n}: {why}")
    cap_decision = Decision("cap", "none" if cap.limit is None else str(cap.limit), cap.rule,
                            cap.reason)
    return cap, Decision("model", size, model_decision.rule, model_decision.reason,
                         (cap_decision,))


class Resolver:
    """Resolves queries for one catalog and one profile; the scorer's index is built once.

    `warnings` holds what the profile says that this catalog makes void (a tool or server it
    does not have, contradictory gateway sizes); each is also a `profile-warning` node of
    every trace.

    Raises (on construction):
        ConfigError: the profile's scorer options are not accepted by the scorer.
    """

    def __init__(self, catalog: Catalog, profile: Profile = DEFAULT_PROFILE, *,
                 builtins: Catalog | None = None, encoding: str = DEFAULT_ENCODING,
                 tuning: Tuning | None = None) -> None:
        """`tuning` (from `toolcat tune`) is applied when the scorer is `hybrid`."""
        self.catalog = catalog
        self.profile = profile
        self.builtins = builtins if builtins is not None else builtin_catalog()
        self.encoding = encoding
        names = [t.name for t in self.builtins.tools]
        if profile.gateway is not None:
            names.append(profile.gateway.search_tool_name)
        # names this catalog lacks, contradictory settings: warned about, then left out
        self.warnings = profile_warnings(profile, catalog, names)
        self._scorer: Any = None
        self.scorer_name, self.scorer_reason = (
            (profile.scorer, "the profile's scorer") if profile.scorer
            else default_scorer(len(catalog.tools)))
        self._tuned_base = self.scorer_name  # the scorer a tuning's evidence is added to
        if catalog.tools:  # the query encoder loads while the rest is worked out
            from toolcat.search.index import prefetch_encoder

            prefetch_encoder(self._tuned_base, catalog, **dict(profile.scorer_options))
        self.tuning = tuning if self.scorer_name in TUNABLE else None
        if self.tuning is not None:
            self.scorer_name = tuned_name(self.scorer_name)
            self.scorer_reason += f", tuned by {self.tuning.label}"
        self._scores: dict[str, tuple[dict[str, float], np.ndarray]] = {}
        self.pool: tuple[Tool, ...] = ()  # catalog tools after filters and levels
        self._tokens: dict[str, int] = {}
        self._catalog_tokens = 0  # of every catalog tool's definition, once counted
        # What depends on the catalog and the profile alone is worked out once, here and on
        # first use, never per query: each key, each name, the filters' verdicts.
        self._keys = tuple(t.qualified_name for t in catalog.tools)
        self._index = dict(zip(self._keys, range(len(self._keys)), strict=True))
        self._servers = {s.name: s for s in catalog.servers}
        self._names = {t.qualified_name: t.name for t in self.builtins.tools}
        self._names.update(zip(self._keys, map(catalog.ident, catalog.tools), strict=True))
        if profile.gateway is not None:
            phantom = phantom_tool(profile.gateway)
            self._names[phantom.qualified_name] = phantom.name
        self._builtin_keys = {t.qualified_name for t in self.builtins.tools}
        self._by_key = {t.qualified_name: t for t in self.builtins.tools}
        self._by_key.update(zip(self._keys, catalog.tools, strict=True))
        self._filtered: tuple[dict[str, _Fate], list[Tool], list[Decision], int] | None = None
        self._categories_known: tuple[list[str], np.ndarray] | None = None
        self._categories_made: dict[int, Category] = {}
        self._listed: tuple[list[str], list[int]] | None = None  # see _verdicts
        self._slots: dict[str, int] | None = None  # see _verdicts
        self._ids: dict[int, int] | None = None
        self._named: dict[str, int] | None = None
        self._ranks: np.ndarray | None = None

    # ---- helpers ---------------------------------------------------------------------------

    @property
    def scorer(self) -> Any:
        if self._scorer is None:
            from toolcat.search.index import scorer_for

            try:  # from the persisted index when the catalog was seen before
                self._scorer = scorer_for(self._tuned_base, self.catalog, tuning=self.tuning,
                                          **dict(self.profile.scorer_options))
            except UsageError as exc:
                # an option the scorer does not take: the profile's scorer_options are wrong
                raise ConfigError(exc.message, where=self.profile.where("/scorer_options"),
                                  hint=exc.hint) from None
        return self._scorer

    @property
    def ranking_model(self) -> str | None:
        """The embedding model the scorer ranks with (as `bench` and `pick --explain` name
        it), or None for a scorer without one, or before the scorer has ranked a request."""
        label = getattr(getattr(self._scorer, "embedder", None), "label", None)
        return label if isinstance(label, str) else None

    def scores(self, query: str) -> dict[str, float]:
        """The profile scorer's relevance of every catalog tool to `query`, by key (0 for
        every tool when the query is blank: nothing to rank, no scorer to build)."""
        return self._scored(query)[0]

    def _scored(self, query: str) -> tuple[dict[str, float], np.ndarray]:
        """`scores(query)`, and the same scores as a numpy column in catalog order."""
        import numpy as np

        if query not in self._scores:
            if len(self._scores) >= SCORE_CACHE:
                self._scores.pop(next(iter(self._scores)))
            if not query.strip() or not self.catalog.tools:
                column = np.zeros(len(self._keys))
            else:
                column = np.asarray(self.scorer.scores(query), dtype=np.float64)
            self._scores[query] = (dict(zip(self._keys, column.tolist(), strict=True)), column)
        return self._scores[query]

    def turned_away(self, query: str) -> bool:
        """Whether the tuning's abstention turns `query` away (toolcat.search.abstain): it is
        nearer to requests no tool fits than to any tool. False without a tuning."""
        if self.tuning is None or self.tuning.abstention is None or not query.strip() \
                or not self.catalog.tools:
            return False
        check = getattr(self.scorer, "turned_away", None)
        return bool(check(query)) if callable(check) else False

    def name(self, tool: Tool) -> str:
        """How the model knows `tool`: its name, or `server:tool` when the name is shared."""
        return self._names.get(tool.qualified_name, tool.name)

    def tokens(self, tool: Tool) -> int:
        key = tool.qualified_name
        counted = self._token_counts()
        if key not in counted:
            counted[key] = definition_tokens(tool, self.encoding)
        return counted[key]

    def _token_counts(self) -> dict[str, int]:
        """Token counts by key: every catalog tool's, read (or counted) once per catalog,
        and the built-ins' (read from the cache by their definitions' text: loading the
        tokenizer for them alone cost a resolution a tenth of a second)."""
        if not self._tokens and (self.catalog.tools or self.builtins.tools):
            from toolcat.search.index import catalog_numbers, text_numbers

            part = "tokens-" + "".join(c if c.isalnum() else "_" for c in self.encoding)
            texts = [definition_text(t) for t in self.builtins.tools]
            self._tokens.update(zip((t.qualified_name for t in self.builtins.tools),
                                    text_numbers(texts, part, lambda: [
                                        count_tokens(text, self.encoding) for text in texts]),
                                    strict=True))
            if self.catalog.tools:
                counts = catalog_numbers(self.catalog, part, lambda: [
                    definition_tokens(t, self.encoding) for t in self.catalog.tools])
                self._tokens.update(zip(self._keys, counts, strict=True))
                self._catalog_tokens = sum(counts)
        return self._tokens

    def is_builtin(self, tool: Tool) -> bool:
        return tool.qualified_name in self._builtin_keys and \
            tool.qualified_name not in self._index

    # ---- the resolution --------------------------------------------------------------------

    def resolve(self, query: str, state: SessionState | None = None) -> Resolution:
        """Everything the model is shown for `query`, with the trace of why."""
        state = state or SessionState()
        scores, column = self._scored(query)
        fates: dict[str, _Fate] = {}
        agent = self._agent(query, state, scores, column, fates)
        gateway_decision, outcome, visible, extra = self._gateway(
            query, agent.request, fates, state)
        reach = self._reachability(fates)
        late = [gateway_decision, *([reach] if reach else [])]
        shown = sum(1 for t in visible if t.qualified_name in self._index)
        if shown >= TOOL_SEARCH_FROM:
            late.append(Decision("advice", "tool search mode", "advice-tool-search",
                                 advise(shown).text.replace("tools:", "catalog tools shown at "
                                                            "once:", 1)))
        return self._result(query, scores, column, fates, agent, visible, extra, late, outcome)

    def _agent(self, query: str, state: SessionState, scores: Mapping[str, float],
               column: np.ndarray, fates: dict[str, _Fate]) -> _Agent:
        """Stages 1-7: what the agent puts in its request."""
        profile = self.profile
        cap, model_decision = choose_cap(profile)
        eligible, stages = self._catalog_stages(fates, state)
        candidates = [t for t in eligible if t.qualified_name not in fates]
        normal_mode = is_normal_mode(profile)
        over_cap = cap.limit is not None and len(candidates) > cap.limit
        has_deferred = bool(candidates) and (not normal_mode or over_cap)
        shown_builtins, builtin_decision = self._builtins(fates, has_deferred)
        choice, format_decision = choose_format(profile)
        # The automatic search is the agent's step before the first turn, not the model's:
        # it runs when tool_search is enabled, even when a filter keeps the tool itself from
        # the model (then only what it shows is reachable).
        shown_search = any(t.name == "tool_search" for t in shown_builtins)
        auto = shown_search or "tool_search" in profile.builtins
        away = auto and profile.mcp.auto_search and bool(candidates) \
            and self.turned_away(query)
        stages.append(self._present(candidates, cap, fates, scores, column, auto=auto,
                                    model_searches=shown_search, away=away))
        index, tools = self._index, self.catalog.tools
        # the visible catalog tools, in catalog order (as `eligible` has them): found from
        # the fates rather than by asking each of 43,000 tools for its key
        shown = by_preference(
            [tools[i] for i in sorted(index[k] for k, f in fates.items()
                                      if f.status == "visible" and k in index)],
            scores, index, levels=profile.levels is not None)
        count = dict.fromkeys(("visible", "deferred", "excluded"), 0)
        for fate, many in Counter(map(fates.__getitem__, self._keys)).items():
            count[fate.status] += many
        catalog_decision = Decision(
            "catalog tools", f"{len(self.catalog.tools)} tools", None,
            f"{len(shown)} shown by the agent: {count['visible']} visible, "
            f"{count['deferred']} deferred, {count['excluded']} excluded before the gateway",
            tuple(stages))
        scorer_decision = Decision("scorer", self.scorer_name, "scorer", self.scorer_reason)
        search_decision = provider_search_decision(profile.provider_search)
        return _Agent(cap, choice, (*shown_builtins, *shown),
                      (model_decision, format_decision, search_decision, scorer_decision,
                       builtin_decision, catalog_decision))

    def _result(self, query: str, scores: Mapping[str, float], column: np.ndarray,
                fates: dict[str, _Fate], agent: _Agent, visible: list[Tool],
                extra: tuple[Tool, ...], late: list[Decision], outcome: GatewayOutcome | None
                ) -> Resolution:
        """The Resolution: the lists in their orders, verdicts, tokens and the trace."""
        everything = (*self.builtins.tools, *self.catalog.tools, *extra)
        keys = (*(t.qualified_name for t in self.builtins.tools), *self._keys,
                *(t.qualified_name for t in extra))
        by_key = self._by_key if not extra else \
            {**self._by_key, **{t.qualified_name: t for t in extra}}
        deferred_keys, places = self._deferred_order(fates, column, agent.request)
        deferred = tuple(map(by_key.__getitem__, deferred_keys))
        excluded = tuple(t for t, k in zip(everything, keys, strict=True)
                         if fates[k].status == "excluded")
        counted = self._token_counts()
        for key in set(deferred_keys).difference(counted):  # a gateway's tool: count it
            self.tokens(by_key[key])
        tokens = TokenCost(
            visible=sum(self.tokens(t) for t in visible),
            deferred=sum(map(counted.__getitem__, deferred_keys)),
            all=self._catalog_tokens
            + sum(self.tokens(t) for t in visible if t.qualified_name not in self._index),
            encoding=self.encoding,
        )
        profile = self.profile
        token_decision = Decision(
            "tokens", f"{tokens.visible} of {tokens.all}", None,
            f"the visible definitions cost {tokens.visible:,} tokens ({self.encoding}); "
            f"showing every tool would cost {tokens.all:,}")
        warned = tuple(Decision(str(w.where) if w.where else "profile", "ignored",
                                "profile-warning", w.message) for w in self.warnings)
        trace = Decision(
            query, f"{len(visible)} visible, {len(deferred)} deferred, {len(excluded)} excluded",
            None, f"profile {profile.name}" + (f" ({profile.source})" if profile.source else ""),
            (*warned, *agent.decisions, *late, token_decision))
        return Resolution(
            query=query, profile=profile, visible=tuple(visible),
            builtins=tuple(t for t in visible if self.is_builtin(t)), deferred=deferred,
            excluded=excluded,
            verdicts=self._verdicts(everything, keys, fates, scores),
            format=agent.format, cap=agent.cap, tool_search_mode=profile.tool_search_mode.enabled,
            categories=self._categories(places), prompt=profile.prompt,
            tokens=tokens, gateway=outcome, scorer=self.scorer_name, trace=trace)

    def _deferred_order(self, fates: Mapping[str, _Fate], column: np.ndarray,
                        request: tuple[Tool, ...]) -> tuple[list[str], np.ndarray]:
        """The deferred tools' keys: those of the agent's request in its order, then the rest
        by descending relevance, then catalog order (built-ins and gateway tools first); and
        the catalog positions of the rest (-1 for a tool from elsewhere)."""
        import numpy as np

        position = {t.qualified_name: i for i, t in enumerate(request)}
        found = [k for k, f in fates.items() if f.status == "deferred"]
        asked = sorted((k for k in found if k in position), key=position.__getitem__)
        rest = [k for k in found if k not in position] if asked else found
        index = np.fromiter(map(self._index.get, rest, repeat(-1)), np.int64, len(rest))
        scored = np.where(index >= 0, column[index] if len(column) else 0.0, 0.0)
        asked_places = np.fromiter(map(self._index.get, asked, repeat(-1)), np.int64, len(asked))
        return (asked + list(map(rest.__getitem__, np.lexsort((index, -scored)).tolist())),
                np.concatenate((asked_places, index)))

    # ---- stages ----------------------------------------------------------------------------

    def _catalog_stages(self, fates: dict[str, _Fate], state: SessionState
                        ) -> tuple[list[Tool], list[Decision]]:
        """Filters, levels and pins; returns the eligible tools (pinned ones have a fate)."""
        profile = self.profile
        if self._filtered is None:  # the filters see the catalog and the profile alone
            self._filtered = self._filter()
        settled, found, decided, quiet = self._filtered
        fates.update(settled)
        eligible, filtered = list(found), list(decided)
        if quiet:
            filtered.insert(0, Decision(f"{quiet} tools", "eligible", "no-filter",
                                        "no servers or tools are selected"))
        unsafe = sum(1 for d in filtered if d.rule == "unsafe")
        stages = [Decision("filters", f"{len(eligible)} eligible", None,
                           f"{len(self.catalog.tools) - len(eligible) - unsafe} excluded by the "
                           f"server and tool filters, {unsafe} as unsafe", tuple(filtered))]
        if profile.levels is not None:
            eligible, decision = self._levels(eligible, fates)
            stages.append(decision)
        self.pool = tuple(eligible)
        stages.append(self._pins(eligible, fates, state))
        return eligible, stages

    def _filter(self) -> tuple[dict[str, _Fate], list[Tool], list[Decision], int]:
        """What the filters decide: the fates they settle, the eligible tools, the trace's
        nodes of the tools they name, and how many tools they let through unremarked."""
        profile, servers, names = self.profile, self._servers, self._names
        fates: dict[str, _Fate] = {}
        filtered: list[Decision] = []
        eligible: list[Tool] = []
        quiet = 0
        rules = profile.filters
        # No filter, no server setting, no disabled server: a safe tool outside the special
        # categories (which bypass the filters in tool search mode) is eligible and
        # unremarked (what `eligibility` says of it), so only the others are asked about.
        unfiltered = not (profile.servers or rules.servers.allow or rules.servers.deny
                          or rules.tools.allow or rules.tools.deny
                          or any(not s.enabled for s in servers.values()))
        special = SPECIAL_CATEGORIES if profile.tool_search_mode.enabled else ()
        for tool, key in zip(self.catalog.tools, self._keys, strict=True):
            if unfiltered and tool.safe and tool.category not in special:
                eligible.append(tool)
                quiet += 1
                continue
            ok, rule, reason = eligibility(tool, profile, servers)
            if not ok:
                fates[key] = _Fate("excluded", rule, reason)
                filtered.append(Decision(names[key], "excluded", rule, reason))
                continue
            eligible.append(tool)
            if rule == "special-category":
                fates[key] = _Fate("visible", rule, reason)
                filtered.append(Decision(names[key], "visible", rule, reason))
            elif rule == "no-filter" and tool.safe:
                quiet += 1
            else:
                filtered.append(Decision(names[key], "eligible", rule, reason))
        return fates, eligible, filtered, quiet

    def _levels(self, eligible: list[Tool], fates: dict[str, _Fate]
                ) -> tuple[list[Tool], Decision]:
        assert self.profile.levels is not None
        open_tools = [t for t in eligible if t.qualified_name not in fates]
        outcome, expansion = level_rules.select(open_tools, self.profile.levels)
        children = [expansion]
        kept = []
        for tool in eligible:
            key = tool.qualified_name
            if key not in outcome:
                kept.append(tool)
                continue
            what, rule, reason = outcome[key]
            if what == "excluded":
                fates[key] = _Fate("excluded", rule, reason)
            else:
                kept.append(tool)
                if what == "core":
                    fates[key] = _Fate("visible", rule, reason)
            children.append(Decision(self.name(tool), {"core": "visible", "matched": "selected",
                                                       "excluded": "excluded"}[what],
                                     rule, reason))
        levels = self.profile.levels
        return kept, Decision(
            "levels", f"{len(kept)} selected", None,
            f"core → capability tags → whitelist; complexity {levels.complexity}",
            tuple(children))

    def _pins(self, eligible: list[Tool], fates: dict[str, _Fate], state: SessionState
              ) -> Decision:
        profile = self.profile
        children = []
        pre = profile.tool_search_mode.pre_discovered if profile.tool_search_mode.enabled else ()
        eligible_keys = {t.qualified_name for t in eligible} if pre or state.discovered \
            else set()
        for pattern in pre:
            for tool in self.catalog.select([pattern]):
                key = tool.qualified_name
                if key not in eligible_keys:
                    children.append(Decision(self.name(tool), fates[key].status, fates[key].rule,
                                             "pre-discovered, but " + fates[key].reason))
                elif key not in fates:
                    fates[key] = _Fate("visible", "pre-discovered",
                                       f"tool_search_mode.pre_discovered lists {pattern}")
                    children.append(Decision(self.name(tool), "visible", "pre-discovered",
                                             fates[key].reason))
        for key in state.discovered:
            if key in eligible_keys and key not in fates:
                fates[key] = _Fate("visible", "discovered", "the model loaded it earlier in "
                                   "the session")
                tool = self.catalog.tools[self._index[key]]
                children.append(Decision(self.name(tool), "visible", "discovered",
                                         fates[key].reason))
        return Decision("shown without a search", f"{len(children)} tools", None,
                        "pre-discovered tools (tool search mode) and tools discovered in the "
                        "session", tuple(children))

    def _builtins(self, fates: dict[str, _Fate], has_deferred: bool
                  ) -> tuple[list[Tool], Decision]:
        shown, children = [], []
        for tool in self.builtins.tools:
            ok, rule, reason = decide_builtin(tool, self.profile, has_deferred=has_deferred)
            fates[tool.qualified_name] = _Fate("visible" if ok else "excluded", rule, reason)
            children.append(Decision(tool.name, "visible" if ok else "excluded", rule, reason))
            if ok:
                shown.append(tool)
        return shown, Decision("built-ins", f"{len(shown)} visible", None,
                               "each built-in shown or not by its rules; the always-available "
                               "tools in tool search mode", tuple(children))

    def _present(self, candidates: list[Tool], cap: Cap,
                 fates: dict[str, _Fate], scores: Mapping[str, float], column: np.ndarray,
                 *, auto: bool,
                 model_searches: bool = True, away: bool = False) -> Decision:
        """Deferral, the automatic search with its floor and the cap, or normal
        mode; tools in order of preference (relevance, priority). `away`: the tuning's
        abstention turned the query away, so the automatic search shows nothing.

        Only the tools shown get a fate of their own here: the rest (most of a big catalog)
        share one fate per rule, whose reasons are written when read."""
        import numpy as np

        profile = self.profile
        mode = profile.tool_search_mode.enabled
        levels = profile.levels is not None
        keys = [t.qualified_name for t in candidates]
        if len(keys) == len(self._keys):  # every catalog tool, in catalog order
            places = np.arange(len(keys))
        else:
            places = np.fromiter(map(self._index.__getitem__, keys), np.int64, len(keys))
        priority = self._priority_ranks()[places]
        at = preference_indexes(column[places], priority, places, levels=levels)
        order = at.tolist()
        ordered = list(map(candidates.__getitem__, order))
        ordered_keys = list(map(keys.__getitem__, order))
        scored = column[places[at]]
        # with levels, every tool's priority is said; else only where it broke a tie
        ties = {} if levels else priority_notes(ordered, scored, priority[at], self.name)

        def note(key: str) -> str | None:
            return f"priority {self._by_key[key].priority}" if levels else ties.get(key)
        limit = cap.limit
        via = "builtin:search_tools" if mode else "builtin:tool_search"

        def score_text(key: str, rank: int) -> str:
            text = f"rank {rank}, score {scores[key]:.3f}"
            if self._by_key[key].safety == "unknown":  # shown, and marked (docs/safety.md)
                text += "; safety not stated"
            noted = note(key)
            return text if noted is None else f"{text}; {noted}"

        if not mode and not profile.mcp.defer:
            title, why = "normal mode", "mcp.defer is false: catalog tools are shown directly"
            matched, rule = np.ones(len(order), dtype=bool), "normal-mode"
        elif auto and profile.mcp.auto_search and candidates:
            title = "automatic search"
            floor = profile.mcp.min_score
            why = (f"tool_search ran with the query before the first turn ({self.scorer_name} "
                   f"scorer, score >= mcp.min_score {floor:g}); the cap is "
                   f"{'none' if limit is None else limit}")
            if not model_searches:
                why += ("; tool_search itself is kept from the model, so the tools this "
                        "search does not show cannot be found later")
            no_match = _Fate("deferred", "auto-search-no-match",
                             "score 0: no evidence for the query", via)
            if away and self.tuning is not None:
                why += (f"; the request is nearer to requests no tool fits than to any tool "
                        f"({self.tuning.label}): it shows none")
                no_match = _Fate("deferred", "auto-search-turned-away",
                                 "the request is nearer to requests no tool fits than to any "
                                 "tool", via)
                scored = np.zeros(len(order))
            above, rule = (scored > 0) & (scored >= floor), "auto-search-match"
            fates.update(dict.fromkeys(ordered_keys, no_match))
            under = f" is under mcp.min_score {floor:g}"
            below = _Fate("deferred", "below-min-score", "", via,
                          explain=lambda key: f"score {scores[key]:.3f}{under}")
            fates.update(dict.fromkeys(self._where(ordered_keys, (scored > 0) & ~above),
                                       below))
            matched = above.copy()
            matched[above] = fitting(scored[above])
            best = float(scored[above].max()) if above.any() else 0.0
            past = _Fate("deferred", "past-fit", "", via, explain=lambda key: (
                f"score {scores[key]:.3f}: its odds are under {RATIO:g} times the best "
                f"tool's ({best:.3f}), where the fit ends"))
            fates.update(dict.fromkeys(self._where(ordered_keys, above & ~matched), past))
        else:
            if mode:
                title, rule = "tool search mode", "tool-search-mode-deferred"
                why = "catalog tools wait for search_tools and add_tool"
            else:
                title, rule = "deferred", "auto-search-off"
                why = ("mcp.auto_search is false" if not profile.mcp.auto_search
                       else "tool_search is not enabled, so no automatic search ran")
            matched = np.zeros(len(order), dtype=bool)
            fates.update(dict.fromkeys(ordered_keys, _Fate("deferred", rule, why, via)))
        ranks = np.cumsum(matched)
        shown = matched if limit is None else matched & (ranks <= limit)
        for i in np.flatnonzero(shown).tolist():
            key = ordered_keys[i]
            fates[key] = _Fate("visible", rule, score_text(key, int(ranks[i])))
        over = self._where(ordered_keys, matched & ~shown)
        if over:
            rank_of = dict(zip(over, ranks[matched & ~shown].tolist(), strict=True))
            fates.update(dict.fromkeys(over, _Fate(
                "deferred", "over-cap", "", via,
                explain=lambda key: f"{score_text(key, rank_of[key])}; the cap is {limit}")))
        settled = list(map(fates.__getitem__, ordered_keys))  # as this stage left them
        names = self._names

        def leaf(i: int) -> Decision:
            key, fate = ordered_keys[i], settled[i]
            explain = fate.explain
            return Decision(names[key], fate.status, fate.rule,
                            fate.reason if explain is None else explain(key))

        count = int(np.count_nonzero(shown))
        children: Lazy[Decision] = Lazy(len(order), leaf)
        if count and (levels or ties):
            head = describe_order(levels)
            children = Lazy(len(order) + 1, lambda i: leaf(i - 1) if i else head)
        return Decision(title, f"{count} shown", None, why, children)

    @staticmethod
    def _where(keys: list[str], mask: Any) -> list[str]:
        """The keys where the boolean numpy `mask` is true."""
        return list(compress(keys, mask.tolist()))

    def _gateway(self, query: str, request: tuple[Tool, ...], fates: dict[str, _Fate],
                 state: SessionState
                 ) -> tuple[Decision, GatewayOutcome | None, list[Tool], tuple[Tool, ...]]:
        """Stage 8: the gateway's strategy applied to the agent's request."""
        gateway = self.profile.gateway
        if gateway is None:
            return (Decision("gateway", "none", None, "the profile has no gateway"), None,
                    list(request), ())
        if not gateway.enabled:
            return (Decision("gateway", "disabled", "gateway-disabled",
                             "gateway.enabled is false: the request passes unchanged"), None,
                    list(request), ())
        result = run_gateway(gateway, request, self._names, query, expanded=state.expanded,
                             recently_used=state.recently_used)
        extra: tuple[Tool, ...] = ()
        if result.phantom is not None:
            fates[result.phantom.qualified_name] = _Fate("visible", "gateway-phantom",
                                                         "injected by the gateway")
            extra = (result.phantom,)
        # passthrough, or relevance that skipped filtering, decided nothing: keep the agent's
        # reasons for the tools it shows
        changed = result.phantom is not None or bool(result.dropped)
        for key, (status, rule, reason) in result.fates.items():
            if changed:
                via = result.phantom.qualified_name if result.phantom and status == "deferred" \
                    else None
                fates[key] = _Fate(status, rule, reason, via)
        return result.decision, result.outcome, list(result.visible), extra

    def _reachability(self, fates: dict[str, _Fate]) -> Decision | None:
        """Stage 9: exclude deferred tools whose search tool the model can never reach."""

        def reachable(key: str, seen: frozenset[str]) -> bool:
            fate = fates.get(key)
            if fate is None or key in seen:
                return False
            if fate.status == "visible":
                return True
            return fate.status == "deferred" and fate.via is not None and \
                reachable(fate.via, seen | {key})

        # Most deferred tools share a search tool: a chain that cannot pass through the tool
        # asking (it is no search tool) has one answer per search tool, until a search tool
        # itself is excluded below.
        vias = {f.via for f in fates.values() if f.via}
        known: dict[str, bool] = {}
        cut: list[str] = []
        derived: dict[_Fate, _Fate] = {}  # a fate many tools share stays shared
        for key, fate in fates.items():
            if fate.status != "deferred":
                continue
            via = fate.via
            if not via:
                found = False
            elif key in vias:
                found = reachable(via, frozenset({key}))
            elif via in known:
                found = known[via]
            else:
                found = known[via] = reachable(via, frozenset())
            if not found:
                if key in vias:
                    known.clear()
                if fate not in derived:
                    derived[fate] = self._unreachable(fate)
                fates[key] = derived[fate]
                cut.append(key)
        if not cut:
            return None
        settled = list(map(fates.__getitem__, cut))
        names = self._names
        children = Lazy(len(cut), lambda i: Decision(
            names.get(cut[i], cut[i]), "excluded", settled[i].rule,
            settled[i].reason_of(cut[i])))
        return Decision("unreachable", f"{len(cut)} excluded", None,
                        "deferred tools that no search tool the model can use would show "
                        "(over-cap: the cap cut them; undiscoverable: nothing shows them)",
                        children)

    def _unreachable(self, fate: _Fate) -> _Fate:
        """The fate of the deferred tools of `fate` that no search tool can show."""
        searcher = self._names.get(fate.via or "", "a search tool")
        tail = f"; and {searcher} is not available to the model"
        # a tool the cap cut keeps the cap as its rule: the cap is what hid it
        rule = "over-cap" if fate.rule == "over-cap" else "undiscoverable"
        if fate.explain is None:
            return _Fate("excluded", rule, fate.reason + tail)
        return _Fate("excluded", rule, "", explain=lambda key: fate.reason_of(key) + tail)

    def _verdicts(self, tools: tuple[Tool, ...], keys: tuple[str, ...],
                  fates: Mapping[str, _Fate], scores: Mapping[str, float]) -> Verdicts:
        """Each tool's verdict (built-ins, the catalog, then the gateway's `tools[last:]`),
        made when read; what is per tool and not per query (names, token counts, where each
        key and name is) is worked out once per resolver."""
        names, index, counted = self._names, self._index, self._token_counts()
        builtin_keys = self._builtin_keys
        first = len(self.builtins.tools)
        last = first + len(self.catalog.tools)
        if self._listed is None:
            self._listed = ([names.get(k, t.name) for t, k in zip(self.catalog.tools,
                                                                   self._keys, strict=True)],
                            [counted[k] for k in self._keys])
        shown, sizes = self._listed

        def made(i: int) -> Verdict:
            tool, key = tools[i], keys[i]
            fate = fates[key]
            via = names.get(fate.via) if fate.via else None
            if first <= i < last:  # a catalog key: never a built-in's verdict, always scored
                return Verdict(tool, shown[i - first], fate.status, fate.rule,
                               fate.reason_of(key), False, scores.get(key), via,
                               sizes[i - first])
            return Verdict(tool, names.get(key, tool.name), fate.status, fate.rule,
                           fate.reason_of(key), key in builtin_keys and key not in index,
                           scores.get(key) if key in index else None, via,
                           counted[key] if key in counted else self.tokens(tool))

        slots, ids = self._slots, self._ids
        if slots is None or ids is None:  # a key's last tool, as in a dict of the verdicts
            slots = self._slots = dict(zip(keys[:last], range(last), strict=True))
            ids = self._ids = dict(zip(map(id, tools[:last]), range(last), strict=True))
        extra = tools[last:]

        def place(tool: Tool) -> int | None:
            found = ids.get(id(tool))
            if found is not None:
                return found
            for j in range(len(extra) - 1, -1, -1):
                if extra[j] is tool or extra[j].qualified_name == tool.qualified_name:
                    return last + j
            return slots.get(tool.qualified_name)

        def by_name(name: str) -> int | None:
            if self._named is None:  # the first tool answering to each name
                self._named = {}
                for i, (tool, key) in enumerate(zip(tools[:last], keys[:last], strict=True)):
                    shown_as = shown[i - first] if i >= first else names.get(key, tool.name)
                    for alias in (shown_as, tool.name, key):
                        self._named.setdefault(alias, i)
            found = self._named.get(name)
            if found is None:
                found = next((last + j for j, tool in enumerate(tools[last:])
                              if name in (names.get(tool.qualified_name, tool.name),
                                          tool.name, tool.qualified_name)), None)
            return found

        def brief(i: int) -> Brief:
            key = keys[i]
            fate = fates[key]
            via = names.get(fate.via) if fate.via else None
            if first <= i < last:
                return Brief(shown[i - first], fate.status, fate.rule, via, sizes[i - first])
            return Brief(names.get(key, tools[i].name), fate.status, fate.rule, via,
                         counted[key] if key in counted else self.tokens(tools[i]))

        return Verdicts(len(tools), made, place, by_name, brief)

    def _categories(self, places: np.ndarray) -> tuple[Category, ...]:
        """The servers of the deferred tools at catalog positions `places` (-1: not a
        catalog tool), in the catalog's order of servers, with their descriptions."""
        import numpy as np

        if self._categories_known is None:  # the catalog's alone
            names = self.catalog.server_names()
            number = dict(zip(names, range(len(names)), strict=True))
            self._categories_known = (names, np.fromiter(
                map(number.get, (t.server for t in self.catalog.tools), repeat(-1)), np.int64,
                len(self.catalog.tools)))
        names, server_of = self._categories_known
        found = np.zeros(len(names) + 1, dtype=bool)  # the last one: tools of no server
        found[server_of[places[places >= 0]]] = True
        made, servers = self._categories_made, self._servers
        for i in np.flatnonzero(found[:-1]).tolist():
            if i not in made:
                made[i] = Category(names[i], servers[names[i]].description
                                   if names[i] in servers else "")
        return tuple(made[i] for i in np.flatnonzero(found[:-1]).tolist())

    def _priority_ranks(self) -> np.ndarray:
        """Each catalog tool's priority as its rank among the catalog's priorities."""
        if self._ranks is None:
            self._ranks = priority_ranks(self.catalog.tools)
        return self._ranks


def resolve(query: str, catalog: Catalog, profile: Profile | None = None) -> Resolution:
    """What the model sees for `query` with `catalog` under `profile` (default: a large model
    with native tool calling), and why.

    Raises:
        ConfigError: the profile names tools or servers the catalog does not have.
    """
    return Resolver(catalog, profile or DEFAULT_PROFILE).resolve(query)
