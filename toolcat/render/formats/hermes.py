"""Hermes (NousResearch, ChatML): tools inside `<tools></tools>`, calls inside
`<tool_call></tool_call>`.

The text is the Hermes-2-Pro template as vLLM ships it (provider-formats.md section 9.1): each
tool is one line of JSON whose description starts with a Python signature and an `Args:` list.
Unlike the template, the JSON is escaped properly (as in the NousResearch README) and every
argument gets its own line. The ChatML markers around the system turn are the chat template's
job, so they are not part of the text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from toolcat.model import Json, Tool, ToolCall
from toolcat.render.formats.contract import (
    PromptFormat,
    call_at,
    call_from_object,
    dumps,
    loads_object,
    properties_of,
)

OPENING = (
    "You are a function calling AI model. You are provided with function signatures within "
    "<tools></tools> XML tags. You may call one or more functions to assist with the user "
    "query. Don't make assumptions about what values to plug into functions. Here are the "
    "available tools: <tools> "
)
CLOSING = (
    " </tools>Use the following pydantic model json schema for each tool call you will make: "
    '{"properties": {"arguments": {"title": "Arguments", "type": "object"}, "name": '
    '{"title": "Name", "type": "string"}}, "required": ["arguments", "name"], "title": '
    '"FunctionCall", "type": "object"}\n'
    "For each function call return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags as follows:\n"
    "<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-dict>}\n'
    "</tool_call>"
)
_BASIC = {"string": "str", "number": "float", "integer": "int", "boolean": "bool"}
_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>|<tool_call>(.*)", re.DOTALL)


def python_type(schema: Json) -> str:
    """The template's `json_to_python_type`: the Python type named in the signature."""
    if not isinstance(schema, dict):
        return "Any"
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _BASIC:
        return _BASIC[kind]
    if kind == "array":
        return f"list[{python_type(schema.get('items'))}]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        return f"dict[str, {python_type(extra)}]" if isinstance(extra, dict) else "dict"
    if isinstance(kind, list):
        return "Union[" + ",".join(python_type({"type": t}) for t in kind) + "]"
    return "Any"


def tool_line(tool: Tool) -> str:
    properties = properties_of(tool.parameters)  # none for `true` or a malformed schema
    signature = ", ".join(f"{name}: {python_type(field)}" for name, field in properties.items())
    description = f"{tool.name}({signature}) - {tool.description}"
    if properties:
        args = [f"        {name}({python_type(field)}): "
                f"{str(field.get('description', '')).strip() if isinstance(field, dict) else ''}"
                for name, field in properties.items()]
        description += "\n\n    Args:\n" + "\n".join(args)
    parameters = tool.parameters if properties else {}
    return dumps({"type": "function", "function": {
        "name": tool.name, "description": description, "parameters": parameters}})


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    if not prompt_tools:
        return "", []
    return OPENING + "\n".join(tool_line(t) for t in prompt_tools) + CLOSING, []


def parse(text: str) -> list[ToolCall]:
    """Every `<tool_call>` block (an unclosed last one too), read as JSON, or as a Python dict
    literal the way the NousResearch parser falls back to."""
    calls = []
    for match in _TOOL_CALL.finditer(text):
        group = 1 if match.group(1) is not None else 2
        body = match.group(group)
        value, error = loads_object(body)
        if error is not None:
            try:
                value = ast.literal_eval(body.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                calls.append(call_at(text, match.start(), "", body.strip(),
                                     error=f"<tool_call> body is {error}"))
                continue
        calls.append(call_from_object(value, text, match.start()))
    return calls


FORMAT = PromptFormat(
    name="hermes",
    label="Hermes / NousResearch <tools> and <tool_call>",
    instructions=instructions,
    in_payload=lambda tool: False,
    parse=parse,
)
