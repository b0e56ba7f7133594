"""`toolcat list`, `show`, `stats` and `convert` as a user runs them."""

from __future__ import annotations

import json

from tests.conftest import DATA

FULL = str(DATA / "shapes" / "full.yaml")
DELETE_EVENT = json.dumps(
    {"name": "delete_event",
     "description": "Delete a calendar event by its id. This cannot be undone.",
     "parameters": {"type": "object", "properties": {
         "event_id": {"type": "string", "description": "The id of the event to delete."}},
         "required": ["event_id"], "additionalProperties": False}},
    separators=(",", ":"))


def test_list_into_a_pipe_prints_one_tab_separated_line_per_tool(run):
    result = run("list", "-c", FULL)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    row = next(line for line in lines if "delete_event" in line)
    assert row.split("\t") == [
        "delete_event", "calendar", "2", "calendar,write", "no", f"{len(DELETE_EVENT)}"]


def test_list_json_has_the_documented_shape(run):
    data = json.loads(run("list", "-c", FULL, "--json").stdout)
    assert data["count"] == 3
    assert data["sources"] == [FULL]
    first = data["tools"][0]
    assert sorted(first) == ["description", "kind", "level", "name", "origin",
                             "qualified_name", "safe", "safety", "safety_reason", "server",
                             "size", "source", "tags"]
    assert (first["name"], first["qualified_name"], first["origin"]["line"]) == (
        "get_weather", "weather:get_weather", 8)


def test_list_filters_by_server(run):
    data = json.loads(run("list", "-c", FULL, "--server", "cal*", "--json").stdout)
    assert [t["name"] for t in data["tools"]] == ["delete_event", "summarize_week"]


def test_show_prints_the_definition_and_where_it_came_from(run):
    result = run("show", "get_weather", "-c", FULL)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"weather:get_weather  {FULL}:8:5"
    assert "enum:\n" in result.stdout and "- fahrenheit" in result.stdout


def test_show_json_is_the_canonical_tool_plus_raw(run):
    data = json.loads(run("show", "delete_event", "-c", FULL, "--json").stdout)
    assert (data["safe"], data["strict"], data["origin"]["line"]) == (False, True, 36)
    assert data["raw"]["name"] == "delete_event"


def test_show_unknown_tool_suggests_close_names(run):
    result = run("show", "get_wether", "-c", FULL)
    assert result.exit_code == 2
    assert result.stderr == ("toolcat: error: no tool named 'get_wether' in the catalog "
                             "(did you mean get_weather?)\n")


def test_stats_counts_per_server_level_and_tag(run):
    data = json.loads(run("stats", "-c", FULL, "--json").stdout)
    assert data["tools"] == 3
    assert data["servers"] == {"weather": 1, "calendar": 2}
    assert data["levels"] == {"1": 1, "2": 1, "3": 1}
    assert data["tags"] == {"weather": 1, "read": 1, "calendar": 1, "write": 1}
    assert data["unsafe"] == 1
    assert data["size"]["largest"]["name"] == "weather:get_weather"


def test_convert_prints_the_target_shape(run):
    result = run("convert", "-c", FULL, "--to", "anthropic")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert [t["name"] for t in payload["tools"]] == ["get_weather", "delete_event",
                                                     "summarize_week"]
    assert payload["tools"][0]["input_examples"] == [{"location": "Tokyo"},
                                                     {"location": "Lisbon", "unit": "celsius"}]
    assert "summarize_week: has no parameters schema" in result.stderr


def test_convert_to_a_file_and_load_it_back(run, tmp_path):
    out = tmp_path / "gemini.json"
    result = run("convert", "-c", FULL, "--to", "gemini", "-o", str(out))
    assert result.stdout == f"wrote 3 tools as gemini to {out}\n"
    data = json.loads(run("list", "-c", str(out), "--json").stdout)
    assert [t["name"] for t in data["tools"]] == ["get_weather", "delete_event",
                                                  "summarize_week"]


def test_convert_refuses_to_overwrite_its_input(run, tmp_path):
    source = tmp_path / "tools.yaml"
    source.write_text((DATA / "shapes" / "full.yaml").read_text())
    before = source.read_text()
    result = run("convert", "-c", str(source), "--to", "toolcat", "-o", str(source))
    assert result.exit_code == 2
    assert "is one of the inputs; refusing to overwrite it" in result.stderr
    assert source.read_text() == before


def test_convert_unknown_shape_lists_the_known_ones(run):
    result = run("convert", "-c", FULL, "--to", "cohere")
    assert result.exit_code == 2
    assert result.stderr == (
        "toolcat: error: unknown shape 'cohere'; known: toolcat, capability, openai, "
        "openai-responses, anthropic, mcp, gemini, ollama, bedrock, mistral\n")


def test_env_variable_chooses_the_catalog(run, monkeypatch):
    monkeypatch.setenv("TOOLCAT_CATALOG", FULL)
    assert json.loads(run("list", "--json").stdout)["count"] == 3


def test_toolcat_yaml_in_a_parent_folder_chooses_the_catalog(run, isolated, monkeypatch):
    (isolated / "toolcat.yaml").write_text(f"catalogs: [{FULL}]\n")
    (isolated / "sub").mkdir()
    monkeypatch.chdir(isolated / "sub")
    assert json.loads(run("list", "--json").stdout)["count"] == 3


def test_a_command_after_one_that_wrote_to_stdout_says_what_it_wrote_on_stdout(run, tmp_path):
    # one process, two commands (the Python API, a test's runner): the first's stdout output
    # sent the second's "wrote ..." line to stderr
    assert run("convert", "-c", "demo", "--to", "openai").exit_code == 0
    out = tmp_path / "tools.json"
    result = run("convert", "-c", "demo", "--to", "openai", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert f"as openai to {out}" in result.stdout
