"""`toolcat list/show -c my_agent.tools` and `-c tools.py`, as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO
from toolcat.errors import CatalogError

TOOLS = '''
import toolcat

print("importing my tools")


@toolcat.tool(name="get_weather", description="Current weather.", tags=["weather"],
              parameters={"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"]})
class GetWeather:
    def run(self):
        return self.args["city"]


@toolcat.tool(parameters={"type": "object", "properties": {}}, safe=False)
def drop_table():
    """Drop a table."""
'''


@pytest.fixture
def agent(isolated, pymodule):
    """A package in the current folder, which is not on sys.path (as for the toolcat script)."""
    (isolated / "my_agent").mkdir()
    (isolated / "my_agent" / "__init__.py").write_text("")
    path = isolated / "my_agent" / "tools.py"
    path.write_text(TOOLS)
    return path


def test_list_takes_a_module_name_relative_to_the_current_folder(run, agent):
    path_before = list(sys.path)
    result = run("list", "-c", "my_agent.tools", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["sources"] == [str(agent)]
    assert [(t["name"], t["server"], t["safe"]) for t in data["tools"]] == [
        ("get_weather", "tools", True), ("drop_table", "tools", False)]
    assert data["tools"][0]["origin"] == {"file": str(agent), "line": 7, "column": 1,
                                          "pointer": ""}
    assert sys.path == path_before


def test_what_a_module_prints_on_import_goes_to_stderr(run, agent):
    result = run("list", "-c", "my_agent.tools", "--json")
    assert "importing my tools" in result.stderr
    assert json.loads(result.stdout)["count"] == 2


def test_list_takes_a_py_file(run, agent):
    result = run("list", "-c", "my_agent/tools.py")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2 and "drop_table\ttools" in result.stdout


def test_show_names_the_decorator_and_the_implementation(run, agent):
    result = run("show", "drop_table", "-c", "my_agent.tools")
    assert result.stdout.splitlines()[0] == f"tools:drop_table  {agent}:15:1"
    data = json.loads(run("show", "drop_table", "-c", "my_agent.tools", "--json").stdout)
    assert data["implementation"] == {"module": "my_agent.tools", "function": "drop_table"}
    assert data["description"] == "Drop a table."


def test_a_config_names_modules_relative_to_its_folder(run, agent, isolated, monkeypatch):
    (isolated / "toolcat.yaml").write_text("catalogs: [my_agent.tools]\n")
    monkeypatch.setenv("TOOLCAT_TRUST", str(isolated))  # configuration may import Python here
    (isolated / "sub").mkdir()
    monkeypatch.chdir(isolated / "sub")
    data = json.loads(run("list", "--json").stdout)
    assert [t["name"] for t in data["tools"]] == ["get_weather", "drop_table"]


def test_the_environment_may_name_a_module_and_a_yaml_file(run, agent, isolated, monkeypatch):
    (isolated / "mail.yaml").write_text(
        "tools:\n  - name: send_mail\n    parameters: {type: object}\n")
    monkeypatch.setenv("TOOLCAT_CATALOG", os.pathsep.join(["my_agent.tools", "mail.yaml"]))
    monkeypatch.setenv("TOOLCAT_TRUST", str(isolated))
    data = json.loads(run("list", "--json").stdout)
    assert [t["qualified_name"] for t in data["tools"]] == [
        "tools:get_weather", "tools:drop_table", "mail:send_mail"]


def test_convert_refuses_to_overwrite_the_module_it_read(run, agent):
    result = run("convert", "--to", "openai", "-c", "my_agent/tools.py", "-o",
                 "my_agent/tools.py")
    assert result.exit_code == 2
    assert "is one of the inputs" in result.stderr
    assert agent.read_text() == TOOLS


def test_an_import_error_is_one_line_without_traceback(run, isolated, pymodule):
    (isolated / "failing.py").write_text("import toolcat\n\nvalue = 1 / 0\n")
    result = run("list", "-c", "failing.py")
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: {isolated / 'failing.py'}:3:9: cannot import "
                             "failing: ZeroDivisionError: division by zero\n")


def test_traceback_shows_the_modules_own_error(run, isolated, pymodule):
    (isolated / "failing.py").write_text("import toolcat\n\nvalue = 1 / 0\n")
    with pytest.raises(CatalogError) as caught:
        run("--traceback", "list", "-c", "failing.py")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_a_broken_definition_exits_2_naming_the_decorator(run, isolated, pymodule):
    (isolated / "no_schema.py").write_text(
        "import toolcat\n\n\n@toolcat.tool(name='x')\ndef x(): ...\n")
    result = run("list", "-c", "no_schema.py")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"toolcat: error: {isolated / 'no_schema.py'}:4:1: tool 'x' "
                                    "has no parameters schema")


@pytest.mark.slow
def test_the_toolcat_process_imports_a_module_from_its_current_folder(agent, isolated):
    result = subprocess.run(
        [sys.executable, "-m", "toolcat", "list", "-c", "my_agent.tools", "--json"],
        cwd=isolated, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
        text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == 2


def test_lint_points_at_the_decorators_of_a_module(run, agent):
    result = run("lint", "-c", "my_agent.tools", "--json")
    findings = json.loads(result.stdout)["findings"]
    undocumented = [f for f in findings if f["rule"] == "TC303"]
    assert undocumented and all(f["file"] == str(agent) for f in undocumented)
    assert {f["line"] for f in undocumented} == {7}


def _response(tmp_path, *calls):
    path = tmp_path / "response.json"
    blocks = [{"type": "tool_use", "id": f"t{i}", "name": name, "input": args}
              for i, (name, args) in enumerate(calls)]
    path.write_text(json.dumps({"content": blocks}, indent=2))
    return str(path)


def test_check_call_instantiate_reports_what_each_call_would_become(run, agent, tmp_path):
    response = _response(tmp_path, ("get_weather", {"city": "Oslo"}), ("get_weather", {}),
                         ("drop_table", {}), ("tool_search", {"query": "mail"}))
    result = run("check-call", response, "--provider", "anthropic", "-c", "my_agent.tools",
                 "--instantiate")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{response}:3:5  get_weather (t0)  instantiated → my_agent.tools.GetWeather",
        f"{response}:11:5  get_weather (t1)  refused",
        '    /: "city" is a required property  schema-violation',
        f"{response}:17:5  drop_table (t2)  instantiated → my_agent.tools.drop_table",
        f"{response}:23:5  tool_search (t3)  valid, no Python class to instantiate",
        "4 calls: 2 instantiated, 1 refused, 1 without a Python class",
    ]


def test_check_call_instantiate_shows_hidden_characters_of_a_call_escaped(run, agent,
                                                                          tmp_path):
    # a model's name for a call is untrusted text: a right-to-left override in it must not
    # reorder the line, with --instantiate as without
    response = _response(tmp_path, ("get_weather\u202e", {"city": "Oslo"}))
    for instantiate in ((), ("--instantiate",)):
        result = run("check-call", response, "--provider", "anthropic", "-c", "my_agent.tools",
                     *instantiate)
        assert result.exit_code == 1
        first = result.stdout.splitlines()[0]
        assert "\u202e" not in first
        assert first.startswith(f"{response}:3:5  get_weather\\u202e (t0)  refused")


def test_check_call_instantiate_json_adds_status_and_implementation(run, agent, tmp_path):
    response = _response(tmp_path, ("get_weather", {"city": "Oslo"}))
    result = run("check-call", response, "--provider", "anthropic", "-c", "my_agent.tools",
                 "--instantiate", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert {k: report[k] for k in ("status", "accepted", "refused", "unvalidated",
                                   "instantiated", "no_class")} == {
        "status": "ok", "accepted": 1, "refused": 0, "unvalidated": 0, "instantiated": 1,
        "no_class": 0}
    (call,) = report["calls"]
    assert sorted(call) == ["accepted", "arguments", "errors", "id", "implementation", "name",
                            "no_schema_mode", "status", "tool", "validated", "where"]
    assert (call["status"], call["implementation"]) == ("instantiated",
                                                        "my_agent.tools.GetWeather")


def test_check_call_instantiate_flags_calls_accepted_without_a_schema(run, isolated, pymodule,
                                                                      tmp_path):
    (isolated / "dash.py").write_text(
        "import toolcat\n\n@toolcat.tool(name='open_dashboard', allow_no_schema=True,\n"
        "              no_schema_mode='human-approval')\nclass Dash:\n    def run(self): ...\n")
    response = _response(tmp_path, ("open_dashboard", {"view": "latency"}))
    result = run("check-call", response, "--provider", "anthropic", "-c", "dash.py",
                 "--instantiate")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].endswith(
        "open_dashboard (t0)  instantiated without validation (no_schema_mode human-approval)"
        " → dash.Dash")
    assert result.stdout.splitlines()[-1] == (
        "1 call: 0 instantiated, 1 instantiated without validation, 0 refused")


def test_check_call_instantiate_reads_text_completions_too(run, agent, tmp_path):
    completion = tmp_path / "completion.txt"
    completion.write_text('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}'
                          '\n</tool_call>\n')
    result = run("check-call", str(completion), "--format", "hermes", "-c", "my_agent.tools",
                 "--instantiate")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{completion}:1:1  get_weather  instantiated → my_agent.tools.GetWeather",
        "1 call: 1 instantiated, 0 refused"]
