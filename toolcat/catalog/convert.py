"""Write tools in any shape, and serialize the result as JSON or YAML text.

A shape holds only some of the canonical fields (`Provider.carries`); each field a shape cannot
hold is a note naming the field and how many tools lose it, so nothing is lost silently. The
server a shape has no field for is kept as the file's top-level `server` key (which the loader
reads back) when all tools share one server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from toolcat.define.tools import definition_of
from toolcat.model import Server, Tool
from toolcat.providers import get_provider
from toolcat.providers.writing import Note, summarize
from toolcat.wording import plural

DEFAULT = Tool(name="")

# field -> (what the note calls it, whether a tool has something there to lose)
FIELD_CHECKS: dict[str, tuple[str, Callable[[Tool], bool]]] = {
    "safe": ("safety (safe: false)", lambda t: t.unsafe),
    "annotations": ("MCP annotations", lambda t: bool(t.annotations)),
    "strict": ("strict", lambda t: t.strict is not None),
    "defer_loading": ("defer_loading", lambda t: t.defer_loading is not None),
    "tags": ("tags", lambda t: bool(t.tags)),
    "level": ("level", lambda t: t.level != DEFAULT.level),
    "kind": ("kind", lambda t: t.kind != DEFAULT.kind),
    "category": ("category", lambda t: t.category is not None),
    "priority": ("priority", lambda t: t.priority != DEFAULT.priority),
    "cost": ("cost", lambda t: bool(t.cost)),
    "constraints": ("constraints", lambda t: bool(t.constraints)),
    "examples": ("examples", lambda t: bool(t.examples)),
    "example_requests": ("example requests", lambda t: bool(t.example_requests)),
    "implementation": ("implementation", lambda t: bool(t.implementation)),
    "allow_no_schema": ("allow_no_schema", lambda t: t.allow_no_schema),
    "no_schema_mode": ("no_schema_mode", lambda t: t.no_schema_mode is not None),
}
CARRIED_ALONG = {"annotations": "mcp"}  # written by a shape that does not list the field


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
    canonical = [definition_of(tool) for tool in tools]
    items: list[Any] = []
    written_notes: list[str | Note] = []
    for tool in canonical:
        written, tool_notes = provider.write_tool(tool)
        items.append(written)
        written_notes += tool_notes
    notes = list(summarize(written_notes))
    payload = provider.wrap(items, servers)
    if "server" not in provider.carries:
        payload, server_notes = _with_server(payload, canonical, shape)
        notes += server_notes
    notes += lost_fields(canonical, provider.carries, shape)
    return Converted(shape, payload, tuple(notes), len(items))


def lost_fields(tools: Sequence[Tool], carries: frozenset[str], shape: str) -> list[str]:
    """One note per canonical field that some tools have and `shape` cannot hold."""
    notes = []
    for field, (label, has) in FIELD_CHECKS.items():
        if field in carries or CARRIED_ALONG.get(field) == shape:
            continue
        losing = [t.qualified_name for t in tools if has(t)]
        if losing:
            shown = ", ".join(losing[:3]) + (f" and {len(losing) - 3} more"
                                             if len(losing) > 3 else "")
            notes.append(f"{label} of {plural(len(losing), 'tool')} dropped: {shape} has no "
                         f"place for it ({shown})")
    return notes


def _with_server(payload: Any, tools: Sequence[Tool], shape: str) -> tuple[Any, list[str]]:
    servers = list(dict.fromkeys(t.server for t in tools if t.server))
    if len(servers) == 1 and isinstance(payload, dict):
        return {"server": servers[0], **payload}, []
    if len(servers) > 1:
        return payload, [f"the servers of {len(tools)} tools ({', '.join(servers[:3])}"
                         f"{', ...' if len(servers) > 3 else ''}) dropped: {shape} has no "
                         "place for them; reading the file back puts every tool on a server "
                         "named after the file"]
    return payload, []


def to_text(payload: Any, *, as_yaml: bool, width: int = 100) -> str:
    """JSON, or YAML with strings folded at `width` columns (a huge width: never folded)."""
    if as_yaml:
        return "".join(_yaml_parts(payload, width))
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# Long lists are dumped this many items at a time: the same text, but no single call into
# libyaml runs for seconds, so a caller's deadline can interrupt between batches.
_YAML_BATCH = 500


if TYPE_CHECKING:
    _SafeDumper = yaml.SafeDumper
else:  # libyaml's emitter, where PyYAML was built with it
    _SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_SafeDumper):
    """libyaml's emitter when PyYAML has it (50,000 tools in seconds rather than a minute),
    writing a value shared by several tools (an OpenAPI component schema, a YAML alias of
    the input) in full at each place, never as an `&anchor` and `*alias`."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _yaml_parts(payload: Any, width: int) -> Iterator[str]:
    dumper = _Dumper

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
