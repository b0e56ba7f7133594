"""Reading a profile document into a Profile, every problem a ConfigError at its position.

Each section has one method that checks its keys (an unknown key is an error naming the known
ones) and the type and range of each value. Catalog names are recorded as NameRefs, to be
checked against each catalog the profile is used with (`profile.check_names`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from toolcat.config.paths import bundled
from toolcat.errors import ConfigError
from toolcat.resolution.profile import (
    ANTHROPIC_SEARCHES,
    APPROVALS,
    COMPLEXITIES,
    DEFAULT_SEARCH_TOOL,
    DISCOVERIES,
    FORMATS,
    OPENAI_SEARCHES,
    PROFILE_SUFFIXES,
    SEARCH_MODES,
    STRATEGIES,
    ApiSettings,
    Caps,
    DatabaseSource,
    Filter,
    Filters,
    Formats,
    Gateway,
    Levels,
    McpSettings,
    ModelSpec,
    NameRef,
    Profile,
    ProviderSearch,
    ToolSearchMode,
)
from toolcat.search.pick import MIN_SCORE
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_file
from toolcat.source.positions import PositionIndex, join


class ProfileReader(FieldReader):
    """Reads a profile document, turning every problem into a ConfigError at its position
    (the value readers are source.fields'; the sections are here)."""

    def __init__(self, file: str, index: PositionIndex) -> None:
        super().__init__(file, index, document="profile")
        self.references: list[NameRef] = []
        self.warnings: list[tuple[str, str]] = []

    def names(self, pointer: str, value: Any, *, one: bool = False,
              check: Callable[[str, str], None] | None = None,
              ref: Literal["tool", "server", "tool-or-builtin"] | None = None) -> tuple[str, ...]:
        """A list of non-empty strings; each checked now, or recorded (`ref`) to check per
        catalog."""
        def record(item_pointer: str, item: str) -> None:
            if check is not None:
                check(item_pointer, item)
            if ref is not None:
                self.references.append(NameRef(item_pointer, item, ref))

        return super().names(pointer, value, one=one, check=record)

    # ---- sections ------------------------------------------------------------------------

    def profile(self, data: Any, *, default_name: str) -> Profile:
        from toolcat.resolution.builtins import builtin_names

        known = ("name", "description", "prompt", "model", "builtins", "database_sources",
                 "formats", "filters", "servers", "mcp", "scorer", "scorer_options",
                 "allow_unsafe", "approval", "tool_search_mode", "levels", "gateway",
                 "provider_search")
        doc = self.mapping("", data, known)
        builtins = builtin_names()

        def is_builtin(pointer: str, name: str) -> None:
            if name not in builtins:
                close = difflib.get_close_matches(name, builtins, n=1)
                raise self.error(pointer, f"unknown built-in '{name}'; known: "
                                 f"{', '.join(builtins)}",
                                 hint=f"did you mean '{close[0]}'?" if close else None)

        defaults = Profile()
        # read in document order, so the first mistake in the file is the one reported
        name = self.text("/name", doc["name"], allow_empty=False) if "name" in doc \
            else default_name
        description = self.text("/description", doc.get("description", ""))
        prompt = self.text("/prompt", doc.get("prompt", ""))
        model = self.model(doc.get("model"))
        listed = self.names("/builtins", doc["builtins"], check=is_builtin) \
            if "builtins" in doc else None
        database_sources = self.database_sources(doc.get("database_sources", []))
        formats = self.formats(doc.get("formats"))
        filters = self.filters(doc.get("filters"), is_builtin)
        servers = self.servers(doc.get("servers"))
        mcp = self.mcp(doc.get("mcp"))
        scorer = self.scorer(doc["scorer"]) if "scorer" in doc else None
        scorer_options = self.mapping("/scorer_options", doc.get("scorer_options"),
                                      tuple(doc.get("scorer_options") or ()))
        allow_unsafe = self.boolean("/allow_unsafe", doc.get("allow_unsafe", False))
        approval = self.choice("/approval", doc["approval"], APPROVALS) \
            if "approval" in doc else None
        tool_search_mode = self.tool_search_mode(doc.get("tool_search_mode"))
        levels = self.levels(doc["levels"]) if "levels" in doc else None
        gateway = self.gateway(doc["gateway"]) if "gateway" in doc else None
        provider_search = self.provider_search(doc.get("provider_search"))
        if listed is None:
            # tool search mode brings its own discovery tools; the agent has tool_search
            listed = () if tool_search_mode.enabled else defaults.builtins
        profile = Profile(name=name, description=description, prompt=prompt, model=model,
                          builtins=listed, database_sources=database_sources,
                          formats=formats, filters=filters, servers=servers, mcp=mcp,
                          scorer=scorer, scorer_options=scorer_options,
                          allow_unsafe=allow_unsafe, approval=approval,
                          tool_search_mode=tool_search_mode,
                          levels=levels, gateway=gateway, provider_search=provider_search,
                          source=self.file,
                          references=tuple(self.references),
                          warnings=tuple(self.warnings), index=self.index)
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
        from toolcat.resolution.formats import availability

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
            min_score=self.number("/mcp/min_score", doc.get("min_score", MIN_SCORE), low=0,
                                  high=1),
            caps=caps,
            max_in_prompt=limit,
        )

    def scorer(self, value: Any) -> str:
        from toolcat.search import SCORERS

        return self.choice("/scorer", value, tuple(SCORERS))

    def tool_search_mode(self, value: Any) -> ToolSearchMode:
        doc = self.mapping("/tool_search_mode", value,
                           ("enabled", "pre_discovered", "serve_mode"))
        return ToolSearchMode(
            enabled=self.boolean("/tool_search_mode/enabled", doc.get("enabled", True)),
            pre_discovered=self.names("/tool_search_mode/pre_discovered",
                                      doc.get("pre_discovered", []), ref="tool"),
            serve_mode=self.choice("/tool_search_mode/serve_mode",
                                   doc.get("serve_mode", "add"), ("add", "call")),
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

    def provider_search(self, value: Any) -> ProviderSearch:
        doc = self.mapping("/provider_search", value, ("mode", "anthropic", "openai",
                                                       "namespaces", "discovery"))
        base = ProviderSearch()
        return ProviderSearch(
            mode=self.choice("/provider_search/mode", doc.get("mode", base.mode), SEARCH_MODES),
            anthropic=self.choice("/provider_search/anthropic",
                                  doc.get("anthropic", base.anthropic), ANTHROPIC_SEARCHES),
            openai=self.choice("/provider_search/openai", doc.get("openai", base.openai),
                               OPENAI_SEARCHES),
            namespaces=self.boolean("/provider_search/namespaces",
                                    doc.get("namespaces", base.namespaces)),
            discovery=self.choice("/provider_search/discovery",
                                  doc.get("discovery", base.discovery), DISCOVERIES),
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
        if max_tools < min_tools:  # keep = max(min(by ratio, max_tools), min_tools)
            self.warnings.append(("/gateway/max_tools", f"'gateway.max_tools' ({max_tools}) "
                                  f"is below 'gateway.min_tools' ({min_tools}); the gateway "
                                  f"keeps {min_tools} tools"))
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


def bundled_profiles() -> dict[str, Path]:
    """The profiles shipped in catalogs/profiles/, by name."""
    folder = bundled("profiles")
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix in PROFILE_SUFFIXES}


def find_profile(spec: str | Path) -> Path:
    """A profile path, or the name of a bundled profile (`small-model`). A bundled profile's
    name means that profile, even when a file of that name is in the working folder (a
    cloned repository could ship one): write `./small-model` to mean the file."""
    path = Path(spec)
    shipped = bundled_profiles()
    if str(spec) in shipped:
        return shipped[str(spec)]
    if path.exists() or path.suffix in PROFILE_SUFFIXES or len(path.parts) > 1:
        return path
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
    return ProfileReader(parsed.path, parsed.index).profile(parsed.data, default_name=path.stem)
