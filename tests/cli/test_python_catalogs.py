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
    assert "2 tools" in result.stdout and "drop_table" in result.stdout


def test_show_names_the_decorator_and_the_implementation(run, agent):
    result = run("show", "drop_table", "-c", "my_agent.tools")
    assert result.stdout.splitlines()[0] == f"tools:drop_table  {agent}:15:1"
    data = json.loads(run("show", "drop_table", "-c", "my_agent.tools", "--json").stdout)
    assert data["implementation"] == {"module": "my_agent.tools", "function": "drop_table"}
    assert data["description"] == "Drop a table."


def test_a_config_names_modules_relative_to_its_folder(run, agent, isolated, monkeypatch):
    (isolated / "toolcat.yaml").write_text("catalogs: [my_agent.tools]\n")
    (isolated / "sub").mkdir()
    monkeypatch.chdir(isolated / "sub")
    data = json.loads(run("list", "--json").stdout)
    assert [t["name"] for t in data["tools"]] == ["get_weather", "drop_table"]


def test_the_environment_may_name_a_module_and_a_yaml_file(run, agent, isolated, monkeypatch):
    (isolated / "mail.yaml").write_text(
        "tools:\n  - name: send_mail\n    parameters: {type: object}\n")
    monkeypatch.setenv("TOOLCAT_CATALOG", os.pathsep.join(["my_agent.tools", "mail.yaml"]))
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
