"""A project's lint run as values: settings from toolcat.yaml and the command line, the
report, the notes beside it, and a baseline accepting every finding."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.config import find_config
from toolcat.errors import UsageError
from toolcat.lint.run import accept_all, lint_request, run_lint, settings_for

BAD = DATA / "lint" / "TC302" / "bad.yaml"


def test_the_command_line_goes_over_the_configuration(tmp_path):
    (tmp_path / "toolcat.yaml").write_text("lint:\n  select: [TC3]\n")
    settings = settings_for(find_config(tmp_path), lint_request(ignore=["TC301"]), tmp_path)
    assert settings.select[0] == "TC3" and "TC301" in settings.ignore
    with pytest.raises(UsageError, match="unknown rule 'TC999'"):
        settings_for(find_config(tmp_path), lint_request(select=["TC999"]), tmp_path)


def test_a_baseline_accepting_every_finding_leaves_a_clean_run(tmp_path: Path):
    catalog = load_catalog(BAD, lenient=True)
    settings = settings_for(find_config(tmp_path), lint_request(), tmp_path)
    first = run_lint(catalog, settings)
    assert first.report.findings and first.notes == ()
    baseline = tmp_path / "baseline.yaml"
    text, note = accept_all(catalog, settings, baseline)
    assert f"accepted {len(first.report.findings)} findings in {baseline}" in note
    baseline.write_text(text)
    again = run_lint(catalog, settings_for(find_config(tmp_path),
                                           lint_request(baseline=baseline), tmp_path))
    assert again.report.findings == () and again.report.accepted == len(first.report.findings)
    assert '"accepted"' in again.text("json")


def test_a_baseline_entry_that_matches_nothing_is_noted(tmp_path: Path):
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("version: 1\naccepted:\n  - {rule: TC302, fingerprint: '0000'}\n")
    run = run_lint(load_catalog(BAD, lenient=True),
                   settings_for(find_config(tmp_path), lint_request(baseline=baseline),
                                tmp_path))
    assert run.notes and "1 baseline entry" in run.notes[0]


@pytest.mark.parametrize("enabled", [True, False])
def test_writing_a_report_leaves_the_cycle_collector_as_it_found_it(tmp_path: Path, enabled):
    """The report is written with the collector paused (its findings hold no cycles); a
    program that had it on gets it back on, one that had it off keeps it off."""
    catalog = load_catalog(BAD, lenient=True)
    run = run_lint(catalog, settings_for(find_config(tmp_path), lint_request(), tmp_path))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        for fmt in ("text", "json", "sarif", "github"):
            assert "TC302" in run.text(fmt)
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
