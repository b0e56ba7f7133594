"""Token counts are exact OpenAI counts, offline."""

from __future__ import annotations

import pytest

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.providers.tokens import count_tokens, definition_text, definition_tokens


@pytest.mark.parametrize(("text", "encoding", "expected"), [
    ("hello world", "o200k_base", 2),
    ("hello world", "cl100k_base", 2),
    ("tiktoken is great!", "cl100k_base", 6),
    ("", "o200k_base", 0),
])
def test_counts_match_the_published_encodings(text, encoding, expected):
    assert count_tokens(text, encoding) == expected


def test_a_tool_costs_the_tokens_of_its_compact_definition():
    tool = Tool(name="ping", description="Ping a host.",
                parameters={"type": "object", "properties": {"host": {"type": "string"}}})
    assert definition_text(tool) == ('{"name":"ping","description":"Ping a host.","parameters":'
                                     '{"type":"object","properties":{"host":{"type":"string"}}}}')
    assert definition_tokens(tool) == count_tokens(definition_text(tool))


def test_unknown_encoding_is_a_usage_error():
    with pytest.raises(UsageError, match="known: o200k_base, cl100k_base"):
        count_tokens("x", "p50k_base")
