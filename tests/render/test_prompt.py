"""The system prompt follows the documented order and adds the tool search section."""

from __future__ import annotations

import ast
from dataclasses import replace

import pytest

from toolcat.model import Tool
from toolcat.render import FORMATS, build_prompt, get_format, render, tool_search_section
from toolcat.render.formats.code import stub

from .conftest import BASE_PROMPT, BUILTINS, VISIBLE


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "native"])
def test_sections_come_in_seed_order_with_builtins_before_tools_by_relevance(scenario, fmt):
    rendered = render(replace(scenario, format=fmt))
    assert [s.name for s in rendered.sections] == ["base", "format", "tool_search"]
    text = rendered.system_prompt
    assert text.startswith(BASE_PROMPT + "\n\n")
    shown = [n for n in (*BUILTINS, *VISIBLE) if not (fmt == "code" and n == "python_execution")]
    pattern = "def {}(" if fmt == "code" else '"name": "{}"'
    positions = [text.index(pattern.format(n)) for n in shown]
    assert positions == sorted(positions)
    assert text.index("## Tool Search Mode") > positions[-1]


def test_native_describes_no_tool_in_the_text_and_sends_them_all(scenario):
    rendered = render(scenario)
    assert [s.name for s in rendered.sections] == ["base", "tool_search"]
    assert rendered.prompt_tools == ()
    assert [t.name for t in rendered.payload_tools] == [*BUILTINS, *VISIBLE]
    assert [t.name for t in rendered.deferred] == ["send_email", "create_issue", "read_file"]


def test_text_formats_defer_nothing_and_send_no_tools(scenario):
    rendered = render(replace(scenario, format="hermes"))
    assert rendered.payload_tools == () and rendered.deferred == ()


def test_code_mode_keeps_python_execution_native_and_shows_the_rest_as_stubs(scenario):
    rendered = render(replace(scenario, format="code"))
    assert [t.name for t in rendered.payload_tools] == ["python_execution"]
    assert "Pass the code to the python_execution tool" in rendered.system_prompt
    without = render(replace(scenario, format="code", builtins=scenario.builtins[1:]))
    assert "between <code> and </code>" in without.system_prompt


def test_code_stubs_are_valid_python(scenario):
    text = render(replace(scenario, format="code")).system_prompt
    source = text.split("```python\n", 1)[1].split("\n```", 1)[0]
    tree = ast.parse(source)
    names = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert names == [*BUILTINS[1:], *VISIBLE]


def test_code_stubs_adjust_names_python_cannot_take_and_say_so():
    notes: list[str] = []
    tool = Tool(name="get-weather", description='Say """hi""" \\ there.', parameters={
        "type": "object", "required": ["from"],
        "properties": {"from": {"type": "string"}, "days": {"type": "integer"}}})
    text = stub(tool, notes)
    assert text.startswith("def get_weather(days: int | None = None, **kwargs) -> Any:")
    ast.parse(text)
    assert notes == ["get-weather: not a Python name; its stub is called get_weather",
                     "get-weather: parameters from are not Python names; the stub takes them "
                     "through **kwargs"]


def test_a_tool_without_a_schema_takes_any_keyword_arguments_in_code_mode():
    text = stub(Tool(name="ping", description="Ping."), [])
    assert text.startswith("def ping(**kwargs) -> Any:")
    assert "no parameters schema" in text


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_schema_of_true_takes_any_arguments_in_every_format(fmt):
    tool = Tool(name="ping", description="Ping anything.", parameters=True)
    prompt = build_prompt(get_format(fmt), tools=[tool])
    assert fmt == "native" or "ping" in prompt.text


MALFORMED = [
    {"properties": [None]}, {"properties": None}, {"properties": {"a": 5, "b": [1]}},
    {"required": [[]]}, {"required": "a", "properties": {"a": {"type": "string"}}},
    {"properties": {"a": {"type": ["string", 5, None]}}}, {"properties": {"a": {"enum": 3}}},
    {"properties": {"a": {"type": "array", "items": [1, 2]}}},
    {"type": "object", "additionalProperties": [1]}, {"properties": {"a": {"anyOf": 7}}},
]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("schema", MALFORMED, ids=lambda s: str(s)[:40])
def test_a_malformed_schema_still_renders_in_every_format(fmt, schema):
    # lint reports the schema; a prompt of the catalog must still render
    tool = Tool(name="ping", description="Ping anything.", parameters=schema)
    prompt = build_prompt(get_format(fmt), tools=[tool])
    assert fmt == "native" or "ping" in prompt.text


def test_the_tool_search_section_lists_categories_only_when_there_are_some():
    assert "**Available tool categories:**\n- github (issues)\n\n**Workflow:**" in \
        tool_search_section(["github (issues)"])
    assert "categories" not in tool_search_section([])


def test_without_tools_or_base_prompt_the_prompt_is_empty():
    prompt = build_prompt(get_format("hermes"))
    assert prompt.text == "" and prompt.sections == ()


def test_tools_sharing_a_name_get_their_server_in_front_and_a_note(scenario):
    first = scenario.tools[0]
    twin = replace(first, server="other")
    rendered = render(replace(scenario, tools=(*scenario.tools, twin)), "openai")
    sent = [t["function"]["name"] for t in rendered.payload["tools"]]
    assert f"{first.server}__{first.name}" in sent and f"other__{first.name}" in sent
    assert first.name not in sent
    assert f"other:{first.name} is sent as 'other__{first.name}'" in "\n".join(rendered.notes)
    assert [t.name for t in rendered.payload_tools].count(first.name) == 2
