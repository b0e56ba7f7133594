"""Token counts: exact for OpenAI encodings, labeled estimates plus Anthropic's documented
tool-use overhead elsewhere, and every count says how it was made."""

from __future__ import annotations

from dataclasses import replace

import pytest

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.providers.anthropic import tool_use_overhead as anthropic_overhead
from toolcat.providers.tokens import count_tokens
from toolcat.render import RenderInput, method_for, render
from toolcat.render.costs import catalog_cost, encoding_for


@pytest.mark.parametrize(("model", "encoding"), [
    ("gpt-4o", "o200k_base"), ("gpt-4o-mini", "o200k_base"), ("gpt-4.1", "o200k_base"),
    ("gpt-5", "o200k_base"), ("o3-mini", "o200k_base"), ("gpt-4", "cl100k_base"),
    ("gpt-4-turbo", "cl100k_base"), ("gpt-3.5-turbo", "cl100k_base"),
    ("claude-sonnet-4-5", "o200k_base"), (None, "o200k_base"),
])
def test_openai_models_get_tiktokens_encoding(model, encoding):
    assert encoding_for(model) == encoding


@pytest.mark.parametrize(("model", "tokens", "row"), [
    ("claude-sonnet-4-5-20250929", 346, "Sonnet 4.5"),
    ("claude-opus-4-1", 346, "Opus 4.1"),
    ("claude-3-7-sonnet-20250219", 346, "Sonnet 3.7"),
    ("claude-3-5-haiku-20241022", 264, "Claude Haiku 3.5"),
    ("claude-3-opus-20240229", 530, "Claude Opus 3"),
    ("claude-3-sonnet-20240229", 159, "Claude Sonnet 3"),
    ("claude-3-haiku-20240307", 264, "Claude Haiku 3"),
    ("anthropic.claude-3-5-haiku-20241022-v1:0", 264, "Claude Haiku 3.5"),
])
def test_anthropic_overhead_follows_the_published_table(model, tokens, row):
    overhead, basis = anthropic_overhead(model)
    assert overhead == tokens and row in basis


def test_an_unknown_claude_model_gets_the_current_figure_and_says_so():
    overhead, basis = anthropic_overhead("claude-3-5-sonnet-20241022")
    assert overhead == 346
    assert "claude-3-5-sonnet-20241022 is not in Anthropic's table" in basis


def test_openai_counts_are_exact_and_others_are_labeled_estimates():
    assert method_for("openai").label == "exact o200k_base"
    assert method_for("openai", "gpt-4").label == "exact cl100k_base"
    assert method_for(None).exact
    for provider in ("anthropic", "gemini", "mistral", "ollama", "bedrock"):
        method = method_for(provider)
        assert not method.exact and method.label == "estimate via o200k_base"
        assert "proxy" in method.basis
    assert not method_for(None, "llama-3.2-3b").exact


def test_only_claude_models_carry_anthropics_overhead():
    assert method_for("anthropic", "claude-opus-4-5").overhead == 346
    assert method_for("bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0").overhead == 346
    assert method_for("bedrock", "amazon.nova-pro-v1:0").overhead == 0
    assert method_for(None, "claude-sonnet-4").overhead == 346
    assert method_for("gemini").overhead == 0
    assert method_for(None, "llama-3.2-3b-instruct").overhead == 0


def test_an_unknown_encoding_is_a_usage_error():
    with pytest.raises(UsageError, match="known: o200k_base, cl100k_base"):
        method_for(None, encoding="p50k_base")


def test_a_request_costs_its_system_prompt_its_tools_and_the_overhead(scenario):
    rendered = render(scenario, provider="anthropic")
    tokens = rendered.tokens
    assert tokens.system == count_tokens(rendered.system_prompt)
    assert tokens.overhead == 346
    assert tokens.total == tokens.system + tokens.tools + 346
    assert tokens.to_json()["method"]["label"] == "estimate via o200k_base"
    # a text format sends no tools: no tool-use overhead, everything is in the prompt
    text = render(replace(scenario, format="hermes"), provider="anthropic").tokens
    assert (text.tools, text.overhead) == (0, 0)
    assert text.system > tokens.system


def test_known_counts_of_small_texts():
    # "hello world" is 2 tokens and "tiktoken is great!" 6 in cl100k_base (tiktoken's README)
    rendered = render(RenderInput(query="q", base_prompt="hello world"), encoding="o200k_base")
    assert (rendered.tokens.system, rendered.tokens.tools) == (2, 0)
    rendered = render(RenderInput(base_prompt="tiktoken is great!"), encoding="cl100k_base")
    assert rendered.tokens.system == 6


def test_the_catalog_cost_lists_tools_largest_first_and_sums_servers(demo):
    cost = catalog_cost(demo.tools, method_for(None))
    tokens = [c.tokens for c in cost.tools]
    assert tokens == sorted(tokens, reverse=True)
    assert cost.tools[0].tool.name == "create_event"
    assert sum(s.tokens for s in cost.servers) == cost.total == sum(tokens)
    assert sum(s.tools for s in cost.servers) == len(demo.tools)
    assert [s.tokens for s in cost.servers] == sorted((s.tokens for s in cost.servers),
                                                      reverse=True)


def test_a_tool_costs_the_tokens_of_its_compact_definition():
    tool = Tool(name="ping", description="Ping a host.",
                parameters={"type": "object", "properties": {"host": {"type": "string"}}})
    cost = catalog_cost([tool], method_for(None))
    text = ('{"name":"ping","description":"Ping a host.","parameters":{"type":"object",'
            '"properties":{"host":{"type":"string"}}}}')
    assert cost.total == count_tokens(text)
    anthropic = catalog_cost([tool], method_for("anthropic"), "anthropic")
    assert anthropic.total == count_tokens('{"name":"ping","description":"Ping a host.",'
                                           '"input_schema":{"type":"object","properties":'
                                           '{"host":{"type":"string"}}}}')


def test_the_visible_set_is_priced_against_everything_plus_the_visible_builtins(demo, builtins):
    from toolcat.render.costs import visible_saving

    cost = catalog_cost(demo.tools, method_for(None))
    search = builtins.get("tool_search")
    shown = [search, demo.get("get_weather"), demo.get("weather_forecast")]
    saving = visible_saving(cost, shown)
    priced = {c.tool.name: c.tokens for c in catalog_cost(shown, method_for(None)).tools}
    assert saving.visible == sum(priced.values())
    assert saving.all == cost.total + priced["tool_search"]
    assert saving.saved == saving.all - saving.visible
    assert round(saving.share, 4) == round(saving.saved / saving.all, 4)
