"""Schema fidelity: $defs, enums and nested arrays reach every payload and prompt as written;
the canonical schema is never mutated; Gemini gets a translated copy with every change noted;
references into other files are bundled so a payload is self-contained."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.render import FORMATS, REQUEST_PROVIDERS, RenderInput, render
from toolcat.render.formats.contract import function_entry

# where each provider's request keeps a tool's schema
SCHEMA_AT = {
    "openai": lambda item: item["function"]["parameters"],
    "ollama": lambda item: item["function"]["parameters"],
    "mistral": lambda item: item["function"]["parameters"],
    "openai-responses": lambda item: item["parameters"],
    "anthropic": lambda item: item["input_schema"],
    "bedrock": lambda item: item["toolSpec"]["inputSchema"]["json"],
}


def payload_tools(provider: str, payload: dict) -> list[dict]:
    if provider == "bedrock":
        return payload["toolConfig"]["tools"]
    if provider == "gemini":
        return payload["tools"][0]["functionDeclarations"]
    return payload["tools"]


@pytest.mark.parametrize("provider", sorted(SCHEMA_AT))
def test_every_demo_schema_reaches_the_payload_exactly(demo, provider):
    inp = RenderInput(query="q", tools=demo.tools)
    payload = render(inp, provider=provider).payload
    sent = [SCHEMA_AT[provider](item) for item in payload_tools(provider, payload)]
    assert sent == [t.parameters for t in demo.tools]


def test_defs_enums_and_nested_arrays_survive(demo):
    sent = render(RenderInput(query="q", tools=(demo.get("create_event"),
                                                demo.get("update_range"))), "anthropic")
    event, sheet = (item["input_schema"] for item in sent.payload["tools"])
    assert event["$defs"]["event_time"]["oneOf"] == [{"required": ["date_time"]},
                                                     {"required": ["date"]}]
    assert event["properties"]["start"]["$ref"] == "#/$defs/event_time"
    assert event["properties"]["send_updates"]["enum"] == ["all", "external_only", "none"]
    assert sheet["properties"]["values"]["items"]["items"] == {"$ref": "#/$defs/cell_value"}
    assert sheet["$defs"]["cell_value"]["type"] == ["string", "number", "boolean", "null"]


def test_text_formats_show_the_schemas_verbatim(demo):
    tools = (demo.get("create_event"), demo.get("update_range"))
    text = render(RenderInput(tools=tools, format="pythonic")).system_prompt
    listed = json.loads(text[text.index("[\n"):])
    assert listed == [function_entry(t) for t in tools]


def test_rendering_everything_leaves_the_canonical_schemas_unchanged(demo, builtins):
    before = copy.deepcopy([t.parameters for t in (*demo.tools, *builtins.tools)])
    inp = RenderInput(query="q", builtins=builtins.tools, tools=demo.tools[:40],
                      deferred=demo.tools[40:], tool_search=True)
    for fmt in FORMATS:
        for provider in (None, *REQUEST_PROVIDERS):
            render(replace(inp, format=fmt), provider=provider)
    assert [t.parameters for t in (*demo.tools, *builtins.tools)] == before


def test_gemini_gets_a_translated_copy_and_a_note_for_every_change(demo):
    tool = demo.get("update_range")
    before = copy.deepcopy(tool.parameters)
    rendered = render(RenderInput(query="q", tools=(tool,)), "gemini")
    (declaration,) = rendered.payload["tools"][0]["functionDeclarations"]
    cell = declaration["parameters"]["properties"]["values"]["items"]["items"]
    assert cell["anyOf"] == [{"type": "STRING"}, {"type": "NUMBER"}, {"type": "BOOLEAN"}]
    assert cell["nullable"] is True
    assert "$defs" not in declaration["parameters"]
    assert "additionalProperties" not in declaration["parameters"]
    assert tool.parameters == before
    notes = [n for n in rendered.notes if n.startswith("update_range: Gemini schema: ")]
    assert [n.split(": ", 2)[2].split(" (at ")[0] for n in notes] == [
        "$ref '#/$defs/cell_value' was inlined",
        "null in a type list became nullable: true",
        "a type list became anyOf",
        "additionalProperties dropped: not in Gemini's schema subset",
        "$defs dropped: its schemas are inlined where referenced",
    ]


def test_gemini_turns_recursion_into_a_free_form_object_and_says_so():
    from toolcat.providers.gemini import to_subset

    tree = {"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}},
            "$defs": {"node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}
    translated, changes = to_subset(tree)
    children = translated["properties"]["root"]["properties"]["children"]
    assert children == {"type": "ARRAY", "items": {"type": "OBJECT"}}
    assert ("/properties/root/properties/children/items/$ref",
            "recursive $ref '#/$defs/node' became a free-form object") in changes


@pytest.mark.parametrize(("schema", "expected", "change"), [
    ({"const": "x"}, {"enum": ["x"]}, "const became a one-value enum"),
    ({"type": "integer", "enum": [1, 2]}, {"type": "INTEGER"},
     "enum dropped: Gemini enums hold strings only"),
    ({"type": "string", "enum": ["a", None]}, {"type": "STRING", "enum": ["a"], "nullable": True},
     "null in enum became nullable: true"),
    ({"type": "number", "exclusiveMinimum": 0}, {"type": "NUMBER"},
     "exclusiveMinimum dropped: not in Gemini's schema subset"),
    ({"allOf": [{"type": "string"}]}, {"type": "STRING"},
     "a one-branch allOf was merged into its schema"),
    ({"type": "string", "format": "date-time"}, {"type": "STRING", "format": "date-time"}, None),
])
def test_gemini_translation_of_single_keywords(schema, expected, change):
    from toolcat.providers.gemini import to_subset

    translated, changes = to_subset(schema)
    assert translated == expected
    assert [c for _, c in changes] == ([change] if change else [])


def test_references_into_other_files_are_bundled_into_the_payload(data):
    catalog = load_catalog(data / "refs" / "file-ref.yaml")
    tool = catalog.tools[0]
    before = copy.deepcopy(tool.parameters)
    rendered = render(RenderInput(query="q", tools=catalog.tools, documents=catalog.documents),
                      "openai")
    schema = rendered.payload["tools"][0]["function"]["parameters"]
    assert schema["properties"]["address"] == {"$ref": "#/$defs/common_$defs_address"}
    assert schema["$defs"]["common_$defs_address"]["properties"]["country"]["$ref"] \
        .startswith("#/$defs/")
    assert all(not r.startswith(("schemas/", "common")) for r in _refs(schema))
    assert tool.parameters == before


def _refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)
