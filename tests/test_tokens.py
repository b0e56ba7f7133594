"""Token counts are exact OpenAI counts, offline."""

from __future__ import annotations

import json
import math

import pytest

from toolcat.errors import UsageError
from toolcat.lint.findings import schema_key
from toolcat.model import Tool, compact_json
from toolcat.providers.tokens import (
    count_tokens,
    definition_text,
    definition_tokens,
    definitions_tokens,
)


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


SCHEMA = {"type": "object", "properties": {"parameters": {"type": "string", "description":
                                                          "Its \"parameters\": 12,3 ok"}}}


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_a_catalog_costs_what_each_definition_costs_with_its_schema_counted_once(encoding,
                                                                                 keyed):
    """Counting a repeated schema once gives each definition's own count, whatever ends the
    description before it (a letter, a digit, a space, a stop, a quote, a backslash, a line
    break, another script, nothing), and whether the schemas are told apart by their text or
    by lint's schema keys (each then written once, the rest of the definition on its own):
    a schema whose text orjson and the standard library write differently (`null`, `1e16`),
    and a definition longer than a counted piece, included."""
    endings = ["Ping a host", "Ping host 42", "Ping a host ", "Ping.", 'Say "hi"', "C:\\",
               "Two\nlines\n", "主机", "", "'s", "--", "\ud800", 'x","parameters":{"a',
               "null 1e16 0.00001"]
    schemas = (SCHEMA, {"type": "object"}, None, {"type": "object", "default": None},
               {"type": "number", "maximum": 1e16, "minimum": 0.00001},
               {"type": "object", "description": "word " * 10_000})
    tools = [Tool(name=f"ping_{i}{ending[-1:]}", description=ending, parameters=schema)
             for i, ending in enumerate(endings) for schema in schemas]
    # a definition longer than a counted piece (PIECE) is counted in pieces, as one text
    tools += [Tool(name="huge", description="Huge.", parameters={
        "type": "object", "description": "word " * 20_000})] * 2
    keys = [schema_key(t.parameters) for t in tools] if keyed else None
    assert definitions_tokens(tools, encoding, keys) == [definition_tokens(t, encoding)
                                                         for t in tools]


def test_unknown_encoding_is_a_usage_error():
    with pytest.raises(UsageError, match="known: o200k_base, cl100k_base"):
        count_tokens("x", "p50k_base")


def _stdlib(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("value", [
    {"default": 1e-05, "minimum": 0.0001, "maximum": 1e16, "step": 2.5e-07, "big": 1e300},
    {"x": [0.1, -0.0, 1.0, 123456789012345680.0, 5e-324, 9999999999999998.0]},
    {"default": None, "anyOf": [{"type": "null"}], "nullable": True},
    {"text": "tab\t nl\n \x00 \x1f \x7f \u2028 \ufeff é 😀 \"quoted\" back\\slash"},
    {"huge": 2 ** 64, "negative": -2 ** 63 - 1},
    {"n": 3e20, "m": 7.5e-9, "text": "id 9E7F, 25em, 0.00001 or nullable"},
    {1: "a key that is not a string", "tuple": (1, 2), "lone": "\ud800"},
])
def test_compact_json_writes_what_the_standard_library_writes(value):
    # sizes and token counts of every definition come from this text: orjson writes it
    # where it agrees with json.dumps, which decides floats, nulls and whatever orjson refuses
    assert compact_json(value) == _stdlib(value)


@pytest.mark.parametrize("value", [math.nan, {"x": math.inf}, {"o": object()}])
def test_compact_json_refuses_what_the_standard_library_refuses(value):
    with pytest.raises((ValueError, TypeError)) as found:
        _stdlib(value)
    with pytest.raises(found.type):
        compact_json(value)
