"""`@toolcat.tool` on classes and functions in real modules, and its registration errors."""

from __future__ import annotations

import asyncio
import importlib
import inspect

import pytest

import toolcat
from toolcat.errors import DefinitionError
from toolcat.model import Tool
from toolcat.providers import PROVIDERS

AGENT_TOOLS = '''
import toolcat

WEATHER = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "City name"},
        "unit": {"enum": ["celsius", "fahrenheit"]},
    },
    "required": ["location"],
    "additionalProperties": False,
}


@toolcat.tool(
    name="get_weather",
    description="Current weather for a city.",
    parameters=WEATHER,
    server="weather",
    tags=["weather", "read"],
    level=1,
    strict=True,
)
class GetWeather:
    def __init__(self, args):
        self.args = args

    def run(self):
        return "sunny in " + self.args["location"]


@toolcat.tool(parameters={"type": "object", "properties": {"event_id": {"type": "string"}},
                          "required": ["event_id"]}, safe=False)
class DeleteEvent:
    """Delete a calendar event by its id.

    This cannot be undone.
    """

    async def run(self):
        return "deleted " + self.args["event_id"]


@toolcat.tool(parameters={"type": "object", "properties": {"zone": {"type": "string"}},
                          "required": ["zone"]})
def get_time(zone):
    """The current time in a time zone."""
    return "noon in " + zone


@toolcat.tool(name="search_mail", description="Search the mailbox.",
              parameters={"type": "object", "properties": {"query": {"type": "string"},
                          "limit": {"type": "integer"}}, "required": ["query"]})
async def search_mail(query, limit=10):
    return [query] * limit
'''


@pytest.fixture
def agent(pymodule):
    pymodule("agent_tools.py", AGENT_TOOLS)
    return importlib.import_module("agent_tools")


def test_a_decorated_class_carries_its_canonical_definition_and_a_compiled_validator(agent):
    definition = agent.GetWeather.definition
    assert isinstance(definition, Tool)
    assert (definition.name, definition.server, definition.level, definition.tags,
            definition.strict) == ("get_weather", "weather", 1, ("weather", "read"), True)
    assert definition.parameters == agent.WEATHER
    assert definition.implementation == {"module": "agent_tools", "class": "GetWeather"}
    assert agent.GetWeather.validator.is_valid({"location": "Oslo"})
    assert not agent.GetWeather.validator.is_valid({"location": "Oslo", "unit": "kelvin"})


def test_the_origin_of_a_definition_is_the_line_of_its_decorator(agent):
    origin = agent.GetWeather.definition.origin
    lines = inspect.getsource(agent).splitlines()
    assert lines[origin.line - 1].startswith("@toolcat.tool(")
    assert (origin.file, origin.column) == (agent.__file__, 1)
    assert lines[agent.get_time.definition.origin.line - 1].startswith("@toolcat.tool(")


def test_the_decorator_leaves_the_class_and_its_run_method_as_written(agent):
    weather = agent.GetWeather({"location": "Oslo"})
    assert weather.run() == "sunny in Oslo"
    assert weather.definition is agent.GetWeather.definition


def test_an_async_class_without_a_constructor_gets_one_that_keeps_the_arguments(agent):
    event = agent.DeleteEvent({"event_id": "e1"})
    assert event.args == {"event_id": "e1"}
    assert asyncio.run(event.run()) == "deleted e1"


def test_a_class_name_becomes_a_snake_case_name_and_its_docstring_the_description(agent):
    definition = agent.DeleteEvent.definition
    assert definition.name == "delete_event"
    assert definition.description == "Delete a calendar event by its id.\n\nThis cannot be undone."
    assert definition.safe is False


def test_a_decorated_function_stays_callable_and_takes_its_name_and_docstring(agent):
    assert agent.get_time("UTC") == "noon in UTC"
    definition = agent.get_time.definition
    assert (definition.name, definition.description) == ("get_time",
                                                         "The current time in a time zone.")
    assert definition.implementation == {"module": "agent_tools", "function": "get_time"}
    assert asyncio.run(agent.search_mail("x", limit=2)) == ["x", "x"]
    assert agent.search_mail.validator.is_valid({"query": "x"})


def test_every_field_of_the_canonical_tool_is_accepted():
    fields = {
        "name": "archive", "description": "Archive a thread.",
        "parameters": {"type": "object", "properties": {}}, "server": "mail", "kind": "skill",
        "source": "builtin", "level": 3, "tags": ["mail"], "category": "human",
        "priority": 70, "safe": False, "strict": False, "allow_no_schema": True,
        "no_schema_mode": "human-approval", "defer_loading": True,
        "cost": {"time": "fast"}, "constraints": {"requires_network": True},
        "annotations": {"title": "Archive"}, "examples": [{"thread": "t1"}],
        "implementation": {"module": "mail.tools", "class": "Archive"},
    }

    @toolcat.tool(**fields)
    class Archive:
        def run(self) -> None: ...

    written = Archive.definition.to_json()
    assert {key: written[key] for key in fields} == fields


def test_the_definition_may_say_it_is_a_function_as_the_canonical_contract_writes_it():
    @toolcat.tool(type="function", name="get_weather", description="Weather for a city.",
                  parameters={"type": "object", "properties": {}})
    class GetWeather:
        def run(self) -> str:
            return "sunny"

    assert GetWeather.definition.name == "get_weather"
    with pytest.raises(DefinitionError, match=r"type must be 'function'.*'retrieval'"):
        toolcat.tool(type="retrieval", parameters={"type": "object"})(GetWeather)


def test_a_pydantic_model_gives_the_schema():
    pydantic = pytest.importorskip("pydantic")

    class Args(pydantic.BaseModel):
        location: str
        days: int = 1

    @toolcat.tool(parameters=Args)
    def forecast(location: str, days: int = 1) -> str:
        return location * days

    assert forecast.definition.parameters == Args.model_json_schema()
    assert forecast.validator.is_valid({"location": "Oslo", "days": 3})
    assert not forecast.validator.is_valid({"days": 3})


def test_a_tool_without_schema_is_accepted_only_with_allow_no_schema_and_a_mode():
    @toolcat.tool(allow_no_schema=True, no_schema_mode="read-only")
    def list_rooms() -> list[str]:
        return []

    assert list_rooms.definition.parameters is None
    assert list_rooms.validator is None


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_tool_class_renders_through_every_provider_like_the_same_yaml_tool(
        agent, provider, tmp_path):
    yaml_file = tmp_path / "weather.yaml"
    yaml_file.write_text(_as_yaml(agent.GetWeather.definition))
    from_yaml = toolcat.load_catalog(yaml_file).get("get_weather")
    assert toolcat.convert([agent.GetWeather], provider) == toolcat.convert([from_yaml], provider)


def _as_yaml(definition: Tool) -> str:
    from toolcat.catalog.convert import to_text

    return to_text(toolcat.convert([definition], "toolcat").payload, as_yaml=True)


def test_converting_something_that_is_not_a_tool_says_how_to_fix_it():
    class Plain:
        pass

    with pytest.raises(toolcat.ToolcatError, match="not a toolcat tool"):
        toolcat.convert([Plain], "openai")


BAD_DEFINITIONS = {
    "no schema": (
        '@toolcat.tool(name="x")\ndef x(): ...\n',
        "tool 'x' has no parameters schema; a tool without one is refused (fail-closed)"),
    "no mode": (
        '@toolcat.tool(name="x", allow_no_schema=True)\ndef x(): ...\n',
        "allow_no_schema=True needs a no_schema_mode"),
    "mode alone": (
        '@toolcat.tool(name="x", no_schema_mode="full")\ndef x(): ...\n',
        "no_schema_mode needs allow_no_schema=True"),
    "remote ref": (
        '@toolcat.tool(name="x", parameters={"type": "object", "properties": {"a": {"$ref": '
        '"https://example.com/a.json"}}})\ndef x(a=None): ...\n',
        "parameters at '/properties/a': remote $ref 'https://example.com/a.json' is never "
        "fetched"),
    "dangling ref": (
        '@toolcat.tool(name="x", parameters={"properties": {"a": {"$ref": "#/$defs/A"}}})\n'
        'def x(a=None): ...\n',
        "$ref '#/$defs/A' points nowhere"),
    "invalid schema": (
        '@toolcat.tool(name="x", parameters={"type": "object", "required": "a"})\n'
        'def x(a=None): ...\n',
        'tool \'x\': the tool\'s schema is invalid: "a" is not of type "array" (at \'/required\')'),
    "schema not a dict": (
        '@toolcat.tool(name="x", parameters=True)\ndef x(): ...\n',
        "parameters must be a JSON Schema object (a dict) or a pydantic model class"),
    "wrong field type": (
        '@toolcat.tool(name="x", level="high", parameters={})\ndef x(): ...\n',
        "tool 'x': 'level' must be a whole number"),
    "no run": (
        '@toolcat.tool(name="x", parameters={})\nclass X:\n    pass\n',
        "tool class X has no run() method"),
    "constructor": (
        '@toolcat.tool(name="x", parameters={})\nclass X:\n    def __init__(self, a, b): ...\n'
        '    def run(self): ...\n',
        "must take the validated arguments as the one argument of its constructor"),
    "property without parameter": (
        '@toolcat.tool(parameters={"properties": {"city": {}}})\ndef x(town=None): ...\n',
        "function x() has no parameter for the schema property 'city'"),
    "parameter not required": (
        '@toolcat.tool(parameters={"properties": {"city": {}}})\ndef x(city): ...\n',
        "parameter 'city' has no default, so the schema must list it in 'required'"),
    "not a class or function": (
        'x = toolcat.tool(name="x", parameters={})(42)\n',
        "@toolcat.tool decorates a class or a function, not int"),
}


@pytest.mark.parametrize("case", BAD_DEFINITIONS)
def test_a_broken_definition_fails_at_import_naming_its_decorator(pymodule, case):
    source, message = BAD_DEFINITIONS[case]
    path = pymodule("broken_tool.py", "import toolcat\n\n\n" + source)
    with pytest.raises(DefinitionError) as caught:
        importlib.import_module("broken_tool")
    assert message in str(caught.value)
    assert (caught.value.where.file, caught.value.where.line) == (str(path), 4)
