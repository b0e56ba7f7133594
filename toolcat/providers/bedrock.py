"""AWS Bedrock Converse: `toolConfig: {tools: [{toolSpec: {name, description,
inputSchema: {json}, strict}}]}`.

A request has `system: [{text}]`, `messages` with content blocks, and `toolConfig` (left out
when there are no tools: it needs at least one). A response carries its calls as content blocks
`{toolUse: {toolUseId, name, input}}` in `output.message.content[]`; `input` is an object.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.anthropic import STRICT_FORMATS as CLAUDE_STRICT_FORMATS
from toolcat.providers.anthropic import is_model as is_claude
from toolcat.providers.anthropic import tool_use_overhead
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.replies import locate, named_call
from toolcat.providers.targets import LintTarget, StrictRules
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import (
    Note,
    Notes,
    RequestInput,
    Written,
    deferred_left_out,
    drop_none,
    object_schema,
    own_extra,
    with_model,
    written_tools,
)

CALL_PATHS = ("output/message/content/*", "message/content/*", "*")

SPEC_KEYS = {"name", "description", "inputSchema", "strict"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if isinstance(item.get("toolSpec"), dict) else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    spec = item.get("toolSpec")
    if not isinstance(spec, dict):
        raise ctx.fail("'toolSpec' must be a mapping with name, description and inputSchema")
    fields = Fields(spec, ctx, ("toolSpec",))
    input_schema = fields.mapping("inputSchema") or {}
    parameters = input_schema.get("json")
    if parameters is not None and not isinstance(parameters, dict):
        raise ctx.fail("'inputSchema.json' must be a JSON Schema object",
                       "toolSpec", "inputSchema", "json")
    return ctx.tool(
        item, "bedrock", ctx.pointer_to("toolSpec", "inputSchema", "json"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=parameters,
        strict=fields.flag("strict"),
        extra=fields.rest(SPEC_KEYS),
    )


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    if not tool.description:
        notes.append(Note(f"{tool.name}: Bedrock rejects an empty description; it was left out",
                          "Bedrock rejects an empty description: it was left out", tool.name))
    spec = drop_none({
        "name": tool.name,
        "description": tool.description or None,
        "inputSchema": {"json": object_schema(tool, notes, "Bedrock")},
        "strict": tool.strict,
    })
    return {"toolSpec": {**spec, **own_extra(tool, "bedrock")}}, notes


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["system"] = [{"text": req.system}]
    body["messages"] = [{"role": "user", "content": [{"text": req.query}]}]
    if req.tools:
        body["toolConfig"] = {"tools": written_tools(req.tools, write_tool, notes)}
    deferred_left_out(req, "Bedrock Converse", notes)
    return with_model(req, body, "modelId"), notes


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, CALL_PATHS, "Bedrock Converse")
    return [named_call(block["toolUse"], "name", "input", pointer + "/toolUse",
                       call_id=block["toolUse"].get("toolUseId")
                       if isinstance(block["toolUse"], dict) else None)
            for block, pointer in found
            if isinstance(block, dict) and "toolUse" in block]


_UNSUPPORTED = "not supported for strict tools [AWS Bedrock User Guide, 'Get validated JSON " \
               "results from models'; provider-formats.md §8.3]"
STRICT = StrictRules(
    label="Bedrock strict tools",
    rejected=dict.fromkeys(("minimum", "maximum", "multipleOf", "minLength", "maxLength"),
                           _UNSUPPORTED),
    formats=CLAUDE_STRICT_FORMATS,
    closed_objects=True,
    recursion=False,
    max_min_items=1,
    source="AWS Bedrock User Guide, structured output (provider-formats.md §8.3)",
)


def overhead(model: str | None) -> tuple[int, str]:
    """A Claude model on Bedrock gets Anthropic's tool-use system prompt; others add none
    that is documented."""
    return tool_use_overhead(model) if model and is_claude(model) else (0, "")


TOKENS = TokenRule(basis="Bedrock's models have no tokenizer toolcat can run offline",
                   overhead=overhead)

PROVIDER = Provider(
    name="bedrock",
    label="AWS Bedrock Converse",
    carries=BASE_FIELDS | {"strict"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"toolConfig": {"tools": items}},
    limits=Limits(description_required=True, parameters_required=True),
    request=request,
    parse_calls=parse_calls,
    lint_targets=(LintTarget(name="bedrock", label="AWS Bedrock Converse", strict=STRICT),),
    tokens=TOKENS,
)
