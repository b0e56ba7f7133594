"""`toolcat tokens` from the command line (check-call is in tests/test_calls.py)."""

from __future__ import annotations

import json

from toolcat.catalog.load import load_catalog
from toolcat.providers.tokens import definition_tokens


def test_tokens_lists_every_tool_largest_first_with_server_totals(run):
    result = run("tokens", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"]["label"] == "exact o200k_base" and data["method"]["exact"]
    tokens = [t["tokens"] for t in data["tools"]]
    assert tokens == sorted(tokens, reverse=True)
    assert data["total"] == sum(tokens) == sum(s["tokens"] for s in data["servers"])
    assert data["tools"][0]["qualified_name"] == "calendar:create_event"


def test_tokens_per_tool_match_the_exact_count_of_the_definition(run, data):
    catalog = data / "shapes" / "full.yaml"
    result = run("tokens", "-c", str(catalog), "--json")
    counted = {t["qualified_name"]: t["tokens"] for t in json.loads(result.stdout)["tools"]}
    assert counted == {t.qualified_name: definition_tokens(t) for t in load_catalog(catalog)}


def test_tokens_for_anthropic_are_an_estimate_and_say_so(run):
    result = run("tokens", "-c", "demo", "--provider", "anthropic")
    assert result.exit_code == 0
    first = result.output.splitlines()[0]
    assert "estimate via o200k_base" in first
    assert "Anthropic publishes no tokenizer" in result.output


def test_tokens_text_shows_servers_and_tools(run):
    result = run("tokens")
    assert "per server" in result.output and "per tool, largest first" in result.output
    assert result.output.index("create_event") < result.output.index("get_weather ")


def test_tokens_refuses_an_unknown_provider(run):
    result = run("tokens", "--provider", "mcp")
    assert result.exit_code == 2
    assert "known: openai, openai-responses, anthropic, gemini, ollama, bedrock, mistral" \
        in result.output
