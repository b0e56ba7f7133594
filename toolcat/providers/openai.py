"""OpenAI Chat Completions: `tools: [{type: "function", function: {name, description,
parameters, strict}}]`. Ollama and Mistral use the same wrapped shape.

A response carries its calls in `choices[].message.tool_calls[]` as `{id, type: "function",
function: {name, arguments}}`, where `arguments` is a JSON string written by the model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.replies import locate, wrapped_call
from toolcat.providers.targets import LintTarget, StrictRules
from toolcat.providers.tokens import DEFAULT_ENCODING, TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import (
    Notes,
    RequestInput,
    Written,
    allowed_note,
    deferred_left_out,
    drop_none,
    messages,
    own_extra,
    with_model,
    written_tools,
)

FUNCTION_KEYS = {"name", "description", "parameters", "strict"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if item.get("type") == "function" and isinstance(item.get("function"), dict) else 0


def read_wrapped(item: Mapping[str, Json], ctx: ReadContext, shape: str) -> Tool:
    function = item.get("function")
    if not isinstance(function, dict):
        raise ctx.fail("'function' must be a mapping with the tool's name and parameters")
    fields = Fields(function, ctx, ("function",))
    extra = {k: v for k, v in item.items() if k not in ("type", "function")}
    extra.update(fields.rest(FUNCTION_KEYS))
    return ctx.tool(
        item, shape, ctx.pointer_to("function", "parameters"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("parameters"),
        strict=fields.flag("strict"),
        extra=extra,
    )


def write_wrapped(tool: Tool, shape: str) -> Written:
    function = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "parameters": tool.parameters,
        "strict": tool.strict,
    })
    extra = own_extra(tool, shape)
    outer = {k: v for k, v in extra.items() if k not in FUNCTION_KEYS and k in tool.raw}
    function.update({k: v for k, v in extra.items() if k not in outer})
    return {"type": "function", "function": function, **outer}, []


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "openai")


def write_tool(tool: Tool) -> Written:
    return write_wrapped(tool, "openai")


CALL_PATHS = ("choices/*/message/tool_calls/*", "message/tool_calls/*", "tool_calls/*", "*")


def chat_request(req: RequestInput, write: Callable[[Tool], Written], label: str) -> Written:
    """`{model?, messages: [system?, user], tools?}`: the body of a chat request."""
    notes: Notes = []
    body: dict[str, Json] = {"messages": messages(req)}
    if req.tools:
        body["tools"] = written_tools(req.tools, write, notes)
    deferred_left_out(req, label, notes)
    return with_model(req, body), notes


def request(req: RequestInput) -> Written:
    if req.plan is None or req.plan.deferred != "allowed" or not req.deferred:
        return chat_request(req, write_tool, "OpenAI Chat Completions")
    # every tool in the array, tool_choice allowing the shown ones: what a search finds later
    # widens the allowed list and leaves the tools array (the cached prefix) as it was
    notes: Notes = []
    shown = written_tools(req.tools, write_tool, notes)
    tools = shown + written_tools(req.deferred, write_tool, notes)
    allowed = [{"type": "function", "function": {"name": item["function"]["name"]}}
               for item in shown]
    body: dict[str, Json] = {"messages": messages(req), "tools": tools, "tool_choice": {
        "type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": allowed}}}
    allowed_note(req, notes)
    return with_model(req, body), notes


def wrapped_calls(response: Json, label: str) -> list[ToolCall]:
    """The calls of a chat response, a message, or a bare list of tool calls."""
    return [wrapped_call(item, pointer) for item, pointer in locate(response, CALL_PATHS, label)]


def parse_calls(response: Json) -> list[ToolCall]:
    return wrapped_calls(response, "OpenAI Chat Completions")


STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4",
                            "ipv6", "uuid"})

STRICT = StrictRules(
    label="OpenAI strict mode",
    rejected=dict.fromkeys(
        ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else"),
        "not supported in strict mode [OpenAI Structured Outputs guide, 'Supported schemas']"),
    formats=STRICT_FORMATS,
    closed_objects=True,
    all_required=True,
    root_any_of=False,
    ref_siblings=False,
    max_depth=10,
    max_properties=5000,
    max_enum_values=1000,
    source="OpenAI Structured Outputs guide, 'Supported schemas'; openai-python "
           "lib/_pydantic.py _ensure_strict_json_schema (provider-formats.md §8.1)",
)

LINT_TARGETS = (
    LintTarget(
        name="openai", label="OpenAI Chat Completions", strict=STRICT, description_max=1024,
        max_tools_note="documented 2024-03 to 2025-08; API error 'maximum length 128' "
                       "seen mid-2025",
    ),
    LintTarget(
        name="openai-strict", label="OpenAI Chat Completions, every tool strict",
        strict=STRICT, always_strict=True, description_max=1024, in_all=False,
    ),
)

_CL100K_MODELS = ("gpt-4", "gpt-3.5", "text-embedding-3", "text-embedding-ada")


def is_model(model: str) -> bool:
    """Whether `model` is an OpenAI model id."""
    name = model.lower().removeprefix("openai/")
    return name.startswith(("gpt-", "o1", "o3", "o4", "chatgpt-", "text-embedding-", "ft:gpt"))


def encoding(model: str) -> str:
    """tiktoken's encoding for an OpenAI model id (o200k_base for every current model)."""
    name = model.lower().removeprefix("openai/").removeprefix("ft:")
    if name.startswith(_CL100K_MODELS) and not name.startswith(("gpt-4o", "gpt-4.")):
        return "cl100k_base"
    return DEFAULT_ENCODING


# OpenAI's encodings are public (tiktoken), so counts for its models are exact for the text
# toolcat sends; the API adds a few formatting tokens of its own around tools.
TOKENS = TokenRule(
    exact=True,
    basis="OpenAI adds a few formatting tokens around each tool that are not counted",
    models=is_model,
    encoding=encoding,
)

PROVIDER = Provider(
    name="openai",
    label="OpenAI Chat Completions",
    carries=BASE_FIELDS | {"strict"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(max_tools=128),
    request=request,
    parse_calls=parse_calls,
    allowed_tools=True,
    lint_targets=LINT_TARGETS,
    tokens=TOKENS,
)
