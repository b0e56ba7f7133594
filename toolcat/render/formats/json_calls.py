"""Pure JSON calls (Llama 3.1 style): the model answers `{"name": ..., "parameters": {...}}`
(provider-formats.md sections 9.4 and 9.6).

The instructions are the system-prompt variant of the Llama 3.1 JSON template, followed by each
tool as indented JSON in the OpenAI shape. Completions are read as one or more JSON values
(separated by `;` or white space, an optional `<|python_tag|>` first), each a call or a list of
calls, with `parameters` or `arguments`; llama.cpp's `{"tool_call": ...}`, `{"tool_calls":
[...]}` and `{"response": ...}` (no call) are understood too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from toolcat.model import Json, Tool, ToolCall
from toolcat.render.formats.contract import (
    PromptFormat,
    call_at,
    call_from_object,
    dumps,
    wrapped_entry,
)

OPENING = (
    "You have access to the following functions. To call a function, please respond with "
    "JSON for a function call. "
    'Respond in the format {"name": function name, "parameters": dictionary of argument name '
    "and its value}. "
    "Do not use variables.\n\n"
)
_MARKERS = re.compile(r"<\|python_tag\|>|<\|eom_id\|>|<\|eot_id\|>")
_DECODER = json.JSONDecoder()


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    if not prompt_tools:
        return "", []
    return OPENING + "\n\n".join(dumps(wrapped_entry(t), indent=4) for t in prompt_tools), []


def parse(text: str) -> list[ToolCall]:
    """The calls of a completion; [] when it is a plain reply that does not start with JSON."""
    body = _MARKERS.sub(lambda m: " " * len(m.group(0)), text)
    at = len(body) - len(body.lstrip())
    if not body[at:].startswith(("{", "[")):
        return []
    calls: list[ToolCall] = []
    while at < len(body):
        try:
            value, end = _DECODER.raw_decode(body, at)
        except json.JSONDecodeError as exc:
            calls.append(call_at(text, at, "", body[at:].strip(),
                                 error=f"not JSON: {exc.msg}"))
            break
        calls += [call_from_object(item, text, at) for item in _call_objects(value)]
        at = end
        while at < len(body) and (body[at].isspace() or body[at] == ";"):
            at += 1
    return calls


def _call_objects(value: Json) -> list[Json]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        if "tool_calls" in value and isinstance(value["tool_calls"], list):
            return value["tool_calls"]
        if "tool_call" in value:
            return [value["tool_call"]]
        if "response" in value and "name" not in value:
            return []
    return [value]


FORMAT = PromptFormat(
    name="json",
    label='JSON calls {"name", "parameters"} (Llama 3.1 style)',
    instructions=instructions,
    in_payload=lambda tool: False,
    parse=parse,
)
