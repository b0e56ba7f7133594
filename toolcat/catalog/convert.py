"""Write tools in any shape, and serialize the result as JSON or YAML text."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from toolcat.define import definition_of
from toolcat.model import Server, Tool
from toolcat.providers import get_provider


@dataclass(frozen=True)
class Converted:
    shape: str
    payload: Any
    notes: tuple[str, ...]
    count: int


def convert(tools: Iterable[Tool | Any], shape: str, servers: Sequence[Server] = ()) -> Converted:
    """The tools written in `shape`, with a note for everything the shape could not hold.

    `tools` are Tools, or classes and functions decorated with `@toolcat.tool`.
    """
    provider = get_provider(shape)
    items, notes = [], []
    for tool in tools:
        written, tool_notes = provider.write_tool(definition_of(tool))
        items.append(written)
        notes += tool_notes
    return Converted(shape, provider.wrap(items, servers), tuple(notes), len(items))


def to_text(payload: Any, *, as_yaml: bool) -> str:
    if as_yaml:
        return yaml.safe_dump(payload, sort_keys=False, allow_unicode=True, width=100)
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
