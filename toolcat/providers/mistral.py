"""Mistral chat: the OpenAI wrapped shape, with `parameters` required. A response carries its
calls in `choices[].message.tool_calls[]`; `arguments` is an object or a JSON string."""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import Limits, Provider
from toolcat.providers.openai import (
    chat_request,
    claims,
    read_wrapped,
    wrapped_calls,
    write_wrapped,
)
from toolcat.providers.reading import BASE_FIELDS, ReadContext
from toolcat.providers.targets import LintTarget
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import Notes, RequestInput, Written, object_schema


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "mistral")


def write_tool(tool: Tool) -> Written:
    notes: Notes = []
    schema = object_schema(tool, notes, "Mistral")
    written, _ = write_wrapped(tool, "mistral")
    written["function"]["parameters"] = schema
    return written, notes


def request(req: RequestInput) -> Written:
    return chat_request(req, write_tool, "Mistral")


def parse_calls(response: Json) -> list[ToolCall]:
    return wrapped_calls(response, "Mistral chat")


PROVIDER = Provider(
    name="mistral",
    label="Mistral chat",
    carries=BASE_FIELDS | {"strict"},
    claims=lambda item: claims(item) and 1,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(parameters_required=True),
    request=request,
    parse_calls=parse_calls,
    lint_targets=(LintTarget(name="mistral", label="Mistral API"),),
    tokens=TokenRule(basis="Mistral's tokenizers (mistral-common) are not part of toolcat"),
)
