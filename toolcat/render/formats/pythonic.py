"""Pythonic (Llama 3.2 and Llama 4): the model answers with a Python list of calls,
`[get_weather(city='Paris'), ...]` (provider-formats.md section 9.5).

The instructions are Meta's zero-shot function calling system prompt, followed by the tools as
an indented JSON list of `{name, description, parameters}`; the schemas are shown as they are
(Meta's example writes `"type": "dict"`, toolcat keeps the canonical `"object"`).
Completions are parsed with `ast` and never evaluated: a call must name a function and pass
keyword arguments whose values are literals.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from toolcat.model import Json, Tool, ToolCall
from toolcat.render.formats.contract import PromptFormat, dumps, function_entry, position

OPENING = """\
You are an expert in composing functions. You are given a question and a set of possible functions.
Based on the question, you will need to make one or more function/tool calls to achieve the purpose.
If none of the function can be used, point it out. If the given question lacks the parameters required by the function,
also point it out. You should only return the function call in tools call sections.

If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]
You SHOULD NOT include any other text in the response.

Here is a list of functions in JSON format that you can invoke.

"""  # noqa: E501 (Meta's text, line breaks as published)
_MARKERS = re.compile(r"<\|python_tag\|>|<\|python_start\|>|<\|python_end\|>|<\|eot_id\|>"
                      r"|<\|eom_id\|>|^```(?:python|py)?\s*$", re.MULTILINE)
_CALL_START = re.compile(r"\s*(\[|[A-Za-z_][\w.]*\s*\()")


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    if not prompt_tools:
        return "", []
    return OPENING + dumps([function_entry(t) for t in prompt_tools], indent=4), []


class NotJson(ValueError):
    """A literal that has no JSON equivalent (a set, bytes, a complex number)."""


def parse(text: str) -> list[ToolCall]:
    """The calls of a completion: a list of calls, or a single call; [] for a plain reply."""
    body = _MARKERS.sub(lambda m: " " * len(m.group(0)), text)
    start = _CALL_START.match(body)
    if start is None:
        return []
    offset = start.start(1)
    source = body[offset:].rstrip()
    line0, column0 = position(text, offset)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        if start.group(1) != "[":
            return []  # prose that happens to start like a call
        return [ToolCall("", source, line=line0, column=column0,
                         error=f"not a Python list of calls: {exc.msg}")]
    node = tree.body
    items = node.elts if isinstance(node, ast.List) else [node]
    return [_call(item, line0, column0) for item in items]


def _call(node: ast.expr, line0: int, column0: int) -> ToolCall:
    line = line0 + node.lineno - 1
    column = node.col_offset + (column0 if node.lineno == 1 else 1)
    if not isinstance(node, ast.Call):
        return ToolCall("", line=line, column=column, error="list item is not a function call")
    name = _dotted(node.func)
    if name is None:
        return ToolCall("", line=line, column=column, error="call does not name a function")
    if node.args or any(k.arg is None for k in node.keywords):
        return ToolCall(name, line=line, column=column,
                        error="calls take keyword arguments only (name=value)")
    arguments: dict[str, Json] = {}
    for keyword in node.keywords:
        try:
            arguments[str(keyword.arg)] = _json(ast.literal_eval(keyword.value))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, NotJson):
            return ToolCall(name, line=line, column=column,
                            error=f"argument '{keyword.arg}' is not a literal value")
    return ToolCall(name, arguments, line=line, column=column)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _json(value: object) -> Json:
    """A literal as a JSON value: tuples become lists; sets, bytes and complex are refused."""
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise NotJson("dict keys must be strings")
        return {k: _json(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise NotJson(type(value).__name__)


FORMAT = PromptFormat(
    name="pythonic",
    label="pythonic [func(arg=value)] calls (Llama 3.2, Llama 4)",
    instructions=instructions,
    in_payload=lambda tool: False,
    parse=parse,
)
