"""Agent profiles: every setting the seeds describe, read from YAML or JSON and validated.

A profile says which built-ins are enabled, how tools are filtered, which tool-call formats the
model can use, how big the model is, and which selection machinery sits between the catalog and
the model (deferral and automatic search, tool search mode, the
three levels, the gateway). Every problem is a ConfigError naming file:line:column.

Names of catalog tools and servers are checked against a catalog when a resolver is built
(`profile_warnings`): a profile is written once and used with many catalogs, so a name this
catalog lacks is a warning, not an error.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from toolcat.model import Catalog, SourceRef, matches
from toolcat.search.pick import MIN_SCORE
from toolcat.source.positions import PositionIndex

FORMATS: tuple[str, ...] = ("native", "code", "hermes", "mistral", "pythonic", "json")
Strategy = Literal["passthrough", "relevance", "tool-search", "api"]
STRATEGIES: tuple[Strategy, ...] = ("passthrough", "relevance", "tool-search", "api")
Complexity = Literal["simple", "medium", "complex"]
COMPLEXITIES: tuple[Complexity, ...] = ("simple", "medium", "complex")
SPECIAL_CATEGORIES: tuple[str, ...] = ("structured_output", "human")
DEFAULT_SEARCH_TOOL = "gateway_search_tools"
SearchMode = Literal["auto", "native", "local", "native-or-local"]
SEARCH_MODES: tuple[SearchMode, ...] = ("auto", "native", "local", "native-or-local")
AnthropicSearch = Literal["bm25", "regex"]
ANTHROPIC_SEARCHES: tuple[AnthropicSearch, ...] = ("bm25", "regex")
OpenAISearch = Literal["hosted", "client"]
OPENAI_SEARCHES: tuple[OpenAISearch, ...] = ("hosted", "client")
Discovery = Literal["keep-cache", "rewrite"]
DISCOVERIES: tuple[Discovery, ...] = ("keep-cache", "rewrite")
# what `toolcat serve` does with a tool marked unsafe when it runs without --allow-unsafe
Approval = Literal["refuse", "ask", "allow"]
APPROVALS: tuple[Approval, ...] = ("refuse", "ask", "allow")
PROFILE_SUFFIXES = (".yaml", ".yml", ".json")

# Small < 7B, medium 7-30B, large > 30B
SMALL_BELOW_B = 7.0
LARGE_ABOVE_B = 30.0


@dataclass(frozen=True)
class ModelSpec:
    """The model: its name, whether it calls tools natively, its size in billions."""

    name: str = "default"
    tool_calling: bool = True
    size_b: float | None = None

    @property
    def size_class(self) -> str:
        """small (< 7B), medium (7-30B), large (> 30B), or unknown."""
        if self.size_b is None:
            return "unknown"
        if self.size_b < SMALL_BELOW_B:
            return "small"
        return "large" if self.size_b > LARGE_ABOVE_B else "medium"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "tool_calling": self.tool_calling, "size_b": self.size_b,
                "size_class": self.size_class}


@dataclass(frozen=True)
class Formats:
    """Tool-call formats: the preferred one and the enabled ones, in fallback order."""

    primary: str = "native"
    enabled: tuple[str, ...] = FORMATS


@dataclass(frozen=True)
class Filter:
    """An allow list and a deny list of names or patterns (`server:*`, wildcards)."""

    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


@dataclass(frozen=True)
class Filters:
    """The filter: builtin_allowed, server_allowed, tool_allowed."""

    builtins: Filter = Filter()
    servers: Filter = Filter()
    tools: Filter = Filter()

    def builtin_allowed(self, name: str) -> bool:
        if name in self.builtins.deny:
            return False
        return not self.builtins.allow or name in self.builtins.allow


@dataclass(frozen=True)
class Caps:
    """Catalog tools in the prompt by model size."""

    small: int = 2
    medium: int = 5
    large: int = 10
    unknown: int = 2  # the design: "Max MCP tools in prompt is based on model size (default: 2)"


@dataclass(frozen=True)
class McpSettings:
    """How the agent presents catalog tools.

    `defer`: catalog tools are deferred and shown once a search materializes them;
    False is normal mode, where they are all shown directly. `auto_search`: run the
    tool_search built-in with the query before the first turn. `min_score`: the relevance
    floor of a search (0.05, as `pick` uses). `caps`: the caps by model
    size, for the automatic search. `max_in_prompt`: overrides the cap by size, and caps
    normal mode too; "all" lifts it.
    """

    defer: bool = True
    auto_search: bool = True
    min_score: float = MIN_SCORE
    caps: Caps = Caps()
    max_in_prompt: int | Literal["all"] | None = None


@dataclass(frozen=True)
class ToolSearchMode:
    """Tool search mode. `serve_mode`: how `toolcat serve` lets a client call what
    it found: `add` (add_tool, then the tool) or `call` (the call_tool proxy)."""

    enabled: bool = False
    pre_discovered: tuple[str, ...] = ()
    serve_mode: Literal["add", "call"] = "add"


@dataclass(frozen=True)
class Levels:
    """Three-level selection.

    `core_tools` None means "the tools with level 1"; `allowed_tools` None means no whitelist;
    `simple_task_tools` None means "the core tools".
    """

    core_tools: tuple[str, ...] | None = None
    required_capabilities: tuple[str, ...] = ()
    skill_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    relevant_skill_groups: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] | None = None
    complexity: Complexity = "medium"
    simple_task_tools: tuple[str, ...] | None = None

    def capabilities(self) -> tuple[str, ...]:
        """Required capabilities plus those of the relevant skill groups, in order, once each."""
        tags = list(self.required_capabilities)
        for group in self.relevant_skill_groups:
            tags += self.skill_groups.get(group, ())
        return tuple(dict.fromkeys(tags))


@dataclass(frozen=True)
class ApiSettings:
    """The api strategy's selector endpoint; `api_key` may hold `${ENV_VAR}`."""

    endpoint: str | None = None
    api_key: str | None = None
    timeout: float = 2.0


@dataclass(frozen=True)
class Gateway:
    """The tool discovery pipe."""

    enabled: bool = True
    strategy: Strategy = "relevance"
    provider: str | None = None
    api: ApiSettings = ApiSettings()
    min_tools: int = 5
    max_tools: int = 25
    target_ratio: float = 0.8
    always_keep: tuple[str, ...] = ()
    enable_search_fallback: bool | None = None
    search_tool_name: str = DEFAULT_SEARCH_TOOL
    max_search_results: int = 5

    @property
    def search_fallback(self) -> bool:
        """The effective flag: forced false for relevance, true for tool-search and api."""
        if self.strategy == "relevance":
            return False
        if self.strategy in ("tool-search", "api"):
            return True
        return bool(self.enable_search_fallback)

    def keep_count(self, total: int) -> int:
        """The keep count: by_ratio = int(total * target_ratio); min(by_ratio, max); max(., min)."""
        by_ratio = int(total * self.target_ratio)
        return max(min(by_ratio, self.max_tools), self.min_tools)


@dataclass(frozen=True)
class ProviderSearch:
    """How a provider request lets the model reach the deferred tools (docs/render.md).

    `mode`: `native` has the provider run the search (Anthropic's tool search server tool of
    the `anthropic` variant, OpenAI Responses' `tool_search`, `hosted` or run by the client
    with toolcat's search); `local` sends toolcat's own discovery tools as ordinary tools;
    `native-or-local` is native where the provider has it and local elsewhere; `auto` keeps
    what render did before profiles could choose. `namespaces`: OpenAI Responses requests
    group deferred functions in one namespace per server. `discovery`: in local mode, whether
    what a session finds keeps the request's prefix cached (`keep-cache`: Anthropic
    `tool_reference` answers, OpenAI `allowed_tools`) or is written into a new tools list
    (`rewrite`).
    """

    mode: SearchMode = "auto"
    anthropic: AnthropicSearch = "bm25"
    openai: OpenAISearch = "hosted"
    namespaces: bool = True
    discovery: Discovery = "keep-cache"

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "anthropic": self.anthropic, "openai": self.openai,
                "namespaces": self.namespaces, "discovery": self.discovery}


@dataclass(frozen=True)
class DatabaseSource:
    name: str
    enabled: bool = True


@dataclass(frozen=True)
class NameRef:
    """A catalog name the profile mentions, checked against each catalog it is used with."""

    pointer: str
    name: str
    kind: Literal["tool", "server", "tool-or-builtin"]


@dataclass(frozen=True)
class Profile:
    """An agent: everything that decides which tools its model sees."""

    name: str = "default"
    description: str = ""
    prompt: str = ""
    model: ModelSpec = ModelSpec()
    builtins: tuple[str, ...] = ("tool_search",)
    database_sources: tuple[DatabaseSource, ...] = ()
    formats: Formats = Formats()
    filters: Filters = Filters()
    servers: Mapping[str, bool] = field(default_factory=dict)
    mcp: McpSettings = McpSettings()
    scorer: str | None = None  # None: toolcat.search.default_scorer()
    scorer_options: Mapping[str, Any] = field(default_factory=dict)
    allow_unsafe: bool = False  # tools marked `safe: false` are left out unless True
    approval: Approval | None = None  # serve's unsafe tools; None: allow_unsafe decides
    tool_search_mode: ToolSearchMode = ToolSearchMode()
    levels: Levels | None = None
    gateway: Gateway | None = None
    provider_search: ProviderSearch = ProviderSearch()
    source: str | None = None
    references: tuple[NameRef, ...] = ()
    # settings read and used, but worth a word: (pointer, message)
    warnings: tuple[tuple[str, str], ...] = ()
    index: PositionIndex | None = field(default=None, compare=False, repr=False)

    def where(self, pointer: str, *, key: bool = False) -> SourceRef | None:
        """The file position of the setting at `pointer` (its key with `key=True`)."""
        if self.source is None:
            return None
        if self.index is None:
            return SourceRef(self.source)
        line, column = self.index.locate(pointer + ("#key" if key else ""))
        return SourceRef(self.source, line, column, pointer)

    @property
    def has_database(self) -> bool:
        return any(source.enabled for source in self.database_sources)


DEFAULT_PROFILE = Profile(
    name="default",
    description="A large model with native tool calling; catalog tools are deferred and the "
    "automatic tool_search shows the 10 most relevant ones (the decision tree's defaults).",
    prompt="You are a helpful assistant. Use the tools when they help answer the request.",
    model=ModelSpec(name="large-native", tool_calling=True, size_b=70.0),
    builtins=("tool_search",),
    formats=Formats(primary="native", enabled=FORMATS),
)


@dataclass(frozen=True)
class ProfileWarning:
    """A setting the profile has that cannot do what it says with this catalog; resolving
    goes on without it (a profile is written once and used with many catalogs)."""

    message: str
    where: SourceRef | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def profile_warnings(profile: Profile, catalog: Catalog, builtin_names: Sequence[str]
                     ) -> tuple[ProfileWarning, ...]:
    """What the profile says that this catalog makes void: names of tools and servers it does
    not have (with the closest names), and the settings the reader found contradictory."""
    warnings = [ProfileWarning(message, profile.where(pointer))
                for pointer, message in profile.warnings]
    servers = catalog.server_names()
    for ref in profile.references:
        problem = _name_problem(ref, catalog, servers, builtin_names)
        if problem:
            message, candidates = problem
            close = difflib.get_close_matches(ref.name, candidates, n=3)
            if close:
                message += f"; did you mean {', '.join(close)}?"
            warnings.append(ProfileWarning(message + "; it matches nothing here",
                                           profile.where(ref.pointer)))
    return tuple(warnings)


def _name_problem(ref: NameRef, catalog: Catalog, servers: list[str],
                  builtin_names: Sequence[str]) -> tuple[str, list[str]] | None:
    """Why `ref` names nothing in the catalog, with candidates for a suggestion; or None.

    A server must exist (a wildcard server part must match one); a tool name must exist; a
    tool pattern with wildcards may match nothing (a generic deny list is no typo).
    """
    name = ref.name
    server, _, tool = name.rpartition(":") if ref.kind != "server" else (name, "", "")
    if server and not any(_fnmatch(s, server) for s in servers):
        return f"no server '{server}' in the catalog (servers: {', '.join(servers)})", servers
    if ref.kind == "server" or _WILDCARD.search(tool):
        return None
    if ref.kind == "tool-or-builtin" and name in builtin_names:
        return None
    if any(matches(name, t) for t in catalog.tools):
        return None
    return f"no tool '{name}' in the catalog", [t.name for t in catalog.tools]


def _fnmatch(value: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(value, pattern)


_WILDCARD = re.compile(r"[*?\[]")
