"""A profile's provider_search, through the CLI: `render --provider` writes exactly the
documented request for each mode (Anthropic's regex or BM25 tool search server tool, OpenAI
Responses' hosted or client-run tool_search with one namespace per server, toolcat's own search
with tool_choice allowed_tools, or the tools list rewritten), each whole request body validated
by the provider SDK's own types; and `resolve --steps --provider` shows, per request, the
prefix that stays cached and what that saves, in real token counts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from tests.conftest import CATALOGS, DATA
from toolcat.catalog.load import load_catalog
from toolcat.model import compact_json

TOOLS = DATA / "resolve" / "tools.yaml"
SERVERS = {s.name: s.description for s in load_catalog(TOOLS).servers}
QUERY = "what's the weather in Lisbon"
TOOL_SEARCH = next(t for t in load_catalog(CATALOGS / "builtins" / "builtins.yaml").tools
                   if t.name == "tool_search")


def anthropic_body(body: dict[str, Any]) -> dict[str, Any]:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    # max_tokens is left to the client (docs/render.md); the SDK's type requires it
    return TypeAdapter(MessageCreateParamsNonStreaming).validate_python(
        {"max_tokens": 1024, **body})


def responses_body(body: dict[str, Any]) -> dict[str, Any]:
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    return TypeAdapter(ResponseCreateParamsNonStreaming).validate_python(body)


def chat_body(body: dict[str, Any]) -> dict[str, Any]:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return TypeAdapter(CompletionCreateParamsNonStreaming).validate_python(body)


VALIDATE: dict[str, Callable[[dict[str, Any]], Any]] = {
    "anthropic": anthropic_body, "openai-responses": responses_body, "openai": chat_body}


@pytest.fixture
def profile(tmp_path: Path) -> Callable[..., Path]:
    """A profile file: a small model (two catalog tools shown, the rest deferred) whose
    provider_search has the given settings."""

    def make(**search: Any) -> Path:
        path = tmp_path / "profile.yaml"
        path.write_text("model: {name: claude-sonnet-4-5, size_b: 3}\nscorer: keyword\n"
                        f"provider_search: {json.dumps(search)}\n", encoding="utf-8")
        return path

    return make


@pytest.fixture
def rendered(run: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    def render(profile: Path, provider: str) -> dict[str, Any]:
        result = run("render", QUERY, "-c", str(TOOLS), "-p", str(profile), "--provider",
                     provider, "--json")
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        VALIDATE[provider]({"model": "m", **data["payload"]})
        return data

    return render


def deferred_names(data: dict[str, Any]) -> list[str]:
    return [q.partition(":")[2] for q in data["tools"]["deferred"]]


def shown_names(data: dict[str, Any]) -> list[str]:
    return [q.rpartition(":")[2] for q in data["tools"]["payload"]]


@pytest.mark.parametrize("variant", ["regex", "bm25"])
def test_native_anthropic_sends_the_named_server_tool_and_defers_every_catalog_tool(
        profile, rendered, variant):
    data = rendered(profile(mode="native", anthropic=variant), "anthropic")
    tools = data["payload"]["tools"]
    assert tools[-1] == {"type": f"tool_search_tool_{variant}_20251119",
                         "name": f"tool_search_tool_{variant}"}
    deferred = deferred_names(data)
    assert deferred and {t["name"] for t in tools if t.get("defer_loading")} == set(deferred)
    shown = [t["name"] for t in tools[:-1] if not t.get("defer_loading")]
    assert shown == ["get_weather", "weather_forecast"]  # toolcat's tool_search is replaced
    assert data["payload"]["cache_control"] == {"type": "ephemeral"}  # the prefix is cached
    assert data["search"] == {"mode": "native", "used": "native", "variant": variant,
                              "deferred": "defer", "strategy": "append",
                              "prefix": data["tokens"]["total"], "client_runs": False}
    trace = json.dumps(data)
    assert "tool_search left out of the request" in trace


def test_native_openai_hosted_groups_deferred_functions_in_a_namespace_per_server(
        profile, rendered):
    data = rendered(profile(mode="native", openai="hosted"), "openai-responses")
    tools = data["payload"]["tools"]
    assert tools[-1] == {"type": "tool_search"}
    spaces = {t["name"]: t for t in tools if t["type"] == "namespace"}
    by_server: dict[str, list[str]] = {}
    for qualified in data["tools"]["deferred"]:
        server, _, name = qualified.partition(":")
        by_server.setdefault(server, []).append(name)
    assert set(spaces) == set(by_server)
    for server, names in by_server.items():
        space = spaces[server]
        assert space["description"] == SERVERS[server]
        assert [f["name"] for f in space["tools"]] == names
        assert all(f["type"] == "function" and f["defer_loading"] is True
                   and isinstance(f["strict"], bool) for f in space["tools"])
    flat = [t["name"] for t in tools if t["type"] == "function"]
    assert flat == ["get_weather", "weather_forecast"]
    assert "defer_loading" not in json.dumps([t for t in tools if t["type"] == "function"])


def test_native_openai_client_search_is_described_by_toolcats_tool_search(profile, rendered):
    data = rendered(profile(mode="native", openai="client", namespaces=False),
                    "openai-responses")
    tools = data["payload"]["tools"]
    assert tools[-1] == {"type": "tool_search", "execution": "client",
                         "description": TOOL_SEARCH.description,
                         "parameters": TOOL_SEARCH.parameters}
    # without namespaces each deferred function is a top-level function marked deferred
    deferred = [t["name"] for t in tools if t.get("defer_loading")]
    assert deferred == deferred_names(data)
    assert not [t for t in tools if t["type"] == "namespace"]
    assert data["search"]["client_runs"] is True


def test_local_search_on_anthropic_loads_by_tool_reference(profile, rendered):
    data = rendered(profile(mode="local"), "anthropic")
    tools = data["payload"]["tools"]
    assert not [t for t in tools if str(t.get("type", "")).startswith("tool_search_tool")]
    assert [t["name"] for t in tools if not t.get("defer_loading")] == \
        ["tool_search", "get_weather", "weather_forecast"]
    assert [t["name"] for t in tools if t.get("defer_loading")] == deferred_names(data)
    assert data["search"]["strategy"] == "append"


@pytest.mark.parametrize("provider", ["openai-responses", "openai"])
def test_local_search_on_openai_keeps_every_tool_and_allows_the_shown_ones(
        profile, rendered, provider):
    data = rendered(profile(mode="local"), provider)
    payload = data["payload"]
    shown = ["tool_search", "get_weather", "weather_forecast"]
    if provider == "openai":
        names = [t["function"]["name"] for t in payload["tools"]]
        assert payload["tool_choice"] == {"type": "allowed_tools", "allowed_tools": {
            "mode": "auto", "tools": [{"type": "function", "function": {"name": n}}
                                      for n in shown]}}
    else:
        names = [t["name"] for t in payload["tools"]]
        assert payload["tool_choice"] == {"type": "allowed_tools", "mode": "auto", "tools": [
            {"type": "function", "name": n} for n in shown]}
    assert names == [*shown, *deferred_names(data)]
    assert "defer_loading" not in json.dumps(payload)
    assert data["search"]["strategy"] == "allowed-tools"


def test_local_search_that_rewrites_leaves_the_deferred_tools_out(profile, rendered):
    data = rendered(profile(mode="local", discovery="rewrite"), "openai-responses")
    payload = data["payload"]
    assert [t["name"] for t in payload["tools"]] == \
        ["tool_search", "get_weather", "weather_forecast"]
    assert "tool_choice" not in payload and data["search"]["strategy"] == "rewrite"


def test_native_or_local_falls_back_to_toolcats_search_without_a_native_one(
        profile, run):
    result = run("render", QUERY, "-c", str(TOOLS), "-p", str(profile(mode="native-or-local")),
                 "--provider", "gemini", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["search"]["used"] == "local"
    declared = [d["name"] for t in data["payload"]["tools"] for d in t["functionDeclarations"]]
    assert declared == ["tool_search", "get_weather", "weather_forecast"]


def test_native_with_a_provider_that_has_no_tool_search_is_a_one_line_error(profile, run):
    result = run("render", QUERY, "-c", str(TOOLS), "-p", str(profile(mode="native")),
                 "--provider", "gemini")
    assert result.exit_code == 2
    assert "Google Gemini has no tool search of its own" in result.stderr
    assert "native-or-local" in result.stderr and "Traceback" not in result.output


def test_the_prefix_is_what_the_model_sees_before_a_search_in_real_tokens(profile, rendered):
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")
    data = rendered(profile(mode="native", openai="hosted"), "openai-responses")
    seen = []
    for item in data["payload"]["tools"]:
        if item["type"] == "namespace":  # the namespace's name and description only
            seen.append({"type": "namespace", "name": item["name"],
                         "description": item["description"]})
        else:
            seen.append(item)
    expected = sum(len(encoding.encode(compact_json(i))) for i in seen)
    assert data["tokens"]["method"]["label"] == "exact o200k_base"
    assert data["tokens"]["tools"] == expected == data["search"]["prefix"]


SESSION = """\
query: what's the weather in Lisbon
steps:
  - tool_search: {query: post a message in a slack channel}
  - user: open an issue about the outage
  - tool_search: {query: create an issue}
"""


@pytest.fixture
def session(run: Callable[..., Any], tmp_path: Path) -> Callable[..., dict[str, Any]]:
    steps = tmp_path / "steps.yaml"
    steps.write_text(SESSION, encoding="utf-8")

    def replay(profile: Path, provider: str) -> dict[str, Any]:
        result = run("resolve", "-c", str(TOOLS), "-p", str(profile), "--steps", str(steps),
                     "--provider", provider, "--json")
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    return replay


def test_native_search_keeps_the_whole_prefix_cached_and_appends_what_it_finds(
        profile, rendered, session):
    chosen = profile(mode="native", anthropic="regex")
    first = rendered(chosen, "anthropic")
    cache = session(chosen, "anthropic")["cache"]
    steps = cache["steps"]
    assert cache["strategy"] == "append" and len(steps) == 4
    prefix = first["tokens"]["total"]  # the request render writes, tool-use overhead included
    assert [s["prefix"] for s in steps] == [prefix] * 4
    assert [s["cached"] for s in steps] == [0, prefix, prefix, prefix]
    # the cut keeps the one tool that fits; the other Slack tools fit far worse
    assert steps[1]["loaded"] == ["slack:send_message"]
    assert steps[2]["loaded"] == ["github:create_issue"]  # the new user turn's search
    # the loaded definitions, priced as the request carries them
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")
    items = {t["name"]: {k: v for k, v in t.items() if k != "defer_loading"}
             for t in first["payload"]["tools"] if "name" in t}
    assert steps[1]["appended"] == sum(
        len(encoding.encode(compact_json(items[n.partition(":")[2]])))
        for n in steps[1]["loaded"])
    assert all(s["wire"] is None for s in steps)  # Anthropic's server tool loads them itself
    # rewriting the tools list loses the cache when the new user turn changes the tools
    assert steps[2]["rewrite"]["cached"] < steps[2]["rewrite"]["prefix"]
    assert steps[2]["saved"] == steps[2]["rewrite"]["uncached"] - steps[2]["appended"] > 0
    assert cache["saved"] == sum(s["saved"] for s in steps) > 0


def test_a_local_search_on_anthropic_answers_with_tool_reference_blocks(profile, session):
    from anthropic.types import ToolResultBlockParam

    data = session(profile(mode="local"), "anthropic")
    step = data["cache"]["steps"][1]
    assert step["wire"] == {"type": "tool_result", "tool_use_id": "toolcat_step_1", "content": [
        {"type": "tool_reference", "tool_name": n.partition(":")[2]} for n in step["loaded"]]}
    TypeAdapter(ToolResultBlockParam).validate_python(step["wire"])
    assert data["steps"][0]["cache"] == step


def test_a_client_run_openai_search_answers_with_a_tool_search_output(profile, rendered,
                                                                      session):
    chosen = profile(mode="native", openai="client")
    first = rendered(chosen, "openai-responses")
    step = session(chosen, "openai-responses")["cache"]["steps"][1]
    wire = step["wire"]
    assert (wire["type"], wire["execution"], wire["call_id"]) == \
        ("tool_search_output", "client", "toolcat_step_1")
    (space,) = wire["tools"]
    assert (space["type"], space["name"], space["description"]) == \
        ("namespace", "slack", SERVERS["slack"])
    assert [f["name"] for f in space["tools"]] == ["send_message"]
    assert "defer_loading" not in json.dumps(wire)
    # the follow-up request: the same tools, the call and its output at the end of the input
    call = {"type": "tool_search_call", "call_id": "toolcat_step_1", "execution": "client",
            "arguments": {"query": "post a message in a slack channel"},
            "status": "completed"}
    body = {**first["payload"], "model": "m",
            "input": [*first["payload"]["input"], call, wire]}
    responses_body(body)


def test_rewriting_the_tools_list_saves_nothing(profile, session):
    cache = session(profile(mode="local", discovery="rewrite"), "openai-responses")["cache"]
    assert cache["strategy"] == "rewrite"
    assert all(s["saved"] == 0 and s["cached"] == s["rewrite"]["cached"]
               for s in cache["steps"])
    assert cache["method"]["label"] == "exact o200k_base"


def test_resolve_steps_prints_the_cached_prefix_per_request(profile, run, tmp_path):
    steps = tmp_path / "steps.yaml"
    steps.write_text(SESSION, encoding="utf-8")
    result = run("resolve", "-c", str(TOOLS), "-p", str(profile(mode="native")), "--steps",
                 str(steps), "--provider", "anthropic")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "provider_search native → native bm25" in out
    assert out.count("  cache: ") == 4 and "loaded at the end: slack:send_message" in out
    assert "when the tools list is rewritten each turn; saves" in out


def test_provider_without_steps_is_a_usage_error(profile, run):
    result = run("resolve", QUERY, "-c", str(TOOLS), "--provider", "anthropic")
    assert result.exit_code == 2 and "give --steps too" in result.stderr


def test_the_trace_and_the_summary_name_the_provider_search(profile, run):
    chosen = profile(mode="native-or-local", anthropic="regex")
    resolved = run("resolve", QUERY, "-c", str(TOOLS), "-p", str(chosen), "--json")
    assert resolved.exit_code == 0, resolved.output
    (node,) = [n for n in json.loads(resolved.stdout)["trace"]["children"]
               if n["rule"] == "provider-search"]
    assert node["outcome"] == "native-or-local"
    assert "tool_search_tool_regex" in node["reason"]
    result = run("render", QUERY, "-c", str(TOOLS), "-p", str(chosen), "--provider",
                 "anthropic", "-o", "request.json")
    assert result.exit_code == 0, result.output
    prefix = json.loads(run("render", QUERY, "-c", str(TOOLS), "-p", str(chosen), "--provider",
                            "anthropic", "--json").stdout)["search"]["prefix"]
    assert (f"provider_search native-or-local: native regex; found tools are appended at the "
            f"end of the conversation, the {prefix:,}-token prefix stays cached") in result.stderr


def test_allowed_tools_keeps_the_array_and_appends_nothing(profile, rendered, session):
    chosen = profile(mode="local")
    first = rendered(chosen, "openai")
    cache = session(chosen, "openai")["cache"]
    steps = cache["steps"]
    assert cache["strategy"] == "allowed-tools"
    # every definition is in the first request: it costs more up front, then stays cached
    assert steps[0]["prefix"] == first["tokens"]["total"] > steps[0]["rewrite"]["prefix"]
    assert [s["cached"] for s in steps[1:]] == [steps[0]["prefix"]] * 3
    assert all(s["appended"] == 0 and s["wire"] is None for s in steps)
    # the cut keeps the one tool that fits; the other Slack tools fit far worse
    assert steps[1]["loaded"] == ["slack:send_message"]
