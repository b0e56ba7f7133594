"""The gateway in front of a local upstream, driven by the official anthropic and openai SDKs:
what the upstream receives, and what the client gets back."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx
import openai
import pytest

from tests.gateway.conftest import (
    anthropic_call,
    anthropic_text,
    responses_tools,
    tools_60,
)

pytestmark = pytest.mark.slow  # each test starts an upstream and a gateway (threads, sockets)

QUESTION = "What is the weather in Tokyo today?"


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="sk-ant-secret-key", max_retries=0)


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="sk-openai-secret-key", max_retries=0)


def test_relevance_sends_upstream_the_tools_that_fit_and_the_reply_comes_back_unchanged(
        gateway):
    running = gateway(lambda path, body: (200, anthropic_text("Sunny, 21 C.")))
    reply = _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": QUESTION}])
    assert reply.content[0].text == "Sunny, 21 C."
    (path, headers, body), = running.upstream.received
    assert path == "/v1/messages"
    names = [t["name"] for t in body["tools"]]
    # at most max(min(int(60 x 0.8), 25), 5), and the cut keeps only the weather tools
    assert "get_weather" in names and all("weather" in name for name in names)
    assert names == [t["name"] for t in tools_60() if t["name"] in names]  # request order
    sent = {t["name"]: t for t in tools_60()}
    assert all(t == sent[t["name"]] for t in body["tools"])  # definitions untouched
    assert "sk-ant-secret-key" in (headers.get("x-api-key") or headers["authorization"])
    line, = running.lines()
    assert (line["api"], line["rule"], line["tools_in"], line["tools_out"]) == (
        "anthropic", "gateway-relevance", 60, len(names))
    assert line["tokens_saved"] > 0 and line["upstream_status"] == 200
    assert "sk-ant-secret-key" not in running.log.read_text()


def test_passthrough_forwards_the_request_as_it_came(gateway, tmp_path):
    profile = tmp_path / "passthrough.yaml"
    profile.write_text("name: passthrough\ngateway:\n  strategy: passthrough\n")
    running = gateway(lambda path, body: (200, anthropic_text("ok")), profile=str(profile))
    _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": QUESTION}])
    assert running.upstream.bodies()[0]["tools"] == tools_60()
    line, = running.lines()
    assert (line["rule"], line["tools_out"], line["tokens_saved"]) == (
        "gateway-passthrough", 60, 0)


def _chat_tools() -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": t["name"], "description":
                                                 t["description"],
                                                 "parameters": t["input_schema"]}}
            for t in tools_60()]


def _chat_reply(message: dict[str, Any], finish: str = "stop") -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-x",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def test_openai_chat_completions_through_the_gateway(gateway):
    running = gateway(lambda path, body: (200, _chat_reply(
        {"role": "assistant", "content": "Sunny."})))
    reply = _openai(running.url).chat.completions.create(
        model="gpt-x", tools=_chat_tools(), messages=[{"role": "user", "content": QUESTION}])
    assert reply.choices[0].message.content == "Sunny."
    (path, headers, body), = running.upstream.received
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer sk-openai-secret-key"
    assert "get_weather" in [t["function"]["name"] for t in body["tools"]]
    assert all("weather" in t["function"]["name"] for t in body["tools"])  # the cut


def _responses_reply(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x",
            "status": "completed", "output": output, "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "usage": {
                "input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0}}}


def _message(text: str) -> dict[str, Any]:
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def test_openai_responses_through_the_gateway(gateway):
    running = gateway(lambda path, body: (200, _responses_reply([_message("Sunny.")])))
    tools = responses_tools()
    reply = _openai(running.url).responses.create(model="gpt-x", tools=tools, input=QUESTION)
    assert reply.output_text == "Sunny."
    body = running.upstream.bodies()[0]
    assert "get_weather" in [t["name"] for t in body["tools"]]
    assert all("weather" in t["name"] for t in body["tools"])  # the cut


def _search_then_call(path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """The model searches for weather tools, then calls the one it found."""
    names = [t["name"] for t in body["tools"]]
    if "get_weather" in names:
        return 200, anthropic_call("get_weather", {"id": "tokyo"}, "toolu_2")
    return 200, anthropic_call("gateway_search_tools", {"query": "weather"})


def test_tool_search_answers_the_models_search_and_the_client_sees_only_the_real_call(gateway):
    running = gateway(_search_then_call, profile="gateway-tool-search")
    reply = _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": QUESTION}])
    assert [(b.type, b.name) for b in reply.content] == [("tool_use", "get_weather")]
    first, second = running.upstream.bodies()
    assert [t["name"] for t in first["tools"]] == ["gateway_search_tools"]
    assert "get_weather" in [t["name"] for t in second["tools"]]
    assert len(second["tools"]) <= 6  # the search tool and at most 5 found
    answer = second["messages"][-1]["content"][0]
    assert answer["type"] == "tool_result" and answer["tool_use_id"] == "toolu_1"
    assert "get_weather" in json.loads(answer["content"])["tools"][0]["name"]
    line, = running.lines()
    assert line["search_rounds"] == 1 and line["searches"] == ["weather"]


def test_found_tools_stay_in_the_session_for_the_next_request(gateway):
    running = gateway(_search_then_call, profile="gateway-tool-search")
    client = _anthropic(running.url)
    client.messages.create(model="claude-x", max_tokens=100, tools=tools_60(),
                           messages=[{"role": "user", "content": QUESTION}])
    running.upstream.script = lambda path, body: (200, anthropic_text("Sunny."))
    client.messages.create(model="claude-x", max_tokens=100, tools=tools_60(), messages=[
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2",
                                           "name": "get_weather", "input": {"id": "tokyo"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2",
                                      "content": "sunny"}]}])
    third = running.upstream.bodies()[-1]
    assert [t["name"] for t in third["tools"]][:1] == ["get_weather"]
    assert "gateway_search_tools" in [t["name"] for t in third["tools"]]


def test_another_conversation_does_not_see_those_tools(gateway):
    running = gateway(_search_then_call, profile="gateway-tool-search")
    client = _anthropic(running.url)
    client.messages.create(model="claude-x", max_tokens=100, tools=tools_60(),
                           messages=[{"role": "user", "content": QUESTION}])
    running.upstream.script = lambda path, body: (200, anthropic_text("Hello."))
    client.messages.create(model="claude-x", max_tokens=100, tools=tools_60(),
                           messages=[{"role": "user", "content": "Send an email to Ann"}])
    assert [t["name"] for t in running.upstream.bodies()[-1]["tools"]] == [
        "gateway_search_tools"]


def test_the_search_loop_stops_after_five_rounds_and_hides_the_search_call(gateway):
    running = gateway(lambda path, body: (200, anthropic_call(
        "gateway_search_tools", {"query": "nothing-matches-this"},
        f"toolu_{len(body['messages'])}")), profile="gateway-tool-search")
    reply = _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": QUESTION}])
    assert reply.content == [] and reply.stop_reason == "end_turn"
    assert len(running.upstream.received) == 6  # the first request and 5 answered searches
    assert running.lines()[0]["search_rounds"] == 5


def test_openai_chat_search_loop(gateway):
    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        names = [t["function"]["name"] for t in body["tools"]]
        if "get_weather" in names:
            return 200, _chat_reply({"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_2", "type": "function", "function": {
                    "name": "get_weather", "arguments": "{\"id\": \"tokyo\"}"}}]}, "tool_calls")
        return 200, _chat_reply({"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {
                "name": "gateway_search_tools", "arguments": "{\"query\": \"weather\"}"}}]},
            "tool_calls")

    running = gateway(script, profile="gateway-tool-search")
    reply = _openai(running.url).chat.completions.create(
        model="gpt-x", tools=_chat_tools(), messages=[{"role": "user", "content": QUESTION}])
    call, = reply.choices[0].message.tool_calls
    assert call.function.name == "get_weather"
    second = running.upstream.bodies()[1]
    assert second["messages"][-1]["role"] == "tool"
    assert second["messages"][-1]["tool_call_id"] == "call_1"


def test_openai_responses_search_loop(gateway):
    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if "get_weather" in [t["name"] for t in body["tools"]]:
            return 200, _responses_reply([_message("Sunny.")])
        return 200, _responses_search_call()

    running = gateway(script, profile="gateway-tool-search")
    tools = responses_tools()
    reply = _openai(running.url).responses.create(model="gpt-x", tools=tools, input=QUESTION)
    assert reply.output_text == "Sunny."
    second = running.upstream.bodies()[1]
    assert second["input"][-1] == {"type": "function_call_output", "call_id": "call_1",
                                   "output": second["input"][-1]["output"]}
    assert second["input"][0] == {"role": "user", "content": QUESTION}


def test_a_malformed_body_is_a_400_in_the_providers_shape_and_nothing_goes_upstream(gateway):
    running = gateway(lambda path, body: (200, anthropic_text("never")))
    answer = httpx.post(f"{running.url}/v1/messages", content=b"{not json",
                        headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["type"] == "error"
    assert answer.json()["error"]["type"] == "invalid_request_error"
    answer = httpx.post(f"{running.url}/v1/chat/completions", json={"model": "gpt-x"})
    assert answer.status_code == 400 and "messages" in answer.json()["error"]["message"]
    answer = httpx.post(f"{running.url}/v1/messages", json={
        "model": "m", "max_tokens": 5, "messages": [], "tools": [{"name": "a",
                                                                  "input_schema": {}},
                                                                 {"name": "a",
                                                                  "input_schema": {}}]})
    assert answer.status_code == 400 and "unique" in answer.json()["error"]["message"]
    assert running.upstream.received == []


def test_an_upstream_error_is_passed_through_unchanged(gateway):
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    running = gateway(lambda path, body: (529, error))
    answer = httpx.post(f"{running.url}/v1/messages", json={
        "model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]})
    assert (answer.status_code, answer.json()) == (529, error)
    assert answer.headers["request-id"] == "req_upstream_1"


def test_an_unreachable_upstream_is_a_502(gateway):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    running = gateway(lambda path, body: (200, anthropic_text("never")), upstream=dead)
    try:
        _anthropic(running.url).messages.create(
            model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    except anthropic.APIStatusError as exc:
        assert exc.status_code == 502 and "cannot be reached" in str(exc)
    else:
        raise AssertionError("no error")


def test_a_slow_upstream_is_a_504_within_the_timeout(gateway):
    import time

    running = gateway(lambda path, body: (200, anthropic_text("late")), timeout=0.5)
    running.upstream.delay = 3
    started = time.perf_counter()
    answer = httpx.post(f"{running.url}/v1/chat/completions", json={
        "model": "m", "messages": [{"role": "user", "content": "hi"}]}, timeout=10)
    assert answer.status_code == 504 and time.perf_counter() - started < 2.5
    assert answer.json()["error"]["code"] == "gateway_timeout"


def test_a_foreign_host_or_origin_is_refused(gateway):
    running = gateway(lambda path, body: (200, anthropic_text("never")))
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    answer = httpx.post(f"{running.url}/v1/messages", json=body,
                        headers={"host": "evil.example"})
    assert answer.status_code == 421
    answer = httpx.post(f"{running.url}/v1/messages", json=body,
                        headers={"origin": "http://evil.example"})
    assert answer.status_code == 403
    assert running.upstream.received == []


def test_with_a_token_every_request_must_carry_it(gateway):
    token = "a-long-enough-gateway-token"
    running = gateway(lambda path, body: (200, anthropic_text("ok")), token=token)
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    assert httpx.post(f"{running.url}/v1/messages", json=body).status_code == 401
    answer = httpx.post(f"{running.url}/v1/messages", json=body,
                        headers={"x-toolcat-token": token, "x-api-key": "sk-ant-k"})
    assert answer.status_code == 200
    headers = running.upstream.received[0][1]
    assert "x-toolcat-token" not in {k.lower() for k in headers}
    assert headers["x-api-key"] == "sk-ant-k"


def test_tools_the_catalog_marks_unsafe_are_left_out(gateway, tmp_path):
    from toolcat import load_catalog
    from toolcat.gateway import unsafe_names

    catalog = tmp_path / "catalog.yaml"
    catalog.write_text("tools:\n  - name: delete_email\n    description: Delete an email.\n"
                       "    safe: false\n  - name: get_email\n    description: Get an email.\n")
    unsafe = unsafe_names(load_catalog(catalog))
    assert unsafe == {"delete_email"}
    running = gateway(lambda path, body: (200, anthropic_text("ok")),
                      profile="gateway-tool-search", unsafe=unsafe)
    running.upstream.script = lambda path, body: (200, anthropic_call(
        "gateway_search_tools", {"query": "email"})) if len(running.upstream.received) == 1 \
        else (200, anthropic_text("done"))
    _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": "Delete the email from Bob"}])
    found = [t["name"] for t in running.upstream.bodies()[1]["tools"]]
    assert "get_email" in found and "delete_email" not in found
    assert running.lines()[0]["unsafe_left_out"] == 1


def test_hostile_bodies_get_a_4xx_and_never_reach_the_upstream(gateway):
    running = gateway(lambda path, body: (200, anthropic_text("never")))
    nested = b'{"model": "m", "messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    for path, content, status in [
            ("/v1/messages", nested, 400),
            ("/v1/responses", b'{"model": "m", "input": 7}', 400),
            ("/v1/messages", b'["not", "an", "object"]', 400),
            ("/v1/messages", b'{"model": "m", "max_tokens": 5, "messages": [{"role": '
                             b'"system", "content": "x"}]}', 400),
            ("/v1/chat/completions", b'{"model": "m", "messages": [], "tools": {}}', 400),
            ("/v1/messages", b"x" * (33 << 20), 413)]:
        answer = httpx.post(f"{running.url}{path}", content=content, timeout=30,
                            headers={"content-type": "application/json"})
        assert answer.status_code == status, (path, content[:40])
        assert "Traceback" not in answer.text
    assert running.upstream.received == []


def _api_profile(tmp_path, endpoint: str) -> str:
    profile = tmp_path / "api.yaml"
    profile.write_text("name: api\ngateway:\n  strategy: api\n  api:\n"
                       f"    endpoint: {endpoint}\n    timeout: 2\n")
    return str(profile)


def _selector_and_model(path: str, body: dict[str, Any]) -> tuple[int, Any]:
    if path == "/select":
        return 200, {"selected_names": ["get_weather"]}
    return _search_then_call(path, body)


def test_the_api_strategy_asks_the_selector_and_reinjects_its_choice(gateway, tmp_path):
    selector = gateway(_selector_and_model).upstream  # a local server answering /select
    running = gateway(_selector_and_model,
                      profile=_api_profile(tmp_path, f"{selector.url}/select"))
    reply = _anthropic(running.url).messages.create(
        model="claude-x", max_tokens=100, tools=tools_60(),
        messages=[{"role": "user", "content": QUESTION}])
    assert reply.content[0].name == "get_weather"
    asked, = selector.bodies()
    assert asked["pattern"] == "weather" and len(asked["tools"]) == 60
    second = running.upstream.bodies()[1]
    assert [t["name"] for t in second["tools"]] == ["get_weather", "gateway_search_tools"]


def test_the_api_strategy_fails_open_to_every_deferred_tool(gateway, tmp_path):
    import socket

    # bound but never listening, and held for the whole test: a connection is refused, and no
    # server another test starts meanwhile can be given this port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/select"
        running = gateway(_search_then_call, profile=_api_profile(tmp_path, dead))
        _anthropic(running.url).messages.create(
            model="claude-x", max_tokens=100, tools=tools_60(),
            messages=[{"role": "user", "content": QUESTION}])
    assert len(running.upstream.bodies()[1]["tools"]) == 61
    answer = json.loads(running.upstream.bodies()[1]["messages"][-1]["content"][0]["content"])
    assert answer["message"].startswith("Tool search is unavailable")


def test_the_tool_that_tool_choice_names_is_always_sent(gateway):
    running = gateway(lambda path, body: (200, _chat_reply(
        {"role": "assistant", "content": "ok"})))
    _openai(running.url).chat.completions.create(
        model="gpt-x", tools=_chat_tools(), messages=[{"role": "user", "content": QUESTION}],
        tool_choice={"type": "function", "function": {"name": "delete_shipment"}})
    body, = running.upstream.bodies()
    names = [t["function"]["name"] for t in body["tools"]]
    assert "delete_shipment" in names and "get_weather" in names


def test_a_responses_conversation_the_provider_keeps_goes_on_from_the_searchs_reply(gateway):
    def script(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if "get_weather" in [t["name"] for t in body["tools"]]:
            return 200, {**_responses_reply([_message("Sunny.")]), "id": "resp_2"}
        return 200, _responses_search_call()

    running = gateway(script, profile="gateway-tool-search")
    tools = responses_tools()
    reply = _openai(running.url).responses.create(
        model="gpt-x", tools=tools, previous_response_id="resp_0",
        input=[{"role": "user", "content": QUESTION}])
    assert reply.id == "resp_2"
    first, second = running.upstream.bodies()
    assert first["previous_response_id"] == "resp_0"
    assert second["previous_response_id"] == "resp_1"
    assert [item["type"] for item in second["input"]] == ["function_call_output"]


def _responses_search_call() -> dict[str, Any]:
    """A Responses reply whose model calls the gateway's search tool for "weather"."""
    return _responses_reply([{"type": "function_call", "id": "fc_1", "call_id": "call_1",
                              "name": "gateway_search_tools",
                              "arguments": "{\"query\": \"weather\"}",
                              "status": "completed"}])
