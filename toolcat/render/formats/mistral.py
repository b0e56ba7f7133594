"""Mistral: `[AVAILABLE_TOOLS]` + a JSON list of tools + `[/AVAILABLE_TOOLS]`; the model
answers `[TOOL_CALLS]` + its calls (provider-formats.md section 9.3).

The block is mistral-common's rendering (`json.dumps` of `{type, function: {name, description,
parameters}}`, `strict` left out). A Mistral model is trained on these tokens, so no further
instructions are added. Completions are read in every tokenizer version's call syntax: V2/V3
`[TOOL_CALLS][{"name", "arguments", "id"}]`, V11 `[TOOL_CALLS]name[CALL_ID]id[ARGS]{...}`, V13+
`[TOOL_CALLS]name[ARGS]{...}`, and decoded text where the special tokens were skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from toolcat.model import Json, Tool, ToolCall
from toolcat.render.formats.contract import PromptFormat, call_at, call_from_object, dumps

TOOL_CALLS = "[TOOL_CALLS]"
_NAME = re.compile(r"\s*([A-Za-z0-9_.:-]+)(?:\[CALL_ID\]([A-Za-z0-9]+))?\s*(?:\[ARGS\])?\s*")
_DECODER = json.JSONDecoder()


def entry(tool: Tool) -> dict[str, Json]:
    return {"type": "function", "function": {
        "name": tool.name, "description": tool.description,
        "parameters": tool.parameters if tool.parameters is not None else {}}}


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    if not prompt_tools:
        return "", []
    return "[AVAILABLE_TOOLS]" + dumps([entry(t) for t in prompt_tools]) + "[/AVAILABLE_TOOLS]", []


def parse(text: str) -> list[ToolCall]:
    start = text.find(TOOL_CALLS)
    if start < 0:
        return []
    body_at = start + len(TOOL_CALLS)
    lead = len(text[body_at:]) - len(text[body_at:].lstrip())
    if text[body_at + lead:].startswith("["):
        return _json_list(text, body_at + lead)
    calls = []
    for match in re.finditer(re.escape(TOOL_CALLS), text[start:]):
        calls.append(_named(text, start + match.end()))
    return calls


def _json_list(text: str, at: int) -> list[ToolCall]:
    try:
        value, _ = _DECODER.raw_decode(text, at)
    except json.JSONDecodeError as exc:
        return [call_at(text, at, "", text[at:].strip(),
                        error=f"[TOOL_CALLS] list is not JSON: {exc.msg}")]
    if not isinstance(value, list):
        return [call_at(text, at, "", error="[TOOL_CALLS] is not followed by a list")]
    return [call_from_object(item, text, at) for item in value]


def _named(text: str, at: int) -> ToolCall:
    """`name[CALL_ID]id[ARGS]{...}`, `name[ARGS]{...}` or `name{...}` starting at `at`."""
    match = _NAME.match(text, at)
    if match is None or not match.group(1):
        return call_at(text, at, "", error="[TOOL_CALLS] is not followed by a tool name")
    name, call_id, args_at = match.group(1), match.group(2), match.end()
    try:
        arguments, _ = _DECODER.raw_decode(text, args_at)
    except json.JSONDecodeError:
        following = text.find(TOOL_CALLS, args_at)
        rest = text[args_at:following if following >= 0 else len(text)].strip()
        return call_at(text, at, name, rest, call_id=call_id)
    return call_at(text, at, name, arguments, call_id=call_id)


FORMAT = PromptFormat(
    name="mistral",
    label="Mistral [AVAILABLE_TOOLS] and [TOOL_CALLS]",
    instructions=instructions,
    in_payload=lambda tool: False,
    parse=parse,
)
