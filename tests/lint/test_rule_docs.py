"""docs/lint-rules.md is generated from the rule registry and fails the suite when it drifts."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

from tests.conftest import REPO
from toolcat.lint.rule_docs import COMMAND, anchor, main, rule_docs
from toolcat.lint.rules import RULES

PAGE = REPO / "docs" / "lint-rules.md"


def test_docs_lint_rules_is_what_the_registry_generates():
    assert PAGE.read_text(encoding="utf-8") == rule_docs(), f"regenerate it: {COMMAND}"


def test_every_rule_has_its_entry_with_summary_severity_and_both_examples():
    text = rule_docs()
    for rule in RULES.values():
        entry = text.split(f"\n## {rule.id} `{rule.name}`\n", 1)[1].split("\n## ", 1)[0]
        assert f"| [{rule.id}](#{anchor(rule)}) | `{rule.name}` | {rule.severity}" in text
        assert f"Severity **{rule.severity}**" in entry
        assert f"**{rule.summary}**" in entry
        assert f"Bad:\n\n```yaml\n{rule.bad}```" in entry
        assert f"Good:\n\n```yaml\n{rule.good}```" in entry
        assert ("runs only with `--target`" in entry) == rule.needs_target


def test_a_changed_rule_changes_the_page():
    rule = RULES["TC302"]
    changed = replace(rule, severity="error", options={"min_description_words": 6})
    text = rule_docs([changed])
    assert "| [TC302](#tc302-vague-description) | `vague-description` | error |" in text
    assert "- `min_description_words`: `6`" in text
    assert rule_docs([rule]) != text


def test_check_exits_1_on_a_stale_page_and_0_on_a_fresh_one(tmp_path, capsys):
    stale = tmp_path / "lint-rules.md"
    stale.write_text(rule_docs().replace("TC101", "TC100", 1))
    assert main(["--check", str(stale)]) == 1
    assert COMMAND in capsys.readouterr().err
    assert main(["--check", str(PAGE)]) == 0
    assert main(["--check", str(tmp_path / "missing.md")]) == 1
    assert main(["--bogus"]) == 2


def test_python_m_prints_the_page():
    done = subprocess.run([sys.executable, "-m", "toolcat.lint.rule_docs"], cwd=REPO,
                          capture_output=True, text=True, check=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.stdout == PAGE.read_text(encoding="utf-8")
