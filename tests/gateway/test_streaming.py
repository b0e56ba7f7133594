"""stream: true through the gateway: piped as it arrives without a search tool; with one, the
search rounds are done before the first byte and the final answer is the upstream's own
stream."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest

from tests.gateway.conftest import responses_tools, tools_60

pytestmark = pytest.mark.slow  # each test starts an upstream and a gateway (threads, sockets)

QUESTION = "What is the weather in Tokyo today?"


def _sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                    for name, data in events)


def _message_start() -> tuple[str, dict[str, Any]]:
    return ("message_start", {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})


def anthropic_text_stream(text: str) -> bytes:
    return _sse([_message_start(),
                 ("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}),
                 *[("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "text_delta", "text": word}})
                   for word in text.split(" ")],
                 ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                 ("message_delta", {"type": "message_delta", "delta": {
                     "stop_reason": "end_turn", "stop_sequence": None},
                     "usage": {"output_tokens": 5}}),
                 ("message_stop", {"type": "message_stop"})])


def anthropic_call_stream(name: str, arguments: dict[str, Any]) -> bytes:
    text = json.dumps(arguments)
    return _sse([_message_start(),
                 ("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "tool_use", "id": "toolu_1",
                                                            "name": name, "input": {}}}),
                 ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                     "type": "input_json_delta", "partial_json": text[:5]}}),
                 ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                     "type": "input_json_delta", "partial_json": text[5:]}}),
                 ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                 ("message_delta", {"type": "message_delta", "delta": {
                     "stop_reason": "tool_use", "stop_sequence": None},
                     "usage": {"output_tokens": 5}}),
                 ("message_stop", {"type": "message_stop"})])


def test_relevance_pipes_the_stream(gateway):
    running = gateway(lambda path, body: (200, anthropic_text_stream("Sunny in Tokyo.")))
    client = anthropic.Anthropic(base_url=running.url, api_key="sk-ant-k", max_retries=0)
    with client.messages.stream(model="claude-x", max_tokens=100, tools=tools_60(),
                                messages=[{"role": "user", "content": QUESTION}]) as stream:
        assert "".join(stream.text_stream) == "SunnyinTokyo."
    body = running.upstream.bodies()[0]
    assert body["stream"] is True and 0 < len(body["tools"]) <= 25


def test_tool_search_streams_the_answer_after_the_search(gateway):
    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if "get_weather" in [t["name"] for t in body["tools"]]:
            return 200, anthropic_call_stream("get_weather", {"id": "tokyo"})
        return 200, anthropic_call_stream("gateway_search_tools", {"query": "weather"})

    running = gateway(script, profile="gateway-tool-search")
    client = anthropic.Anthropic(base_url=running.url, api_key="sk-ant-k", max_retries=0)
    with client.messages.stream(model="claude-x", max_tokens=100, tools=tools_60(),
                                messages=[{"role": "user", "content": QUESTION}]) as stream:
        final = stream.get_final_message()
    call, = final.content
    assert (call.type, call.name, call.input) == ("tool_use", "get_weather", {"id": "tokyo"})
    first, second = running.upstream.bodies()
    assert first["stream"] is True and second["stream"] is True
    assert second["messages"][1]["content"][0]["input"] == {"query": "weather"}
    assert running.lines()[0]["search_rounds"] == 1


def test_openai_chat_stream_after_a_search(gateway):
    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        return ("data: " + json.dumps({"id": "c1", "object": "chat.completion.chunk",
                                       "created": 1, "model": "gpt-x", "choices": [
                                           {"index": 0, "delta": delta,
                                            "finish_reason": finish}]}) + "\n\n").encode()

    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if "get_weather" in [t["function"]["name"] for t in body["tools"]]:
            return 200, chunk({"role": "assistant", "content": "Sun"}) + chunk(
                {"content": "ny."}) + chunk({}, "stop") + b"data: [DONE]\n\n"
        return 200, chunk({"role": "assistant", "tool_calls": [{
            "index": 0, "id": "call_1", "type": "function", "function": {
                "name": "gateway_search_tools", "arguments": "{\"query\":"}}]}) + chunk(
            {"tool_calls": [{"index": 0, "function": {"arguments": " \"weather\"}"}}]}) + \
            chunk({}, "tool_calls") + b"data: [DONE]\n\n"

    running = gateway(script, profile="gateway-tool-search")
    client = openai.OpenAI(base_url=f"{running.url}/v1", api_key="sk-k", max_retries=0)
    tools = [{"type": "function", "function": {"name": t["name"], "description":
                                               t["description"], "parameters":
                                               t["input_schema"]}} for t in tools_60()]
    stream = client.chat.completions.create(model="gpt-x", tools=tools, stream=True,
                                            messages=[{"role": "user", "content": QUESTION}])
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "Sunny."
    second = running.upstream.bodies()[1]
    assert second["messages"][1]["tool_calls"][0]["function"]["arguments"] == \
        "{\"query\": \"weather\"}"


def test_openai_responses_stream_after_a_search(gateway):
    def event(kind: str, **data: Any) -> bytes:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()

    def response(output: list[dict[str, Any]]) -> dict[str, Any]:
        return {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x",
                "status": "completed", "output": output, "parallel_tool_calls": True,
                "tool_choice": "auto", "tools": []}

    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if "get_weather" in [t["name"] for t in body["tools"]]:
            message = {"type": "message", "id": "msg_1", "role": "assistant",
                       "status": "completed", "content": [
                           {"type": "output_text", "text": "Sunny.", "annotations": []}]}
            return 200, event("response.output_text.delta", item_id="msg_1", output_index=0,
                              content_index=0, delta="Sunny.", sequence_number=1,
                              logprobs=[]) + \
                event("response.completed", response=response([message]), sequence_number=2)
        call = {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                "name": "gateway_search_tools", "arguments": "{\"query\": \"weather\"}",
                "status": "completed"}
        return 200, event("response.completed", response=response([call]), sequence_number=1)

    running = gateway(script, profile="gateway-tool-search")
    client = openai.OpenAI(base_url=f"{running.url}/v1", api_key="sk-k", max_retries=0)
    tools = responses_tools()
    events = list(client.responses.create(model="gpt-x", tools=tools, input=QUESTION,
                                          stream=True))
    assert [e.type for e in events] == ["response.output_text.delta", "response.completed"]
    second = running.upstream.bodies()[1]
    assert second["input"][-1]["type"] == "function_call_output"
