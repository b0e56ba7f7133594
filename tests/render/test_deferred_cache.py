"""Anthropic rejects a tool that is both deferred and cached (HTTP 400, "Tools with
defer_loading cannot use prompt caching"): `render --provider anthropic` never writes both on
one tool, keeps the catalog's breakpoint on the last tool that can carry it, says so, and
`lint --target anthropic` flags a catalog that has both (TC407). Each request is validated by
the Anthropic SDK's own request type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

CACHED = {"type": "ephemeral"}


def anthropic_request(body: dict[str, Any]) -> None:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    TypeAdapter(MessageCreateParamsNonStreaming).validate_python(
        {"model": "claude-sonnet-4-5", "max_tokens": 1024, **body})


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """An Anthropic-shaped catalog whose author cached the tools prefix on its last tool (as
    Anthropic's page says) and on one in the middle."""
    tools: list[dict[str, Any]] = [
        {"name": name, "description": text,
         "input_schema": {"type": "object",
                          "properties": {"q": {"type": "string", "description": "what"}}}}
        for name, text in [
            ("get_weather", "Get the current weather for a city."),
            ("weather_forecast", "Forecast the weather for a city for the next days."),
            ("send_message", "Send a chat message to a channel."),
            ("create_issue", "Open an issue in a repository."),
            ("read_file", "Read a file of the workspace."),
            ("list_files", "List the files of a workspace folder."),
        ]]
    tools[2]["cache_control"] = dict(CACHED)
    tools[-1]["cache_control"] = dict(CACHED)
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def small_model(tmp_path: Path) -> Any:
    def make(defer: bool = True, **search: Any) -> Path:
        path = tmp_path / "profile.yaml"
        path.write_text("model: {name: claude-sonnet-4-5, size_b: 3}\nscorer: keyword\n"
                        f"mcp: {{defer: {json.dumps(defer)}}}\n"
                        f"provider_search: {json.dumps(search)}\n", encoding="utf-8")
        return path
    return make


@pytest.mark.parametrize("search", [{"mode": "auto"}, {"mode": "native"},
                                    {"mode": "local"}])
def test_no_tool_is_sent_both_deferred_and_cached(run, catalog, small_model, search):
    result = run("render", "what's the weather in Lisbon", "-c", str(catalog), "-p",
                 str(small_model(**search)), "--provider", "anthropic", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)["payload"]
    anthropic_request(body)
    tools = body["tools"]
    deferred = [t["name"] for t in tools if t.get("defer_loading") is True]
    assert "list_files" in deferred  # the catalog's breakpoint was on a deferred tool
    assert [t["name"] for t in tools
            if t.get("defer_loading") is True and "cache_control" in t] == []
    # the breakpoint moved to the last tool that can carry one: the tools before it stay cached
    shown = [t for t in tools if t.get("defer_loading") is not True and "type" not in t]
    assert shown[-1]["cache_control"] == CACHED
    assert "deferred tools lose their cache_control" in result.stderr


def test_a_shown_tool_keeps_the_catalogs_breakpoint(run, catalog, small_model):
    result = run("render", "weather", "-c", str(catalog), "-p", str(small_model(defer=False)),
                 "--provider", "anthropic", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)["payload"]
    anthropic_request(body)
    cached = [t["name"] for t in body["tools"] if "cache_control" in t]
    assert sorted(cached) == ["list_files", "send_message"]
    assert "cache_control" not in result.stderr


def test_lint_flags_a_deferred_tool_with_cache_control(run, catalog):
    data = json.loads(catalog.read_text(encoding="utf-8"))
    data["tools"][2]["defer_loading"] = True  # send_message, which has cache_control
    data["tools"][1]["defer_loading"] = True  # weather_forecast, which has none
    catalog.write_text(json.dumps(data, indent=1), encoding="utf-8")
    result = run("lint", str(catalog), "--target", "anthropic")
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(catalog.read_text().splitlines(), 1)
                if '"cache_control"' in text)  # send_message's, the first in the file
    assert f"\n{line}:" in result.stdout  # grouped under the file: line:column
    assert "TC407" in result.stdout and "send_message" in result.stdout
    assert "weather_forecast" not in result.stdout
    assert run("lint", str(catalog), "--target", "openai").exit_code == 0
