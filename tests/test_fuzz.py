"""Property-based fuzzing: whatever a catalog file, a tool definition or a model response holds,
the loaders, lint, convert, render and check-call end in a result or in one error line with exit
code 2, never in a traceback. Bounded: a few hundred examples, about twenty seconds."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcat.catalog.load import load_catalog
from toolcat.errors import ToolcatError
from toolcat.render.formats import FORMATS
from toolcat.render.renderer import RenderInput, render

FUZZ = settings(max_examples=300, deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

# the words catalogs and schemas are made of, so that examples reach past the first checks
KEYS = ["name", "description", "parameters", "inputSchema", "input_schema", "function", "type",
        "properties", "items", "required", "enum", "anyOf", "$ref", "$defs", "default", "tools",
        "servers", "server", "level", "tags", "x-toolcat-ignore", "additionalProperties",
        "const", "examples", "format", "pattern", "minimum", "toolSpec", "functionDeclarations"]
WORDS = ["object", "string", "integer", "array", "#/$defs/a", "../x.json", "/etc/passwd",
         "https://e.x/s.json", "TC101", "ALL", "get_weather", "a", ""]
scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(WORDS)
           | st.text(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5),
    max_leaves=40)
SCHEMA_KEYS = ["type", "properties", "items", "required", "enum", "anyOf", "$ref", "$defs",
               "default", "description", "additionalProperties", "const", "format", "minimum"]
schemas = st.recursive(
    st.fixed_dictionaries({}, optional={"type": st.sampled_from(WORDS[:4]) | values,
                                        "description": st.text(max_size=30)}),
    lambda inner: st.dictionaries(st.sampled_from(SCHEMA_KEYS),
                                  inner | values | st.dictionaries(st.text(max_size=5), inner,
                                                                   max_size=3), max_size=5),
    max_leaves=25)
# mostly well-typed, so that examples reach lint, render and check-call; sometimes anything
def mostly(good: st.SearchStrategy, bad: st.SearchStrategy = values) -> st.SearchStrategy:
    return st.one_of(good, good, good, good, bad)


tool = st.fixed_dictionaries(
    {"name": mostly(st.sampled_from(["get_weather", "send", "a-b", "x" * 70])
                    | st.text(min_size=1, max_size=8))},
    optional={"description": mostly(st.text(max_size=60)),
              "parameters": mostly(schemas),
              "type": st.sampled_from(["function", "custom", "web_search"]),
              "x-toolcat-ignore": mostly(st.sampled_from(["TC301", "ALL", "TC9", "TC3"])),
              "level": mostly(st.integers(1, 3)),
              "tags": mostly(st.lists(st.text(max_size=5), max_size=3))})
documents = mostly(st.lists(tool, min_size=1, max_size=3)
                   | st.fixed_dictionaries({"tools": st.lists(tool, max_size=3)},
                                           optional={"servers": values, "server": values}))


def write(document: object, syntax: str, folder: Path) -> Path:
    path = folder / f"catalog.{syntax}"
    if syntax == "yaml":
        path.write_text(yaml.safe_dump(document, allow_unicode=True))
    elif syntax == "jsonl" and isinstance(document, list):
        path.write_text("\n".join(json.dumps(item) for item in document) + "\n")
    else:
        path.write_text(json.dumps(document))  # NaN and Infinity stay in, as a stranger's might
    return path


def ends_cleanly(result, *allowed: int) -> None:
    """A result, or exactly one error line and exit code 2; never a traceback."""
    assert result.exit_code in (*allowed, 2), result.output
    if result.exit_code == 2:
        errors = [line for line in result.stderr.splitlines() if not line.startswith("warning")]
        assert len(errors) == 1 and errors[0].startswith("toolcat: error: "), result.stderr


@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list('{}[]:,"\'-&*!|>#\n\t abc01.\\/$<?%@`~')),
                    max_size=120),
       suffix=st.sampled_from([".json", ".yaml", ".jsonl", ".jsonc", ".txt"]))
def test_any_text_loads_or_is_one_error_line(run, text, suffix):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"catalog{suffix}"
        path.write_text(text)
        ends_cleanly(run("list", "--json", "-c", str(path)), 0)


@settings(FUZZ, max_examples=250)
@given(document=documents, syntax=st.sampled_from(["json", "yaml", "jsonl"]))
def test_any_catalog_lints_converts_and_renders_or_is_one_error_line(run, document, syntax):
    with tempfile.TemporaryDirectory() as folder:
        path = write(document, syntax, Path(folder))
        result = run("lint", "--json", "-c", str(path))
        ends_cleanly(result, 0, 1)
        if result.exit_code == 2:
            return
        json.loads(result.stdout)  # strict JSON out
        for shape in ("openai", "gemini", "toolcat", "bedrock"):
            ends_cleanly(run("convert", "--to", shape, "-c", str(path)), 0)
        ends_cleanly(run("show", "--json", "-c", str(path), "get_weather"), 0)
        try:
            catalog = load_catalog(path)
        except ToolcatError:
            return
        for fmt in FORMATS:
            for provider in (None, "openai", "anthropic", "gemini"):
                try:
                    rendered = render(RenderInput(query="weather", format=fmt,
                                                  tools=catalog.tools,
                                                  documents=catalog.documents), provider)
                except ToolcatError:
                    continue
                json.dumps(rendered.to_json(), allow_nan=False)


calls = st.fixed_dictionaries(
    {"id": st.text(max_size=4), "type": st.just("function"),
     "function": st.fixed_dictionaries(
         {"name": st.sampled_from(["get_weather", "send_email", "nope"]) | st.text(max_size=6),
          "arguments": (values.map(lambda v: json.dumps(v)) | values
                        | st.text(max_size=30))})})
responses = (st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries(
    {"message": st.fixed_dictionaries({"role": st.just("assistant"),
                                       "tool_calls": st.lists(calls, max_size=3) | values})}),
    min_size=1, max_size=2)}) | values)


@settings(FUZZ, max_examples=40)
@given(response=responses, syntax=st.sampled_from(["json", "yaml"]))
def test_any_model_response_is_checked_or_is_one_error_line(run, response, syntax):
    with tempfile.TemporaryDirectory() as folder:
        path = write(response, syntax, Path(folder))
        ends_cleanly(run("check-call", str(path), "--provider", "openai", "--json",
                         "-c", "demo"), 0, 1)


MARKERS = ["<tool_call>", "</tool_call>", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "```json",
           "```", '{"name": "get_weather", "arguments": ', "get_weather(", ")", "[", "]", "{",
           "}", '"', ",", ":", "=", "1", "NaN", " "]


@settings(FUZZ, max_examples=60)
@given(parts=st.lists(st.sampled_from(MARKERS) | st.text(max_size=5), max_size=30),
       fmt=st.sampled_from(["hermes", "mistral", "pythonic", "json"]))
def test_any_completion_text_is_checked_or_is_one_error_line(run, parts, fmt):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "completion.txt"
        path.write_text("".join(parts))
        ends_cleanly(run("check-call", str(path), "--format", fmt, "--json", "-c", "demo"), 0, 1)
