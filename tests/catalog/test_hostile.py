"""Hostile and broken catalogs through the CLI: a `$ref` never leaves the catalog's folder, input
is strict (types, duplicate keys, NaN), sizes and nesting are bounded, and every refusal is one
line naming file:line:column with exit code 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

SECRET = "hunter2-do-not-leak"


def one_line_error(result, where: str, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"toolcat: error: {where}: "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


def catalog_with_ref(folder: Path, ref: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tools.yaml"
    path.write_text(
        "tools:\n"
        "  - name: read_note\n"
        "    description: Read one note from the notebook by its title.\n"
        "    parameters:\n"
        "      type: object\n"
        "      properties:\n"
        "        title:\n"
        "          description: Title of the note.\n"
        f"          $ref: '{ref}'\n")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A local secret outside the catalog's folder, in a shape a $ref could read."""
    path = tmp_path / "secret.json"
    path.write_text(json.dumps({"type": "string", "description": SECRET}))
    return path


# --- $ref confinement ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["absolute", "dotdot", "encoded", "file-link", "folder-link"])
def test_a_ref_out_of_the_catalog_folder_is_refused_at_its_place(run, tmp_path, secret, kind):
    folder = tmp_path / "project" / "catalog"
    folder.mkdir(parents=True)
    ref = {"absolute": str(secret), "dotdot": "../../secret.json",
           "encoded": "..%2F..%2Fsecret.json", "file-link": "inside.json",
           "folder-link": "linked/secret.json"}[kind]
    if kind == "file-link":
        (folder / "inside.json").symlink_to(secret)
    if kind == "folder-link":
        (folder / "linked").symlink_to(tmp_path, target_is_directory=True)
    path = catalog_with_ref(folder, ref)
    for command in (["convert", "--to", "openai"], ["show", "read_note"],
                    ["render", "notes", "--provider", "anthropic"]):
        result = run(*command, "-c", str(path))
        one_line_error(result, f"{path}:9:11", f"$ref '{ref}'", "outside the catalog's folder",
                       "not read")
        assert SECRET not in result.output


def test_lint_reports_the_escaping_ref_as_tc106_and_keeps_linting(run, tmp_path, secret):
    path = catalog_with_ref(tmp_path / "catalog", "../secret.json")
    result = run("lint", "--json", "-c", str(path))
    assert result.exit_code == 1
    findings = json.loads(result.stdout)["findings"]
    escaping = [f for f in findings if f["rule"] == "TC106"]
    assert [(f["line"], f["column"]) for f in escaping] == [(9, 11)]
    assert "outside the catalog's folder" in escaping[0]["message"]
    assert SECRET not in result.output


@pytest.mark.timeout(20)
def test_nothing_outside_is_even_opened(run, tmp_path):
    """The target is a named pipe: opening it to read would block until the test times out."""
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    path = catalog_with_ref(tmp_path / "catalog", "../pipe.json")
    one_line_error(run("list", "-c", str(path)), f"{path}:9:11", "outside")
    assert run("lint", "-c", str(path)).exit_code == 1


@pytest.mark.slow
def test_refs_inside_the_folder_tree_still_resolve_and_bundle(run, tmp_path):
    folder = tmp_path / "catalog"
    (folder / "schemas").mkdir(parents=True)
    (folder / "schemas" / "title.json").write_text(
        json.dumps({"type": "string", "description": "Title of the note.", "maxLength": 80}))
    path = catalog_with_ref(folder, "schemas/title.json")
    result = run("render", "notes", "--provider", "openai", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    assert '"maxLength": 80' in result.stdout


@pytest.mark.slow
def test_toolcat_yaml_refs_roots_allows_a_shared_folder(run, tmp_path, isolated):
    (tmp_path / ".git").mkdir()  # the repository holds both the project and the shared folder
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "title.json").write_text(json.dumps({"type": "string", "maxLength": 81}))
    path = catalog_with_ref(isolated / "catalog", "../../shared/title.json")
    assert run("render", "notes", "--provider", "openai", "-c", str(path)).exit_code == 2
    (isolated / "toolcat.yaml").write_text("refs:\n  roots: [../shared]\n")
    result = run("render", "notes", "--provider", "openai", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    assert '"maxLength": 81' in result.stdout


@pytest.mark.parametrize(("text", "where", "message"), [
    ("refs: [a]\n", "1:7", "'refs' must be a mapping"),
    ("refs:\n  root: [a]\n", "2:3", "unknown setting 'root' in 'refs'; known: roots"),
    ("refs:\n  roots: 3\n", "2:10", "'refs.roots' must be a folder or a list of folders"),
    ("refs:\n  roots: [nowhere]\n", "2:11", "refs.roots: 'nowhere' is not a folder"),
])
def test_a_bad_refs_setting_is_refused_at_its_place(run, isolated, text, where, message):
    (isolated / "toolcat.yaml").write_text(text)
    result = run("list")
    one_line_error(result, f"{isolated / 'toolcat.yaml'}:{where}", message)


# --- YAML aliases --------------------------------------------------------------------------------

@pytest.mark.timeout(30)
def test_alias_expansion_is_capped_in_nodes_even_for_a_large_file(run, tmp_path):
    """Padded with distinct nodes, the ratio alone would allow tens of millions of nodes."""
    padding = "\n".join(f"p{i}: [{i}, {i + 1}, {i + 2}]" for i in range(20_000))
    bomb = "a: &a [" + ", ".join(["x"] * 100) + "]\nb: &b [" + ", ".join(["*a"] * 100) + "]\n"
    bomb += "c: [" + ", ".join(["*b"] * 200) + "]\n"
    path = tmp_path / "padded.yaml"
    path.write_text(bomb + padding + "\ntools: []\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:1:1", "YAML aliases expand",
                   "nodes to 2,130,409", "refused")


@pytest.mark.timeout(30)
def test_alias_expansion_is_capped_in_characters(run, tmp_path):
    text = "x" * 200_000
    path = tmp_path / "long.yaml"
    path.write_text(f"s: &s {text}\nt: [" + ", ".join(["*s"] * 60) + "]\ntools: []\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:1:1",
                   "YAML aliases expand 200,", "characters to 12,200,")


def test_merge_keys_may_override_but_a_key_written_twice_is_refused(run, tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("base: &base {description: From the base, name: base}\n"
                    "tools:\n"
                    "  - <<: *base\n"
                    "    name: override\n")
    result = run("list", "--json", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    assert [t["name"] for t in json.loads(result.stdout)["tools"]] == ["override"]
    path.write_text("tools:\n  - name: one\n    description: d\n    name: two\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:4:5",
                   "key 'name' given twice in one mapping, at 2:5 and here")


def test_a_merge_of_the_mapping_itself_is_refused(run, tmp_path):
    path = tmp_path / "self.yaml"
    path.write_text("a: &a {b: 1, <<: *a}\ntools: []\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:1:4", "alias refers to itself")


# --- strict values ---------------------------------------------------------------------------

TOOL = '{"name": "t", "description": "A tool.", "parameters": %s}'


@pytest.mark.parametrize(("name", "text", "where", "message"), [
    ("dup.json", '[{"name": "a",\n  "description": "x", "name": "b"}]', "2:23",
     "key 'name' given twice in one object, at 1:3 and here"),
    ("nested-dup.json", '[' + TOOL % '{"type": "object", "type": "string"}' + ']', "1:75",
     "key 'type' given twice in one object, at 1:57 and here"),
    ("nan.json", '[' + TOOL % '{"type": "number", "default": NaN}' + ']', "1:86",
     "NaN is not a JSON number"),
    ("minus-inf.json", '[' + TOOL % '{"type": "number", "maximum": -Infinity}' + ']', "1:86",
     "-Infinity is not a JSON number"),
    ("overflow.json", '[' + TOOL % '{"type": "number", "maximum": 1e999}' + ']', "1:86",
     "NaN and Infinity are not JSON numbers"),
    ("digits.json", '[' + TOOL % ('{"type": "integer", "maximum": %s}' % ("9" * 5000)) + ']',
     "1:87", "invalid JSON number"),
    ("nan.yaml", "tools:\n  - name: t\n    parameters: {type: number, default: .nan}\n",
     "3:41", "NaN and Infinity are not JSON numbers"),
    ("inf.yaml", "tools:\n  - name: t\n    parameters: {type: number, maximum: -.inf}\n",
     "3:41", "NaN and Infinity are not JSON numbers"),
    ("servers.yaml", 'servers: "abc"\ntools:\n  - name: t\n', "1:10",
     "'servers' must be a list"),
    ("ignore-number.yaml", "tools:\n  - name: t\n    x-toolcat-ignore: 3\n", "3:23",
     "'x-toolcat-ignore' must be a lint rule id or a list of rule ids"),
    ("ignore-bool.yaml", "servers:\n  - name: s\n    x-toolcat-ignore: [true]\ntools: []\n",
     "3:23", "'x-toolcat-ignore' must be a lint rule id or a list of rule ids"),
    ("two-docs.yaml", "tools: []\n---\ntools: []\n", "2:1",
     "expected one YAML document, found another"),
    ("undefined-alias.yaml", "tools: *nothing\n", "1:8", "alias *nothing names no anchor"),
])
def test_wrong_values_are_refused_at_their_place(run, tmp_path, name, text, where, message):
    path = tmp_path / name
    path.write_text(text)
    for command in (["list"], ["lint"]):
        one_line_error(run(*command, "-c", str(path)), f"{path}:{where}", message)


def test_an_unknown_rule_in_x_toolcat_ignore_is_an_error_as_in_toolcat_yaml(run, tmp_path):
    path = tmp_path / "ignore.yaml"
    path.write_text("tools:\n  - name: t\n    description: A tool.\n"
                    "    x-toolcat-ignore: [TC301, TC999]\n")
    one_line_error(run("lint", "-c", str(path)), f"{path}:4:31",
                   "unknown rule 'TC999' in x-toolcat-ignore; known: ALL, TC101")


# --- depth and size ------------------------------------------------------------------------------

def deep_schema(levels: int) -> dict:
    schema: dict = {"type": "string", "description": "The innermost value."}
    for level in range(levels):
        schema = {"type": "object", "description": f"Level {level}.",
                  "properties": {"inner": schema}, "required": ["inner"]}
    return schema


def deep_arguments(levels: int) -> dict:
    value: object = "x"
    for _ in range(levels):
        value = {"inner": value}
    return value  # type: ignore[return-value]


@pytest.mark.parametrize(("name", "text", "where"), [
    ("deep.json", "[" * 100_000 + "]" * 100_000, "1:65"),
    ("deep.yaml", "[" * 100_000 + "]" * 100_000, "1:65"),
    ("deep-block.yaml", "".join("  " * i + "- \n" for i in range(100)), "65:129"),
    ("schema.json", json.dumps({"tools": [{"name": "t", "parameters": deep_schema(40)}]}),
     "1:3167"),
])
def test_nesting_deeper_than_the_limit_is_refused_at_its_place(run, tmp_path, name, text, where):
    path = tmp_path / name
    path.write_text(text)
    one_line_error(run("lint", "-c", str(path)), f"{path}:{where}",
                   "nested deeper than 64 levels")


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_deep_schema_within_the_limit_works_in_every_command(run, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"tools": [{"name": "nest", "description": "Nest things deeply.",
                                           "parameters": deep_schema(29)}]}))
    for command in (["lint"], ["show", "nest"], ["tokens"], ["search", "nest"],
                    ["render", "nest", "--provider", "gemini"], ["render", "nest", "-f", "code"],
                    *(["convert", "--to", to] for to in ("gemini", "toolcat", "bedrock"))):
        result = run(*command, "-c", str(path))
        assert result.exit_code == 0, (command, result.output)
    response = tmp_path / "response.json"
    for levels, verdict in ((29, "accepted"), (5000, "refused")):
        arguments = json.dumps(deep_arguments(levels)) if levels < 100 else \
            '{"inner":' * levels + '"x"' + "}" * levels
        response.write_text(json.dumps({"choices": [{"message": {"tool_calls": [
            {"id": "1", "type": "function",
             "function": {"name": "nest", "arguments": arguments}}]}}]}))
        result = run("check-call", str(response), "--provider", "openai", "-c", str(path))
        assert verdict in result.stdout, result.output
    assert "nested deeper than 64 levels" in result.stdout


def test_a_string_over_the_limit_is_refused_at_its_place(run, tmp_path):
    path = tmp_path / "huge.json"
    path.write_text(json.dumps([{"name": "t", "description": "x" * 1_000_001}]))
    one_line_error(run("show", "t", "-c", str(path)), f"{path}:1:31",
                   "a string of 1,000,001 characters; the limit is 1,000,000")


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_huge_name_and_description_within_the_limit_do_not_stall(run, tmp_path):
    path = tmp_path / "huge.json"
    name = "a" * 400_000
    path.write_text(json.dumps([{"name": name, "description": "word " * 190_000},
                                {"name": "small", "description": "A small tool."}]))
    for command in (["search", "a"], ["search", "(?s).*"], ["show", "small"], ["lint"],
                    ["tokens"]):
        result = run(*command, "-c", str(path))
        assert result.exit_code in (0, 1), (command, result.output[-500:])


# --- JSONC and JSON Lines ------------------------------------------------------------------------

def test_jsonc_with_comments_and_trailing_commas_is_read_with_positions(run, tmp_path):
    path = tmp_path / "tools.json"
    path.write_text('// tools for the notebook\n'
                    '{"tools": [\n'
                    '  {"name": "read_note", /* the title */ "description": "Read a note. // ok",\n'
                    '   "parameters": {"type": "object", "properties": '
                    '{"title": {"type": "strin"},},},\n'
                    '  },\n'
                    ']}\n')
    result = run("list", "--json", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["tools"][0]["description"] == "Read a note. // ok"
    result = run("lint", "--json", "-c", str(path))
    places = {(f["rule"], f["line"], f["column"]) for f in json.loads(result.stdout)["findings"]}
    assert ("TC101", 4, 70) in places  # at "strin"


def test_a_vscode_mcp_json_with_comments_is_read_with_positions(run, tmp_path):
    config = tmp_path / ".vscode" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{\n  // servers of this workspace\n  "servers": {\n'
                      '    "notes": {"command": 3,},\n  },\n}\n')
    result = run("import", "mcp", "--config", str(config))
    one_line_error(result, f"{config}:4:14")


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_json_lines_are_one_tool_per_line_with_positions(run, tmp_path, suffix):
    path = tmp_path / f"functions{suffix}"
    path.write_text('{"name": "get_weather", "description": "Weather for a city."}\n\n'
                    '{"name": "get_time", "description": "Time in a zone.", '
                    '"parameters": {"type": "object", "properties": {"tz": {"type": "strin"}}}}\n')
    result = run("list", "--json", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    assert [t["name"] for t in json.loads(result.stdout)["tools"]] == ["get_weather", "get_time"]
    result = run("lint", "--json", "-c", str(path))
    places = {(f["rule"], f["line"], f["column"]) for f in json.loads(result.stdout)["findings"]}
    assert ("TC101", 3, 119) in places  # at "strin" on the third line
    path.write_text('{"name": "a", "description": "x"}\n{"name": "b", "name": "c"}\n')
    one_line_error(run("list", "-c", str(path)), f"{path}:2:15",
                   "key 'name' given twice in one object, at 2:2 and here")


# --- regex search --------------------------------------------------------------------------------

@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", ["(?s).*", r"[\s\S]*", r"(?s)tool_1.*9"])
def test_patterns_that_span_lines_find_each_matching_tool_once(run, tmp_path, pattern):
    path = tmp_path / "many.json"
    path.write_text(json.dumps([{"name": f"tool_{i}", "description": f"Tool number {i}."}
                                for i in range(8000)]))
    result = run("search", pattern, "--json", "--limit", "10000", "-c", str(path))
    assert result.exit_code == 0, result.stderr
    names = [t["name"] for t in json.loads(result.stdout)["tools"]]
    spans_all = pattern != r"(?s)tool_1.*9"
    expected = [f"tool_{i}" for i in range(8000)
                if spans_all or (str(i).startswith("1") and "9" in str(i)[1:])]
    assert sorted(names) == sorted(expected)


@pytest.mark.parametrize(("name", "text"), [
    ("escaped.json", '[{"name": "a", "parameters": {"properties": {"p": '
                     '{"$\\u0072ef": "../secret.json"}}}}]'),
    ("escaped.yaml", 'tools:\n  - name: a\n    parameters:\n      properties:\n'
                     '        p: {"\\x24ref": ../secret.json}\n'),
    # an escaped line break joins a double-quoted key written on two lines
    ("joined.yaml", 'tools:\n  - name: a\n    parameters:\n      properties:\n'
                    '        p:\n          ? "$r\\\n            ef"\n          : ../secret.json\n'),
    # escapes of other characters (an accented description) beside an escaped `$ref`
    ("accented.json", '[{"name": "a", "description": "caf\\u00e9", "parameters": '
                      '{"properties": {"p": {"\\u0024ref": "../secret.json"}}}}]'),
])
def test_a_ref_key_spelled_with_escapes_is_confined_too(run, tmp_path, secret, name, text):
    path = tmp_path / "catalog" / name
    path.parent.mkdir()
    path.write_text(text)
    result = run("lint", "--json", "-c", str(path))
    assert "TC106" in {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert SECRET not in result.output


def test_a_schema_that_applies_itself_without_descending_is_a_ref_loop(run, tmp_path):
    """`anyOf: [{$ref: '#'}]` would make any validator recurse until the stack runs out."""
    path = tmp_path / "loop.yaml"
    path.write_text("tools:\n  - name: loop\n    description: Loops.\n    parameters:\n"
                    "      type: object\n      anyOf:\n        - $ref: '#'\n"
                    "      properties:\n        child: {$ref: '#'}\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:7:11",
                   "$ref loop: the schema applies itself to the same value", "# -> #/anyOf/0 -> #")
    result = run("lint", "--json", "-c", str(path))
    assert "TC106" in {f["rule"] for f in json.loads(result.stdout)["findings"]}


def test_a_loop_through_files_is_a_refused_call_not_a_crash(run, tmp_path):
    (tmp_path / "a.json").write_text('{"anyOf": [{"$ref": "b.json"}]}')
    (tmp_path / "b.json").write_text('{"anyOf": [{"$ref": "a.json"}]}')
    path = tmp_path / "tools.json"
    path.write_text('[{"name": "loop", "description": "Loops.", '
                    '"parameters": {"type": "object", "allOf": [{"$ref": "a.json"}]}}]')
    response = tmp_path / "response.json"
    response.write_text(json.dumps({"choices": [{"message": {"tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "loop", "arguments": "{}"}}]}}]}))
    result = run("check-call", str(response), "--provider", "openai", "-c", str(path))
    assert result.exit_code == 1
    assert "applies itself endlessly" in result.stdout


@pytest.mark.timeout(60)
def test_gemini_inlining_of_long_or_doubling_ref_chains_is_bounded(tmp_path):
    from toolcat.catalog.load import load_catalog
    from toolcat.render.renderer import RenderInput, render

    defs = {f"d{i}": {"type": "object", "properties": {
        "x": {"$ref": f"#/$defs/d{i + 1}"}, "y": {"$ref": f"#/$defs/d{i + 1}"}}}
        for i in range(400)}
    defs["d400"] = {"type": "string"}
    path = tmp_path / "chain.json"
    path.write_text(json.dumps([{"name": "chain", "description": "Chained definitions.",
                                 "parameters": {"type": "object", "$defs": defs,
                                                "properties": {"a": {"$ref": "#/$defs/d0"}}}}]))
    catalog = load_catalog(path)
    rendered = render(RenderInput(tools=catalog.tools, documents=catalog.documents), "gemini")
    assert len(json.dumps(rendered.payload)) < 10_000_000
    assert any("not inlined (over 16 nested" in note for note in rendered.notes)


@pytest.mark.parametrize(("fmt", "text"), [
    ("mistral", '[TOOL_CALLS][{"name": "t", "arguments": ' + "[" * 5000 + "]" * 5000 + "}]"),
    ("json", '{"name": "t", "arguments": {"a": ' + "[" * 5000 + "]" * 5000 + "}}"),
])
def test_a_completion_nested_past_the_decoder_is_one_error_line(run, tmp_path, fmt, text):
    path = tmp_path / "completion.txt"
    path.write_text(text)
    one_line_error(run("check-call", str(path), "--format", fmt, "-c", "demo"), str(path),
                   "nested deeper than 64 levels")


def test_a_python_tool_whose_schema_holds_nan_is_refused_at_its_decorator(run, tmp_path):
    path = tmp_path / "nan_schema_tools.py"
    path.write_text("import toolcat\n\n\n"
                    "@toolcat.tool(parameters={'type': 'object', 'properties': "
                    "{'x': {'type': 'number', 'default': float('nan')}}})\n"
                    "def scale(x: float = 1.0) -> float:\n"
                    "    '''Scale a value.'''\n"
                    "    return x\n")
    one_line_error(run("list", "-c", str(path)), f"{path}:4:1",
                   "parameters at '/properties/x/default': NaN and Infinity are not JSON")


def test_an_endless_device_is_refused_at_its_first_byte(run):
    result = run("list", "-c", "/dev/zero")
    assert result.exit_code == 2
    assert result.stderr == ("toolcat: error: /dev/zero:1:1: binary data (a NUL byte), "
                             "not JSON or YAML text\n")


def test_a_nul_byte_is_placed_at_its_line_and_column(run, tmp_path):
    path = tmp_path / "tools.json"
    path.write_bytes(b'[\n  {"name": "a",\n   "description": "b\x00c"}]\n')
    result = run("lint", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"toolcat: error: {path}:3:21: binary data")


def test_a_pipe_that_never_ends_stops_at_the_file_limit(run, monkeypatch):
    import contextlib
    import threading

    import toolcat.source.files as files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 2 * 2**20)
    monkeypatch.setattr(files, "READ_PIECE", 2**16)
    read_end, write_end = os.pipe()

    def endless() -> None:
        with contextlib.suppress(OSError), os.fdopen(write_end, "wb", buffering=0) as out:
            while True:
                out.write(b'{"name": "x", "description": "y"},\n' * 100)

    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    try:
        result = run("list", "-c", f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
    writer.join(timeout=5)
    one_line_error(result, f"/dev/fd/{read_end}", "larger than 2 MiB, the most toolcat reads")
