"""Writing tools and requests in a provider's format: what a request carries (`RequestInput`,
`SearchPlan`), the notes about what a written tool could not keep (`Note`), and the helpers
the provider modules share to build tools arrays and requests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from toolcat.model import Tool
from toolcat.providers.types import Json


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
