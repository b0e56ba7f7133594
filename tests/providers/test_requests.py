"""Whole request bodies: where the system prompt and the user's message go, deferred tools
and the provider's own tool search, the model id, and calls read back from responses."""

from __future__ import annotations

import pytest

from toolcat.errors import ResponseError
from toolcat.model import Tool
from toolcat.providers import PROVIDERS
from toolcat.providers.writing import RequestInput

WEATHER = Tool(name="get_weather", description="Weather now.",
               parameters={"type": "object", "properties": {"city": {"type": "string"}}})
MAIL = Tool(name="send_email", description="Send mail.",
            parameters={"type": "object", "properties": {"to": {"type": "string"}}})
SEARCH = Tool(name="search_tools", description="Find tools.",
              parameters={"type": "object", "properties": {"query": {"type": "string"}}})


def build(provider: str, **kwargs):
    req = RequestInput(**{"system": "Be brief.", "query": "Weather in Oslo?", **kwargs})
    return PROVIDERS[provider].request(req)


def test_each_provider_puts_the_system_prompt_and_the_message_where_its_api_wants_them():
    assert build("openai")[0] == {"messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"}]}
    assert build("openai-responses")[0] == {
        "instructions": "Be brief.", "input": [{"role": "user", "content": "Weather in Oslo?"}]}
    assert build("anthropic")[0] == {
        "system": "Be brief.", "messages": [{"role": "user", "content": "Weather in Oslo?"}]}
    assert build("gemini")[0] == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": "Weather in Oslo?"}]}]}
    assert build("bedrock")[0] == {
        "system": [{"text": "Be brief."}],
        "messages": [{"role": "user", "content": [{"text": "Weather in Oslo?"}]}]}
    assert build("ollama")[0] == build("mistral")[0] == build("openai")[0]


def test_an_empty_system_prompt_is_left_out():
    payload, _ = PROVIDERS["anthropic"].request(RequestInput(system="", query="hi"))
    assert payload == {"messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(("provider", "key"), [
    ("openai", "model"), ("anthropic", "model"), ("bedrock", "modelId"), ("ollama", "model"),
])
def test_the_model_id_is_written_when_known(provider, key):
    assert build(provider, model="m-1")[0][key] == "m-1"
    assert "model" not in build("gemini", model="m-1")[0]  # Gemini names it in the URL


def test_anthropic_marks_deferred_tools_and_adds_its_search_tool():
    payload, notes = build("anthropic", tools=(WEATHER,), deferred=(MAIL,))
    assert payload["tools"][1]["defer_loading"] is True
    assert payload["tools"][2] == {"type": "tool_search_tool_bm25_20251119",
                                   "name": "tool_search_tool_bm25"}
    assert "defer_loading" not in payload["tools"][0]
    assert notes and "tool_search_tool_bm25 server tool was added" in notes[0]


def test_a_request_with_its_own_search_tool_gets_no_hosted_one():
    payload, _ = build("anthropic", tools=(SEARCH,), deferred=(MAIL,), discovery=True)
    assert [t.get("name") for t in payload["tools"]] == ["search_tools", "send_email"]
    payload, _ = build("openai-responses", tools=(SEARCH,), deferred=(MAIL,), discovery=True)
    assert [t.get("type") for t in payload["tools"]] == ["function", "function"]


def test_openai_responses_defers_and_always_writes_strict():
    payload, _ = build("openai-responses", tools=(WEATHER,), deferred=(MAIL,))
    weather, mail, search = payload["tools"]
    assert weather["strict"] is False and "defer_loading" not in weather
    assert mail["defer_loading"] is True
    assert search == {"type": "tool_search"}


@pytest.mark.parametrize("provider", ["openai", "gemini", "ollama", "bedrock", "mistral"])
def test_providers_without_deferred_loading_leave_deferred_tools_out(provider):
    payload, notes = build(provider, tools=(WEATHER,), deferred=(MAIL,))
    assert "send_email" not in str(payload)
    assert "1 deferred tools are not in the payload" in notes[0]


def test_bedrock_leaves_tool_config_out_when_there_are_no_tools():
    assert "toolConfig" not in build("bedrock")[0]
    assert build("bedrock", tools=(WEATHER,))[0]["toolConfig"]["tools"][0]["toolSpec"]["name"] \
        == "get_weather"


@pytest.mark.parametrize(("provider", "response"), [
    ("openai", {"choices": [{"message": {"tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}),
    ("openai", {"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]}),
    ("openai-responses", {"output": [{"type": "function_call", "call_id": "c", "name": "f",
                                      "arguments": "{}"}]}),
    ("anthropic", [{"type": "tool_use", "id": "c", "name": "f", "input": {}}]),
    ("gemini", {"parts": [{"functionCall": {"id": "c", "name": "f", "args": {}}}]}),
    ("ollama", {"message": {"tool_calls": [{"id": "c", "function": {"name": "f",
                                                                    "arguments": {}}}]}}),
    ("bedrock", {"message": {"content": [{"toolUse": {"toolUseId": "c", "name": "f",
                                                      "input": {}}}]}}),
    ("mistral", {"choices": [{"message": {"tool_calls": [
        {"id": "c", "function": {"name": "f", "arguments": {}}}]}}]}),
])
def test_calls_are_read_from_a_response_a_message_or_a_bare_list(provider, response):
    (call,) = PROVIDERS[provider].parse_calls(response)
    assert (call.name, call.id, call.error) == ("f", "c", None)
    assert call.pointer


def test_a_call_without_a_name_is_kept_as_malformed():
    (call,) = PROVIDERS["openai"].parse_calls({"tool_calls": [{"function": {"arguments": "{}"}}]})
    assert call.name == "" and call.error == "tool call has no 'name'"


def test_a_response_of_another_shape_is_a_response_error():
    with pytest.raises(ResponseError, match="not a Gemini response"):
        PROVIDERS["gemini"].parse_calls({"choices": []})


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses"])
def test_a_shown_tool_is_never_sent_deferred(provider):
    marked = Tool(name="get_weather", parameters={"type": "object"}, defer_loading=True)
    payload, _ = build(provider, tools=(marked,))
    assert "defer_loading" not in payload["tools"][0]
