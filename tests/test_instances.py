"""`toolcat.hydrate`: provider calls parsed, validated and instantiated, never run."""

from __future__ import annotations

import asyncio
import importlib
import json

import pytest

import toolcat
from tests.test_calls import PROVIDERS, build_response
from toolcat.define.instances import BoundTool
from toolcat.errors import ResponseError, UsageError

AGENT = '''
import toolcat

RAN = []  # every run() appends here: hydrate must leave it empty

WEATHER = {"type": "object",
           "properties": {"location": {"type": "string", "minLength": 1},
                          "unit": {"enum": ["celsius", "fahrenheit"]}},
           "required": ["location"], "additionalProperties": False}


@toolcat.tool(name="get_weather", description="Current weather.", parameters=WEATHER)
class GetWeather:
    def __init__(self, args):
        if args["location"] == "Atlantis":
            raise ValueError("no weather station in Atlantis")
        self.args = args

    def run(self):
        RAN.append(self.args)
        return "sunny in " + self.args["location"]


@toolcat.tool(parameters={"type": "object", "properties": {"zone": {"type": "string"}},
                          "required": ["zone"]})
def get_time(zone):
    """The time in a zone."""
    RAN.append(zone)
    return "noon in " + zone


@toolcat.tool(parameters={"type": "object", "properties": {"query": {"type": "string"}},
                          "required": ["query"]})
async def search_mail(query):
    """Search the mailbox."""
    RAN.append(query)
    return [query]


@toolcat.tool(name="open_dashboard", description="Open a dashboard.", allow_no_schema=True,
              no_schema_mode="read-only")
class OpenDashboard:
    def run(self):
        RAN.append(self.args)
'''

VALID = {"location": "Oslo", "unit": "celsius"}
CASES = [
    ("c1", "get_weather", VALID, "instantiated"),
    ("c2", "get_weather", json.dumps(VALID), "instantiated"),  # stringified
    ("c3", "get_weather", {"location": "", "unit": "kelvin"}, "refused"),  # invalid
    ("c4", "get_wether", VALID, "refused"),  # unknown
]


@pytest.fixture
def agent(pymodule):
    pymodule("hydrate_agent.py", AGENT)
    return importlib.import_module("hydrate_agent")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_valid_and_stringified_calls_become_instances_and_the_rest_are_refused(agent, provider):
    response = build_response(provider, CASES)
    result = toolcat.hydrate(response, [agent.GetWeather, agent.get_time], provider=provider)
    assert [c.status for c in result.calls] == [case[3] for case in CASES]
    assert [type(i) for i in result.instances] == [agent.GetWeather, agent.GetWeather]
    assert [i.args for i in result.instances] == [VALID, VALID]
    invalid, unknown = result.refused
    assert [(e.code, e.pointer) for e in invalid.errors] == [
        ("schema-violation", "/location"), ("schema-violation", "/unit")]
    assert invalid.instance is None
    assert [e.code for e in unknown.errors] == ["unknown-tool"]
    assert "did you mean get_weather?" in unknown.errors[0].message
    assert not result.ok
    assert agent.RAN == []


def test_hydrate_never_runs_a_tool_and_the_executor_does(agent):
    response = build_response("anthropic", [("a", "get_weather", {"location": "Oslo"}, "")])
    (weather,) = toolcat.hydrate(response, agent, provider="anthropic").instances
    assert agent.RAN == []
    assert weather.run() == "sunny in Oslo"
    assert agent.RAN == [{"location": "Oslo"}]


def test_a_function_tool_is_bound_to_its_arguments_and_called_by_run(agent):
    response = build_response("openai", [("a", "get_time", {"zone": "UTC"}, ""),
                                         ("b", "search_mail", '{"query": "invoice"}', "")])
    timer, search = toolcat.hydrate(response, agent, provider="openai").instances
    assert timer == BoundTool(agent.get_time, {"zone": "UTC"})
    assert timer.definition is agent.get_time.definition
    assert agent.RAN == []
    assert timer.run() == "noon in UTC"
    assert asyncio.run(search.run()) == ["invoice"]


def test_a_constructor_that_raises_refuses_the_call_with_its_message(agent):
    response = build_response("anthropic", [("a", "get_weather", {"location": "Atlantis"}, "")])
    (call,) = toolcat.hydrate(response, [agent.GetWeather], provider="anthropic").calls
    assert call.status == "refused"
    assert [(e.code, e.message) for e in call.errors] == [
        ("instantiation-failed",
         "GetWeather(arguments) raised ValueError: no weather station in Atlantis")]


def test_a_tool_without_schema_is_instantiated_unvalidated_with_its_mode(agent):
    response = build_response("bedrock", [("a", "open_dashboard", {"view": "latency"}, "")])
    result = toolcat.hydrate(response, [agent.OpenDashboard], provider="bedrock")
    (call,) = result.calls
    assert (call.status, call.checked.validated, call.checked.no_schema_mode) == (
        "unvalidated", False, "read-only")
    assert call.instance.args == {"view": "latency"}
    assert result.to_json()["unvalidated"] == 1


def test_a_pydantic_model_is_what_the_class_receives_and_its_validators_can_refuse():
    pydantic = pytest.importorskip("pydantic")

    class Booking(pydantic.BaseModel):
        nights: int

        @pydantic.field_validator("nights")
        @classmethod
        def at_most_a_fortnight(cls, value: int) -> int:
            if value > 14:
                raise ValueError("at most 14 nights")
            return value

    @toolcat.tool(parameters=Booking)
    class BookRoom:
        def __init__(self, args: Booking) -> None:
            self.args = args

        def run(self) -> None: ...

    response = build_response("gemini", [("a", "book_room", {"nights": 3}, ""),
                                         ("b", "book_room", {"nights": 30}, "")])
    booked, refused = toolcat.hydrate(response, [BookRoom], provider="gemini").calls
    assert booked.instance.args == Booking(nights=3)
    assert refused.status == "refused"
    assert [(e.code, e.pointer) for e in refused.errors] == [("model-violation", "/nights")]
    assert "at most 14 nights" in refused.errors[0].message


def test_calls_of_a_mixed_catalog_find_their_classes_and_yaml_tools_have_none(
        agent, tmp_path):
    (tmp_path / "mail.yaml").write_text(
        "tools:\n  - name: send_mail\n    parameters: {type: object}\n")
    catalog = toolcat.load_catalog([tmp_path / "mail.yaml", "hydrate_agent"])
    response = build_response("anthropic", [("a", "send_mail", {}, ""),
                                            ("b", "get_weather", {"location": "Oslo"}, "")])
    result = toolcat.hydrate(response, catalog, provider="anthropic")
    assert [(c.status, c.implementation) for c in result.calls] == [
        ("no-class", None), ("instantiated", "hydrate_agent.GetWeather")]
    assert result.ok


def test_a_response_may_be_json_text_or_an_sdk_object(agent):
    pydantic = pytest.importorskip("pydantic")

    class Block(pydantic.BaseModel):
        type: str
        id: str
        name: str
        input: dict
        cache: str | None = None

    class Message(pydantic.BaseModel):
        content: list[Block]

    message = Message(content=[Block(type="tool_use", id="a", name="get_time",
                                     input={"zone": "UTC"})])
    from_object = toolcat.hydrate(message, agent, provider="anthropic")
    from_text = toolcat.hydrate(message.model_dump_json(), agent, provider="anthropic")
    assert from_object.instances == from_text.instances == [
        BoundTool(agent.get_time, {"zone": "UTC"})]


def test_hydrate_refuses_an_unknown_provider_a_foreign_response_and_a_non_tool(agent):
    with pytest.raises(UsageError, match="unknown provider 'claude'; known: openai"):
        toolcat.hydrate({}, agent, provider="claude")
    with pytest.raises(ResponseError, match=r"expected content\[\] or a list"):
        toolcat.hydrate({"choices": []}, agent, provider="anthropic")
    with pytest.raises(UsageError, match="is not a toolcat tool"):
        toolcat.hydrate({"content": []}, [dict], provider="anthropic")
