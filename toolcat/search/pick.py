"""`pick`: the few tools a model should see for a query, and why.

Selection only: nothing is called. Unsafe tools (`safe: false`, an MCP destructiveHint) are left
out unless allowed; tools whose safety is unknown are ranked like any other and marked (their
`safety` in the JSON). When the best fit of all is an unsafe one nothing is picked and the result
says so; the rest are ranked by a scorer, those under `min_score` dropped, and the best
`max_candidates` kept up to where the fit ends (toolcat.search.cut), each returned with a
reason and provenance (scorer, its details, and the file
position the tool was read from). When scoring does not finish within `timeout_ms`, the
first tools in registration order are returned instead, and the result says so. When no tool
scores high enough, the result is empty and says "no tool fits".
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from toolcat.errors import UsageError
from toolcat.model import Catalog, Tool
from toolcat.search import default_scorer, notice
from toolcat.search.choice import ScorerChoice, choose_scorer
from toolcat.search.cut import fit
from toolcat.search.function import ScorerFunction, as_scorer, query_text
from toolcat.search.index import scorer_for
from toolcat.search.ranking import Abstaining, Scored, Scorer, rank, ranking_model

if TYPE_CHECKING:
    from toolcat.search.tuning import Tuning

T = TypeVar("T")
MAX_CANDIDATES = 3
MIN_SCORE = 0.05


@dataclass(frozen=True)
class Pick:
    """One chosen tool: its score in 0..1, 1-based rank, reason, and provenance.

    `target` is what the caller passed in for this tool when it was a `@toolcat.tool` class or
    function (so a pick can be instantiated or called directly); None for a Tool.
    """

    tool: Tool
    score: float
    rank: int
    reason: str
    provenance: Mapping[str, Any] = field(default_factory=dict)
    target: Any = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.tool.name, "qualified_name": self.tool.qualified_name,
                "server": self.tool.server, "rank": self.rank, "score": round(self.score, 6),
                "safe": self.tool.safe, "safety": self.tool.safety,
                "safety_reason": self.tool.safety_reason, "reason": self.reason,
                "provenance": dict(self.provenance)}


@dataclass(frozen=True)
class PickResult:
    """The picks for a query, the policy that chose them, and what was left out."""

    query: str
    scorer: str
    picks: tuple[Pick, ...]
    message: str
    max_candidates: int = MAX_CANDIDATES
    min_score: float = MIN_SCORE
    allow_unsafe: bool = False
    excluded_unsafe: tuple[str, ...] = ()
    timed_out: bool = False
    considered: int = 0
    best_unsafe: Scored | None = None  # the best fit of all, left out as unsafe
    notice: str | None = None  # why the scorer answered by words only (its lexical stage)
    cut_off: bool = True  # whether the tools past where the fit ends were left out
    past_fit: tuple[str, ...] = ()  # the qualified names the cut left out
    # the unsafe tools left out that would have been picked with them allowed: over the
    # floor, within max_candidates and the cut, the request not turned away
    unsafe_fits: tuple[str, ...] = ()


    @property
    def fits(self) -> bool:
        """Whether any tool fits the query."""
        return bool(self.picks)

    @property
    def tools(self) -> tuple[Tool, ...]:
        return tuple(p.tool for p in self.picks)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "scorer": self.scorer,
            "fits": self.fits,
            "message": self.message,
            "timed_out": self.timed_out,
            "max_candidates": self.max_candidates,
            "min_score": self.min_score,
            "allow_unsafe": self.allow_unsafe,
            "considered": self.considered,
            "notice": self.notice,
            "cut_off": self.cut_off,
            "past_fit": list(self.past_fit),
            "excluded_unsafe": list(self.excluded_unsafe),
            "unsafe_fits": list(self.unsafe_fits),
            "best_unsafe": None if self.best_unsafe is None else {
                "name": self.best_unsafe.tool.name,
                "qualified_name": self.best_unsafe.tool.qualified_name,
                "score": round(self.best_unsafe.score, 6),
                "safety_reason": self.best_unsafe.tool.safety_reason,
                "cause": self.best_unsafe.tool.safety_cause},
            "picks": [p.to_json() for p in self.picks],
        }


def pick(
    query: Any,
    catalog: Catalog | Iterable[Any] | str | PathLike[str],
    *,
    max_candidates: int = MAX_CANDIDATES,
    min_score: float | None = None,
    allow_unsafe: bool = False,
    scorer: str | Scorer | ScorerFunction | None = None,
    timeout_ms: float | None = None,
    tuning: Tuning | None = None,
    cut_off: bool = True,
    **options: Any,
) -> PickResult:
    """Choose the tools of `catalog` that fit `query`.

    `query` is text, or an object stringified as JSON. `catalog` is a Catalog,
    Tools or `@toolcat.tool` classes and functions (each pick's `target` gives the one passed
    in), or a catalog path. `scorer` is a name from SCORERS, a Scorer already built over the
    same tools, a plain function `(query, tool) -> score` (a ScorerFn; see
    toolcat.search.function), or None for the most accurate scorer available
    (`default_scorer()`). `options` go to the scorer (`model=`, `device=` for the semantic ones).
    `timeout_ms` bounds building the index and scoring together. A `tuning` (from
    `toolcat tune`) is applied when the scorer is `hybrid` or `cascade`; other scorers ignore
    it. `min_score` defaults to the tuning's fitted threshold when it has one, else MIN_SCORE
    (0.05); unless `min_score` is given, an abstention also turns away a request nearer to
    requests no tool fits than to any tool: the tuning's, else the zero-shot one shipped
    with the embedding model (toolcat.search.abstain). With `cut_off` (the default), the
    tools ranked after the point where the fit ends are left out too (toolcat.search.cut),
    so `max_candidates` is a most, not a count.

    Raises:
        UsageError: a bad option value or scorer name.
        CatalogError: `catalog` is a path that cannot be loaded.
        MissingExtraError: the scorer needs the `semantic` extra.
    """
    _check_bounds(max_candidates, min_score, timeout_ms)
    query = query_text(query)
    source, given = _source(catalog)
    tools = source.tools if isinstance(source, Catalog) else source
    prebuilt, choice = _chosen(scorer, tools, tuning, options)
    # a tuning's abstention, else the model's zero-shot one (toolcat.search.abstain); with
    # --min-score given, the caller's threshold alone
    abstains = min_score is None
    if min_score is None:
        min_score = choice.floor(MIN_SCORE)

    def ranked() -> _Ranking:
        built = prebuilt or scorer_for(choice.scorer, source, tuning=choice.tuning,
                                       **options)
        return _ranking(built, query, max_candidates=max_candidates, min_score=min_score,
                        allow_unsafe=allow_unsafe, cut_off=cut_off, abstains=abstains)

    done = _within(ranked, timeout_ms)
    name = choice.name
    if done is None:
        assert timeout_ms is not None  # only a bounded scoring can time out
        return _timed_out(query, tools, name, timeout_ms, max_candidates=max_candidates,
                          min_score=min_score, allow_unsafe=allow_unsafe, given=given,
                          cut_off=cut_off)
    built, found, past = done.built, done.found, done.past
    excluded = () if allow_unsafe else _unsafe(built)
    policy = _policy(max_candidates, min_score, allow_unsafe, excluded, len(tools))
    picks = tuple(Pick(s.tool, s.score, s.rank, s.reason, _provenance(s.tool, name, s.details),
                       given.get(id(s.tool)))
                  for s in found)
    stage = notice(built)
    best = done.best_unsafe
    if best is not None and not picks:
        # the safe tools left do something else than asked: offering them is worse than none
        return PickResult(query, name, (), f"no safe tool fits: {_unsafe_best(best)}",
                          best_unsafe=best, notice=stage, cut_off=cut_off,
                          unsafe_fits=done.unsafe_fits, **policy)
    if picks:
        message = f"picked {len(picks)} of {policy['considered']} tools with {name}"
        # the count a user saw elsewhere (lint, list) includes the unsafe tools
        aside = [f"{len(excluded)} unsafe left out"] if excluded else []
        if past:
            aside.append(f"{len(past)} more over the floor fit far worse: left out by the cut")
        if aside:
            message += f" ({'; '.join(aside)})"
        if best is not None:
            message += f"; {_unsafe_best(best)}"
    else:
        message = _none_fits(choice, built, away=done.away, min_score=min_score)
    return PickResult(query, name, picks, message, notice=stage, cut_off=cut_off,
                      past_fit=past, best_unsafe=best, unsafe_fits=done.unsafe_fits,
                      **policy)


def _unsafe_best(best: Scored) -> str:
    """The best fit of all, left out as unsafe: which, why, and how to allow it."""
    return (f"the best fit, {best.tool.qualified_name} ({best.score:.2f}), is "
            f"{best.tool.safety_cause} and was left out; allow unsafe tools (--allow-unsafe, "
            "allow_unsafe=True) to pick it")


@dataclass(frozen=True)
class _Ranking:
    """One scoring of a pick: the scorer it was built as, the tools kept, the tools over the
    floor and within max_candidates that the cut left out, why an abstention turned the
    request away (None: it did not), the best fit of the whole catalog when it is unsafe,
    and the unsafe tools that would have been picked had they been allowed."""

    built: Scorer
    found: tuple[Scored, ...]
    past: tuple[str, ...] = ()
    away: str | None = None
    best_unsafe: Scored | None = None
    unsafe_fits: tuple[str, ...] = ()


def _ranking(built: Scorer, query: str, *, max_candidates: int, min_score: float,
             allow_unsafe: bool, cut_off: bool, abstains: bool) -> _Ranking:
    """The tools `built` ranks for `query` under the pick's policy (see `pick`)."""
    found = rank(built, query, limit=max_candidates, min_score=min_score,
                 where=None if allow_unsafe else _not_unsafe)
    best_unsafe = None
    unsafe_fits: tuple[str, ...] = ()
    if not allow_unsafe and _unsafe(built):
        # the scorers keep the last query's scores, so this ranks no tool again
        every = rank(built, query, limit=max_candidates, min_score=min_score, explain=False)
        fitting = every[:fit(s.score for s in every)] if cut_off else every
        unsafe_fits = tuple(s.tool.qualified_name for s in fitting if s.tool.unsafe)
        if every and every[0].tool.unsafe:
            best_unsafe = every[0]
            # a safe tool that fits far worse than the unsafe best does something else than
            # asked: the cut measures it against the best of all tools
            found = found[:fit((s.score for s in found), best=best_unsafe.score)] \
                if cut_off else []
    past: tuple[str, ...] = ()
    if cut_off:
        kept = fit(s.score for s in found)
        past = tuple(s.tool.qualified_name for s in found[kept:])
        found = found[:kept]
    # a request no tool reaches the floor for is asked too: the abstention says why (the
    # service it asks for, small talk), which the floor alone cannot
    away = away_reason(built, query) if abstains and (found or best_unsafe is None) else None
    if away is not None:
        return _Ranking(built, (), past, away=away)
    return _Ranking(built, tuple(found), past, best_unsafe=best_unsafe,
                    unsafe_fits=unsafe_fits)


def _check_bounds(max_candidates: int, min_score: float | None,
                  timeout_ms: float | None) -> None:
    """Raises UsageError for a count, floor or time out of its range."""
    if max_candidates < 1:
        raise UsageError("max_candidates must be at least 1")
    if min_score is not None and not 0 <= min_score <= 1:
        raise UsageError("min_score must be between 0 and 1")
    if timeout_ms is not None and timeout_ms <= 0:
        raise UsageError("timeout_ms must be more than 0")


def away_reason(built: Scorer, query: str) -> str | None:
    """Why an abstention turns `query` away (None: none does): hybrid's zero-shot one says
    which of its parts did (toolcat.search.abstain), a tuning's is nearness to small talk."""
    from toolcat.search.hybrid import HybridScorer

    if isinstance(built, HybridScorer):
        return built.away_reasons([query], cached=False)[0]
    if isinstance(built, Abstaining) and built.turned_away(query):
        return "the request is nearer to requests no tool fits (small talk) than to any tool"
    return None


def _none_fits(choice: ScorerChoice, built: Scorer, *, away: str | None,
               min_score: float) -> str:
    """Why pick picked nothing: the request was turned away (by the tuning's abstention,
    else the zero-shot one of the model that ranked), or nothing reached the floor."""
    if away is None:
        return f"no tool fits: none scored at least {min_score:g} with {choice.name}"
    by = choice.tuning.label if choice.tuning is not None else \
        f"{ranking_model(built) or choice.name}, zero-shot"
    return f"no tool fits: {away} ({by})"


def _chosen(scorer: str | Scorer | ScorerFunction | None, tools: Sequence[Tool],
            tuning: Tuning | None, options: Mapping[str, Any]
            ) -> tuple[Scorer | None, ScorerChoice]:
    """The scorer pick was given already built (None: pick builds it by name), and the
    choice of scorer, tuning and floor.

    Raises:
        UsageError: options for a scorer already built, or one built over other tools.
    """
    prebuilt = None if scorer is None or isinstance(scorer, str) else as_scorer(scorer, tools)
    if prebuilt is None:
        name = scorer if isinstance(scorer, str) else default_scorer(len(tools))[0]
        return None, choose_scorer(name, len(tools), tuning)
    if options:
        raise UsageError("scorer options apply only when pick builds the scorer by name")
    if not _same_tools(prebuilt, tools):
        raise UsageError("the scorer was built over other tools than the catalog's")
    return prebuilt, choose_scorer(prebuilt.name, len(tools))


def _timed_out(query: str, tools: Sequence[Tool], name: str, timeout_ms: float, *,
               max_candidates: int, min_score: float, allow_unsafe: bool,
               given: Mapping[int, Any], cut_off: bool) -> PickResult:
    """What pick answers when scoring did not finish in time: the first tools, in
    registration order."""
    excluded = () if allow_unsafe else tuple(t.qualified_name for t in tools if t.unsafe)
    policy = _policy(max_candidates, min_score, allow_unsafe, excluded, len(tools))
    first = [t for t in tools if allow_unsafe or not t.unsafe][:max_candidates]
    reason = f"scoring did not finish in {timeout_ms:g} ms; first tools in registration order"
    picks = tuple(Pick(t, 0.0, i, reason, _provenance(t, name, {"fallback": "timeout"}),
                       given.get(id(t)))
                  for i, t in enumerate(first, 1))
    message = (f"scoring with {name} did not finish in {timeout_ms:g} ms; fell back to the "
               f"first {len(picks)} tools in registration order")
    return PickResult(query, name, picks, message, timed_out=True, cut_off=cut_off, **policy)


def _policy(max_candidates: int, min_score: float, allow_unsafe: bool,
            excluded: tuple[str, ...], size: int) -> dict[str, Any]:
    return {"max_candidates": max_candidates, "min_score": min_score,
            "allow_unsafe": allow_unsafe, "excluded_unsafe": excluded,
            "considered": size - len(excluded)}


# What depends on a scorer's tools alone, computed once per scorer, not once per query: the
# tools it was checked against (by identity) and its unsafe tools.
_checked: WeakKeyDictionary[Any, Sequence[Tool]] = WeakKeyDictionary()
_unsafe_names: WeakKeyDictionary[Any, tuple[str, ...]] = WeakKeyDictionary()


def _same_tools(scorer: Scorer, tools: Sequence[Tool]) -> bool:
    """Whether `scorer` was built over `tools` (equal tools in the same order)."""
    if scorer.tools is tools:
        return True
    with contextlib.suppress(TypeError):
        if _checked.get(scorer) is tools:
            return True
    same = len(scorer.tools) == len(tools) and all(
        a is b or a == b for a, b in zip(scorer.tools, tools, strict=True))
    if same:
        with contextlib.suppress(TypeError):  # a scorer that cannot be weakly referenced
            _checked[scorer] = tools  # kept, so that its id cannot be another's
    return same


def _unsafe(scorer: Scorer) -> tuple[str, ...]:
    """The qualified names of the unsafe tools of `scorer`, computed once per scorer."""
    with contextlib.suppress(TypeError):
        found = _unsafe_names.get(scorer)
        if found is not None:
            return found
    names = tuple(t.qualified_name for t in scorer.tools if t.unsafe)
    with contextlib.suppress(TypeError):
        _unsafe_names[scorer] = names
    return names


def _not_unsafe(tool: Tool) -> bool:
    return not tool.unsafe


def _source(catalog: Catalog | Iterable[Any] | str | PathLike[str]
            ) -> tuple[Catalog | tuple[Tool, ...], dict[int, Any]]:
    """The catalog (whose files key the persisted index), or the tools as given; and, by the
    id of each tool, the `@toolcat.tool` class or function it was given as."""
    if isinstance(catalog, Catalog):
        return catalog, {}
    if isinstance(catalog, (str, PathLike)):
        from toolcat.catalog.load import load_catalog

        return load_catalog(Path(catalog)), {}  # any PathLike, not only a Path
    from toolcat.define.tools import definition_of

    tools: list[Tool] = []
    given: dict[int, Any] = {}
    for item in catalog:
        tool = definition_of(item)
        tools.append(tool)
        if tool is not item:
            given[id(tool)] = item
    return tuple(tools), given


def _provenance(tool: Tool, scorer: str, details: Mapping[str, Any]) -> dict[str, Any]:
    return {"scorer": scorer, "details": dict(details),
            "origin": tool.origin.to_json() if tool.origin else None}


def _within(work: Callable[[], T], timeout_ms: float | None) -> T | None:
    """`work()`, or None when it does not finish within `timeout_ms`.

    The work runs on a daemon thread that is left to finish on its own when time runs out
    (Python cannot stop a thread); a timed-out pick never waits for it, nor does the
    interpreter at exit.
    """
    if timeout_ms is None:
        return work()
    value: list[T] = []
    error: list[BaseException] = []

    def run() -> None:
        try:
            value.append(work())
        except BaseException as exc:  # handed to the caller's thread below
            error.append(exc)

    thread = threading.Thread(target=run, name="toolcat-pick", daemon=True)
    thread.start()
    thread.join(timeout_ms / 1000)
    if thread.is_alive():
        return None
    if error:
        raise error[0]
    return value[0]
