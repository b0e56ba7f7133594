"""Code mode: the model writes Python that calls the tools as functions (provider-formats.md
section 9.7; the agent's CodeMode).

The tools are shown as Python stubs with typed keyword parameters and a docstring (the
smolagents shape). When the `python_execution` built-in is among the tools, it stays a native
tool in the request and the model passes its code to it; otherwise the model writes the code
between `<code>` and `</code>`. A tool name or parameter name that is not a Python identifier
cannot be a stub as it is: the name is adjusted (tool) or taken through `**kwargs`
(parameter), and a note says so.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence

from toolcat.model import Json, Tool
from toolcat.render.formats.contract import PromptFormat, properties_of, required_of
from toolcat.source.refs import resolve_pointer

RUNNER = "python_execution"
_BASIC = {"string": "str", "number": "float", "integer": "int", "boolean": "bool",
          "null": "None", "object": "dict", "array": "list"}
_INSTRUCTIONS = (
    "You can use tools by writing Python code. {how} The tools are Python functions: call "
    "them with keyword arguments, and print() whatever you need to see, since printed output "
    "is what comes back to you. Only these functions are available:"
)
_HOW_RUNNER = (f"Pass the code to the {RUNNER} tool; it runs in a sandbox where the functions "
               "below are defined.")
_HOW_TAGS = ("Write the code between <code> and </code>; it runs in a sandbox where the "
             "functions below are defined.")


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    if not prompt_tools:
        return "", []
    notes: list[str] = []
    stubs = "\n\n".join(stub(t, notes) for t in prompt_tools)
    how = _HOW_RUNNER if any(t.name == RUNNER for t in payload_tools) else _HOW_TAGS
    return _INSTRUCTIONS.format(how=how) + "\n```python\n" + stubs + "\n```", notes


def stub(tool: Tool, notes: list[str]) -> str:
    """`def name(arg: type, ...) -> Any:` with the description and `Args:` as its docstring."""
    name = identifier(tool.name)
    if name != tool.name:
        notes.append(f"{tool.name}: not a Python name; its stub is called {name}")
    schema = tool.parameters or {}
    properties = properties_of(schema)
    required = required_of(schema)
    params, args, odd = [], [], []
    # parameters without a default come first, as Python requires
    for prop, field in sorted(properties.items(), key=lambda kv: kv[0] not in required):
        field = field if isinstance(field, dict) else {}
        args.append(f"{prop}: {field.get('description', '')}".rstrip())
        if identifier(prop) != prop:
            odd.append(prop)
            continue
        annotation = python_type(field, schema)
        if prop in required:
            params.append(f"{prop}: {annotation}")
        elif "default" in field:
            params.append(f"{prop}: {annotation} = {field['default']!r}")
        else:
            optional = annotation if "None" in annotation.split(" | ") else f"{annotation} | None"
            params.append(f"{prop}: {optional} = None")
    if odd:
        notes.append(f"{tool.name}: parameters {', '.join(odd)} are not Python names; "
                     "the stub takes them through **kwargs")
    if odd or tool.parameters is None:
        params.append("**kwargs")
    doc = _docstring(tool.description, args, tool.parameters is None)
    return f"def {name}({', '.join(params)}) -> Any:\n{doc}"


def _docstring(description: str, args: list[str], no_schema: bool) -> str:
    lines = description.strip().splitlines() or [""]
    if no_schema:
        lines += ["", "Takes any keyword arguments (the tool has no parameters schema)."]
    if args:
        lines += ["", "Args:", *(f"    {a}" for a in args)]
    body = "\n".join(f"    {line}".rstrip() for line in lines).replace("\\", "\\\\")
    body = body.replace('"""', '\\"\\"\\"')
    return f'    """{body.lstrip()}\n    """'


def identifier(name: str) -> str:
    """`name` if it is a Python identifier, else a close one."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return name
    fixed = re.sub(r"\W", "_", name)
    if not fixed or fixed[0].isdigit() or keyword.iskeyword(fixed):
        fixed = "_" + fixed
    return fixed


def python_type(schema: Json, root: Json, depth: int = 0) -> str:
    """A Python annotation for a JSON Schema: Literal for enums, unions, list[...], dict."""
    if not isinstance(schema, dict) or depth > 8:
        return "Any"
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = resolve_pointer(root, ref[1:])
        return python_type(target, root, depth + 1) if isinstance(target, dict) else "Any"
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return _literal(schema["enum"])
    if "const" in schema:
        return _literal([schema["const"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(dict.fromkeys(python_type({**schema, "type": k}, root, depth + 1)
                                        for k in kind)) or "Any"
    if kind == "array":
        items = schema.get("items")
        return f"list[{python_type(items, root, depth + 1)}]" if isinstance(items, dict) \
            else "list"
    if isinstance(kind, str) and kind in _BASIC:
        return _BASIC[kind]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches:
        return " | ".join(dict.fromkeys(python_type(b, root, depth + 1) for b in branches))
    return "Any"


def _literal(values: list[Json]) -> str:
    scalars = [v for v in values if v is None or isinstance(v, (str, int, float, bool))]
    if len(scalars) < len(values):
        return "Any"
    return "Literal[" + ", ".join(repr(v) for v in scalars) + "]"


FORMAT = PromptFormat(
    name="code",
    label="code mode (Python functions the model calls in code)",
    instructions=instructions,
    in_payload=lambda tool: tool.name == RUNNER,
)
