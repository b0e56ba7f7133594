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
from toolcat.providers.tokens import DEFAULT_ENCODING
from toolcat.resolution.advice import TOOL_SEARCH_FROM, advise
from toolcat.resolution.builtins import builtin_catalog, decide_builtin
from toolcat.resolution.columns import CatalogColumns
from toolcat.resolution.decisions import (
    Brief,
    Cap,
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
from toolcat.resolution.order import by_preference, preference_indexes
from toolcat.resolution.order import describe as describe_order
from toolcat.resolution.order import notes as priority_notes
from toolcat.resolution.profile import (
    DEFAULT_PROFILE,
    SPECIAL_CATEGORIES,
    Profile,
    profile_warnings,
)
from toolcat.resolution.profile_decisions import (
    choose_cap,
    is_normal_mode,
    provider_search_decision,
)
from toolcat.search import SEMANTIC
from toolcat.search.choice import choose_scorer
from toolcat.search.cut import RATIO, fitting
from toolcat.search.pick import away_reason
from toolcat.search.ranking import ranking_model

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.device import Progress
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


@dataclass(frozen=True)
class _Order:
    """The candidates of a resolution in order of preference: their keys, their scores (a
    numpy column in that order), and what priority did to the order (`ties`, by key)."""

    keys: list[str]
    scored: np.ndarray
    scores: Mapping[str, float]
    by_key: Mapping[str, Tool]
    levels: bool
    ties: dict[str, str]

    def note(self, key: str) -> str | None:
        return f"priority {self.by_key[key].priority}" if self.levels else self.ties.get(key)

    def score_text(self, key: str, rank: int) -> str:
        """A shown (or capped) tool's reason: its rank and score, and what else it has."""
        text = f"rank {rank}, score {self.scores[key]:.3f}"
        if self.by_key[key].safety == "unknown":  # shown, and marked (docs/safety.md)
            text += "; safety not stated"
        noted = self.note(key)
        return text if noted is None else f"{text}; {noted}"


def _deferral(profile: Profile) -> tuple[str, str, str]:
    """Title, rule and reason when catalog tools wait for a search the model runs."""
    if profile.tool_search_mode.enabled:
        return ("tool search mode", "tool-search-mode-deferred",
                "catalog tools wait for search_tools and add_tool")
    return ("deferred", "auto-search-off",
            "mcp.auto_search is false" if not profile.mcp.auto_search
            else "tool_search is not enabled, so no automatic search ran")


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
                 tuning: Tuning | None = None, progress: Progress | None = None) -> None:
        """`tuning` (from `toolcat tune`) is applied when the scorer is `hybrid`;
        `progress(tools done, tools to encode)` hears how a semantic scorer's encoding of
        the catalog goes, when the first ranking builds it (a command's status line)."""
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
        self.choice = choose_scorer(profile.scorer or None, len(catalog.tools), tuning,
                                    given="the profile's scorer")
        self.scorer_name, self.scorer_reason = self.choice.name, self.choice.reason
        self.tuning = self.choice.tuning
        self._progress = progress
        if catalog.tools:  # the query encoder loads while the rest is worked out
            from toolcat.search.index import prefetch_encoder

            prefetch_encoder(self.choice.scorer, catalog, **dict(profile.scorer_options))
        self._scores: dict[str, tuple[dict[str, float], np.ndarray]] = {}
        self.pool: tuple[Tool, ...] = ()  # catalog tools after filters and levels
        # What depends on the catalog and the profile alone is worked out once, never per
        # query: each key, each name, token counts (the columns), the filters' verdicts.
        self.columns = CatalogColumns(
            catalog, self.builtins, encoding,
            phantom_tool(profile.gateway) if profile.gateway is not None else None)
        self._filtered: tuple[dict[str, _Fate], list[Tool], list[Decision], int] | None = None
        self._unsafe: np.ndarray | None = None  # the column places of the unsafe tools

    # ---- helpers ---------------------------------------------------------------------------

    @property
    def scorer(self) -> Any:
        if self._scorer is None:
            from toolcat.search.index import scorer_for

            options = dict(self.profile.scorer_options)
            if self._progress is not None and self.choice.scorer in SEMANTIC:
                options["progress"] = self._progress
            try:  # from the persisted index when the catalog was seen before
                self._scorer = scorer_for(self.choice.scorer, self.catalog, tuning=self.tuning,
                                          **options)
            except UsageError as exc:
                # an option the scorer does not take: the profile's scorer_options are wrong
                raise ConfigError(exc.message, where=self.profile.where("/scorer_options"),
                                  hint=exc.hint) from None
        return self._scorer

    @property
    def ranking_model(self) -> str | None:
        """The embedding model the scorer ranks with (as `bench` and `pick --explain` name
        it), or None for a scorer without one, or before the scorer has ranked a request."""
        return ranking_model(self._scorer)

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
                column = np.zeros(len(self.columns.keys))
            else:
                column = np.asarray(self.scorer.scores(query), dtype=np.float64)
            self._scores[query] = (dict(zip(self.columns.keys, column.tolist(), strict=True)),
                                   column)
        return self._scores[query]

    def away_reason(self, query: str) -> str | None:
        """Why an abstention turns `query` away, as `pick` says it (None: none does): the
        tuning's (toolcat.search.abstain), nearer to requests no tool fits than to any tool;
        without a tuning, the zero-shot one shipped with the embedding model the scorer
        ranks with (its part's reason: small talk, a kind of service no tool is about,
        words the catalog never mentions)."""
        if not query.strip() or not self.catalog.tools:
            return None
        scorer = self.scorer
        reason = away_reason(scorer, query)
        if reason is None:
            return None
        by = self.tuning.label if self.tuning is not None else \
            f"{ranking_model(scorer) or self.scorer_name}, zero-shot"
        return f"{reason} ({by})"

    def name(self, tool: Tool) -> str:
        """How the model knows `tool`: its name, or `server:tool` when the name is shared."""
        return self.columns.name(tool)

    def tokens(self, tool: Tool) -> int:
        return self.columns.tokens(tool)

    def is_builtin(self, tool: Tool) -> bool:
        return self.columns.is_builtin(tool)

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
        shown = sum(1 for t in visible if t.qualified_name in self.columns.index)
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
        away = self.away_reason(query) if auto and profile.mcp.auto_search and candidates \
            else None
        stages.append(self._present(candidates, cap, fates, scores, column, auto=auto,
                                    model_searches=shown_search, away=away))
        index, tools = self.columns.index, self.catalog.tools
        # the visible catalog tools, in catalog order (as `eligible` has them): found from
        # the fates rather than by asking each of 43,000 tools for its key
        shown = by_preference(
            [tools[i] for i in sorted(index[k] for k, f in fates.items()
                                      if f.status == "visible" and k in index)],
            scores, index, levels=profile.levels is not None)
        count = dict.fromkeys(("visible", "deferred", "excluded"), 0)
        for fate, many in Counter(map(fates.__getitem__, self.columns.keys)).items():
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
        columns = self.columns
        everything = (*self.builtins.tools, *self.catalog.tools, *extra)
        keys = (*(t.qualified_name for t in self.builtins.tools), *columns.keys,
                *(t.qualified_name for t in extra))
        by_key = columns.by_key if not extra else \
            {**columns.by_key, **{t.qualified_name: t for t in extra}}
        deferred_keys, places = self._deferred_order(fates, column, agent.request)
        deferred = tuple(map(by_key.__getitem__, deferred_keys))
        excluded = tuple(t for t, k in zip(everything, keys, strict=True)
                         if fates[k].status == "excluded")
        counted = columns.token_counts
        for key in set(deferred_keys).difference(counted):  # a gateway's tool: count it
            self.tokens(by_key[key])
        tokens = TokenCost(
            visible=sum(self.tokens(t) for t in visible),
            deferred=sum(map(counted.__getitem__, deferred_keys)),
            all=columns.catalog_tokens
            + sum(self.tokens(t) for t in visible if t.qualified_name not in columns.index),
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
            categories=columns.categories(places), prompt=profile.prompt,
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
        at = self.columns.index.get
        index = np.fromiter(map(at, rest, repeat(-1)), np.int64, len(rest))
        scored = np.where(index >= 0, column[index] if len(column) else 0.0, 0.0)
        asked_places = np.fromiter(map(at, asked, repeat(-1)), np.int64, len(asked))
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
        profile, servers, names = self.profile, self.columns.servers, self.columns.names
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
        for tool, key in zip(self.catalog.tools, self.columns.keys, strict=True):
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
                tool = self.catalog.tools[self.columns.index[key]]
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
                 model_searches: bool = True, away: str | None = None) -> Decision:
        """Deferral, the automatic search with its floor and the cap, or normal
        mode; tools in order of preference (relevance, priority). `away`: why an
        abstention (the tuning's, else the zero-shot one) turned the query away, so the
        automatic search shows nothing (None: none did).

        Only the tools shown get a fate of their own here: the rest (most of a big catalog)
        share one fate per rule, whose reasons are written when read."""
        import numpy as np

        profile = self.profile
        mode = profile.tool_search_mode.enabled
        order = self._preference(candidates, scores, column)
        via = "builtin:search_tools" if mode else "builtin:tool_search"
        if not mode and not profile.mcp.defer:
            title, why = "normal mode", "mcp.defer is false: catalog tools are shown directly"
            matched, rule = np.ones(len(order.keys), dtype=bool), "normal-mode"
        elif auto and profile.mcp.auto_search and candidates:
            title, rule = "automatic search", "auto-search-match"
            why, matched = self._auto_search(order, cap, fates, via,
                                             model_searches=model_searches, away=away,
                                             unsafe_best=self._unsafe_best(column))
        else:
            title, rule, why = _deferral(profile)
            matched = np.zeros(len(order.keys), dtype=bool)
            fates.update(dict.fromkeys(order.keys, _Fate("deferred", rule, why, via)))
        count = self._apply_cap(order, matched, cap.limit, rule, fates, via)
        return self._presented(title, why, count, order, fates)

    def _preference(self, candidates: list[Tool], scores: Mapping[str, float],
                    column: np.ndarray) -> _Order:
        """`candidates` in order of preference (relevance, priority)."""
        import numpy as np

        levels = self.profile.levels is not None
        columns = self.columns
        keys = [t.qualified_name for t in candidates]
        if len(keys) == len(columns.keys):  # every catalog tool, in catalog order
            places = np.arange(len(keys))
        else:
            places = np.fromiter(map(columns.index.__getitem__, keys), np.int64, len(keys))
        priority = columns.priority_ranks[places]
        at = preference_indexes(column[places], priority, places, levels=levels)
        order = at.tolist()
        ordered = list(map(candidates.__getitem__, order))
        scored = column[places[at]]
        # with levels, every tool's priority is said; else only where it broke a tie
        ties = {} if levels else priority_notes(ordered, scored, priority[at], self.name)
        return _Order(list(map(keys.__getitem__, order)), scored, scores, columns.by_key,
                      levels, ties)

    def _unsafe_best(self, column: np.ndarray) -> float:
        """The best score of the tools the filters left out as unsafe (0 for none): the
        automatic search's cut measures the eligible tools against it when it is the best."""
        import numpy as np

        if self._unsafe is None:
            settled = self._filtered[0] if self._filtered is not None else {}
            index = self.columns.index
            self._unsafe = np.fromiter(
                (index[key] for key, fate in settled.items() if fate.rule == "unsafe"),
                dtype=np.int64)
        return float(column[self._unsafe].max()) if len(self._unsafe) else 0.0

    def _auto_search(self, order: _Order, cap: Cap, fates: dict[str, _Fate], via: str, *,
                     model_searches: bool, away: str | None,
                     unsafe_best: float = 0.0) -> tuple[str, np.ndarray]:
        """The automatic search: the tools it matches (above the floor, within the fit), why,
        and the fates of those it leaves deferred. A tool left out as unsafe that fits better
        than every eligible one (`unsafe_best`) is the best the cut measures them against."""
        import numpy as np

        floor = self.profile.mcp.min_score
        limit = cap.limit
        why = (f"tool_search ran with the query before the first turn ({self.scorer_name} "
               f"scorer, score >= mcp.min_score {floor:g}); the cap is "
               f"{'none' if limit is None else limit}")
        if not model_searches:
            why += ("; tool_search itself is kept from the model, so the tools this "
                    "search does not show cannot be found later")
        no_match = _Fate("deferred", "auto-search-no-match",
                         "score 0: no evidence for the query", via)
        scored, keys, scores = order.scored, order.keys, order.scores
        if away is not None:
            why += f"; no tool fits: {away}: it shows none"
            no_match = _Fate("deferred", "auto-search-turned-away", f"no tool fits: {away}",
                             via)
            scored = np.zeros(len(keys))
        above = (scored > 0) & (scored >= floor)
        fates.update(dict.fromkeys(keys, no_match))
        under = f" is under mcp.min_score {floor:g}"
        below = _Fate("deferred", "below-min-score", "", via,
                      explain=lambda key: f"score {scores[key]:.3f}{under}")
        fates.update(dict.fromkeys(self._where(keys, (scored > 0) & ~above), below))
        matched = above.copy()
        unsafe_best = unsafe_best if unsafe_best >= floor else 0.0
        matched[above] = fitting(scored[above], best=unsafe_best)
        best = max(float(scored[above].max()) if above.any() else 0.0, unsafe_best)
        past = _Fate("deferred", "past-fit", "", via, explain=lambda key: (
            f"score {scores[key]:.3f}: its odds are under {RATIO:g} times the best "
            f"tool's ({best:.3f}), where the fit ends"))
        fates.update(dict.fromkeys(self._where(keys, above & ~matched), past))
        return why, matched

    def _apply_cap(self, order: _Order, matched: np.ndarray, limit: int | None, rule: str,
                   fates: dict[str, _Fate], via: str) -> int:
        """Show the `matched` tools up to the cap `limit`, in order; defer the rest as
        over the cap. Returns how many are shown."""
        import numpy as np

        keys = order.keys
        ranks = np.cumsum(matched)
        shown = matched if limit is None else matched & (ranks <= limit)
        for i in np.flatnonzero(shown).tolist():
            key = keys[i]
            fates[key] = _Fate("visible", rule, order.score_text(key, int(ranks[i])))
        over = self._where(keys, matched & ~shown)
        if over:
            rank_of = dict(zip(over, ranks[matched & ~shown].tolist(), strict=True))
            fates.update(dict.fromkeys(over, _Fate(
                "deferred", "over-cap", "", via,
                explain=lambda key: f"{order.score_text(key, rank_of[key])}; the cap is {limit}")))
        return int(np.count_nonzero(shown))

    def _presented(self, title: str, why: str, count: int, order: _Order,
                   fates: Mapping[str, _Fate]) -> Decision:
        """The trace node of the candidates: one leaf per tool in order, made when read,
        after a note on the order when it mattered."""
        keys = order.keys
        settled = list(map(fates.__getitem__, keys))  # as this stage left them
        names = self.columns.names

        def leaf(i: int) -> Decision:
            key, fate = keys[i], settled[i]
            explain = fate.explain
            return Decision(names[key], fate.status, fate.rule,
                            fate.reason if explain is None else explain(key))

        children: Lazy[Decision] = Lazy(len(keys), leaf)
        if count and (order.levels or order.ties):
            head = describe_order(order.levels)
            children = Lazy(len(keys) + 1, lambda i: leaf(i - 1) if i else head)
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
        result = run_gateway(gateway, request, self.columns.names, query, expanded=state.expanded,
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
        names = self.columns.names
        children = Lazy(len(cut), lambda i: Decision(
            names.get(cut[i], cut[i]), "excluded", settled[i].rule,
            settled[i].reason_of(cut[i])))
        return Decision("unreachable", f"{len(cut)} excluded", None,
                        "deferred tools that no search tool the model can use would show "
                        "(over-cap: the cap cut them; undiscoverable: nothing shows them)",
                        children)

    def _unreachable(self, fate: _Fate) -> _Fate:
        """The fate of the deferred tools of `fate` that no search tool can show."""
        searcher = self.columns.names.get(fate.via or "", "a search tool")
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
        key and name is) comes from the columns."""
        columns = self.columns
        names, index, counted = columns.names, columns.index, columns.token_counts
        builtin_keys = columns.builtin_keys
        first = len(self.builtins.tools)
        last = first + len(self.catalog.tools)
        shown, sizes = columns.shown_names, columns.sizes

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
                           counted[key] if key in counted else columns.tokens(tool))

        extra = tools[last:]

        def brief(i: int) -> Brief:
            key = keys[i]
            fate = fates[key]
            via = names.get(fate.via) if fate.via else None
            if first <= i < last:
                return Brief(shown[i - first], fate.status, fate.rule, via, sizes[i - first])
            return Brief(names.get(key, tools[i].name), fate.status, fate.rule, via,
                         counted[key] if key in counted else columns.tokens(tools[i]))

        return Verdicts(len(tools), made, lambda tool: columns.place(tool, extra),
                        lambda name: columns.by_name(name, extra), brief)


def resolve(query: str, catalog: Catalog, profile: Profile | None = None) -> Resolution:
    """What the model sees for `query` with `catalog` under `profile` (default: a large model
    with native tool calling), and why.

    Raises:
        ConfigError: the profile names tools or servers the catalog does not have.
    """
    return Resolver(catalog, profile or DEFAULT_PROFILE).resolve(query)
