"""A scripted discovery session: the model's calls, one at a time, and what each changes.

A steps file holds the user's query and the calls the model makes:

    query: what's the weather in Tokyo?
    steps:
      - search_tools: {query: weather}
      - add_tool: {tool_names: [get_weather]}
      - show_all_tools: {}
      - get_weather: {location: Tokyo}

A step `- user: "..."` is a new user message: later requests are resolved for it.

Each call must be to a tool the model sees at that point, with arguments valid for its schema;
otherwise it is refused with an error response. The discovery calls answer in their documented
shapes (search_tools, show_all_tools; add_tool in toolcat's own shape, as none is documented),
tool_search loads what it finds, and the gateway's phantom search tool
reinjects what it finds, at most 5 times in a row (the phantom loop limit). Behind a relevance
gateway, which has no search tool of its own, what the model's own searches load (tool_search,
add_tool) counts as expanded: +1000 in the gateway's score for the rest of the session. Any
other call is recorded as recently used (it counts for the gateway's relevance score) and is
not run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolcat.errors import ConfigError
from toolcat.model import Catalog, SourceRef, Tool
from toolcat.resolution.decisions import Category, Resolution
from toolcat.resolution.gateway import gateway_search
from toolcat.resolution.profile import DEFAULT_PROFILE, Profile
from toolcat.resolution.resolver import Resolver, SessionState
from toolcat.search.cut import fit
from toolcat.source.files import parse_file
from toolcat.source.positions import join
from toolcat.wording import plural, schema_message

MAX_PHANTOM_LOOPS = 5
USER = "user"  # the step that is a new user message, not a tool call
TOOL_SEARCH_LIMIT = 5



@dataclass(frozen=True)
class Call:
    """One call the model makes: the tool's name and its arguments."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    where: SourceRef | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": dict(self.arguments)}


@dataclass(frozen=True)
class Script:
    """A steps file: the user's query (optional) and the calls."""

    query: str | None
    calls: tuple[Call, ...]
    source: str | None = None


@dataclass(frozen=True)
class Step:
    """One call and its effect: what the model got back and what it sees afterwards.

    `response` is the JSON the model receives (None when the gateway dropped the call, for a
    catalog tool, which toolcat does not run, and for a user message); `rule` is a key of
    TRACE_RULES (resolution.trace); `added`/`removed` are the names that became visible or stopped
    being visible; `resolution` is the state after the step.
    """

    number: int
    call: Call
    response: Any
    refused: bool
    rule: str
    note: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    resolution: Resolution

    def to_json(self) -> dict[str, Any]:
        after = self.resolution
        return {
            "step": self.number,
            "call": self.call.to_json(),
            "refused": self.refused,
            "rule": self.rule,
            "note": self.note,
            "response": self.response,
            "added": list(self.added),
            "removed": list(self.removed),
            "visible": after.names("visible"),
            "deferred": len(after.deferred),
            "tokens": after.tokens.to_json(),
        }


def load_script(path: str | Path) -> Script:
    """Read a steps file.

    Raises:
        ConfigError: the file is not a mapping with a `steps` list of one-key mappings
            `{tool_name: {arguments}}`, naming file:line:column.
    """
    parsed = parse_file(Path(path))
    file, index = parsed.path, parsed.index

    def error(pointer: str, message: str, *, key: bool = False) -> ConfigError:
        line, column = index.locate(pointer + ("#key" if key else ""))
        return ConfigError(message, where=SourceRef(file, line, column, pointer))

    data = parsed.data
    if not isinstance(data, dict):
        raise error("", "a steps file must be a mapping with 'steps' (and optionally 'query')")
    for key in data:
        if key not in ("query", "steps"):
            raise error(join("", key), f"unknown setting '{key}'; known: query, steps",
                        key=True)
    query = data.get("query")
    if query is not None and (not isinstance(query, str) or not query.strip()):
        raise error("/query", "'query' must be a non-empty string")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise error("/steps" if "steps" in data else "", "'steps' must be a non-empty list")
    calls = []
    for i, item in enumerate(steps):
        pointer = f"/steps/{i}"
        if not isinstance(item, dict) or len(item) != 1:
            raise error(pointer, "each step must be one call: {tool_name: {arguments}}")
        (name, arguments), = item.items()
        if name == USER:
            if not isinstance(arguments, str) or not arguments.strip():
                raise error(join(pointer, name), "a user step is the text of the message")
            arguments = {"text": arguments}
        elif arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise error(join(pointer, name), f"the arguments of {name} must be a mapping")
        line, column = index.locate(join(pointer, name) + "#key")
        calls.append(Call(name, arguments, SourceRef(file, line, column, pointer)))
    return Script(query, tuple(calls), file)


class Session:
    """A conversation in which the model discovers tools; `call` replays one call.

    `resolution` is what the model sees now; `steps` the calls so far.
    """

    def __init__(self, catalog: Catalog, profile: Profile = DEFAULT_PROFILE, query: str = "",
                 *, resolver: Resolver | None = None) -> None:
        self.resolver = resolver or Resolver(catalog, profile)
        self.query = query
        self.state = SessionState()
        self.loops = 0
        self._categories: tuple[Category, ...] | None = None  # see `_stable`
        self.resolution = self._stable(self.resolver.resolve(query, self.state))
        self.steps: list[Step] = []

    def run(self, calls: Sequence[Call]) -> list[Step]:
        """Replay `calls` in order (a `user` call is a new user message); returns their steps."""
        return [self.say(c.arguments["text"]) if c.name == USER else
                self.call(c.name, c.arguments, where=c.where) for c in calls]

    def say(self, text: str) -> Step:
        """The user sends a new message: the next request is resolved for it, and the
        gateway's phantom loop starts over."""
        before = self.resolution
        self.query, self.loops = text, 0
        return self._record(Call(USER, {"text": text}), before, None, False, "user-turn",
                            "a new user message; the next request is resolved for it")

    def call(self, name: str, arguments: Mapping[str, Any] | None = None, *,
             where: SourceRef | None = None) -> Step:
        """The model calls `name` with `arguments`: answer it and update what it sees."""
        call = Call(name, dict(arguments or {}), where)
        before = self.resolution
        tool = _find(before.visible, self.resolver.name, name)
        gateway = self.resolver.profile.gateway
        phantom = gateway is not None and tool is not None and tool.server == "gateway" \
            and tool.name == gateway.search_tool_name
        problem = _invalid(tool, call.arguments) if tool is not None else None
        if tool is None:
            self.loops = 0
            response, refused, rule, note = self._unavailable(before, name)
        elif phantom:
            self.loops += 1
            if self.loops > MAX_PHANTOM_LOOPS:
                self.loops = 0
                response, refused, rule = None, True, "phantom-loop-limit"
                note = (f"{MAX_PHANTOM_LOOPS} gateway searches in a row: the loop stops and "
                        "the call is removed from the response")
            elif problem:
                response, refused, rule, note = {"error": problem}, True, "call-invalid", problem
            else:
                response, refused, rule, note = self._gateway_search(before, call.arguments)
                note = f"phantom loop {self.loops} of {MAX_PHANTOM_LOOPS}: {note}"
        else:
            self.loops = 0
            if problem:
                response, refused, rule, note = {"error": problem}, True, "call-invalid", problem
            else:
                response, refused, rule, note = self._client_call(before, tool, call.arguments)
            used = (*self.state.recently_used, tool.qualified_name)
            self.state = replace(self.state, recently_used=tuple(dict.fromkeys(used)))
        return self._record(call, before, response, refused, rule, note)

    def _record(self, call: Call, before: Resolution, response: Any, refused: bool, rule: str,
                note: str) -> Step:
        self.resolution = self._stable(self.resolver.resolve(self.query, self.state))
        now, was = self.resolution.names("visible"), before.names("visible")
        step = Step(len(self.steps) + 1, call, response, refused, rule, note,
                    tuple(n for n in now if n not in was), tuple(n for n in was if n not in now),
                    self.resolution)
        self.steps.append(step)
        return step

    def _stable(self, resolution: Resolution) -> Resolution:
        """`resolution` with the tool search prompt's categories kept for the session: every
        category the session has listed, in the catalog's order of servers. A server whose
        last deferred tool was added stays listed (its tools can still be searched), so the
        system prompt a client renders each turn stays the same and its cache holds."""
        kept, now = self._categories, resolution.categories
        if kept is None or now == kept:
            self._categories = now
            return resolution
        names = {c.name for c in kept}
        if all(c.name in names for c in now):
            return replace(resolution, categories=kept)
        order = {name: i for i, name in enumerate(self.resolver.catalog.server_names())}
        merged = {c.name: c for c in (*kept, *now)}
        self._categories = tuple(sorted(merged.values(),
                                        key=lambda c: order.get(c.name, len(order))))
        return replace(resolution, categories=self._categories)

    # ---- handlers ------------------------------------------------------------------------

    def _unavailable(self, before: Resolution, name: str) -> tuple[Any, bool, str, str]:
        try:
            verdict = before.verdict(name)
        except KeyError:
            note = f"there is no tool called {name}"
        else:
            note = f"{name} is {verdict.status} ({verdict.rule}: {verdict.reason})"
            if verdict.via:
                note += f"; find it with {verdict.via}"
        return ({"error": f"tool '{name}' is not available"}, True, "call-unavailable", note)

    def _client_call(self, before: Resolution, tool: Tool, arguments: Mapping[str, Any]
                     ) -> tuple[Any, bool, str, str]:
        if self.resolver.is_builtin(tool):
            handler = {"search_tools": self._search_tools, "add_tool": self._add_tool,
                       "show_all_tools": self._show_all_tools,
                       "tool_search": self._tool_search}.get(tool.name)
            if handler is not None:
                return handler(before, arguments)
        return (None, False, "tool-call",
                f"{self.resolver.name(tool)} is called; toolcat does not run it and records "
                "it as recently used")

    def _pool(self) -> list[Tool]:
        """The catalog tools the agent may discover (after filters and levels)."""
        return list(self.resolver.pool)

    def _search_tools(self, before: Resolution, arguments: Mapping[str, Any]
                      ) -> tuple[Any, bool, str, str]:
        from toolcat.search.find import search_tools

        query = arguments["query"]
        result = search_tools(query, self._pool())
        if result.error is not None:
            return result.to_json(), False, "search-invalid-regex", \
                f"{query!r} is not a usable regular expression"
        # as serve answers: a tool that is not safe (unknown; unsafe when allowed) is marked
        tools = [{"name": self.resolver.name(s.tool), "description": s.tool.description,
                  **({} if s.tool.safe else {"safety": s.tool.safety})}
                 for s in result.results]
        if result.scorer == "regex":
            rule, note = "search-regex", f"the regex matched {plural(len(tools), 'tool')}"
        else:
            rule = "search-fuzzy-fallback"
            note = f"the regex matched nothing; fuzzy search found {plural(len(tools), 'tool')}"
        return ({"found": len(tools), "tools": tools, "message": result.message}, False, rule,
                note)

    def _add_tool(self, before: Resolution, arguments: Mapping[str, Any]
                  ) -> tuple[Any, bool, str, str]:
        visible = {t.qualified_name for t in before.visible}
        added, already, missing, keys = [], [], [], []
        for name in arguments["tool_names"]:
            tool = _find(self._pool(), self.resolver.name, name)
            if tool is None:
                missing.append(name)
            elif tool.qualified_name in visible:
                already.append(self.resolver.name(tool))
            else:
                added.append(self.resolver.name(tool))
                keys.append(tool.qualified_name)
        expanded = self._discover(keys)
        response = {"added": added, "already_available": already, "not_found": missing,
                    "message": add_tool_message(added, already, missing)}
        return response, False, "add-tool", \
            f"{len(added)} added, {len(missing)} not found{expanded}"

    def _show_all_tools(self, before: Resolution, arguments: Mapping[str, Any]
                        ) -> tuple[Any, bool, str, str]:
        names = set(before.names("visible"))
        names.update(self.resolver.name(t) for t in self._pool())
        listed = sorted(names)
        return ({"total": len(listed), "tools": listed}, False, "show-all-tools",
                f"{len(listed)} tool names")

    def _tool_search(self, before: Resolution, arguments: Mapping[str, Any]
                     ) -> tuple[Any, bool, str, str]:
        query, limit = arguments["query"], int(arguments.get("limit", TOOL_SEARCH_LIMIT))
        visible = {t.qualified_name for t in before.visible}
        scores = self.resolver.scores(query)
        floor = self.resolver.profile.mcp.min_score  # the automatic search's floor
        pool = [t for t in self._pool() if t.qualified_name not in visible
                and scores.get(t.qualified_name, 0.0) > 0
                and scores[t.qualified_name] >= floor]
        pool.sort(key=lambda t: -scores[t.qualified_name])
        found = pool[:limit]
        found = found[:fit(scores[t.qualified_name] for t in found)]  # where the fit ends
        expanded = self._discover([t.qualified_name for t in found])
        tools = [{"name": self.resolver.name(t), "server": t.server,
                  "description": t.description} for t in found]
        return ({"query": query, "found": len(tools), "tools": tools}, False,
                "tool-search-call",
                f"{len(tools)} tools found and loaded by relevance{expanded}")

    def _gateway_search(self, before: Resolution, arguments: Mapping[str, Any]
                        ) -> tuple[Any, bool, str, str]:
        gateway = self.resolver.profile.gateway
        assert gateway is not None
        deferred = [v.tool for v in before.verdicts
                    if v.status == "deferred" and v.via == gateway.search_tool_name]
        searched = gateway_search(gateway, deferred, arguments["query"])
        self._expand([t.qualified_name for t in searched.found])
        return ({"found": len(searched.found),
                 "tools": _summaries(self.resolver, searched.found),
                 "message": searched.message}, False, searched.rule, searched.note)

    def _discover(self, keys: Sequence[str]) -> str:
        """Load `keys` into the model's tools; returns a note for the step ("" or why the
        gateway now counts them as expanded)."""
        merged = (*self.state.discovered, *keys)
        self.state = replace(self.state, discovered=tuple(dict.fromkeys(merged)))
        gateway = self.resolver.profile.gateway
        if not keys or gateway is None or not gateway.enabled or gateway.strategy != "relevance":
            return ""
        # relevance has no search tool of its own: the model's searches are the session's
        # searches, and what they load is expanded (+1000, sticky)
        self._expand(keys)
        return "; expanded for the relevance gateway (+1000)"

    def _expand(self, keys: Sequence[str]) -> None:
        merged = (*self.state.expanded, *keys)
        self.state = replace(self.state, expanded=tuple(dict.fromkeys(merged)))


def _summaries(resolver: Resolver, tools: Sequence[Tool]) -> list[dict[str, str]]:
    return [{"name": resolver.name(t), "description": t.description} for t in tools]


def _find(tools: Sequence[Tool], shown: Callable[[Tool], str], name: str) -> Tool | None:
    """The tool of `tools` the model means by `name` (its `shown` name, plain or qualified).
    A qualified name is matched first, so a tool whose own name holds a colon cannot take
    the place of the tool that `server:tool` names."""
    for tool in tools:
        if name == tool.qualified_name:
            return tool
    for tool in tools:
        if name == shown(tool):
            return tool
    plain = [t for t in tools if t.name == name]
    return plain[0] if len(plain) == 1 else None


def _invalid(tool: Tool, arguments: Mapping[str, Any]) -> str | None:
    """Why `arguments` do not fit the tool's parameters schema, or None."""
    import jsonschema
    from referencing.exceptions import Unresolvable

    schema = tool.parameters
    if not isinstance(schema, Mapping):
        return None
    validator_class = jsonschema.validators.validator_for(schema)
    try:
        error = jsonschema.exceptions.best_match(validator_class(schema).iter_errors(arguments))
    except (jsonschema.exceptions.SchemaError, Unresolvable):
        return None  # the catalog's linter reports broken schemas; the call is not refused
    if error is None:
        return None
    place = "/".join(str(p) for p in error.absolute_path)
    return f"invalid arguments for {tool.name}" + (f" at {place}" if place else "") + \
        f": {schema_message(error)}"


def add_tool_message(added: Sequence[str], already: Sequence[str], missing: Sequence[str]
                     ) -> str:
    """What add_tool says it did, in the session and in serve alike."""
    parts = []
    if added:
        parts.append(f"Added {', '.join(added)}; they can be called now.")
    if already:
        parts.append(f"Already available: {', '.join(already)}.")
    if missing:
        parts.append(f"Not found: {', '.join(missing)}; use search_tools to find tools.")
    return " ".join(parts)
