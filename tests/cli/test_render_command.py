"""`toolcat render` and `toolcat tokens QUERY` through resolve, from the command line.

The default profile ranks with the default scorer (hybrid when the semantic extra is
installed), so these tests share the session's embedding cache and compare with resolve's own
answer instead of naming a ranking."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.render import from_resolution, render
from toolcat.resolution import DEFAULT_PROFILE, resolve

QUERY = "weather in tokyo"

pytestmark = pytest.mark.usefixtures("shared_cache")


def test_render_prints_the_system_prompt_of_the_default_profile(run):
    result = run("render", QUERY, "-c", "demo")
    assert result.exit_code == 0, result.output
    assert result.stdout == DEFAULT_PROFILE.prompt + "\n"
    assert result.stderr.startswith("format native (the preferred format native is available")
    assert "exact o200k_base" in result.stderr


def test_render_with_a_provider_writes_the_request_to_a_file(run, tmp_path):
    target = tmp_path / "request.json"
    result = run("render", QUERY, "--provider", "anthropic", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert f"wrote the request to {target}" in result.stderr
    payload = json.loads(target.read_text())
    assert payload["system"] == DEFAULT_PROFILE.prompt
    assert payload["messages"] == [{"role": "user", "content": QUERY}]
    resolution = resolve(QUERY, load_catalog(CATALOGS))
    shown = [t["name"] for t in payload["tools"] if not t.get("defer_loading")]
    assert shown == [t.name for t in resolution.visible]
    assert shown[0] == "tool_search" and "get_weather" in shown
    deferred = [t["name"] for t in payload["tools"] if t.get("defer_loading")]
    assert deferred == [t.name for t in resolution.deferred]
    assert "model" not in payload  # the default profile names no real model


def test_render_matches_the_python_api(run):
    expected = render(from_resolution(resolve(QUERY, load_catalog(CATALOGS))), "openai")
    result = run("render", QUERY, "--provider", "openai")
    assert json.loads(result.stdout) == expected.payload


def test_a_profile_without_native_tools_falls_back_to_a_text_format(run):
    result = run("render", QUERY, "--profile", "small-model", "--json")
    data = json.loads(result.stdout)
    assert data["format"] == "pythonic" and "unavailable" in data["format_reason"]
    assert data["profile"]["name"] == "small-model"
    assert data["tools"]["payload"] == []
    assert "[func_name1(params_name1=params_value1" in data["system_prompt"]
    assert data["tokens"]["method"]["label"] == "estimate via o200k_base"
    assert [s["name"] for s in data["sections"]][:2] == ["base", "format"]


def test_the_format_can_be_overridden(run):
    result = run("render", QUERY, "--format", "hermes")
    assert "<tools> " in result.stdout and "<tool_call>" in result.stdout
    assert "format hermes (chosen with --format)" in result.stderr
    result = run("render", QUERY, "--profile", "small-model", "--format", "native")
    assert "has no native tool calling" in result.stderr


def test_tool_search_mode_adds_its_section_with_categories(run):
    result = run("render", "open an issue", "--profile", "tool-search")
    assert "## Tool Search Mode" in result.stdout
    assert "- github (GitHub repositories, issues, pull requests and code review)" \
        in result.stdout


def test_render_refuses_unknown_names_and_protects_its_inputs(run, tmp_path):
    result = run("render", QUERY, "--provider", "mcp")
    assert result.exit_code == 2 and "known: openai, openai-responses, anthropic" in result.stderr
    result = run("render", QUERY, "--format", "yaml")
    assert result.exit_code == 2 and "known: native, hermes, mistral, pythonic, json, code" \
        in result.stderr
    catalog = tmp_path / "tools.yaml"
    catalog.write_text("tools:\n  - {name: ping, parameters: {type: object}}\n")
    before = catalog.read_text()
    result = run("render", QUERY, "-c", str(catalog), "-o", str(catalog))
    assert result.exit_code == 2 and catalog.read_text() == before


def test_tokens_shows_what_the_visible_set_saves(run):
    result = run("tokens", QUERY, "--json")
    data = json.loads(result.stdout)
    visible = data["visible"]
    resolution = resolve(QUERY, load_catalog(CATALOGS))
    assert visible["tools"] == [t.qualified_name for t in resolution.visible]
    counted = {t["qualified_name"]: t["tokens"] for t in data["tools"]}
    catalog_part = sum(counted[n] for n in visible["tools"] if n in counted)
    assert visible["tokens"] > catalog_part  # plus the visible built-in
    assert visible["all"] - visible["tokens"] == visible["saved"]
    assert visible["all"] - data["total"] == visible["tokens"] - catalog_part
    assert 0.5 < visible["saved_share"] < 1
    text = run("tokens", QUERY).stdout
    assert f'visible set for "{QUERY}" under profile default' in text


def test_a_gateway_search_tool_is_the_only_way_to_its_deferred_tools(run):
    """Behind a tool-search gateway the request carries the gateway's search tool and not the
    deferred tools with the provider's own tool search: one search, not two competing."""
    behind = run("render", "open a pull request", "-c", "demo", "-p", "gateway-tool-search",
                 "--provider", "anthropic", "--json")
    assert behind.exit_code == 0, behind.output
    tools = json.loads(behind.stdout)["payload"]["tools"]
    assert [t["name"] for t in tools] == ["gateway_search_tools"]
    assert "defer_loading" not in behind.stderr
    # without a gateway, deferred tools still go out with defer_loading, for the model to load
    native = run("render", "open a pull request", "-c", "demo", "-p", "tool-search",
                 "--provider", "anthropic", "--json")
    sent = json.loads(native.stdout)["payload"]["tools"]
    assert any(t.get("defer_loading") for t in sent)
