"""The catalogs shipped in catalogs/: the demo catalog, the built-ins, one example per shape,
and the labeled demo query set."""

from __future__ import annotations

import json

import jsonschema
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.convert import convert
from toolcat.catalog.load import load_catalog
from toolcat.config.paths import builtins_catalog, demo_catalog
from toolcat.model import Tool
from toolcat.source.files import parse_file

EXAMPLES = {
    "toolcat-catalog.yaml": "toolcat",
    "capabilities.yaml": "capability",
    "openai.json": "openai",
    "openai-responses.json": "openai-responses",
    "anthropic.json": "anthropic",
    "mcp.json": "mcp",
    "gemini.json": "gemini",
    "ollama.json": "ollama",
    "bedrock.json": "bedrock",
    "mistral.json": "mistral",
    "request-body.json": "openai",
}
FORCED = {"ollama", "mistral"}


def test_every_example_file_is_listed():
    assert sorted(p.name for p in (CATALOGS / "examples").iterdir()) == sorted(EXAMPLES)


@pytest.mark.parametrize(("name", "shape"), sorted(EXAMPLES.items()))
def test_each_example_is_read_in_its_shape(name, shape):
    forced = shape if shape in FORCED else None
    catalog = load_catalog(CATALOGS / "examples" / name, shape=forced)
    assert catalog.tools
    assert {t.shape for t in catalog.tools} == {shape}
    assert catalog.issues == ()


@pytest.mark.parametrize(("name", "shape"), sorted(EXAMPLES.items()))
def test_writing_an_example_in_its_own_shape_gives_back_the_same_entries(name, shape):
    forced = shape if shape in FORCED else None
    catalog = load_catalog(CATALOGS / "examples" / name, shape=forced)
    rewritten = [convert([t], shape, catalog.servers).payload for t in catalog.tools]
    originals = [dict(t.raw) for t in catalog.tools]
    if shape == "toolcat":  # keys spelling out a default value are not written again
        defaults = Tool(name="")
        # (`safe: true` is not the default of an MCP tool, whose safety is otherwise unknown)
        originals = [{k: v for k, v in o.items() if getattr(defaults, k, object()) != v
                      or (k == "safe" and o.get("source") == "mcp")} for o in originals]
        assert [p["tools"][0] for p in rewritten] == originals
    else:
        entries = [_entries(p)[0] for p in rewritten]
        if shape == "gemini":  # `parameters` (Gemini's subset) is written as JSON Schema
            originals = [{**o, "parametersJsonSchema": t.parameters} if "parameters" in o
                         else o for o, t in zip(originals, catalog.tools, strict=True)]
            originals = [{k: v for k, v in o.items() if k != "parameters"} for o in originals]
        assert entries == originals


def _entries(payload):
    if "toolConfig" in payload:
        return payload["toolConfig"]["tools"]
    if "capabilities" in payload:
        return payload["capabilities"]
    tools = payload["tools"]
    return tools[0].get("functionDeclarations", tools)


def test_demo_catalog_is_large_enough_and_honest():
    catalog = load_catalog(demo_catalog())
    assert len(catalog.tools) >= 60
    assert len(catalog.server_names()) >= 6
    assert sum(not t.safe for t in catalog.tools) >= 3
    for tool in catalog.tools:
        jsonschema.Draft202012Validator.check_schema(tool.parameters)
        assert len(tool.description) >= 30, tool.name
        for example in tool.examples:
            jsonschema.validate(example, tool.parameters)


def test_builtins_hold_the_seed_000_and_seed_001_tools():
    catalog = load_catalog(builtins_catalog())
    names = {t.name for t in catalog.tools}
    assert {"python_execution", "tool_search", "search_schemas", "execute_sql",
            "search_tools", "add_tool", "show_all_tools", "search_large_output",
            "read_large_output", "query_large_output"} <= names
    search_tools = catalog.get("search_tools")
    assert search_tools.parameters == {
        "type": "object",
        "properties": {"query": {"type": "string", "description":
                                 "Regex pattern to search tool names and descriptions"}},
        "required": ["query"]}
    assert {t.category for t in catalog.tools if t.category in ("structured_output", "human")} \
        == {"structured_output", "human"}


def test_demo_queries_name_only_tools_of_the_demo_catalog():
    names = {t.name for t in load_catalog(demo_catalog()).tools}
    lines = (CATALOGS / "demo-queries.jsonl").read_text().splitlines()
    queries = [json.loads(line) for line in lines]
    assert len(queries) >= 40
    assert len({q["id"] for q in queries}) == len(queries)
    for query in queries:
        assert set(query["relevant"]) <= names, query["id"]


def test_examples_folder_is_not_mistaken_for_a_config(run, monkeypatch):
    monkeypatch.chdir(CATALOGS / "examples")
    assert run("list", "-c", "openai.json").exit_code == 0
    assert parse_file(CATALOGS / "examples" / "toolcat-catalog.yaml").data["tools"]
