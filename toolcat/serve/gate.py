"""What a `toolcat serve` session shows its client, and what `search_tools`, `add_tool` and
`show_all_tools` answer: tool search mode over a catalog, decided by the resolver.

The profile is used as `toolcat resolve` uses it, in tool search mode: its filters, levels,
pre-discovered tools and special categories decide which catalog tools are visible from the
start and which can be found at all; the discovery built-ins are always shown. Built-ins the
server cannot run (code execution, SQL, context offloading) are not offered, and a gateway in
the profile is left out: serve is the tool search surface, not a gateway proxy.

Search (`search_tools`): the query as a case-insensitive regular expression first;
when it matches nothing (or is not a usable pattern), the profile's scorer, else the
catalog's default scorer (`toolcat.search.default_scorer`), ranks the tools above the
profile's relevance floor; when that finds nothing either, fuzzy search (the fallback)
catches typos. At most 5 tools. When the search itself fails (a scorer raises), the answer
fails open: the tools visible without a search, and a message saying what broke.

Safety (docs/safety.md): a tool marked unsafe (`safe: false`, an MCP destructiveHint) is
neither found nor added unless the profile (`allow_unsafe`, `approval: ask|allow`) or the
server's `--allow-unsafe` allows it (toolcat.serve.approval.unsafe_policy); with `approval:
ask` each call asks the user first (toolcat.serve.approval). A tool whose safety nobody stated
is found and added like any other, marked in search answers, and asked about before each
call. Tools left out that would have been among the 5 best of a search had they been
searchable are named in the answer (`left_out`), with the cause and the way to allow them (one
more ranking of the last query's scores: 1.2 ms a query at 4,076 tools with bm25). A tool
`withheld` (toolcat.serve.trust: a security finding, a change since the lock) is neither
found, added nor called, whatever the profile says.

Names: a client calls a catalog tool by the name it is shown, always within MCP's rule
(`^[A-Za-z0-9_.-]{1,128}$`, which clients that forward names to a provider rely on): its plain
name when that is unique, not a discovery built-in's and within the rule, else
`server__tool`, sanitized (toolcat.providers.names.qualified_wire). The older spelling
`server:tool` is still accepted on input. Qualified names are claimed first, so a tool whose
own name holds a colon (`time:get_current_time` on another server) can never take the name of
the real `time:get_current_time`.

Each client has its own gate (`fork`): the catalog, the resolver and the search indexes are
shared, what the client added is its own.
"""

from __future__ import annotations

import contextlib
import copy
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from toolcat.calls.check import CallChecker
from toolcat.model import Catalog, Tool, ToolCall
from toolcat.providers.mcp import PROVIDER as MCP
from toolcat.providers.names import qualified_wire
from toolcat.resolution.builtins import DISCOVERY
from toolcat.resolution.decisions import Resolution
from toolcat.resolution.profile import DEFAULT_PROFILE, Profile
from toolcat.resolution.resolver import Resolver
from toolcat.resolution.session import Session, add_tool_message
from toolcat.search import Scorer, notice, rank
from toolcat.search.choice import choose_scorer
from toolcat.search.cut import fit
from toolcat.search.find import FOUND, FOUND_FUZZY, LIMIT, NOT_FOUND, pattern_error, search_tools
from toolcat.search.fuzzy import FuzzyScorer
from toolcat.search.index import prefetch_encoder, scorer_for
from toolcat.search.pick import away_reason
from toolcat.search.ranking import Completing
from toolcat.search.regex import RegexScorer
from toolcat.serve.approval import unsafe_policy
from toolcat.serve.stages import QUIET
from toolcat.serve.texts import fuzzy_texts, regex_texts

if TYPE_CHECKING:
    from toolcat.search.tuning import Tuning

# makes what is told the encoding's progress while the semantic stage is made (None: nothing)
Loading = Callable[[], contextlib.AbstractContextManager[Callable[[int, int], None] | None]]


def _no_status() -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


T = TypeVar("T")
MCP_NAMES = MCP.limits.names  # ^[A-Za-z0-9_.-]{1,128}$, what a served name must match
_WITHIN_RULE = re.compile(MCP_NAMES.pattern).fullmatch  # asked for each tool of the catalog
# The visibility resolution never ranks (tool search mode defers every catalog tool), so it
# gets the cheapest scorer; the search scorer is built apart, in the background.
VISIBILITY_SCORER = "regex"
MAX_QUERY = 1_000  # characters of a search_tools query (fuzzy search is O(query x tools))
MAX_NAMES = 100  # tool names in one add_tool call
UNSAFE = ("start toolcat serve with --allow-unsafe or set allow_unsafe: true in the profile "
          "to add it, or approval: ask to be asked before each call")
# seconds the loading of the semantic stage and the fuzzy index waits for a first search,
# which then has the interpreter to itself (they took a quarter of a second from it at 43k)
FIRST_SEARCH = 0.5
STORED_WAIT = 10.0  # seconds a search waits for a semantic stage whose embeddings are stored
UNKNOWN_NOTE = ("Tools with \"safety\": \"unknown\" did not state whether they change or "
                "delete anything; the user is asked before each call.")
FAIL_OPEN = ("Tool search is unavailable ({problem}); these are the tools available without "
             "a search. Call them directly, or try search_tools again later.")


@dataclass(frozen=True)
class SearchAnswer:
    """What search_tools answers (`response`, the search_tools shape) and how it was found."""

    response: dict[str, Any]
    method: str  # regex | the scorer's name | fuzzy | fail-open | refused (oversized query)
    #              | invalid-pattern (not a usable regular expression)
    found: tuple[str, ...]
    error: str | None = None


@dataclass(frozen=True)
class AddAnswer:
    """What add_tool answers, and the names that became callable."""

    response: dict[str, Any]
    added: tuple[str, ...]


def serving_profile(profile: Profile, *, allow_unsafe: bool = False) -> Profile:
    """`profile` as serve uses it: tool search mode on, no gateway, unsafe tools allowed as
    serve's unsafe policy says, and the cheap visibility scorer (search builds the profile's
    own apart)."""
    mode = replace(profile.tool_search_mode, enabled=True)
    return replace(profile, tool_search_mode=mode, gateway=None, scorer=VISIBILITY_SCORER,
                   scorer_options={},
                   allow_unsafe=unsafe_policy(profile, allow_unsafe=allow_unsafe) != "refuse")


class Gate:
    """One session's view of the catalog: what is visible, what can be found and added.

    The search scorer's index is built on a background thread as soon as the gate exists
    (`warm`), so the first search does not pay for it unless it comes very early.

    Raises (on construction):
        ConfigError: the profile names a tool or server the catalog does not have.
    """

    mode = "add"  # search, add_tool, then call; toolcat.serve.proxy is call mode's
    stages = QUIET  # told each index built as serve starts (`toolcat serve -v`)

    def __init__(self, catalog: Catalog, profile: Profile = DEFAULT_PROFILE, *,
                 allow_unsafe: bool = False, tuning: Tuning | None = None,
                 withheld: Mapping[str, str] | None = None) -> None:
        self.catalog = catalog
        self.withheld = dict(withheld or {})  # qualified name -> why it is not served
        self._blank: Session | None = None  # a session with nothing added, for fork()
        # allow | ask | refuse: unsafe tools called freely, after asking the user, or never
        self.approval = unsafe_policy(profile, allow_unsafe=allow_unsafe)
        self.allow_unsafe = self.approval != "refuse"  # unsafe tools can be found and added
        # a tuning adds its usage evidence to the default scorer's searches (hybrid, cascade)
        self.choice = choose_scorer(profile.scorer or None, len(catalog.tools), tuning)
        self.scorer_name, self.tuning = self.choice.scorer, self.choice.tuning
        self._scorer_options = dict(profile.scorer_options)
        self.floor = profile.mcp.min_score
        self.resolver = Resolver(catalog, serving_profile(profile, allow_unsafe=allow_unsafe),
                                 tuning=self.tuning)
        self.session = Session(catalog, self.resolver.profile, "", resolver=self.resolver)
        self.checker = CallChecker(catalog)
        served = {t.qualified_name for t in self.resolution.builtins
                  if t.category == DISCOVERY}
        self._builtins = {t.name: t for t in self.resolver.builtins.tools
                          if t.qualified_name in served}
        self._pool()
        # the names a client may call tools by: built on first use (add_tool, or once the
        # semantic stage is ready), not at start (a quarter of a second each at 43,000 tools)
        self._maps = _Shared[_NameMaps]()  # shared by forks, as the indexes are
        self._scorers: dict[str, Scorer | BaseException] = {}
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._searched = threading.Event()  # set by the first search (of any client)
        # the catalog's embeddings are stored (`toolcat index`): the semantic stage is the
        # vectors read in place and the query encoder (loading from now on), a second or
        # two; a search waits that long for it rather than answer by words alone
        self._stored = prefetch_encoder(self.scorer_name, catalog, **self._scorer_options)
        self._semantic = threading.Event()  # set once the semantic stage is ready (or failed)
        self._warming = False  # `warm` readies the semantic stage (else nothing waits for it)
        # what shows the model loading and the catalog's encoding, around the semantic
        # stage's making (serve's status line on a terminal)
        self.loading: Loading = _no_status

    def _pool(self) -> None:
        """The tools search can find and add_tool add, from the profile, the unsafe policy
        and what is withheld."""
        self.pool = tuple(t for t in self.resolver.pool if self.allowed(t))
        # the pool as a flag per catalog tool: the search scorer ranks the whole catalog
        pooled = {id(t) for t in self.pool}
        tools = self.catalog.tools
        self._searchable = np.fromiter((id(t) in pooled for t in tools), dtype=bool,
                                       count=len(tools))
        # the tools a search cannot return, which it names when they fit (by identity)
        self._left_out = frozenset(id(tools[i]) for i in np.flatnonzero(~self._searchable))

    def screen(self, withheld: Mapping[str, str]) -> None:
        """Withhold these tools too (qualified name -> why; toolcat.serve.trust's verdict,
        known after the gate was made): neither found, added nor called. For serve's start:
        before any search, add_tool or `warm` (the indexes are built over the pool)."""
        self.withheld.update(withheld)
        self._pool()

    # ---- what the client sees --------------------------------------------------------------

    def fork(self) -> Gate:
        """A gate for another client: the same catalog, resolver and search indexes, and a
        session of its own (nothing added yet)."""
        if self._blank is None:  # resolved once; a copy of it is a session that is new
            self._blank = Session(self.catalog, self.resolver.profile, "",
                                  resolver=self.resolver)
        other = copy.copy(self)
        other.session = copy.copy(self._blank)
        other.session.steps = []
        return other

    def allowed(self, tool: Tool) -> bool:
        return (not tool.unsafe or self.allow_unsafe) and tool.qualified_name not in self.withheld

    @property
    def resolution(self) -> Resolution:
        """What the client sees now (the session's latest resolution)."""
        return self.session.resolution

    def visible(self) -> list[tuple[str, Tool]]:
        """(name shown, tool) of every tool the client can call now, in tools/list order:
        the discovery built-ins, then the visible catalog tools."""
        shown = [(name, tool) for name, tool in self._builtins.items()]
        shown += [(self.name(t), t) for t in self.resolution.catalog_tools if self.allowed(t)]
        return shown

    def name(self, tool: Tool) -> str:
        """The name a catalog tool is shown and called by: its own when that is unique, not
        a discovery built-in's and within MCP's rule, else `server__tool`
        (toolcat.providers.names.qualified_wire)."""
        name = self.resolver.name(tool)
        if name == tool.name and name not in self._builtins and _WITHIN_RULE(name):
            return name
        return qualified_wire(tool, MCP_NAMES, lambda wire: wire in self._builtins or any(
            other is not tool for other in self.catalog.find(wire)))

    def builtin(self, name: str) -> Tool | None:
        return self._builtins.get(name)

    def callable(self, name: str) -> Tool | None:
        """The visible catalog tool called `name` (its shown name or `server:tool`), or
        None."""
        visible = [t for _, t in self.visible()[len(self._builtins):]]
        return _names(visible, self.name).get(name)

    def unavailable(self, name: str) -> str:
        """Why `name` cannot be called now, for the client."""
        tool = self._pool_tool(name) or self._catalog_tool(name)
        if tool is None:
            return f"there is no tool called '{name}'; use search_tools to find tools"
        if tool.qualified_name in self.withheld:
            return f"'{name}' is not served: {self.withheld[tool.qualified_name]}"
        if not self.allowed(tool):
            return f"'{name}' is {tool.safety_cause}; {UNSAFE}"
        if self._pool_tool(tool.qualified_name) is not None:
            return f"'{name}' has not been added; call add_tool with tool_names ['{name}'] first"
        verdict = self.resolution.verdict(tool.qualified_name)
        return f"'{name}' is not available to this profile: {verdict.reason}"

    # ---- the discovery tools --------------------------------------------------------

    def warm(self) -> threading.Thread:
        """Build the search scorers' indexes on a background thread (regex, then the search
        scorer's lexical stage; fuzzy, the regex search's word index and the name maps once
        the first search is answered),
        then ready the semantic stage of the search scorer (load the model and the catalog's
        embeddings, computing them when they are not stored); until then it answers with
        its lexical stage. When the embeddings are stored, the semantic stage is readied
        right after the lexical one, and a search waits for it (up to STORED_WAIT seconds):
        a client that asks once per process (the MCP Inspector's CLI) gets ranked answers."""
        self._warming = True
        thread = threading.Thread(target=self._warm, name="toolcat-serve-index", daemon=True)
        thread.start()
        return thread

    def _warm(self) -> None:
        for name, what in (("regex", "the regex search"),
                           (self.scorer_name, f"the {self.scorer_name} scorer's index")):
            began = time.perf_counter()
            with contextlib.suppress(Exception):  # kept, and reported by the search
                self.scorer(name)
            self.stages.done(f"built {what}", began)
        if self._stored:  # ready before the first search, which waits for it (see _search)
            self._ready_semantic()
        # what a first search needs is ready: the rest waits for it to be answered (or for
        # FIRST_SEARCH seconds), not to share the interpreter with it
        self._searched.wait(FIRST_SEARCH)
        # then the fuzzy index and the name maps for add_tool (2-3 s at 43,000 tools), and only
        # then the semantic stage: what is made once is made before searches turn hybrid, not
        # beside the searches that follow (the interpreter runs one thread at a time)
        began = time.perf_counter()
        with contextlib.suppress(Exception):
            self.scorer("fuzzy")
        with contextlib.suppress(Exception):  # the regex search's word index (same answers)
            regex = self.scorer("regex")
            if isinstance(regex, RegexScorer):
                regex.index_words()
        self._names()
        self.stages.done("built the fuzzy index, the regex search's word index and the names "
                         "add_tool accepts", began)
        threading.Thread(target=self.complete, name="toolcat-serve-semantic",
                         daemon=True).start()

    def complete(self) -> None:
        """Ready the search scorer's semantic stage (see `warm`); a failure leaves the
        lexical stage answering, and says why in its notice."""
        began = time.perf_counter()
        self._ready_semantic()
        with contextlib.suppress(Exception):  # a scorer that failed is reported by searches
            scorer = self.scorer(self.scorer_name)
            stage = notice(scorer)
            if isinstance(scorer, Completing):
                self.stages.done(f"readied the {self.scorer_name} scorer's semantic stage"
                                 if stage is None else f"the {self.scorer_name} scorer "
                                 f"answers by words only: {stage}", began)
        # for add_tool, when `warm` has not made them yet (or `complete` runs alone)
        self._names()

    def _ready_semantic(self) -> None:
        # a scorer that failed to build is reported by the searches; a semantic stage that
        # failed, by the scorer's notice
        try:
            with contextlib.suppress(Exception):
                scorer = self.scorer(self.scorer_name)
                if isinstance(scorer, Completing) and notice(scorer) is not None:
                    with self.loading() as told:
                        scorer.complete(told)
        finally:
            self._semantic.set()  # a search waiting for it answers now, either way

    def scorer(self, name: str) -> Scorer:
        """The scorer called `name`: the search scorer over the whole catalog (from its
        persisted index, answering lexically until its semantic stage is ready; the pool is
        a mask), the others over the searchable pool. Built once; a failure to build is kept
        and raised again."""
        with self._lock:
            lock = self._locks.setdefault(name, threading.Lock())
        with lock:  # one build per scorer; the others stay usable meanwhile
            if name not in self._scorers:
                try:
                    if name == self.scorer_name:
                        self._scorers[name] = scorer_for(
                            name, self.catalog, tuning=self.tuning, embeddings="later",
                            **self._scorer_options)
                    elif name == "regex":  # its texts kept per catalog (serve.texts)
                        descriptions, parameters = regex_texts(self.catalog, self.pool)
                        self._scorers[name] = RegexScorer(self.pool, descriptions, parameters)
                    elif name == "fuzzy":  # the same
                        self._scorers[name] = FuzzyScorer(
                            self.pool, fuzzy_texts(self.catalog, self.pool))
                    else:
                        self._scorers[name] = scorer_for(name, self.pool)
                except Exception as exc:  # re-raised to each search below
                    self._scorers[name] = exc
            built = self._scorers[name]
        if isinstance(built, BaseException):
            raise built
        return built

    def search(self, query: str) -> SearchAnswer:
        """search_tools: regex, then the default scorer, then fuzzy; fails open."""
        try:
            return self._answer(query)
        finally:
            self._searched.set()

    def _answer(self, query: str) -> SearchAnswer:
        if len(query) > MAX_QUERY:
            error = f"the query has {len(query):,} characters; at most {MAX_QUERY:,}"
            return SearchAnswer({"error": error}, "refused", (), error)
        problem = pattern_error(query)
        if problem is not None:  # the invalid-pattern error, as `toolcat search` gives it
            error = f"{problem} (escape the special characters, e.g. \\( or \\+, or search " \
                "with plain words)"
            return SearchAnswer({"error": error}, "invalid-pattern", (), error)
        try:
            method, found, stage, away = self._search(query)
        except Exception as exc:  # fail-open: any scorer failure
            problem = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
            tools = [{"name": name, "description": t.description}
                     for name, t in self.visible()]
            response = {"found": len(tools), "tools": tools,
                        "message": FAIL_OPEN.format(problem=_short(problem)),
                        "error": _short(problem)}
            return SearchAnswer(response, "fail-open", tuple(t["name"] for t in tools),
                                _short(problem))
        tools = [self._entry(t) for t in found]
        message = NOT_FOUND if not found else FOUND_FUZZY if method == "fuzzy" else FOUND
        if away is not None:  # the abstention's reason, as pick gives it
            message = f"{NOT_FOUND}: no tool fits: {away}."
        if any("safety" in entry for entry in tools) and self.approval != "allow":
            message += " " + UNKNOWN_NOTE
        answer: dict[str, Any] = {"found": len(tools), "tools": tools, "message": message}
        left = self._fitting_left_out(query) if method != "regex" else []
        if left:
            answer["left_out"] = left
            answer["message"] = message.rstrip(".") + ". Left out: " + "; ".join(
                f"{entry['name']} ({entry['reason']})" for entry in left) + "."
        if self.tuning is not None and method.startswith(self.choice.name):
            answer["tuning"] = self.tuning.label  # the client sees what ranked its tools
        if stage is not None:
            answer["note"] = f"Ranked by words only: {stage}."
        return SearchAnswer(answer, method, tuple(t["name"] for t in tools))

    def _entry(self, tool: Tool) -> dict[str, Any]:
        """A found tool as the answer shows it: its name and description, and its safety
        when it is not safe (unknown, or unsafe and allowed)."""
        entry: dict[str, Any] = {"name": self.name(tool), "description": tool.description}
        if not tool.safe:
            entry["safety"] = tool.safety
        return entry

    def _fitting_left_out(self, query: str) -> list[dict[str, str]]:
        """The tools left out of search (unsafe, withheld, filtered by the profile) that
        would have been among the LIMIT best for `query` had they been searchable, each with
        why and how to allow it (the search scorer ranks the whole catalog once more, with
        the last query's scores)."""
        if not self._left_out:
            return []
        try:
            ranked = rank(self.scorer(self.scorer_name), query, limit=LIMIT,
                          min_score=self.floor)
        except Exception:  # the search itself answered; naming left-outs is extra
            return []
        return [{"name": self.name(s.tool), "reason": self.left_out_reason(s.tool)}
                for s in ranked if s.score > 0 and id(s.tool) in self._left_out]

    def left_out_reason(self, tool: Tool) -> str:
        """Why a catalog tool cannot be found, and how to allow it."""
        if tool.qualified_name in self.withheld:
            return "not served: " + self.withheld[tool.qualified_name]
        if not self.allowed(tool):
            return f"{tool.safety_cause}; {UNSAFE}"
        reason = self.resolution.verdict(tool.qualified_name).reason
        return f"not available to this profile: {reason}"

    def _search(self, query: str) -> tuple[str, list[Tool], str | None, str | None]:
        """The method, the tools found, why the scorer answered by words only (or None), and
        why an abstention turned the query away (or None)."""
        if not self.pool:
            return "none", [], None, None
        regex = search_tools(query, self.pool, scorer=self.scorer("regex"), limit=LIMIT)
        if regex.results:
            return "regex", [s.tool for s in regex.results], None, None
        scorer = self.scorer(self.scorer_name)
        if self._stored and self._warming and notice(scorer) is not None:
            self._semantic.wait(STORED_WAIT)
        stage = notice(scorer)  # read before ranking: the semantic stage may arrive meanwhile
        ranked = rank(scorer, query, limit=LIMIT, min_score=self.floor,
                      where=self._searchable)
        away = away_reason(scorer, query) if ranked else None
        if away is not None:
            # an abstention (the tuning's, or the model's zero-shot one, as pick's): no fuzzy
            # fallback either, which would show tools for it after all
            return f"{scorer.name} (turned away)", [], stage, away
        best = self._unsafe_best(scorer, query)
        found = [s.tool for s in ranked[:fit((s.score for s in ranked), best=best)]
                 if s.score > 0]
        if found or best is not None:  # `hybrid+tuning` when tuned; `(lexical stage)` before
            # embeddings; none when the best fit is unsafe and the rest fit far worse
            return (scorer.name if stage is None else f"{scorer.name} (lexical stage)",
                    found, stage, None)
        fuzzy = search_tools(query, self.pool, scorer=self.scorer("fuzzy"), limit=LIMIT)
        # still words only: the client is told, so it can ask again once the stage is ready
        return "fuzzy", [s.tool for s in fuzzy.results if s.score > 0], stage, None

    def _unsafe_best(self, scorer: Scorer, query: str) -> float | None:
        """The score of the best fit of the whole catalog when it is an unsafe tool this
        server does not allow (the cut then measures the searchable tools against it), else
        None. The scorer keeps the last query's scores: this ranks no second time, and not
        at all when no tool is left out of search (most catalogs)."""
        if self.allow_unsafe or not self._left_out:
            return None
        best = rank(scorer, query, limit=1, min_score=self.floor, explain=False)
        return best[0].score if best and best[0].tool.unsafe else None

    def add(self, names: Sequence[str]) -> AddAnswer:
        """add_tool: make the named tools callable; says which were added, which were
        already available, which are unknown, and which were refused and why.

        The session's own add_tool (toolcat.resolution.session, as `resolve --steps` replays
        it) adds what this gate lets through; unsafe tools and tools the profile leaves out
        are refused here first, with the reason."""
        passed: list[str] = []
        refused: list[dict[str, str]] = []
        if len(names) > MAX_NAMES:
            message = f"{len(names):,} tool names in one call; at most {MAX_NAMES}"
            return AddAnswer({"added": [], "already_available": [], "not_found": [],
                              "refused": [], "message": message, "error": message}, ())
        missing: list[str] = []
        for name in dict.fromkeys(names):
            found = self._pool_tool(name)
            other = None if found else self._catalog_tool(name)
            if found is not None:
                # the session is given the tool's identity, never the client's spelling
                passed.append(found.qualified_name)
            elif other is None:
                missing.append(name)
            elif other.qualified_name in self.withheld:
                refused.append({"name": name, "reason": "not served: "
                                + self.withheld[other.qualified_name]})
            elif not self.allowed(other):
                refused.append({"name": name, "reason": f"{other.safety_cause}; {UNSAFE}"})
            else:
                reason = self.resolution.verdict(other.qualified_name).reason
                refused.append({"name": name,
                                "reason": f"not available to this profile: {reason}"})
        before = {t.qualified_name for t in self.resolution.catalog_tools}
        self.session.call("add_tool", {"tool_names": passed})
        self.session.steps.clear()  # a served session is long: keep no trace of past steps
        now = {t.qualified_name for t in self.resolution.catalog_tools}
        tools = self._names().pool_keys
        added = [self.name(tools[key]) for key in passed if key not in before and key in now]
        already = [self.name(tools[key]) for key in passed if key in before]
        missing += [self.name(tools[key]) for key in passed if key not in now]
        response: dict[str, Any] = {"added": added, "already_available": already,
                                    "not_found": missing}
        message = add_tool_message(added, already, missing)
        if refused:
            message = " ".join(filter(None, [message, "Refused: " + "; ".join(
                f"{r['name']} ({r['reason']})" for r in refused) + "."]))
        response.update(refused=refused, message=message or "No tool names given.")
        return AddAnswer(response, tuple(response["added"]))

    def show_all(self) -> dict[str, Any]:
        """show_all_tools: the names of every tool the client can see or find."""
        names = {name for name, _ in self.visible()}
        names.update(self.name(t) for t in self.pool)
        listed = sorted(names)
        return {"total": len(listed), "tools": listed}

    # ---- calls -----------------------------------------------------------------------------

    def check(self, tool: Tool, arguments: Mapping[str, Any] | None) -> list[str]:
        """Why `arguments` break `tool`'s schema (check-call's checker); empty when they fit."""
        checked = self.checker.check(ToolCall(tool.qualified_name, dict(arguments or {})))
        return [f"{e.pointer or '/'}: {e.message}" if e.pointer else e.message
                for e in checked.errors]

    # ---- lookups ---------------------------------------------------------------------------

    def _names(self) -> _NameMaps:
        return self._maps.get(lambda: _NameMaps(
            _names(self.pool, self.name), {t.qualified_name: t for t in self.pool},
            _names(self.catalog.tools, self.name)))

    def _pool_tool(self, name: str) -> Tool | None:
        return self._names().pool.get(name)

    def _catalog_tool(self, name: str) -> Tool | None:
        return self._names().catalog.get(name)


class _Shared(Generic[T]):
    """A value made once, on first use, whichever thread asks first."""

    def __init__(self) -> None:
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self, make: Callable[[], T]) -> T:
        value = self._value
        if value is None:
            with self._lock:
                value = self._value
                if value is None:
                    value = self._value = make()
        return value


@dataclass(frozen=True)
class _NameMaps:
    """What a client may call the pool's tools and the catalog's by (see `_names`), and the
    pool's tools by key; the same for every client of a gate."""

    pool: Mapping[str, Tool]
    pool_keys: Mapping[str, Tool]
    catalog: Mapping[str, Tool]


def _names(tools: Sequence[Tool], shown: Callable[[Tool], str]) -> dict[str, Tool]:
    """What a client may call each of `tools` by: `server:tool`, its shown name, and its
    plain name where that is unambiguous among `tools` and holds no colon. A name, once
    claimed, is never taken over: the qualified names of tools without a colon of their own
    claim first, so no literal colon can shadow them."""
    index: dict[str, Tool] = {}
    for tool in sorted(tools, key=lambda t: ":" in t.name):  # stable: catalog order kept
        index.setdefault(tool.qualified_name, tool)
    for tool in tools:
        index.setdefault(shown(tool), tool)
    plain: dict[str, list[Tool]] = {}
    for tool in tools:
        plain.setdefault(tool.name, []).append(tool)
    for name, found in plain.items():
        if len(found) == 1 and ":" not in name:
            index.setdefault(name, found[0])
    return index


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
