"""Ollama `/api/chat`: the OpenAI wrapped shape. A response carries its calls in
`message.tool_calls[]` as `{function: {name, arguments}}`, where `arguments` is an object.

The server decodes each tool into Go structs (api/types.go `ToolFunctionParameters` and
`ToolProperty`), and `json.Unmarshal` silently drops every key those structs have no field
for, whichever client sent the request: what is left is what the model's template renders.
The ollama Python client drops more before sending (no nested `properties`, no `anyOf`;
ollama-python #429, #724), so post the JSON over HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import UNREPORTED_KEYWORDS, Limits, Provider, SchemaChange
from toolcat.providers.names import ANY_NAME
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
from toolcat.providers.writing import Note, RequestInput, Written
from toolcat.source.positions import escape

# The fields of the server's structs (ollama/ollama api/types.go; provider-formats.md §5).
# `items` and `$defs` are typed `any` there, so whatever they hold goes through unchanged.
ROOT_KEPT = frozenset({"type", "$defs", "items", "required", "properties"})
PROPERTY_KEPT = frozenset({"anyOf", "type", "items", "description", "enum", "properties",
                           "required"})


def schema_changes(schema: Json) -> list[SchemaChange]:
    """The keywords the Ollama server drops from a tool's parameters schema."""
    changes: list[SchemaChange] = []
    _dropped(schema, "", ROOT_KEPT, changes)
    return changes


def _dropped(node: Json, at: str, kept: frozenset[str], changes: list[SchemaChange]) -> None:
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        here = f"{at}/{escape(key)}"
        if key not in kept and key not in UNREPORTED_KEYWORDS:
            changes.append(SchemaChange(here, key, f"{key} dropped: the Ollama server has no "
                                        "field for it"))
        elif key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                _dropped(sub, f"{here}/{escape(name)}", PROPERTY_KEPT, changes)
        elif key == "anyOf" and isinstance(value, list):
            for i, sub in enumerate(value):
                _dropped(sub, f"{here}/{i}", PROPERTY_KEPT, changes)


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "ollama")


def write_tool(tool: Tool) -> Written:
    """The OpenAI wrapped shape without `strict`: the server's function struct has no field
    for it, so a written `strict` would promise a check that never happens."""
    item, notes = write_wrapped(tool, "ollama")
    item["function"].pop("strict", None)
    return item, notes


def request_tool(tool: Tool) -> Written:
    """A tool as a request sends it, with a note for each keyword the server will drop."""
    item, notes = write_tool(tool)
    notes += [Note(f"{tool.name}: {change.message} (at {change.pointer})",
                   f"Ollama: {change.message}", tool.name)
              for change in schema_changes(tool.parameters)]
    return item, notes


def request(req: RequestInput) -> Written:
    return chat_request(req, request_tool, "Ollama")


def parse_calls(response: Json) -> list[ToolCall]:
    return wrapped_calls(response, "Ollama /api/chat")


PROVIDER = Provider(
    name="ollama",
    label="Ollama /api/chat",
    carries=BASE_FIELDS,
    # same shape as OpenAI: only chosen by --shape, never guessed
    claims=lambda item: claims(item) and 1,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": items},
    limits=Limits(names=ANY_NAME),
    request=request,
    parse_calls=parse_calls,
    request_tool=request_tool,
    schema_changes=schema_changes,
    lint_targets=(LintTarget(
        name="ollama", label="Ollama /api/chat",
        notes=("the ollama Python client drops more (nested properties, anyOf) before "
               "sending; post the JSON over HTTP",),
    ),),
    tokens=TokenRule(basis="the tokenizer depends on the model Ollama serves"),
)
