"""OpenAI Responses: flat function tools `{type: "function", name, description, parameters,
strict, defer_loading}`.

A request has `instructions` (the system prompt), `input` and `tools`; deferred tools are sent
with `defer_loading: true`, next to a `tool_search` tool when the request has no tool search of
its own. A profile's provider_search chooses the `tool_search` tool (hosted, or
`execution: "client"` with toolcat's search answering each `tool_search_call` with a
`tool_search_output` item, which the API injects at the end of the context), groups the deferred
functions in one `namespace` per server, or keeps every tool in the array and lets
`tool_choice: {type: "allowed_tools"}` say which may be called.

A response carries its calls as `output[]` items `{type: "function_call", call_id, name,
arguments}`, where `arguments` is a JSON string.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.openai import TOKENS
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.replies import locate, named_call
from toolcat.providers.types import Json
from toolcat.providers.writing import (
    Notes,
    RequestInput,
    Written,
    allowed_note,
    drop_none,
    own_extra,
    planned_tools,
    with_deferred,
    with_model,
)

KEYS = {"type", "name", "description", "parameters", "strict", "defer_loading"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if item.get("type") == "function" and "name" in item and "function" not in item \
        else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    return ctx.tool(
        item, "openai-responses", ctx.pointer_to("parameters"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("parameters"),
        strict=fields.flag("strict"),
        defer_loading=fields.flag("defer_loading"),
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    """A flat function tool. `name`, `parameters` and `strict` are required by the SDK's
    FunctionToolParam, and the API reads a missing `strict` as true (then rejects every schema
    with an optional field), so `strict` is always written: false unless the tool says so."""
    return {
        "type": "function",
        "name": tool.name,
        **drop_none({"description": tool.description or None}),
        "parameters": tool.parameters,
        "strict": bool(tool.strict),
        **drop_none({"defer_loading": tool.defer_loading}),
        **own_extra(tool, "openai-responses"),
    }, []


SEARCH_VARIANTS = ("hosted", "client")
HOSTED_SEARCH: dict[str, Json] = {"type": "tool_search"}


def search_tool(variant: str, client_search: Tool | None) -> dict[str, Json]:
    """The tool_search tool: hosted (OpenAI runs the search), or run by the client, which is
    described to the model by `client_search` (toolcat's tool_search built-in)."""
    if variant == "hosted":
        return dict(HOSTED_SEARCH)
    item: dict[str, Json] = {"type": "tool_search", "execution": "client"}
    if client_search is not None:
        item.update(drop_none({"description": client_search.description or None,
                               "parameters": client_search.parameters}))
    return item


def namespace_name(server: str) -> str:
    """A server's name as a namespace name (letters, digits, '_' and '-', at most 64)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", server)[:64] or "tools"


def namespaced(tools: Sequence[Tool], items: list[dict[str, Json]],
               servers: Mapping[str, str]) -> list[dict[str, Json]]:
    """`items` (written from `tools`, in order) grouped in one namespace per server, in the
    order servers first appear; a tool without a server stays a top-level function."""
    groups: dict[str, list[dict[str, Json]]] = {}
    out: list[dict[str, Json]] = []
    for tool, item in zip(tools, items, strict=True):
        if not tool.server:
            out.append(item)
            continue
        if tool.server not in groups:
            groups[tool.server] = []
            description = servers.get(tool.server) or f"Tools of the {tool.server} server."
            out.append({"type": "namespace", "name": namespace_name(tool.server),
                        "description": description, "tools": groups[tool.server]})
        groups[tool.server].append(item)
    return out


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["instructions"] = req.system
    body["input"] = [{"role": "user", "content": req.query}]
    plan = req.plan
    if plan is None:
        tools = with_deferred(req, write_tool, {"type": "tool_search"},
                              "hosted tool_search tool", notes)
    else:
        shown, deferred = planned_tools(req, write_tool, notes)
        if deferred and plan.deferred == "defer" and plan.namespaces:
            deferred = namespaced(req.deferred, deferred, req.servers)
        tools = [*shown, *deferred]
        if plan.native is not None:
            tools.append(search_tool(plan.native, plan.client_search))
            who = "OpenAI runs" if plan.native == "hosted" else "the client runs"
            notes.append(f"{len(req.deferred)} tools are deferred (defer_loading) behind the "
                         f"tool_search tool, which {who}")
        if plan.deferred == "allowed" and req.deferred:
            body["tool_choice"] = {"type": "allowed_tools", "mode": "auto",
                                   "tools": [{"type": "function", "name": item["name"]}
                                             for item in shown]}
            allowed_note(req, notes)
    if tools:
        body["tools"] = tools
    return with_model(req, body), notes


def upfront(item: dict[str, Json]) -> dict[str, Json] | None:
    """What the model sees before tool_search loads a deferred tool (the tool search guide):
    a deferred function's name and description, a namespace's name and description and its
    functions that are not deferred."""
    if item.get("type") == "namespace":
        kept = [t for t in item.get("tools", ()) if not t.get("defer_loading")]
        return {"type": "namespace", "name": item["name"], "description": item["description"],
                **({"tools": kept} if kept else {})}
    if item.get("defer_loading") is True:
        return drop_none({"type": item.get("type"), "name": item.get("name"),
                          "description": item.get("description")})
    return item


def search_output(call_id: str, found: list[tuple[dict[str, Json] | None, dict[str, Json]]]
                  ) -> dict[str, Json]:
    """The input item a client-run tool search answers a `tool_search_call` with: the loaded
    definitions (in their namespaces), which the API injects at the end of the context."""
    tools: list[dict[str, Json]] = []
    spaces: dict[str, list[dict[str, Json]]] = {}
    for namespace, item in found:
        loaded = {k: v for k, v in item.items() if k != "defer_loading"}
        if namespace is None:
            tools.append(loaded)
            continue
        if namespace["name"] not in spaces:
            spaces[namespace["name"]] = []
            tools.append({"type": "namespace", "name": namespace["name"],
                          "description": namespace["description"],
                          "tools": spaces[namespace["name"]]})
        spaces[namespace["name"]].append(loaded)
    return {"type": "tool_search_output", "call_id": call_id, "execution": "client",
            "status": "completed", "tools": tools}


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, ("output/*", "*"), "OpenAI Responses")
    return [named_call(item, "name", "arguments", pointer, call_id=item.get("call_id"))
            for item, pointer in found
            if isinstance(item, dict) and item.get("type") == "function_call"]


PROVIDER = Provider(
    name="openai-responses",
    label="OpenAI Responses",
    carries=BASE_FIELDS | {"strict", "defer_loading"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(),
    request=request,
    parse_calls=parse_calls,
    defers=True,
    native_search=SEARCH_VARIANTS,
    client_variants=("client",),
    allowed_tools=True,
    upfront=upfront,
    loaded=search_output,
    tokens=TOKENS,  # the same models as Chat Completions
)
