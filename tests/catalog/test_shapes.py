"""Every shape reads and writes; converting to a shape and back keeps what the shape carries."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.conftest import DATA
from toolcat.catalog.convert import convert, to_text
from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.providers import PROVIDERS

FULL = DATA / "shapes" / "full.yaml"


def written_and_read(tools: tuple[Tool, ...], shape: str, folder: Path) -> tuple[Tool, ...]:
    provider = PROVIDERS[shape]
    path = folder / f"{shape}.{'yaml' if provider.yaml_native else 'json'}"
    path.write_text(to_text(convert(tools, shape).payload, as_yaml=provider.yaml_native))
    return load_catalog(path, shape=shape).tools


def assert_kept(original: Tool, copy: Tool, fields: frozenset[str],
                strict_written: bool = False) -> None:
    for name in sorted(fields):
        if name == "parameters" and original.parameters is None:
            continue  # shapes that require a schema write an empty one, with a note
        if name == "safe" and not original.safety_stated:
            assert not copy.safety_stated, original.name  # unknown stays unknown
            continue
        if name == "strict" and strict_written:
            # OpenAI Responses always writes strict (a missing one means true there)
            assert copy.strict is bool(original.strict), original.name
            continue
        assert getattr(copy, name) == getattr(original, name), (original.name, name)


@pytest.mark.parametrize("shape", sorted(PROVIDERS))
def test_converting_to_a_shape_and_back_keeps_what_it_carries(shape, tmp_path):
    tools = load_catalog(FULL).tools
    back = written_and_read(tools, shape, tmp_path)
    assert [t.name for t in back] == [t.name for t in tools]
    for original, copy in zip(tools, back, strict=True):
        assert_kept(original, copy, PROVIDERS[shape].carries, shape == "openai-responses")
        assert copy.shape == shape


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(sorted(PROVIDERS), 2)))
def test_every_pair_of_shapes_keeps_what_both_carry(first, second, tmp_path):
    tools = load_catalog(FULL).tools
    (tmp_path / "via").mkdir()
    via = written_and_read(tools, first, tmp_path / "via")
    back = written_and_read(via, second, tmp_path)
    both = PROVIDERS[first].carries & PROVIDERS[second].carries
    for original, copy in zip(tools, back, strict=True):
        assert_kept(original, copy, both, "openai-responses" in (first, second))


def test_full_catalog_reads_every_field():
    tools = {t.name: t for t in load_catalog(FULL).tools}
    weather = tools["get_weather"]
    assert weather.server == "weather"
    assert weather.level == 1
    assert weather.tags == ("weather", "read")
    assert weather.priority == 80
    assert weather.defer_loading is True
    assert weather.examples == ({"location": "Tokyo"}, {"location": "Lisbon", "unit": "celsius"})
    assert weather.parameters["$defs"]["unit"]["enum"] == ["celsius", "fahrenheit"]
    delete = tools["delete_event"]
    assert (delete.safe, delete.strict, delete.source, delete.category) == (
        False, True, "mcp", "admin")
    skill = tools["summarize_week"]
    assert (skill.kind, skill.parameters, skill.allow_no_schema, skill.no_schema_mode) == (
        "skill", None, True, "read-only")
    assert skill.ignored_rules == frozenset({"TC101"})


def test_parameters_are_kept_verbatim(tmp_path):
    schema = {"type": "object", "properties": {"q": {"type": "string", "x-custom": [1, {"a": 2}]}},
              "$defs": {"unused": {"const": 3}}, "$comment": "kept"}
    path = tmp_path / "tools.json"
    path.write_text(to_text([{"name": "t", "parameters": schema}], as_yaml=False))
    assert load_catalog(path).tools[0].parameters == schema


def test_shapes_are_detected_from_their_keys(tmp_path):
    samples = {
        "openai": {"tools": [{"type": "function", "function": {"name": "a"}}]},
        "openai-responses": [{"type": "function", "name": "a", "parameters": {}}],
        "anthropic": {"tools": [{"name": "a", "input_schema": {"type": "object"}}]},
        "mcp": {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a",
                                                               "inputSchema": {}}]}},
        "gemini": {"tools": [{"functionDeclarations": [{"name": "a"}]}]},
        "bedrock": {"toolConfig": {"tools": [{"toolSpec": {"name": "a",
                                                           "inputSchema": {"json": {}}}}]}},
        "capability": [{"name": "a", "type": "SKILL", "capabilities": ["x"]}],
        "toolcat": {"tools": [{"name": "a", "server": "s"}]},
    }
    for shape, document in samples.items():
        path = tmp_path / f"{shape}.json"
        path.write_text(to_text(document, as_yaml=False))
        assert load_catalog(path).tools[0].shape == shape


def test_a_request_body_gives_its_tools_and_skips_server_tools(tmp_path):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [],
            "tools": [{"name": "get_weather", "input_schema": {"type": "object"}},
                      {"type": "web_search_20250305", "name": "web_search"}]}
    path = tmp_path / "request.json"
    path.write_text(to_text(body, as_yaml=False))
    catalog = load_catalog(path)
    assert [t.name for t in catalog.tools] == ["get_weather"]
    assert [i.code for i in catalog.issues] == ["skipped-entry"]
    assert str(catalog.issues[0].where) == f"{path}:12:5"
    assert path.read_text().splitlines()[11] == "    {"


def test_gemini_subset_schema_becomes_json_schema(tmp_path):
    declaration = {"name": "find", "parameters": {
        "type": "OBJECT", "properties": {"q": {"type": "STRING", "nullable": True},
                                         "n": {"type": "INTEGER"}}, "required": ["q"]}}
    path = tmp_path / "gemini.json"
    path.write_text(to_text({"functionDeclarations": [declaration]}, as_yaml=False))
    tool = load_catalog(path).tools[0]
    assert tool.parameters == {"type": "object", "properties": {
        "q": {"type": ["string", "null"]}, "n": {"type": "integer"}}, "required": ["q"]}
    assert tool.raw == declaration


def test_mcp_destructive_hint_makes_a_tool_unsafe_and_back(tmp_path):
    result = {"tools": [{"name": "rm", "inputSchema": {"type": "object"},
                         "annotations": {"destructiveHint": True, "readOnlyHint": False}}]}
    path = tmp_path / "mcp.json"
    path.write_text(to_text(result, as_yaml=False))
    tool = load_catalog(path).tools[0]
    assert (tool.safe, tool.source) == (False, "mcp")
    assert convert([tool], "mcp").payload == {"server": "mcp", **result}


def test_writing_a_schemaless_tool_where_a_schema_is_required_is_noted():
    tool = Tool(name="ping", description="Ping.")
    for shape in ("anthropic", "mcp", "bedrock", "mistral"):
        notes = tuple(n for n in convert([tool], shape).notes if "schema" in n)
        assert notes == (f"ping: has no parameters schema; {notes[0].split('; ')[1].split()[0]} "
                         "requires one, so an empty object schema was written",)
