"""Large tool results: shortened before they go upstream, read by the model through
search_large_output, which the gateway answers itself."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest

from tests.gateway.conftest import anthropic_call, anthropic_text
from toolcat.gateway.outputs import HEAD, OUTPUT_LIMIT, answer, output_id

LOG = "".join(f"line {i}: ok\n" if i != 4321 else "line 4321: ERROR disk full\n"
              for i in range(8000))
ASKED = [{"name": "read_log", "description": "Read the service log.",
          "input_schema": {"type": "object", "properties": {}}}]


def _history(output: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": "Why did the service stop?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_0",
                                               "name": "read_log", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_0",
                                          "content": output}]}]


@pytest.mark.slow  # starts an upstream and a gateway (threads, sockets)
def test_a_large_tool_result_is_shortened_and_the_model_reads_it_through_the_gateway(gateway):
    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if body["messages"][-1]["content"][0]["tool_use_id"] == "toolu_0":
            return 200, anthropic_call("search_large_output", {
                "file_id": output_id(LOG), "pattern": "error"}, "toolu_9")
        return 200, anthropic_text("The disk is full.")

    running = gateway(script)
    reply = anthropic.Anthropic(base_url=running.url, api_key="k", max_retries=0
                                ).messages.create(model="claude-x", max_tokens=100,
                                                  tools=ASKED, messages=_history(LOG))
    assert reply.content[0].text == "The disk is full."
    first, second = running.upstream.bodies()
    sent = first["messages"][2]["content"][0]["content"]
    assert len(LOG) > OUTPUT_LIMIT and len(sent) < HEAD + 400
    assert sent.startswith(LOG[:HEAD]) and output_id(LOG) in sent
    assert [t["name"] for t in first["tools"]] == ["read_log", "search_large_output"]
    found = json.loads(second["messages"][-1]["content"][0]["content"])
    assert found["matches"] == [{"offset": LOG.index("line 4321"),
                                 "line": "line 4321: ERROR disk full"}]
    assert running.lines()[0]["outputs_shortened"] == 1


@pytest.mark.slow  # starts an upstream and a gateway (threads, sockets)
def test_a_small_tool_result_goes_upstream_as_it_is(gateway):
    running = gateway(lambda path, body: (200, anthropic_text("fine")))
    anthropic.Anthropic(base_url=running.url, api_key="k", max_retries=0).messages.create(
        model="claude-x", max_tokens=100, tools=ASKED, messages=_history("all good"))
    body, = running.upstream.bodies()
    assert body["messages"] == _history("all good")
    assert [t["name"] for t in body["tools"]] == ["read_log"]


@pytest.mark.slow  # starts an upstream and a gateway (threads, sockets)
def test_openai_chat_tool_messages_are_shortened_too(gateway):
    reply = {"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-x",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                          "finish_reason": "stop"}]}
    running = gateway(lambda path, body: (200, reply))
    openai.OpenAI(base_url=f"{running.url}/v1", api_key="k", max_retries=0
                  ).chat.completions.create(model="gpt-x", messages=[
                      {"role": "user", "content": "Why did it stop?"},
                      {"role": "assistant", "tool_calls": [{"id": "c0", "type": "function",
                                                            "function": {"name": "read_log",
                                                                         "arguments": "{}"}}]},
                      {"role": "tool", "tool_call_id": "c0", "content": LOG}])
    body, = running.upstream.bodies()
    assert len(body["messages"][2]["content"]) < HEAD + 400
    assert body["tools"][-1]["function"]["name"] == "search_large_output"


def test_reading_pages_through_the_full_text():
    kept = {output_id(LOG): LOG}
    page = answer(kept, {"file_id": output_id(LOG), "offset": HEAD, "limit": 100})
    assert page["text"] == LOG[HEAD:HEAD + 100] and page["next_offset"] == HEAD + 100
    last = answer(kept, {"file_id": output_id(LOG), "offset": len(LOG) - 5})
    assert last["text"] == LOG[-5:] and last["next_offset"] is None
    assert "error" in answer(kept, {"file_id": "out_nope"})
    assert "error" in answer(kept, {"pattern": "x"})


def test_a_pattern_that_would_backtrack_forever_returns_at_once():
    text = "a" * 30_000 + "!"
    found = answer({"id": text}, {"file_id": "id", "pattern": "(a+)+$"})
    assert found["matches"] == []
