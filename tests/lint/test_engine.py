"""The engine through the Python API: selection, severities, options, x-toolcat-ignore."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.catalog.load import load_catalog
from toolcat.errors import ConfigError, UsageError
from toolcat.lint.engine import lint_catalog
from toolcat.lint.findings import Finding, schema_key
from toolcat.lint.settings import LintSettings
from toolcat.model import SourceRef
from toolcat.source.fields import FieldReader

EXAMPLES = DATA / "lint"


def lint(path: Path, **settings) -> list[Finding]:
    return list(lint_catalog(load_catalog(path, lenient=True), LintSettings(**settings))
                .findings)


def write(tmp_path: Path, tools: list[dict], name: str = "tools.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"tools": tools}, indent=2))
    return path


def tool(name: str, description: str = "Look up the weather forecast for a city by name.",
         **extra) -> dict:
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": {
                "city": {"type": "string", "description": "City name."}}}, **extra}


def test_the_demo_catalog_and_the_builtins_are_clean_with_the_default_rules():
    for path in (CATALOGS, CATALOGS / "builtins" / "builtins.yaml"):
        findings = lint(path)
        assert [(f.where, f.rule, f.message) for f in findings] == []


def test_select_runs_only_the_named_rules_by_id_prefix_or_name():
    bad = EXAMPLES / "TC302" / "bad.yaml"
    assert {f.rule for f in lint(bad, select=("TC1", "TC2"))} == set()
    assert {f.rule for f in lint(bad, select=("TC3",))} == {"TC302"}
    assert {f.rule for f in lint(bad, select=("vague-description",))} == {"TC302"}


def test_ignore_wins_over_select():
    bad = EXAMPLES / "TC302" / "bad.yaml"
    assert lint(bad, select=("ALL",), ignore=("TC302",)) == []
    assert lint(bad, ignore=("TC30",)) == []


def test_a_severity_override_changes_the_severity_and_whether_the_run_fails():
    report = lint_catalog(load_catalog(EXAMPLES / "TC302" / "bad.yaml"),
                          LintSettings(severity={"TC302": "error"}))
    assert {f.severity for f in report.findings} == {"error"} and report.failed()
    report = lint_catalog(load_catalog(EXAMPLES / "TC301" / "bad.json"),
                          LintSettings(severity={"TC3": "warning", "missing-description": "info"}))
    assert {f.severity for f in report.findings} == {"info"} and not report.failed(strict=True)


def test_strict_makes_warnings_fail_but_never_infos():
    report = lint_catalog(load_catalog(EXAMPLES / "TC302" / "bad.yaml"))
    assert not report.failed() and report.failed(strict=True)


def test_x_toolcat_ignore_silences_a_rule_for_that_tool_only(tmp_path):
    path = write(tmp_path, [
        tool("weather", "Sunny or not."),
        tool("forecast", "Rain or not.", **{"x-toolcat-ignore": ["TC302"]}),
    ])
    assert [(f.rule, f.tool) for f in lint(path)] == [("TC302", "weather")]


def test_x_toolcat_ignore_works_in_provider_shapes_and_for_catalog_rules(tmp_path):
    wrapped = {"type": "function", "function": {
        **tool("getWeather"), "x-toolcat-ignore": ["TC204", "TC501"]}}
    first = write(tmp_path, [tool("get_weather")], "a.json")
    second = tmp_path / "b.json"
    second.write_text(json.dumps({"tools": [wrapped]}))
    findings = lint_catalog(load_catalog([first, second], lenient=True)).findings
    assert [f.rule for f in findings] == []


def test_provider_rules_run_only_with_a_target_and_the_portable_name_rule_steps_aside(tmp_path):
    path = write(tmp_path, [tool("weather.now")])
    catalog = load_catalog(path)
    plain = lint_catalog(catalog)
    assert [f.rule for f in plain.findings] == ["TC201"]
    assert not {"TC202", "TC401"} & set(plain.rules)
    targeted = lint_catalog(catalog, LintSettings(targets=("gemini",)))
    assert [f.rule for f in targeted.findings] == [] and "TC202" in targeted.rules
    openai = lint_catalog(catalog, LintSettings(targets=("openai",)))
    assert [(f.rule, f.target) for f in openai.findings] == [("TC202", "openai")]


def test_the_openai_request_cap_points_at_the_first_tool_over_it(tmp_path):
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()
    tools = [tool(f"tool_{i}", f"Report {words[i % 12]} {words[i // 12 % 12]} numbers "
                  f"for item {i} of the {words[(i * 7) % 12]} ledger.") for i in range(130)]
    report = lint_catalog(load_catalog(write(tmp_path, tools), lenient=True),
                          LintSettings(select=("TC403",), targets=("openai", "gemini")))
    [finding] = report.findings
    assert finding.target == "openai" and "'tool_128'" in finding.message
    assert finding.where.pointer == "/tools/128"


def test_load_problems_become_findings_instead_of_stopping_the_load(tmp_path):
    path = write(tmp_path, [tool("weather"), tool("weather")])
    assert [f.rule for f in lint(path)] == ["TC203"]


def test_options_come_from_the_settings_and_are_validated(tmp_path):
    path = write(tmp_path, [tool("weather")])
    assert [f.rule for f in lint(path, options={"max_tool_tokens": 10})] == ["TC503"]
    with pytest.raises(UsageError, match="max_tool_tokens"):
        lint(path, options={"max_tool_tokens": "ten"})
    with pytest.raises(UsageError, match="unknown option 'max_tools'"):
        lint(path, options={"max_tools": 3})


@pytest.mark.parametrize(("data", "message"), [
    ({"select": ["TC999"]}, "unknown rule 'TC999'"),
    ({"severity": {"TC301": "fatal"}}, "must be one of error, warning, info"),
    ({"targets": ["claude"]}, "unknown target 'claude'"),
    ({"selects": ["TC1"]}, "unknown setting 'selects'"),
    ({"ignore": "TC1, TC2"}, "unknown rule 'TC1, TC2'"),
    ({"options": ["max_tool_tokens"]}, "'options' must be a mapping"),
])
def test_bad_lint_settings_are_config_errors_naming_the_file(data, message):
    with pytest.raises(ConfigError, match=message) as error:
        LintSettings.from_mapping(data, FieldReader("toolcat.yaml"))
    assert str(error.value).startswith("toolcat.yaml: lint: ")


def test_command_line_choices_replace_select_and_targets_and_add_to_ignore():
    settings = LintSettings(select=("TC1",), ignore=("TC101",), targets=("openai",))
    updated = settings.with_overrides(select=["TC2,TC3"], ignore=["TC302"], targets=["gemini"])
    assert updated.select == ("TC2", "TC3")
    assert updated.ignore == ("TC101", "TC302")
    assert updated.targets == ("gemini",)


def test_more_findings_can_be_merged_into_a_report_in_order():
    report = lint_catalog(load_catalog(EXAMPLES / "TC302" / "bad.yaml"))
    extra = Finding("TC999", "locked", "error", "changed since the lock",
                    where=SourceRef(report.findings[0].where.file, 1, 1))
    merged = report.with_findings([extra])
    assert merged.findings[0] is extra and merged.failed()


def test_lint_is_part_of_the_public_python_api():
    import toolcat

    catalog = toolcat.load_catalog(EXAMPLES / "TC302" / "bad.yaml", lenient=True)
    report = toolcat.lint_catalog(catalog, toolcat.LintSettings(severity={"TC3": "error"}))
    assert report.failed() and report.counts()["error"] == 3


def test_token_budgets_count_exactly_when_the_bytes_could_exceed_them(tmp_path):
    path = write(tmp_path, [tool("weather")])
    size = load_catalog(path).tools[0].size()
    assert lint(path, select=("TC503",), options={"max_tool_tokens": size}) == []
    [finding] = lint(path, select=("TC503",), options={"max_tool_tokens": 20})
    assert "over the 20-token budget" in finding.message


def test_a_rejected_name_says_what_render_sends_instead(tmp_path):
    catalog = load_catalog(write(tmp_path, [tool("weather.now"), tool("weather_now")]))
    report = lint_catalog(catalog, LintSettings(targets=("openai",)))
    finding, = [f for f in report.findings if f.rule == "TC202"]
    # the plain sanitized name is taken by the other tool, so render adds a hash
    sent = finding.message.split("sends it as '")[1].split("'")[0]
    assert sent.startswith("weather_now_") and sent != "weather_now"


def test_a_rejected_name_is_said_as_render_sends_it_under_prefix_always(run, isolated):
    """With `names: {prefix: always}` render sends every name with its server: TC202 says
    the name that is really sent, the one `render` writes."""
    path = isolated / "tools.json"
    path.write_text(json.dumps({"server": "acme", "tools": [tool("weather.now")]}))
    (isolated / "toolcat.yaml").write_text("names: {prefix: always}\n")
    said = run("lint", "-c", str(path), "--target", "openai", "--select", "TC202")
    assert "sends it as 'acme__weather_now'" in " ".join(said.stdout.split())
    # the names are what is tested, not the ranking: bm25 spares loading the embedding model
    (isolated / "words.yaml").write_text("name: words\nscorer: bm25\n")
    rendered = json.loads(run("render", "weather", "-c", str(path), "--provider", "openai",
                              "-p", str(isolated / "words.yaml"), "--json").stdout)
    assert "acme__weather_now" in json.dumps(rendered)


def test_tools_that_share_a_schema_each_get_its_findings_at_their_own_place(tmp_path):
    # per_schema rules run once per distinct schema; every tool with it is still reported
    schema = {"type": "object", "properties": {"units": {"type": "string", "default": 3}},
              "required": ["city"]}
    like_it = {"type": "object", "properties": {"units": {"type": "string", "default": "3"}},
               "required": ["city"]}
    path = write(tmp_path, [tool("first", parameters=schema),
                            tool("second", parameters=like_it),
                            tool("third", parameters=json.loads(json.dumps(schema)),
                                 **{"x-toolcat-ignore": ["TC103"]})])
    found = lint(path, select=("TC103", "TC104"))
    assert sorted((f.tool, f.rule) for f in found) == [
        ("first", "TC103"), ("first", "TC104"), ("second", "TC103"), ("third", "TC104")]
    lines = {(f.tool, f.rule): f.where.line for f in found if f.where is not None}
    assert lines[("first", "TC103")] < lines[("second", "TC103")]
    assert lines[("first", "TC104")] < lines[("third", "TC104")]


def test_equal_looking_schemas_of_other_types_are_not_taken_for_one_another(tmp_path):
    # 1 and "1" print alike in JSON; a schema that differs only there is checked on its own
    numbers = {"type": "object", "properties": {"n": {"type": "integer", "enum": [1]}}}
    strings = {"type": "object", "properties": {"n": {"type": "integer", "enum": ["1"]}}}
    path = write(tmp_path, [tool("numbers", parameters=numbers),
                            tool("strings", parameters=strings)])
    assert [(f.tool, f.rule) for f in lint(path, select=("TC104",))] == [("strings", "TC104")]


@pytest.mark.parametrize(("one", "other"), [
    (1, 1.0), (1, True), (0, False), (1, "1"), (None, float("nan")), (None, float("inf")),
    (0.0, -0.0), (2 ** 64, float(2 ** 64)), ({"a": 1}, {"a": 1, "b": None}),
])
def test_a_schema_key_tells_apart_what_json_text_would_not(one, other):
    # the engine checks each distinct schema once: two schemas get one key only when equal
    first, second = {"type": "object", "default": one}, {"type": "object", "default": other}
    assert schema_key(first) != schema_key(second)
    assert schema_key(first) == schema_key(json.loads(json.dumps(first)))
