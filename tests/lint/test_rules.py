"""Every rule: its example folder, its documentation, and its documented examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.config import find_config
from toolcat.lint.engine import lint_catalog
from toolcat.lint.findings import FAMILIES, SEVERITIES, LintReport, split_example
from toolcat.lint.rules import RULES
from toolcat.lint.settings import LintSettings, settings_from_config
from toolcat.pin.lock import dump_lock, lock_catalog

EXAMPLES = DATA / "lint"
IDS = list(RULES)


def folder_settings(folder: Path) -> LintSettings:
    """The folder's own toolcat.yaml `lint:` section (targets, options), if it has one."""
    if (folder / "toolcat.yaml").exists():
        return settings_from_config(find_config(folder))
    return LintSettings()


def lint_file(path: Path, settings: LintSettings) -> LintReport:
    return lint_catalog(load_catalog(path, lenient=True), settings)


def example(rule_id: str, kind: str) -> Path:
    found = sorted((EXAMPLES / rule_id).glob(f"{kind}.*"))
    assert len(found) == 1, f"{rule_id} needs exactly one {kind}.yaml or {kind}.json"
    return found[0]


def test_every_registered_rule_has_an_example_folder_and_every_folder_a_rule():
    folders = {p.name for p in EXAMPLES.iterdir() if p.is_dir()}
    assert folders == set(RULES)


@pytest.mark.parametrize("rule_id", IDS)
def test_bad_example_triggers_exactly_its_rule_at_the_expected_places(rule_id):
    folder = EXAMPLES / rule_id
    report = lint_file(example(rule_id, "bad"), folder_settings(folder))
    assert {f.rule for f in report.findings} == {rule_id}
    places = [f"{Path(f.where.file).name}:{f.where.line}:{f.where.column}"
              for f in report.findings]
    assert places == (folder / "expected.txt").read_text().split()


@pytest.mark.parametrize("rule_id", IDS)
def test_good_example_has_no_finding_at_all(rule_id):
    report = lint_file(example(rule_id, "good"), folder_settings(EXAMPLES / rule_id))
    assert [(f.rule, f.message) for f in report.findings] == []


@pytest.mark.parametrize("rule_id", IDS)
def test_rule_is_documented(rule_id):
    rule = RULES[rule_id]
    assert re.fullmatch(r"TC[1-6]\d\d", rule.id)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.severity in SEVERITIES
    assert rule.id[:3] in FAMILIES
    assert rule.summary.endswith(".") and len(rule.summary) < 100
    assert len(rule.explanation) > 80
    assert "tools:" in rule.bad and "tools:" in rule.good and rule.bad != rule.good


@pytest.mark.parametrize("rule_id", IDS)
def test_documented_examples_do_what_the_documentation_says(rule_id, tmp_path):
    rule = RULES[rule_id]
    settings = LintSettings.from_mapping(rule.example_settings)
    bad, good = tmp_path / "bad.yaml", tmp_path / "good.yaml"
    bad.write_text(rule.bad)
    good.write_text(rule.good)
    lockfile = rule.example_settings.get("options", {}).get("lockfile")
    if lockfile:  # a lock rule's examples are linted against the lock of the good one
        Path(lockfile).write_text(dump_lock(lock_catalog(load_catalog(good))))
    assert {f.rule for f in lint_file(bad, settings).findings} == {rule_id}
    assert lint_file(good, settings).findings == ()


def test_rule_names_are_unique_and_ids_sorted():
    names = [rule.name for rule in RULES.values()]
    assert len(set(names)) == len(names)
    assert sorted(IDS) == IDS


def test_provider_rules_need_a_target_and_no_other_rule_does():
    assert {r.id for r in RULES.values() if r.needs_target} == {
        "TC202", "TC401", "TC402", "TC403", "TC404", "TC405", "TC406", "TC407"}


def test_docs_lint_describes_every_target():
    from tests.conftest import REPO
    from toolcat.lint.targets import targets

    page = (REPO / "docs" / "lint.md").read_text(encoding="utf-8")
    assert [name for name in targets() if f"| `{name}` |" not in page] == []


def test_an_example_written_once_gives_its_bad_and_its_good_catalog():
    bad, good = split_example("""
        tools:
      -   - name: files.read
      +   - name: files_read
            description: Read a file.
        """)
    assert bad == "tools:\n  - name: files.read\n    description: Read a file.\n"
    assert good == "tools:\n  - name: files_read\n    description: Read a file.\n"


def test_an_example_line_without_its_gutter_is_refused_when_the_rule_is_declared():
    with pytest.raises(ValueError, match="example line 2 has no"):
        split_example("""
          tools:
        x   - name: files.read
        """)
