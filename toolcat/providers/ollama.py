"""Ollama `/api/chat`: the OpenAI wrapped shape. A response carries its calls in
`message.tool_calls[]` as `{function: {name, arguments}}`, where `arguments` is an object."""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.base import (
    BASE_FIELDS,
    Json,
    Limits,
    Provider,
    ReadContext,
    RequestInput,
    Written,
)
from toolcat.providers.openai import (
    chat_request,
    claims,
    read_wrapped,
    wrapped_calls,
    write_wrapped,
)


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "ollama")


def write_tool(tool: Tool) -> Written:
    return write_wrapped(tool, "ollama")


def request(req: RequestInput) -> Written:
    return chat_request(req, write_tool, "Ollama")


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
    limits=Limits(name_pattern=r"^.+$"),
    request=request,
    parse_calls=parse_calls,
)
