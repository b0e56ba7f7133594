"""Ollama `/api/chat`: the OpenAI wrapped shape; returned arguments are objects."""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool
from toolcat.providers.base import BASE_FIELDS, Json, Limits, Provider, ReadContext, Written
from toolcat.providers.openai import claims, read_wrapped, write_wrapped


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    return read_wrapped(item, ctx, "ollama")


def write_tool(tool: Tool) -> Written:
    return write_wrapped(tool, "ollama")


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
)
