"""Reading the tool calls out of a model's reply: the items at a path of the response, and a
call from the object that names the tool and holds its arguments."""

from __future__ import annotations

from collections.abc import Sequence

from toolcat.errors import ResponseError
from toolcat.model import ToolCall
from toolcat.providers.types import Json
from toolcat.source.positions import escape


def select(document: Json, path: str) -> list[tuple[Json, str]] | None:
    """The nodes at `path` (keys and `*` for every list item, separated by `/`), with their JSON
    pointers; None when the first step is missing, which means a different shape. A later
    missing key just yields nothing (a reply without tool calls)."""
    steps = path.split("/")
    first = steps[0]
    if first == "*" and not isinstance(document, list):
        return None
    if first != "*" and not (isinstance(document, dict) and first in document):
        return None
    nodes: list[tuple[Json, str]] = [(document, "")]
    for step in steps:
        following: list[tuple[Json, str]] = []
        for node, pointer in nodes:
            if step == "*" and isinstance(node, list):
                following += [(value, f"{pointer}/{i}") for i, value in enumerate(node)]
            elif step != "*" and isinstance(node, dict) and step in node:
                following.append((node[step], f"{pointer}/{escape(step)}"))
        nodes = following
    return nodes


def locate(response: Json, paths: Sequence[str], label: str) -> list[tuple[Json, str]]:
    """The items at the first of `paths` that the response has; ResponseError when none."""
    for path in paths:
        found = select(response, path)
        if found is not None:
            return found
    shown = " or ".join("a list" if p == "*" else p.replace("/*", "[]").replace("/", ".")
                        for p in paths)
    raise ResponseError(f"not a {label} response: expected {shown}")


def wrapped_call(item: Json, pointer: str) -> ToolCall:
    """A call in the OpenAI wrapped shape `{id?, type?, function: {name, arguments}}`."""
    function = item.get("function") if isinstance(item, dict) else None
    if not isinstance(function, dict):
        return ToolCall("", pointer=pointer, error="tool call has no 'function' object")
    return named_call(function, "name", "arguments", pointer + "/function",
                      call_id=item.get("id"), outer=pointer)


def named_call(item: Json, name_key: str, args_key: str, pointer: str, *,
               call_id: Json = None, outer: str | None = None) -> ToolCall:
    """A call from an object holding the tool's name and its arguments under these keys."""
    at = pointer if outer is None else outer
    if not isinstance(item, dict):
        return ToolCall("", pointer=at, error="tool call is not an object")
    name = item.get(name_key)
    call_id = str(call_id) if isinstance(call_id, (str, int)) else None
    if not isinstance(name, str) or not name:
        return ToolCall("", id=call_id, pointer=at, error=f"tool call has no '{name_key}'")
    return ToolCall(name, item.get(args_key), id=call_id, pointer=at)
