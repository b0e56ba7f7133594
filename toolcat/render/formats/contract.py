"""What every prompt format provides, and the helpers the formats share.

A format turns tools into the text of a system prompt (`instructions`) and reads the tool calls
back out of a model's completion (`parse`). The native format writes no text: its tools travel
in the request's tools array (`in_payload`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolcat.model import Json, Tool, ToolCall
from toolcat.source.limits import MAX_DEPTH, bad_text, value_problem
from toolcat.wording import escaped

MAX_NAME = 200  # characters of a refused name kept in the report
Instructions = Callable[[Sequence[Tool], Sequence[Tool]], tuple[str, list[str]]]


@dataclass(frozen=True)
class PromptFormat:
    """One way of showing tools to a model and reading its calls back.

    `instructions(prompt_tools, payload_tools)` returns the format's part of the system prompt
    (format instructions followed by the tools in the order given) and notes about anything
    it could not show as it is. `in_payload` says which tools go in the request's tools array
    instead. `parse` reads the calls of a completion; None where calls come back natively.
    """

    name: str
    label: str
    instructions: Instructions
    in_payload: Callable[[Tool], bool]
    parse: Callable[[str], list[ToolCall]] | None = None


def properties_of(schema: Json) -> dict[str, Json]:
    """The `properties` of a parameters schema, or {} when it has none or they are malformed
    (lint reports a broken schema; a prompt still renders)."""
    found = schema.get("properties") if isinstance(schema, dict) else None
    return found if isinstance(found, dict) else {}


def required_of(schema: Json) -> set[str]:
    """The names in a schema's `required`, ignoring what is not a name."""
    found = schema.get("required") if isinstance(schema, dict) else None
    return {name for name in found if isinstance(name, str)} if isinstance(found, list) else set()


def dumps(value: Json, indent: int | None = None) -> str:
    """JSON as chat templates write it (`tojson`): key order kept, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)


def function_entry(tool: Tool) -> dict[str, Json]:
    """`{name, description, parameters}`, the shape the text formats list tools in."""
    return {"name": tool.name, "description": tool.description,
            "parameters": tool.parameters if tool.parameters is not None else {}}


def wrapped_entry(tool: Tool) -> dict[str, Json]:
    """`{type: "function", function: {...}}`, the OpenAI shape that templates receive."""
    return {"type": "function", "function": function_entry(tool)}


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def call_at(text: str, offset: int, name: str, arguments: Json = None, *,
            call_id: str | None = None, error: str | None = None) -> ToolCall:
    """The call at `offset`. A name or id no output can hold (a lone surrogate, decoded from
    a `\\ud800` escape) or too long makes it a call that could not be read, kept with the
    text escaped so the report prints."""
    line, column = position(text, offset)
    for what, value in (("tool name", name), ("call id", call_id)):
        problem = bad_text(value) if value else None
        if problem is not None:
            error = error or f"the {what} is refused: {problem}"
            name = escaped(name[:MAX_NAME])
            call_id = escaped(call_id[:MAX_NAME]) if call_id else call_id
    return ToolCall(name, arguments, id=call_id, line=line, column=column, error=error)


def loads_object(text: str) -> tuple[Json, str | None]:
    """A JSON value, or None and the reason it is not one (with its line and column)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    except (RecursionError, ValueError) as exc:  # nesting the decoder cannot follow, huge ints
        return None, "refused: " + (f"nested deeper than {MAX_DEPTH} levels"
                                    if isinstance(exc, RecursionError) else str(exc))
    problem = value_problem(value)
    return (None, f"refused: {problem[0]} at {problem[1] or '/'}") if problem else (value, None)


def call_from_object(value: Json, text: str, offset: int, *,
                     args_keys: tuple[str, ...] = ("arguments", "parameters")) -> ToolCall:
    """A call written as `{"name": ..., "arguments" | "parameters": {...}, "id"?}`."""
    if not isinstance(value, dict):
        return call_at(text, offset, "", error="tool call is not a JSON object")
    name = value.get("name")
    call_id = value.get("id") if isinstance(value.get("id"), str) else None
    if not isinstance(name, str) or not name:
        return call_at(text, offset, "", call_id=call_id, error="tool call has no 'name'")
    arguments = next((value[k] for k in args_keys if k in value), None)
    return call_at(text, offset, name, arguments, call_id=call_id)
