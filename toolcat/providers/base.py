"""What every wire format module provides, and the small helpers they share.

A provider module knows its format both ways: it reads tool definitions from it (`read_tool`),
writes a tool in it (`write_tool`), wraps written tools into the format's container (`wrap`),
and states which canonical fields it can carry, so conversions know what survives a round trip.
The model APIs among them also build a whole request (`request`: system prompt, user message,
tools) and read the tool calls out of a response (`parse_calls`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from toolcat.errors import CatalogError, ResponseError
from toolcat.model import PendingSourceRef, Server, Source, SourceRef, Tool, ToolCall
from toolcat.providers.names import NameRule
from toolcat.providers.targets import LintTarget
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import json_schema_types
from toolcat.source.positions import PositionIndex, escape, join

S = TypeVar("S", bound=str)  # one of a fixed set of names (a Literal)

Json = Any


@dataclass(frozen=True)
class ReadContext:
    """Where an item sits, so errors and tools can point back at the file."""

    file: str
    pointer: str
    index: PositionIndex
    default_server: str = ""
    default_source: Source = "custom"
    # foreign type names (`dict`, `float`, ...) mapped while reading, counted by mapping
    mapped_types: Counter[str] = field(default_factory=Counter, compare=False)
    # False when the file is known to hold no foreign type name: schemas are taken as they are
    foreign_types: bool = True
    # False when the file's text cannot hold example requests: they are not looked for
    examples: bool = True

    def ref(self, *tokens: str | int) -> SourceRef:
        pointer = join(self.pointer, *tokens)
        line, column = self.index.locate(pointer)
        return SourceRef(self.file, line, column, pointer)

    def pointer_to(self, *tokens: str | int) -> str:
        return join(self.pointer, *tokens)

    def tool(self, item: Mapping[str, Json], shape: str, schema_pointer: str,
             **fields: Any) -> Tool:
        """A Tool read from `item` here: `fields` are what the shape carries; the server and
        source default to this file's, and raw, origin and the schema's place are filled in."""
        fields.setdefault("server", self.default_server)
        fields.setdefault("source", self.default_source)
        if self.examples and not fields.get("example_requests"):
            requests = self.example_requests(item)
            if requests:
                fields["example_requests"] = requests
        if self.foreign_types and fields.get("parameters") is not None:
            fields["parameters"], made = json_schema_types(fields["parameters"])
            self.mapped_types.update(made)
        origin = PendingSourceRef(self.file, self.pointer, self.index.locate)
        return Tool(raw=item, origin=origin, schema_pointer=schema_pointer, shape=shape,
                    **fields)

    def fail(self, message: str, *tokens: str | int) -> CatalogError:
        return CatalogError(message, where=self.ref(*tokens))

    def example_requests(self, item: Mapping[str, Json]) -> tuple[str, ...]:
        """Example requests an author wrote on a tool of any shape (docs/tune.md): the
        `x-example-requests` extension key, on the item or on the function it wraps, or the
        `io.toolcat/example_requests` key of an MCP tool's `_meta`."""
        for path in EXAMPLE_REQUEST_KEYS:
            value = at_path(item, path)
            if value is not None:
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(
                        isinstance(v, str) and v.strip() for v in value):
                    raise self.fail(f"'{path[-1]}' must be a list of requests (strings)",
                                    *path)
                return tuple(value)
        return ()


@dataclass(frozen=True)
class Limits:
    """Documented limits of a provider (see ../shared/reference/provider-formats.md)."""

    names: NameRule = field(default_factory=NameRule)  # `^[a-zA-Z0-9_-]{1,64}$` by default
    # what parameter (property) names may be; None: any. Lint (TC406) and render both ask it
    property_names: NameRule | None = None
    max_tools: int | None = None
    description_required: bool = False
    parameters_required: bool = False
    notes: tuple[str, ...] = ()

    @property
    def name_pattern(self) -> str:
        return self.names.pattern

    def name_ok(self, name: str) -> bool:
        return self.names.accepts(name)

    def rejected_properties(self, schema: Json) -> list[str]:
        """The property names anywhere in `schema` this provider refuses, in document order,
        each once."""
        rule = self.property_names
        if rule is None:
            return []
        found: dict[str, None] = {}
        stack = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(reversed(node))
            elif isinstance(node, dict):
                for key, value in node.items():
                    if key == "properties" and isinstance(value, dict):
                        found.update((name, None) for name in value if not rule.accepts(name))
                    if key not in ("enum", "const", "default", "examples", "example") \
                            and isinstance(value, (dict, list)):
                        stack.append(value)
        return list(found)


@dataclass(frozen=True)
class Note:
    """Something a written tool or request could not keep as it is. Notes of one `kind` are
    summarised as one line with a count (`render` without -v); `tool` is the tool concerned."""

    text: str
    kind: str = ""
    tool: str = ""

    def __str__(self) -> str:
        return self.text


Notes = list["str | Note"]
Written = tuple[dict[str, Json], Notes]


def summarize(notes: list[str | Note]) -> tuple[str, ...]:
    """The notes with those of one kind folded into one line: the kind, how many tools, and
    the first few of them."""
    by_kind: dict[str, list[Note]] = {}
    order: list[str | Note] = []
    for note in notes:
        if isinstance(note, Note) and note.kind:
            if note.kind not in by_kind:
                order.append(note.kind)
            by_kind.setdefault(note.kind, []).append(note)
        else:
            order.append(note)
    lines = []
    for entry in order:
        group = by_kind.get(entry) if isinstance(entry, str) else None
        if group is None:
            lines.append(str(entry))
        elif len(group) == 1:
            lines.append(group[0].text)
        else:
            tools = list(dict.fromkeys(n.tool for n in group))
            shown = ", ".join(tools[:3]) + (f" and {len(tools) - 3} more" if len(tools) > 3
                                            else "")
            lines.append(f"{entry}: {len(tools)} tools ({shown})")
    return tuple(dict.fromkeys(lines))


@dataclass(frozen=True)
class SchemaChange:
    """What a provider does to one keyword of a schema: drops it (the constraint is lost) or
    says it another way (`dropped` false). `pointer` is the keyword's place in the canonical
    schema."""

    pointer: str
    keyword: str
    message: str
    dropped: bool = True


# Annotations for people, not constraints: a provider that drops them loses nothing a model
# needs (pydantic writes a `title` on every property), so they are never reported.
UNREPORTED_KEYWORDS = frozenset({"title", "$schema", "$comment", "$id", "$anchor"})


Deferred = Literal["defer", "allowed", "omit"]


@dataclass(frozen=True)
class SearchPlan:
    """How one request lets the model reach its deferred tools, as render decided it from the
    profile's `provider_search` (docs/render.md).

    `native`: the provider's own search to add (one of `Provider.native_search`), None for
    none. `deferred`: the deferred tools go in the tools array marked `defer_loading`
    ("defer"), in it unmarked while `tool_choice` allows only the shown tools ("allowed"), or
    not at all ("omit"). `namespaces`: deferred functions are grouped in one namespace per
    server (OpenAI Responses). `client_search`: the tool whose description and parameters a
    search run by the client is given (OpenAI Responses' `execution: "client"`).
    """

    native: str | None = None
    deferred: Deferred = "defer"
    namespaces: bool = False
    client_search: Tool | None = None


@dataclass(frozen=True)
class RequestInput:
    """What a request carries: the system prompt, the user's message and the tools.

    `tools` go in the request's tools array in this order; `deferred` tools are loaded later
    through tool search, so a provider with deferred loading sends them marked as deferred and
    one without leaves them out. `model` is the model id when it is known.
    """

    system: str
    query: str
    tools: tuple[Tool, ...] = ()
    deferred: tuple[Tool, ...] = ()
    model: str | None = None
    discovery: bool = False  # the tools include a client-side tool search tool
    plan: SearchPlan | None = None  # None: deferred loading as `with_deferred` writes it
    servers: Mapping[str, str] = field(default_factory=dict)  # server -> its description


@dataclass(frozen=True)
class Provider:
    """One wire format. `claims` scores how much an item looks like this format (0 = not);
    it may look only at the item's keys, the types of their values and the value of `type`
    (detection asks once for all items alike in these, see toolcat.catalog.detect).

    `request` and `parse_calls` exist for the model APIs only (not for catalog shapes such as
    mcp, toolcat or capability): `request` builds a whole request body with its notes, and
    `parse_calls` reads the tool calls of a response (raising ResponseError when the response
    is not of this format).

    `lint_targets` are the ways of calling it that `lint --target` checks a catalog against
    (none for catalog shapes), and `tokens` how its requests are priced.
    """

    name: str
    label: str
    carries: frozenset[str]
    claims: Callable[[Mapping[str, Json]], int]
    read_tool: Callable[[Mapping[str, Json], ReadContext], Tool]
    write_tool: Callable[[Tool], Written]
    wrap: Callable[[list[dict[str, Json]], Sequence[Server]], Json]
    limits: Limits = field(default_factory=Limits)
    yaml_native: bool = False
    request: Callable[[RequestInput], Written] | None = None
    parse_calls: Callable[[Json], list[ToolCall]] | None = None
    request_tool: Callable[[Tool], Written] | None = None  # when it differs from write_tool
    # what the provider's API does to a schema it is sent (None: keeps all of it); render's
    # notes and lint's TC402 both come from here
    schema_changes: Callable[[Json], list[SchemaChange]] | None = None
    defers: bool = False  # requests carry deferred tools (marked defer_loading)
    # the provider's own tool search variants a profile may name (provider_search), and
    # whether tool_choice can allow a subset of the tools array (`allowed_tools`)
    native_search: tuple[str, ...] = ()
    client_variants: tuple[str, ...] = ()  # of those, the variants whose search the client runs
    allowed_tools: bool = False
    # a search the client runs can load deferred tools by naming them (Anthropic's
    # tool_reference blocks), so they need not be written into the tools array
    references: bool = False
    # what the model sees of a tools-array item before a search loads it (None: nothing);
    # None here: every item as it is written
    upfront: Callable[[dict[str, Json]], dict[str, Json] | None] | None = None
    # what a search the client runs answers with to load deferred tools: given a call id and
    # the loaded tools' items as the request wrote them (each with the namespace item that
    # held it, or None), the item appended to the conversation
    loaded: Callable[[str, list[tuple[dict[str, Json] | None, dict[str, Json]]]], Json] | None \
        = None
    lint_targets: tuple[LintTarget, ...] = ()
    tokens: TokenRule = field(default_factory=TokenRule)

    def tool_for_request(self, tool: Tool) -> Written:
        """One tool as this provider's requests carry it."""
        return (self.request_tool or self.write_tool)(tool)


BASE_FIELDS = frozenset({"name", "description", "parameters"})
# where a shape without its own field keeps a tool's example requests (ReadContext)
EXAMPLE_REQUEST_KEYS: tuple[tuple[str, ...], ...] = (
    ("x-example-requests",), ("function", "x-example-requests"),
    ("toolSpec", "x-example-requests"), ("_meta", "io.toolcat/example_requests"))
IGNORE_KEY = "x-toolcat-ignore"  # lint rules a tool or server silences for itself


def at_path(item: Mapping[str, Json], path: Sequence[str]) -> Any:
    """The value at `path` (keys of nested mappings) in `item`, or None."""
    value: Any = item
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


class Fields:
    """Typed access to the keys of one raw item; a wrong type is a CatalogError at its key."""

    def __init__(self, item: Mapping[str, Json], ctx: ReadContext,
                 prefix: tuple[str | int, ...] = ()) -> None:
        self.item = item
        self.ctx = ctx
        self.prefix = prefix

    def _fail(self, key: str, expected: str) -> CatalogError:
        return self.ctx.fail(f"'{key}' must be {expected}", *self.prefix, key)

    def name(self, key: str = "name") -> str:
        value = self.item.get(key)
        if value is None or value == "":
            raise self.ctx.fail("tool has no name", *self.prefix)
        if not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    def text(self, key: str, default: str = "") -> str:
        value = self.item.get(key, default)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if self.item.get(key) is not None else None

    def flag(self, key: str, default: bool | None = None) -> bool | None:
        value = self.item.get(key, default)
        if value is not None and not isinstance(value, bool):
            raise self._fail(key, "true or false")
        return value

    def integer(self, key: str, default: int) -> int:
        value = self.item.get(key, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, "a whole number")
        return value

    def mapping(self, key: str) -> Mapping[str, Json] | None:
        value = self.item.get(key)
        if value is not None and not isinstance(value, dict):
            raise self._fail(key, "a mapping")
        return value

    def schema(self, key: str) -> Mapping[str, Json] | bool | None:
        value = self.item.get(key)
        if value is not None and not isinstance(value, (dict, bool)):
            raise self._fail(key, "a JSON Schema object")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.item.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, "a list of strings")
        return tuple(value)

    def values(self, key: str) -> tuple[Json, ...]:
        value = self.item.get(key)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._fail(key, "a list")
        return tuple(value)

    def choice(self, key: str, allowed: tuple[S, ...], default: S | None) -> S | None:
        value = self.item.get(key, default)
        if value is not None and value not in allowed:
            raise self._fail(key, "one of " + ", ".join(allowed))
        return value

    def rest(self, known: set[str]) -> dict[str, Json]:
        """The keys not in `known`, kept as they are; `x-toolcat-ignore` is type-checked."""
        if IGNORE_KEY in self.item and IGNORE_KEY not in known:
            value = self.item[IGNORE_KEY]
            if not isinstance(value, (str, list)) or (
                    isinstance(value, list) and not all(isinstance(v, str) for v in value)):
                raise self._fail(IGNORE_KEY, "a lint rule id or a list of rule ids")
        return {k: v for k, v in self.item.items() if k not in known}


def own_extra(tool: Tool, shape: str) -> dict[str, Json]:
    """Unknown keys read from this same shape, re-emitted so a same-shape round trip is exact."""
    return dict(tool.extra) if tool.shape == shape else {}


def object_schema(tool: Tool, notes: Notes, provider: str) -> Json:
    """The tool's schema, or an empty object schema (noted) where the format requires one."""
    if tool.parameters is not None:
        return tool.parameters
    notes.append(Note(f"{tool.name}: has no parameters schema; {provider} requires one, so "
                      "an empty object schema was written",
                      f"{provider} requires a parameters schema: an empty object schema was "
                      "written", tool.name))
    return {"type": "object", "properties": {}}


def drop_none(mapping: dict[str, Json]) -> dict[str, Json]:
    return {k: v for k, v in mapping.items() if v is not None}


def messages(req: RequestInput) -> list[dict[str, Json]]:
    """Chat messages in the OpenAI style: the system prompt (when there is one), then the user."""
    out: list[dict[str, Json]] = []
    if req.system:
        out.append({"role": "system", "content": req.system})
    out.append({"role": "user", "content": req.query})
    return out


def with_model(req: RequestInput, body: dict[str, Json], key: str = "model") -> dict[str, Json]:
    return {key: req.model, **body} if req.model else body


def written_tools(tools: Sequence[Tool], write: Callable[[Tool], Written],
                  notes: Notes) -> list[dict[str, Json]]:
    items = []
    for tool in tools:
        item, tool_notes = write(tool)
        items.append(item)
        notes.extend(tool_notes)
    return items


def with_deferred(req: RequestInput, write: Callable[[Tool], Written], search_tool: Json,
                  search_label: str, notes: Notes) -> list[dict[str, Json]]:
    """The tools of a request for a provider with deferred loading: shown tools as they are
    (resolve decided they are shown, whatever their catalog says), the deferred ones with
    `defer_loading: true`, and the provider's own search tool when the request brings none."""
    shown = [replace(tool, defer_loading=None) for tool in req.tools]
    deferred = [replace(tool, defer_loading=True) for tool in req.deferred]
    tools = written_tools([*shown, *deferred], write, notes)
    if deferred and not req.discovery:
        tools.append(dict(search_tool))
        notes.append(f"{len(deferred)} tools are deferred (defer_loading); the {search_label} "
                     "was added so the model can load them")
    return tools


def planned_tools(req: RequestInput, write: Callable[[Tool], Written],
                  notes: Notes) -> tuple[list[dict[str, Json]], list[dict[str, Json]]]:
    """The tools a SearchPlan puts in a request: the shown ones as they are, then the
    deferred ones as the plan says (marked `defer_loading`, unmarked, or none), each list
    written separately so a provider can group the deferred ones."""
    plan = req.plan or SearchPlan()
    shown = written_tools([replace(t, defer_loading=None) for t in req.tools], write, notes)
    if plan.deferred == "omit" or not req.deferred:
        if req.deferred:
            notes.append(f"{len(req.deferred)} deferred tools are not in the payload: the "
                         "profile's provider_search sends them only once they are found "
                         "(the tools list is rewritten)")
        return shown, []
    flag = True if plan.deferred == "defer" else None
    deferred = written_tools([replace(t, defer_loading=flag) for t in req.deferred], write,
                             notes)
    return shown, deferred


def allowed_note(req: RequestInput, notes: Notes) -> None:
    notes.append(f"{len(req.deferred)} deferred tools are in the tools array; tool_choice "
                 f"allows only the {len(req.tools)} shown tools, so what a search finds is "
                 "allowed later without changing the tools array")


def deferred_left_out(req: RequestInput, label: str, notes: Notes) -> None:
    """Note that a provider without deferred loading leaves the deferred tools out."""
    if req.deferred:
        how = ("through the tool search tool" if req.discovery
               else "only once they are added to the request")
        notes.append(f"{len(req.deferred)} deferred tools are not in the payload: {label} has "
                     f"no deferred loading, so the model reaches them {how}")


def select(document: Json, path: str) -> list[tuple[Json, str]] | None:
    """The nodes at `path` (keys and `*` for every list item, separated by `/`), with their JSON
    pointers; None when the first step is missing, which means a different shape. A later
    missing key just yields nothing (a reply without tool calls)."""
    steps = path.split("/")
    first = steps[0]
    if first == "*" and not isinstance(document, list):
        return None
    if first != "*" and not (isinstance(document, dict) and first in document):
        return None
    nodes: list[tuple[Json, str]] = [(document, "")]
    for step in steps:
        following: list[tuple[Json, str]] = []
        for node, pointer in nodes:
            if step == "*" and isinstance(node, list):
                following += [(value, f"{pointer}/{i}") for i, value in enumerate(node)]
            elif step != "*" and isinstance(node, dict) and step in node:
                following.append((node[step], f"{pointer}/{escape(step)}"))
        nodes = following
    return nodes


def locate(response: Json, paths: Sequence[str], label: str) -> list[tuple[Json, str]]:
    """The items at the first of `paths` that the response has; ResponseError when none."""
    for path in paths:
        found = select(response, path)
        if found is not None:
            return found
    shown = " or ".join("a list" if p == "*" else p.replace("/*", "[]").replace("/", ".")
                        for p in paths)
    raise ResponseError(f"not a {label} response: expected {shown}")


def wrapped_call(item: Json, pointer: str) -> ToolCall:
    """A call in the OpenAI wrapped shape `{id?, type?, function: {name, arguments}}`."""
    function = item.get("function") if isinstance(item, dict) else None
    if not isinstance(function, dict):
        return ToolCall("", pointer=pointer, error="tool call has no 'function' object")
    return named_call(function, "name", "arguments", pointer + "/function",
                      call_id=item.get("id"), outer=pointer)


def named_call(item: Json, name_key: str, args_key: str, pointer: str, *,
               call_id: Json = None, outer: str | None = None) -> ToolCall:
    """A call from an object holding the tool's name and its arguments under these keys."""
    at = pointer if outer is None else outer
    if not isinstance(item, dict):
        return ToolCall("", pointer=at, error="tool call is not an object")
    name = item.get(name_key)
    call_id = str(call_id) if isinstance(call_id, (str, int)) else None
    if not isinstance(name, str) or not name:
        return ToolCall("", id=call_id, pointer=at, error=f"tool call has no '{name_key}'")
    return ToolCall(name, item.get(args_key), id=call_id, pointer=at)
