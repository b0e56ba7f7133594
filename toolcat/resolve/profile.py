"""Agent profiles: every setting the seeds describe, read from YAML or JSON and validated.

A profile says which built-ins are enabled, how tools are filtered, which tool-call formats the
model can use, how big the model is, and which selection machinery sits between the catalog and
the model (seed 000's deferral and automatic search, seed 001's tool search mode, seed 003's
three levels, seed 004's gateway). Every problem is a ConfigError naming file:line:column.

Names of catalog tools and servers are checked against a catalog when a resolver is built
(`check_names`), since a profile is written once and used with any catalog.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolcat.catalog.files import parse_file
from toolcat.catalog.positions import PositionIndex, join
from toolcat.errors import ConfigError
from toolcat.model import Catalog, SourceRef, matches
from toolcat.paths import bundled

FORMATS: tuple[str, ...] = ("native", "code", "hermes", "mistral", "pythonic", "json")
TEXT_FORMATS: tuple[str, ...] = ("hermes", "mistral", "pythonic", "json")
STRATEGIES: tuple[str, ...] = ("passthrough", "relevance", "tool-search", "api")
COMPLEXITIES: tuple[str, ...] = ("simple", "medium", "complex")
SPECIAL_CATEGORIES: tuple[str, ...] = ("structured_output", "human")
DEFAULT_SEARCH_TOOL = "gateway_search_tools"
PROFILE_SUFFIXES = (".yaml", ".yml", ".json")

# seed 000: small < 7B, medium 7-30B, large > 30B
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
    """Seed 000's filter: builtin_allowed, server_allowed, tool_allowed."""

    builtins: Filter = Filter()
    servers: Filter = Filter()
    tools: Filter = Filter()

    def builtin_allowed(self, name: str) -> bool:
        if name in self.builtins.deny:
            return False
        return not self.builtins.allow or name in self.builtins.allow


@dataclass(frozen=True)
class Caps:
    """Catalog tools in the prompt by model size (seed 000)."""

    small: int = 2
    medium: int = 5
    large: int = 10
    unknown: int = 2  # seed 000: "Max MCP tools in prompt is based on model size (default: 2)"


@dataclass(frozen=True)
class McpSettings:
    """How the agent presents catalog tools (seed 000).

    `defer`: catalog tools are deferred and shown once a search materializes them (seed 000);
    False is seed 001's normal mode, where they are shown directly. `auto_search`: run the
    tool_search built-in with the query before the first turn. `max_in_prompt`: overrides the
    cap by size; "all" lifts it.
    """

    defer: bool = True
    auto_search: bool = True
    min_score: float = 0.0
    caps: Caps = Caps()
    max_in_prompt: int | Literal["all"] | None = None


@dataclass(frozen=True)
class ToolSearchMode:
    """Seed 001's tool search mode."""

    enabled: bool = False
    pre_discovered: tuple[str, ...] = ()


@dataclass(frozen=True)
class Levels:
    """Seed 003's three-level selection.

    `core_tools` None means "the tools with level 1"; `allowed_tools` None means no whitelist;
    `simple_task_tools` None means "the core tools".
    """

    core_tools: tuple[str, ...] | None = None
    required_capabilities: tuple[str, ...] = ()
    skill_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    relevant_skill_groups: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] | None = None
    complexity: str = "medium"
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
    """Seed 004's tool discovery pipe."""

    enabled: bool = True
    strategy: str = "relevance"
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
        """Seed 004: by_ratio = int(total * target_ratio); min(by_ratio, max); max(., min)."""
        by_ratio = int(total * self.target_ratio)
        return max(min(by_ratio, self.max_tools), self.min_tools)


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
    tool_search_mode: ToolSearchMode = ToolSearchMode()
    levels: Levels | None = None
    gateway: Gateway | None = None
    source: str | None = None
    references: tuple[NameRef, ...] = ()
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
    "automatic tool_search shows the 10 most relevant ones (seed 000's defaults).",
    prompt="You are a helpful assistant. Use the tools when they help answer the request.",
    model=ModelSpec(name="large-native", tool_calling=True, size_b=70.0),
    builtins=("tool_search",),
    formats=Formats(primary="native", enabled=FORMATS),
)


def bundled_profiles() -> dict[str, Path]:
    """The profiles shipped in catalogs/profiles/, by name."""
    folder = bundled("profiles")
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix in PROFILE_SUFFIXES}


def find_profile(spec: str | Path) -> Path:
    """A profile path, or the name of a bundled profile (`small-model`)."""
    path = Path(spec)
    if path.exists() or path.suffix in PROFILE_SUFFIXES or len(path.parts) > 1:
        return path
    shipped = bundled_profiles()
    if str(spec) in shipped:
        return shipped[str(spec)]
    raise ConfigError(f"no profile file or bundled profile named '{spec}'",
                      hint="bundled: " + ", ".join(shipped))


def load_profile(spec: str | Path) -> Profile:
    """Read and validate a profile file (or a bundled profile by name).

    Raises:
        ConfigError: an unknown setting, a value of the wrong type or out of range, an unknown
            built-in, scorer, format or strategy, naming file:line:column.
        CatalogError: the file is missing or is not valid YAML/JSON.
    """
    path = find_profile(spec)
    parsed = parse_file(path)
    return _Reader(parsed.path, parsed.index).profile(parsed.data, default_name=path.stem)


def check_names(profile: Profile, catalog: Catalog, builtin_names: Sequence[str]) -> None:
    """Every catalog tool and server the profile names must exist in `catalog`.

    Raises:
        ConfigError: at the profile's file:line for the first name that matches nothing.
    """
    servers = catalog.server_names()
    for ref in profile.references:
        problem = _name_problem(ref, catalog, servers, builtin_names)
        if problem:
            message, candidates = problem
            close = difflib.get_close_matches(ref.name, candidates, n=3)
            raise ConfigError(message, where=profile.where(ref.pointer),
                              hint=f"did you mean {', '.join(close)}?" if close else None)


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
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$")


class _Reader:
    """Reads a profile document, turning every problem into a ConfigError at its position."""

    def __init__(self, file: str, index: PositionIndex) -> None:
        self.file = file
        self.index = index
        self.references: list[NameRef] = []

    # ---- positions and errors ------------------------------------------------------------

    def error(self, pointer: str, message: str, *, key: bool = False,
              hint: str | None = None) -> ConfigError:
        line, column = self.index.locate(pointer + ("#key" if key else ""))
        return ConfigError(message, where=SourceRef(self.file, line, column, pointer),
                           hint=hint)

    @staticmethod
    def label(pointer: str) -> str:
        return pointer.strip("/").replace("/", ".") or "profile"

    # ---- value readers -------------------------------------------------------------------

    def mapping(self, pointer: str, value: Any, known: Sequence[str]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a mapping")
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                where = "" if not pointer else f" in '{self.label(pointer)}'"
                raise self.error(join(pointer, key),
                                 f"unknown setting '{key}'{where}; known: {', '.join(known)}",
                                 key=True, hint=f"did you mean '{close[0]}'?" if close else None)
        return value

    def boolean(self, pointer: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.error(pointer, f"'{self.label(pointer)}' must be true or false")
        return value

    def text(self, pointer: str, value: Any, *, allow_empty: bool = True) -> str:
        if not isinstance(value, str) or (not allow_empty and not value.strip()):
            article = "a non-empty" if not allow_empty else "a"
            raise self.error(pointer, f"'{self.label(pointer)}' must be {article} string")
        return value

    def integer(self, pointer: str, value: Any, *, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a whole number")
        if value < minimum:
            raise self.error(pointer, f"'{self.label(pointer)}' must be at least {minimum}")
        return value

    def number(self, pointer: str, value: Any, *, low: float, high: float | None = None,
               low_open: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a number")
        too_low = value <= low if low_open else value < low
        if too_low or (high is not None and value > high):
            bound = f"> {low:g}" if low_open else f">= {low:g}"
            upper = f" and <= {high:g}" if high is not None else ""
            raise self.error(pointer, f"'{self.label(pointer)}' must be {bound}{upper}")
        return float(value)

    def choice(self, pointer: str, value: Any, choices: Sequence[str]) -> str:
        if value not in choices:
            close = difflib.get_close_matches(str(value), choices, n=1)
            raise self.error(pointer, f"'{self.label(pointer)}' must be one of "
                             f"{', '.join(choices)} (got {value!r})",
                             hint=f"did you mean '{close[0]}'?" if close else None)
        return value

    def names(self, pointer: str, value: Any, *,
              check: Callable[[str, str], None] | None = None,
              ref: Literal["tool", "server", "tool-or-builtin"] | None = None) -> tuple[str, ...]:
        """A list of non-empty strings; each checked now, or recorded to check per catalog."""
        if not isinstance(value, list):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a list of names")
        out = []
        for i, item in enumerate(value):
            item_pointer = join(pointer, i)
            if not isinstance(item, str) or not item.strip():
                raise self.error(item_pointer,
                                 f"each entry of '{self.label(pointer)}' must be a name")
            if check is not None:
                check(item_pointer, item)
            if ref is not None:
                self.references.append(NameRef(item_pointer, item, ref))
            out.append(item)
        return tuple(dict.fromkeys(out))

    def duration(self, pointer: str, value: Any) -> float:
        """Seconds, from a number or "2s", "500ms", "1m"."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = float(value)
        else:
            match = _DURATION.match(value) if isinstance(value, str) else None
            if not match:
                raise self.error(pointer, f"'{self.label(pointer)}' must be a duration such "
                                 "as 2, \"2s\" or \"500ms\"")
            scale = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[match.group(2)]
            seconds = float(match.group(1)) * scale
        if seconds <= 0:
            raise self.error(pointer, f"'{self.label(pointer)}' must be more than 0 seconds")
        return seconds

    # ---- sections ------------------------------------------------------------------------

    def profile(self, data: Any, *, default_name: str) -> Profile:
        from toolcat.resolve.builtins import builtin_names

        known = ("name", "description", "prompt", "model", "builtins", "database_sources",
                 "formats", "filters", "servers", "mcp", "scorer", "scorer_options",
                 "tool_search_mode", "levels", "gateway")
        doc = self.mapping("", data, known)
        builtins = builtin_names()

        def is_builtin(pointer: str, name: str) -> None:
            if name not in builtins:
                close = difflib.get_close_matches(name, builtins, n=1)
                raise self.error(pointer, f"unknown built-in '{name}'; known: "
                                 f"{', '.join(builtins)}",
                                 hint=f"did you mean '{close[0]}'?" if close else None)

        defaults = Profile()
        sections = {
            "name": self.text("/name", doc["name"], allow_empty=False) if "name" in doc
            else default_name,
            "description": self.text("/description", doc.get("description", "")),
            "prompt": self.text("/prompt", doc.get("prompt", "")),
            "model": self.model(doc.get("model")),
            "builtins": self.names("/builtins", doc["builtins"], check=is_builtin)
            if "builtins" in doc else None,
            "database_sources": self.database_sources(doc.get("database_sources", [])),
            "formats": self.formats(doc.get("formats")),
            "filters": self.filters(doc.get("filters"), is_builtin),
            "servers": self.servers(doc.get("servers")),
            "mcp": self.mcp(doc.get("mcp")),
            "scorer": self.scorer(doc["scorer"]) if "scorer" in doc else None,
            "scorer_options": self.mapping("/scorer_options", doc.get("scorer_options"),
                                           tuple(doc.get("scorer_options") or ())),
            "tool_search_mode": self.tool_search_mode(doc.get("tool_search_mode")),
            "levels": self.levels(doc["levels"]) if "levels" in doc else None,
            "gateway": self.gateway(doc["gateway"]) if "gateway" in doc else None,
        }
        if sections["builtins"] is None:
            # tool search mode brings its own discovery tools; seed 000's agent has tool_search
            mode = sections["tool_search_mode"].enabled
            sections["builtins"] = () if mode else defaults.builtins
        profile = Profile(**sections, source=self.file, references=tuple(self.references),
                          index=self.index)
        self.check_format_availability(profile)
        return profile

    def model(self, value: Any) -> ModelSpec:
        doc = self.mapping("/model", value, ("name", "tool_calling", "size_b"))
        size = doc.get("size_b")
        return ModelSpec(
            name=self.text("/model/name", doc.get("name", "default"), allow_empty=False),
            tool_calling=self.boolean("/model/tool_calling", doc.get("tool_calling", True)),
            size_b=None if size is None else self.number("/model/size_b", size, low=0,
                                                         low_open=True),
        )

    def database_sources(self, value: Any) -> tuple[DatabaseSource, ...]:
        if not isinstance(value, list):
            raise self.error("/database_sources", "'database_sources' must be a list of "
                             "source names or {name, enabled} mappings")
        out = []
        for i, item in enumerate(value):
            pointer = f"/database_sources/{i}"
            if isinstance(item, str) and item.strip():
                out.append(DatabaseSource(item))
                continue
            doc = self.mapping(pointer, item, ("name", "enabled"))
            if "name" not in doc:
                raise self.error(pointer, "a database source needs a name")
            out.append(DatabaseSource(self.text(f"{pointer}/name", doc["name"],
                                                allow_empty=False),
                                      self.boolean(f"{pointer}/enabled",
                                                   doc.get("enabled", True))))
        return tuple(out)

    def formats(self, value: Any) -> Formats:
        doc = self.mapping("/formats", value, ("primary", "enabled"))
        enabled = FORMATS
        if "enabled" in doc:
            enabled = self.names("/formats/enabled", doc["enabled"], check=self.is_format)
            if not enabled:
                raise self.error("/formats/enabled", "'formats.enabled' must name at least "
                                 "one format")
        primary = self.choice("/formats/primary", doc.get("primary", enabled[0]), FORMATS)
        return Formats(primary=primary, enabled=enabled)

    def is_format(self, pointer: str, value: str) -> None:
        self.choice(pointer, value, FORMATS)

    def check_format_availability(self, profile: Profile) -> None:
        """A profile with no usable format can never talk to its model: refuse it."""
        from toolcat.resolve.formats import availability

        if not any(ok for ok, _ in availability(profile).values()):
            reasons = "; ".join(f"{name}: {why}" for name, (_, why)
                                in availability(profile).items())
            raise self.error("/formats/enabled", f"no enabled format is available ({reasons})")

    def filters(self, value: Any, is_builtin: Callable[[str, str], None]) -> Filters:
        doc = self.mapping("/filters", value, ("builtins", "servers", "tools"))
        return Filters(
            builtins=self.filter("/filters/builtins", doc.get("builtins"), check=is_builtin),
            servers=self.filter("/filters/servers", doc.get("servers"), ref="server"),
            tools=self.filter("/filters/tools", doc.get("tools"), ref="tool"),
        )

    def filter(self, pointer: str, value: Any, **how: Any) -> Filter:
        doc = self.mapping(pointer, value, ("allow", "deny"))
        return Filter(
            allow=self.names(f"{pointer}/allow", doc["allow"], **how) if "allow" in doc else (),
            deny=self.names(f"{pointer}/deny", doc["deny"], **how) if "deny" in doc else (),
        )

    def servers(self, value: Any) -> dict[str, bool]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error("/servers", "'servers' must map server names to {enabled: ...}")
        out = {}
        for name, settings in value.items():
            pointer = join("/servers", name)
            doc = self.mapping(pointer, settings, ("enabled",))
            out[name] = self.boolean(f"{pointer}/enabled", doc.get("enabled", True))
            self.references.append(NameRef(pointer + "#key", name, "server"))
        return out

    def mcp(self, value: Any) -> McpSettings:
        doc = self.mapping("/mcp", value, ("defer", "auto_search", "min_score", "caps",
                                           "max_in_prompt"))
        caps_doc = self.mapping("/mcp/caps", doc.get("caps"),
                                ("small", "medium", "large", "unknown"))
        base = Caps()
        caps = Caps(**{size: self.integer(f"/mcp/caps/{size}", caps_doc.get(size,
                                                                            getattr(base, size)))
                       for size in ("small", "medium", "large", "unknown")})
        limit = doc.get("max_in_prompt")
        if limit is not None and limit != "all":
            if isinstance(limit, str):
                raise self.error("/mcp/max_in_prompt", "'mcp.max_in_prompt' must be a whole "
                                 "number or \"all\"")
            limit = self.integer("/mcp/max_in_prompt", limit)
        return McpSettings(
            defer=self.boolean("/mcp/defer", doc.get("defer", True)),
            auto_search=self.boolean("/mcp/auto_search", doc.get("auto_search", True)),
            min_score=self.number("/mcp/min_score", doc.get("min_score", 0.0), low=0, high=1),
            caps=caps,
            max_in_prompt=limit,
        )

    def scorer(self, value: Any) -> str:
        from toolcat.search import SCORERS

        return self.choice("/scorer", value, tuple(SCORERS))

    def tool_search_mode(self, value: Any) -> ToolSearchMode:
        doc = self.mapping("/tool_search_mode", value, ("enabled", "pre_discovered"))
        return ToolSearchMode(
            enabled=self.boolean("/tool_search_mode/enabled", doc.get("enabled", True)),
            pre_discovered=self.names("/tool_search_mode/pre_discovered",
                                      doc.get("pre_discovered", []), ref="tool"),
        ) if value is not None else ToolSearchMode()

    def levels(self, value: Any) -> Levels:
        known = ("core_tools", "required_capabilities", "skill_groups", "relevant_skill_groups",
                 "allowed_tools", "complexity", "simple_task_tools")
        doc = self.mapping("/levels", value, known)
        groups_doc = doc.get("skill_groups") or {}
        if not isinstance(groups_doc, dict):
            raise self.error("/levels/skill_groups", "'levels.skill_groups' must map group "
                             "names to lists of capability tags")
        groups = {name: self.names(join("/levels/skill_groups", name), tags)
                  for name, tags in groups_doc.items()}

        def known_group(pointer: str, name: str) -> None:
            if name not in groups:
                raise self.error(pointer, f"unknown skill group '{name}'; defined in "
                                 f"levels.skill_groups: {', '.join(groups) or 'none'}")

        def optional(key: str) -> tuple[str, ...] | None:
            return self.names(f"/levels/{key}", doc[key], ref="tool") if key in doc else None

        return Levels(
            core_tools=optional("core_tools"),
            required_capabilities=self.names("/levels/required_capabilities",
                                             doc.get("required_capabilities", [])),
            skill_groups=groups,
            relevant_skill_groups=self.names("/levels/relevant_skill_groups",
                                             doc.get("relevant_skill_groups", []),
                                             check=known_group),
            allowed_tools=optional("allowed_tools"),
            complexity=self.choice("/levels/complexity", doc.get("complexity", "medium"),
                                   COMPLEXITIES),
            simple_task_tools=optional("simple_task_tools"),
        )

    def gateway(self, value: Any) -> Gateway:
        known = ("enabled", "strategy", "provider", "api", "min_tools", "max_tools",
                 "target_ratio", "always_keep", "enable_search_fallback", "search_tool_name",
                 "max_search_results")
        doc = self.mapping("/gateway", value, known)
        if "strategy" not in doc:
            raise self.error("/gateway", "'gateway.strategy' is required; one of "
                             + ", ".join(STRATEGIES))
        api_doc = self.mapping("/gateway/api", doc.get("api"), ("endpoint", "api_key",
                                                                "timeout"))
        endpoint = api_doc.get("endpoint")
        if endpoint is not None:
            endpoint = self.text("/gateway/api/endpoint", endpoint, allow_empty=False)
            if not endpoint.startswith(("http://", "https://")):
                raise self.error("/gateway/api/endpoint", "'gateway.api.endpoint' must be an "
                                 "http:// or https:// URL")
        min_tools = self.integer("/gateway/min_tools", doc.get("min_tools", 5))
        max_tools = self.integer("/gateway/max_tools", doc.get("max_tools", 25), minimum=1)
        if max_tools < min_tools:
            raise self.error("/gateway/max_tools", f"'gateway.max_tools' ({max_tools}) is "
                             f"below 'gateway.min_tools' ({min_tools})")
        fallback = doc.get("enable_search_fallback")
        search_tool = self.text("/gateway/search_tool_name",
                                doc.get("search_tool_name", DEFAULT_SEARCH_TOOL),
                                allow_empty=False)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", search_tool):
            raise self.error("/gateway/search_tool_name", "'gateway.search_tool_name' must be "
                             "1-64 letters, digits, '_' or '-' (a valid tool name)")
        return Gateway(
            enabled=self.boolean("/gateway/enabled", doc.get("enabled", True)),
            strategy=self.choice("/gateway/strategy", doc["strategy"], STRATEGIES),
            provider=self.text("/gateway/provider", doc["provider"], allow_empty=False)
            if "provider" in doc else None,
            api=ApiSettings(
                endpoint=endpoint,
                api_key=self.text("/gateway/api/api_key", api_doc["api_key"])
                if "api_key" in api_doc else None,
                timeout=self.duration("/gateway/api/timeout", api_doc.get("timeout", 2.0)),
            ),
            min_tools=min_tools,
            max_tools=max_tools,
            target_ratio=self.number("/gateway/target_ratio", doc.get("target_ratio", 0.8),
                                     low=0, high=1, low_open=True),
            always_keep=self.names("/gateway/always_keep", doc.get("always_keep", []),
                                   ref="tool-or-builtin"),
            enable_search_fallback=None if fallback is None
            else self.boolean("/gateway/enable_search_fallback", fallback),
            search_tool_name=search_tool,
            max_search_results=self.integer("/gateway/max_search_results",
                                            doc.get("max_search_results", 5), minimum=1),
        )
