"""`toolcat lint` and `toolcat rules` as a user runs them: exit codes, formats, settings."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import DATA, REPO

EXAMPLES = DATA / "lint"
WARNINGS_ONLY = str(EXAMPLES / "TC302" / "bad.yaml")
ERRORS = str(EXAMPLES / "TC104" / "bad.yaml")
CLEAN = str(EXAMPLES / "TC101" / "good.json")


def test_lint_on_the_bundled_demo_catalog_is_clean(run):
    result = run("lint", "-c", "demo")
    assert result.exit_code == 0, result.stdout
    assert re.fullmatch(r"0 errors, 0 warnings, 0 info in \d+ tools from \d+ files",
                        result.stdout.strip())


def test_lint_exits_1_on_errors_and_groups_findings_by_file(run):
    result = run("lint", ERRORS, CLEAN)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ERRORS
    row = lines[1].split()
    assert row[:4] == ["11:20", "error", "TC104", "set_volume:"]
    assert lines[-1] == "6 errors, 0 warnings, 0 info in 3 tools from 2 files"


def test_warnings_fail_only_with_strict(run):
    assert run("lint", WARNINGS_ONLY).exit_code == 0
    assert run("lint", WARNINGS_ONLY, "--strict").exit_code == 1


def test_paths_and_catalog_options_are_linted_together(run):
    data = json.loads(run("lint", ERRORS, "-c", WARNINGS_ONLY, "--json").stdout)
    assert data["sources"] == [ERRORS, WARNINGS_ONLY]
    assert {f["rule"] for f in data["findings"]} == {"TC104", "TC302"}


def test_unreadable_input_exits_2_with_one_line_naming_the_place(run, data):
    result = run("lint", str(data / "broken" / "malformed.json"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"toolcat: error: {data / 'broken' / 'malformed.json'}:")


def test_unknown_rule_target_or_format_exits_2(run):
    for args, message in ((["--select", "TC999"], "unknown rule 'TC999'"),
                          (["--target", "claude"], "unknown target 'claude'"),
                          (["--format", "xml"], "unknown format 'xml'"),
                          (["--format", "sarif", "--json"], "contradict")):
        result = run("lint", CLEAN, *args)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)


def test_json_output_has_status_and_findings(run):
    result = run("lint", WARNINGS_ONLY, "--json", "--strict")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["status"] == "fail"
    assert data["counts"] == {"error": 0, "warning": 3, "info": 0}
    assert json.loads(run("lint", WARNINGS_ONLY, "--format", "json").stdout)["status"] == "ok"


def test_targets_add_the_provider_rules(run):
    bad = str(EXAMPLES / "TC406" / "bad.yaml")
    assert run("lint", bad).exit_code == 0
    result = run("lint", bad, "--target", "openai,gemini", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["targets"] == ["openai", "gemini"]
    assert {(f["rule"], f["target"]) for f in data["findings"]} == {("TC406", "gemini")}


def test_github_format_prints_workflow_commands(run):
    result = run("lint", ERRORS, "--format", "github")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 6 and all(line.startswith("::error file=") for line in lines)


def test_sarif_is_written_to_a_file_with_a_summary_on_stderr(run, isolated):
    result = run("lint", ERRORS, "--format", "sarif", "-o", "toolcat.sarif")
    assert result.exit_code == 1 and result.stdout == ""
    assert "wrote the sarif report to toolcat.sarif" in result.stderr
    sarif = json.loads((isolated / "toolcat.sarif").read_text())
    assert sarif["version"] == "2.1.0" and len(sarif["runs"][0]["results"]) == 6


def test_the_text_report_can_be_written_to_a_file_without_colours(run, isolated):
    run("lint", ERRORS, "-o", "report.txt")
    text = (isolated / "report.txt").read_text()
    assert text.startswith(ERRORS) and "\x1b[" not in text and "TC104" in text


def test_lint_refuses_to_overwrite_its_own_input(run, tmp_path):
    original = Path(CLEAN).read_text()
    catalog = tmp_path / "tools.json"
    catalog.write_text(original)
    result = run("lint", str(catalog), "-o", str(catalog))
    assert result.exit_code == 2 and "refusing to overwrite" in result.stderr
    assert catalog.read_text() == original


def test_toolcat_yaml_sets_catalogs_select_ignore_severity_and_options(run, isolated):
    (isolated / "toolcat.yaml").write_text(yaml.safe_dump({
        "catalogs": [ERRORS, WARNINGS_ONLY],
        "lint": {"ignore": ["TC104"], "severity": {"vague-description": "error"},
                 "options": {"min_description_words": 2}},
    }))
    data = json.loads(run("lint", "--json").stdout)
    assert [(f["rule"], f["severity"]) for f in data["findings"]] == [("TC302", "error")] * 3
    assert run("lint").exit_code == 1
    assert run("lint", "--ignore", "TC302").exit_code == 0
    assert run("lint", "--select", "TC104", "--json").stdout.count('"TC104"') == 0


def test_pyproject_tool_toolcat_lint_is_read_too(run, isolated):
    (isolated / "pyproject.toml").write_text(
        '[tool.toolcat]\ncatalogs = ["' + WARNINGS_ONLY + '"]\n\n'
        '[tool.toolcat.lint]\nseverity = { TC3 = "error" }\n')
    assert run("lint").exit_code == 1


@pytest.mark.parametrize(("text", "place", "message"), [
    ("lint:\n  select: [TC101, TC42]\n", "2:19", "lint: unknown rule 'TC42'"),
    ("lint:\n  severity:\n    TC101: loud\n", "3:12", "lint: severity of TC101 must be"),
    ("lint:\n  bogus: 1\n", "2:3", "lint: unknown setting 'bogus'"),
    ("device: banana\n", "1:9", "'device' must be one of auto, cpu, cuda, mps"),
    ("catalog: tools.yaml\n", "1:1", "unknown setting 'catalog'; known: catalogs,"),
    ("catalogs: {a: 1}\n", "1:11", "'catalogs' must be a path or a list of paths"),
    ("names:\n  prefix: sometimes\n", "2:11", "'names.prefix' must be one of collisions, always"),
    ("mcp:\n  unannotated: maybe\n", "2:16",
     "'mcp.unannotated' must be one of unknown, safe, unsafe"),
    ("tuning: 3\n", "1:9", "'tuning' must be the path of a tuning file"),
])
def test_a_bad_setting_exits_2_at_its_line_and_column(run, isolated, text, place, message):
    (isolated / "toolcat.yaml").write_text(text)
    result = run("lint", CLEAN)
    assert result.exit_code == 2
    assert f"{isolated / 'toolcat.yaml'}:{place}: {message}" in result.stderr


def test_rules_lists_every_rule_by_family(run):
    from toolcat.lint.rules import RULES

    result = run("rules")
    assert result.exit_code == 0
    for rule in RULES.values():
        assert f"{rule.id}  {rule.name}" in result.stdout
    assert result.stdout.index("schema") < result.stdout.index("security")


def test_rules_explains_one_rule_with_its_examples(run):
    result = run("rules", "TC204")
    assert result.exit_code == 0
    assert result.stdout.startswith("TC204 confusable-names  warning  naming")
    assert "Bad:" in result.stdout and "getUser" in result.stdout
    assert "Good:" in result.stdout and "get_user_by_login" in result.stdout
    by_name = run("rules", "confusable-names")
    assert by_name.stdout == result.stdout


def test_rules_json_is_the_registry(run):
    data = json.loads(run("rules", "--json").stdout)
    assert [r["id"] for r in data["rules"]][:3] == ["TC101", "TC102", "TC103"]
    one = json.loads(run("rules", "TC502", "--json").stdout)
    assert one["options"] == {"max_server_tools": 40} and one["scope"] == "catalog"


def test_an_unknown_rule_suggests_close_ones(run):
    result = run("rules", "duplicate-names")
    assert result.exit_code == 2 and "did you mean duplicate-name" in result.stderr


@pytest.mark.slow
def test_lint_runs_in_a_fresh_process_without_the_semantic_extra(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    for name in ("torch", "sentence_transformers"):
        (blocker / f"{name}.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(REPO)])}
    result = subprocess.run([sys.executable, "-m", "toolcat", "lint", ERRORS, "--json"],
                            capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["counts"]["error"] == 6


def test_the_pre_commit_hook_runs_toolcat_lint():
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "toolcat-lint" and hook["entry"] == "toolcat lint"
    assert hook["language"] == "python" and hook["pass_filenames"] is False


def test_a_broken_pyproject_is_one_line_at_its_place(run, isolated):
    (isolated / "pyproject.toml").write_text("[project]\nname = \"x\"\n[tool.toolcat\n")
    result = run("lint", "-c", "demo")
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: {isolated / 'pyproject.toml'}:3:14: invalid "
                             "TOML: Expected ']' at the end of a table declaration\n")


@pytest.mark.slow
def test_the_terminal_table_and_the_plain_report_carry_the_same_rows(run):
    from tests.terminal import on_terminal

    weather = str(REPO / "catalogs" / "weather.yaml")
    plain = run("lint", "-c", weather, "--target", "gemini").stdout.splitlines()
    table = on_terminal("lint", "-c", weather, "--target", "gemini").splitlines()
    rows = [line for line in plain[1:] if line.strip()][:-1]
    assert rows
    for line in rows:
        position, severity, rule, message = line.split(maxsplit=3)
        row = next(row for row in table if row.split()[:1] == [position])
        assert row.split()[1:3] == [severity, rule] and message.split()[0] in row
    assert plain[-1] == table[-1].strip() and plain[-1].startswith("0 errors, ")
