"""Lint on files as real servers write them (tests/data/real, sources in SOURCE.md): what a
model sees, each cause once, and errors only for what is clearly an attack."""

from __future__ import annotations

import json

from tests.conftest import DATA

REAL = DATA / "real"


def findings(run, *args: str) -> list[dict]:
    result = run("lint", *args, "--json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)["findings"]


def test_undocumented_properties_of_copied_definitions_are_reported_once(run):
    found = [f for f in findings(run, "-c", str(REAL / "notion_style.json"))
             if f["rule"] == "TC303"]
    # richTextRequest is reached by no $ref: no argument comes from it; propertyFilter is
    # used by both tools, copied into each: one finding, in the first
    assert [(f["tool"], f["message"]) for f in found] == [
        ("API-retrieve-a-page", "parameter 'propertyFilter.ids' has no description (the same "
                                "definition is in 1 other tool)")]
