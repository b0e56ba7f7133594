"""Write tools in any shape, and serialize the result as JSON or YAML text."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
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


def to_text(payload: Any, *, as_yaml: bool, width: int = 100) -> str:
    """JSON, or YAML with strings folded at `width` columns (a huge width: never folded)."""
    if as_yaml:
        return "".join(_yaml_parts(payload, width))
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# Long lists are dumped this many items at a time: the same text, but no single call into
# libyaml runs for seconds, so a caller's deadline can interrupt between batches.
_YAML_BATCH = 500


def _yaml_parts(payload: Any, width: int) -> Iterator[str]:
    # libyaml's emitter when PyYAML has it: 50,000 tools in seconds rather than a minute
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    def dump(data: Any) -> str:
        return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=width)

    if not isinstance(payload, dict) or not payload:
        yield dump(payload)
        return
    for key, value in payload.items():
        if not (isinstance(value, list) and len(value) > _YAML_BATCH):
            yield dump({key: value})
            continue
        yield dump({key: []}).removesuffix(" []\n") + "\n"  # `key:` as PyYAML writes it
        for start in range(0, len(value), _YAML_BATCH):
            yield dump(value[start:start + _YAML_BATCH])
