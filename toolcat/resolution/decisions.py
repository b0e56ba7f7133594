"""The result of a resolution: what the model sees for one query and one profile, and why.

`Resolution` is what the render room builds prompts and provider payloads from; every field is
a plain frozen value. The tool lists hold `toolcat.model.Tool` objects; `verdicts` says, for
every tool, where it ended and by which rule; `trace` is the tree of decisions in the order the
resolver took them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, overload

from toolcat.model import Tool

if TYPE_CHECKING:
    from toolcat.resolution.profile import Profile, Strategy

Status = Literal["visible", "deferred", "excluded"]
STATUSES: tuple[str, ...] = ("visible", "deferred", "excluded")

T = TypeVar("T")


class Lazy(Sequence[T]):
    """A tuple whose items are made when they are read.

    A resolution at 43,000 tools has a verdict and a trace node for each tool, and most of
    what reads it (serve, render, a lookup by name) reads the few that are shown: making them
    all cost a resolution most of its time. It equals, hashes and prints as the tuple of its
    items."""

    __slots__ = ("_count", "_made", "_make")

    def __init__(self, count: int, make: Callable[[int], T]) -> None:
        self._count = count
        self._make = make
        self._made: tuple[T, ...] | None = None

    def _all(self) -> tuple[T, ...]:
        if self._made is None:
            self._made = tuple(map(self._make, range(self._count)))
        return self._made

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._count)))
        if self._made is not None:
            return self._made[index]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return self._make(index % self._count)

    def __iter__(self) -> Iterator[T]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lazy):
            other = other._all()
        return isinstance(other, tuple) and self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(frozen=True)
class Decision:
    """One node of the trace: what was decided about `subject`, by which rule, and why.

    `rule` is a key of `TRACE_RULES` (toolcat.resolution.trace), or None for a node that groups its
    children (a stage). `outcome` is a status for a tool ("visible", "excluded", ...) and the
    chosen value for anything else ("hermes", "10").
    """

    subject: str
    outcome: str
    rule: str | None
    reason: str
    children: Sequence[Decision] = ()

    def walk(self) -> Iterator[Decision]:
        """This node and every node below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, subject: str) -> list[Decision]:
        """Every node about `subject`, in trace order."""
        return [node for node in self.walk() if node.subject == subject]

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "outcome": self.outcome, "rule": self.rule,
                "reason": self.reason, "children": [c.to_json() for c in self.children]}


@dataclass(frozen=True)
class Verdict:
    """Where one tool ended: its status, the rule that put it there and why.

    `name` is how the model knows the tool; `score` is the relevance score from the profile's
    scorer (None for built-in and gateway tools); `via` names the search tool through which a
    deferred tool can still be found.
    """

    tool: Tool
    name: str
    status: Status
    rule: str
    reason: str
    builtin: bool = False
    score: float | None = None
    via: str | None = None
    tokens: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "qualified_name": self.tool.qualified_name,
            "server": self.tool.server,
            "builtin": self.builtin,
            "safety": self.tool.safety,
            "status": self.status,
            "rule": self.rule,
            "reason": self.reason,
            "score": None if self.score is None else round(self.score, 6),
            "via": self.via,
            "tokens": self.tokens,
        }


class Brief(NamedTuple):
    """A verdict without its reason (the part that costs to write): what a listing of
    thousands of tools needs."""

    name: str
    status: Status
    rule: str
    via: str | None
    tokens: int


class Verdicts(Lazy[Verdict]):
    """Every tool's verdict, made when read. `place` gives the position of a tool's verdict
    (the tool itself, else the last tool of its qualified name, as a dict built from the
    verdicts would), `by_name` that of the first verdict answering to a name
    (`Resolution.verdict`), or None: a lookup makes one verdict, not all of them. `brief`
    makes a position's Brief."""

    __slots__ = ("_brief", "_by_name", "_place")

    def __init__(self, count: int, make: Callable[[int], Verdict],
                 place: Callable[[Tool], int | None], by_name: Callable[[str], int | None],
                 brief: Callable[[int], Brief]) -> None:
        super().__init__(count, make)
        self._place = place
        self._by_name = by_name
        self._brief = brief

    def of(self, tool: Tool) -> Verdict | None:
        found = self._place(tool)
        return None if found is None else self[found]

    def named(self, name: str) -> Verdict | None:
        found = self._by_name(name)
        return None if found is None else self[found]

    def briefs(self, tools: Iterable[Tool]) -> list[Brief]:
        """The Brief of each of `tools` (KeyError for one without a verdict)."""
        place, brief = self._place, self._brief
        out = []
        for tool in tools:
            found = place(tool)
            if found is None:
                raise KeyError(tool.qualified_name)
            out.append(brief(found))
        return out


@dataclass(frozen=True)
class FormatChoice:
    """The tool-call format of the prompt and why it was chosen.

    `name` is one of native, code, hermes, mistral, pythonic, json; `fallback` is True when
    the profile's primary format was not available; `unavailable` maps each enabled format
    that cannot be used to the reason.
    """

    name: str
    primary: str
    fallback: bool
    reason: str
    available: tuple[str, ...]
    unavailable: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "primary": self.primary, "fallback": self.fallback,
                "reason": self.reason, "available": list(self.available),
                "unavailable": dict(self.unavailable)}


@dataclass(frozen=True)
class Cap:
    """How many catalog tools the agent puts in the prompt on its own.

    `limit` None means no cap; `size_class` is small, medium, large or unknown.
    """

    limit: int | None
    size_class: str
    rule: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"limit": self.limit, "size_class": self.size_class, "rule": self.rule,
                "reason": self.reason}


@dataclass(frozen=True)
class Category:
    """A server whose tools can be discovered: an "Available tool category"."""

    name: str
    description: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "description": self.description}


@dataclass(frozen=True)
class TokenCost:
    """Exact tokens (toolcat.providers.tokens) of the compact JSON definitions.

    `visible` counts what the model is shown; `all` counts every catalog tool plus the visible
    built-in and gateway tools, i.e. what showing everything would cost.
    """

    visible: int
    deferred: int
    all: int
    encoding: str

    @property
    def saved(self) -> int:
        return self.all - self.visible

    def to_json(self) -> dict[str, Any]:
        return {"visible": self.visible, "deferred": self.deferred, "all": self.all,
                "saved": self.saved, "encoding": self.encoding}


@dataclass(frozen=True)
class GatewayOutcome:
    """What the gateway did to the request's tools.

    `search_fallback` is the effective enable_search_fallback after the forced values;
    `search_tool` is the phantom tool's name when one was injected; `keep` is the relevance
    keep count (None when not computed).
    """

    strategy: Strategy
    total: int
    keep: int | None
    kept: int
    deferred: int
    search_fallback: bool
    search_tool: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "total": self.total, "keep": self.keep,
                "kept": self.kept, "deferred": self.deferred,
                "search_fallback": self.search_fallback, "search_tool": self.search_tool,
                "reason": self.reason}


@dataclass(frozen=True)
class Resolution:
    """Everything the model is shown for `query` under `profile`, and why.

    Fields:
        query: the user's request.
        profile: the agent profile used.
        visible: every tool the model sees, in prompt order: the built-ins (in the built-in
            catalog's order), then catalog tools by descending relevance, after the cap; behind
            a tool-search or api gateway, the phantom search tool and the tools it reinjected.
        builtins: the visible built-in tools (a subsequence of `visible`).
        deferred: tools not visible that the model can still discover with a search tool,
            by descending relevance.
        excluded: tools the model can neither see nor discover.
        verdicts: one Verdict per tool (built-ins, catalog, gateway), made when read: status,
            rule, reason.
        format: the chosen tool-call format and why (FormatChoice).
        cap: the number of catalog tools the agent may put in the prompt (Cap).
        tool_search_mode: whether tool search mode is on.
        categories: servers of the deferred tools with their descriptions, for the
            "Available tool categories" section of the tool search prompt.
        prompt: the base prompt from the profile.
        tokens: token cost of what is visible against everything (TokenCost).
        gateway: what the gateway did, or None when the profile has no gateway.
        scorer: the name of the scorer that ordered the tools by relevance.
        trace: the tree of decisions, each naming its rule (see toolcat.resolution.trace).
    """

    query: str
    profile: Profile
    visible: tuple[Tool, ...]
    builtins: tuple[Tool, ...]
    deferred: tuple[Tool, ...]
    excluded: tuple[Tool, ...]
    verdicts: Verdicts
    format: FormatChoice
    cap: Cap
    tool_search_mode: bool
    categories: tuple[Category, ...]
    prompt: str
    tokens: TokenCost
    gateway: GatewayOutcome | None
    scorer: str
    trace: Decision

    @property
    def catalog_tools(self) -> tuple[Tool, ...]:
        """The visible tools that are not built-ins, in prompt order."""
        builtin = {t.qualified_name for t in self.builtins}
        return tuple(t for t in self.visible if t.qualified_name not in builtin)

    def verdict(self, name: str) -> Verdict:
        """The verdict of the first tool called `name` (plain, `server:tool`, or as shown)."""
        found = self.verdicts.named(name)
        if found is None:
            raise KeyError(name)
        return found

    def verdict_of(self, tool: Tool) -> Verdict:
        """The verdict of `tool`, one of this resolution's tools (KeyError otherwise)."""
        found = self.verdicts.of(tool)
        if found is None:
            raise KeyError(tool.qualified_name)
        return found

    def brief(self, tool: Tool) -> Brief:
        """`verdict_of(tool)` without its reason: cheap for listing thousands of tools."""
        return self.briefs((tool,))[0]

    def briefs(self, tools: Iterable[Tool]) -> list[Brief]:
        """`brief` of each of `tools` (KeyError for one that is not this resolution's)."""
        return self.verdicts.briefs(tools)

    def names(self, status: Status = "visible") -> list[str]:
        """The names of the tools with `status`, in the order of that list."""
        tools = {"visible": self.visible, "deferred": self.deferred,
                 "excluded": self.excluded}[status]
        return [b.name for b in self.briefs(tools)]

    def to_json(self) -> dict[str, Any]:
        """The stable `toolcat resolve --json` shape (documented in docs/resolve.md)."""
        def listed(tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
            return [self.verdict_of(t).to_json() for t in tools]

        return {
            "query": self.query,
            "profile": {"name": self.profile.name, "source": self.profile.source},
            "model": self.profile.model.to_json(),
            "format": self.format.to_json(),
            "cap": self.cap.to_json(),
            "scorer": self.scorer,
            "tool_search_mode": self.tool_search_mode,
            "categories": [c.to_json() for c in self.categories],
            "prompt": self.prompt,
            "visible": listed(self.visible),
            "deferred": listed(self.deferred),
            "excluded": listed(self.excluded),
            "gateway": self.gateway.to_json() if self.gateway else None,
            "tokens": self.tokens.to_json(),
            "trace": self.trace.to_json(),
        }
