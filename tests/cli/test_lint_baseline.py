"""`toolcat lint --write-baseline / --baseline` and `lint: baseline:`: reviewed findings are
accepted outside the catalog, survive a re-import, and come back when their text changes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA

FETCH = DATA / "poison" / "benign" / "mcp-fetch.yaml"


def copy_fetch(folder: Path) -> Path:
    target = folder / "fetch.yaml"
    target.write_text(FETCH.read_text())
    return target


def test_an_accepted_warning_no_longer_fails_a_strict_run(run, isolated):
    catalog = copy_fetch(isolated)
    assert run("lint", str(catalog), "--strict").exit_code == 1
    written = run("lint", str(catalog), "--write-baseline", "baseline.yaml")
    assert written.exit_code == 0 and "accepted 1 finding in baseline.yaml" in written.stderr
    text = (isolated / "baseline.yaml").read_text()
    assert "rule: TC606" in text and "server: mcp-fetch" in text and "tool: fetch" in text
    result = run("lint", str(catalog), "--strict", "--baseline", "baseline.yaml", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["findings"] == [] and data["baseline"] == {
        "file": "baseline.yaml", "accepted": 1, "stale": 0}


def test_a_changed_text_comes_back_and_the_stale_entry_is_reported(run, isolated):
    catalog = copy_fetch(isolated)
    run("lint", str(catalog), "--write-baseline", "baseline.yaml")
    catalog.write_text(catalog.read_text().replace("were advised", "were told"))
    result = run("lint", str(catalog), "--strict", "--baseline", "baseline.yaml")
    assert result.exit_code == 1 and "TC606" in result.stdout
    assert "1 baseline entry in baseline.yaml matched nothing" in result.stderr


def test_the_project_config_names_the_baseline_relative_to_itself(run, isolated):
    project = isolated / "project"
    project.mkdir()
    copy_fetch(project)
    (project / "toolcat.yaml").write_text(
        "catalogs: [fetch.yaml]\nlint:\n  baseline: accepted.yaml\n")
    run("lint", "-c", str(project / "fetch.yaml"), "--write-baseline",
        str(project / "accepted.yaml"))
    result = run("lint", "--strict", "-c", str(project / "fetch.yaml"))
    assert result.exit_code == 1  # toolcat.yaml is not found from here: nothing accepted
    os.chdir(project)
    assert run("lint", "--strict").exit_code == 0


@pytest.mark.parametrize("content, message", [
    ("version: 1\naccepted: [{rule: TC606}]\n", "accepted entry 1 needs `rule` and"),
    ("just text\n", "not a toolcat baseline"),
    ("version: 1\naccepted: [\n", "cannot read the baseline: invalid YAML"),
    ("version: 1\nversion: 1\naccepted: []\n", "'version' given twice"),
])
def test_a_broken_baseline_is_a_clean_error(run, isolated, content, message):
    catalog = copy_fetch(isolated)
    (isolated / "baseline.yaml").write_text(content)
    result = run("lint", str(catalog), "--baseline", "baseline.yaml")
    assert result.exit_code == 2 and message in result.stderr
    assert result.stderr.startswith("toolcat: error: baseline.yaml")
    assert result.stderr.count("\n") == 1


def test_a_missing_baseline_is_a_clean_error(run, isolated):
    result = run("lint", str(copy_fetch(isolated)), "--baseline", "nope.yaml")
    assert result.exit_code == 2 and "cannot read the baseline" in result.stderr


@pytest.mark.slow
def test_the_acceptance_survives_a_re_import_of_the_real_server(run, isolated):
    pytest.importorskip("mcp_server_fetch")
    command = ["--", sys.executable, "-m", "mcp_server_fetch"]
    assert run("import", "mcp", "-o", "fetch.yaml", "--timeout", "120", *command).exit_code == 0
    assert run("lint", "fetch.yaml", "--strict").exit_code == 1
    run("lint", "fetch.yaml", "--write-baseline", "baseline.yaml")
    assert run("import", "mcp", "-o", "fetch.yaml", "--timeout", "120", *command).exit_code == 0
    assert run("lint", "fetch.yaml", "--strict", "--baseline", "baseline.yaml").exit_code == 0
