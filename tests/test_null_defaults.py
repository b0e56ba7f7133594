"""pydantic's `Optional[X] = None`, as servers such as mcp-atlassian list it:
`{"type": "string", "default": null}`. The server accepts null there (it means "not given"),
so `check-call` accepts it too, while a null elsewhere, or a wrong type, is still refused; and
`lint` does not call such a default a contradiction (it had 104 errors on mcp-atlassian)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SEARCH = {
    "name": "jira_search",
    "description": "Search Jira issues with JQL and return the matching issues.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "jql": {"type": "string", "description": "JQL query string."},
            "fields": {"type": "string", "default": None,
                       "description": "Comma-separated fields to return."},
            "limit": {"type": "integer", "default": 10, "minimum": 1,
                      "description": "Maximum number of results."},
            "page": {"type": "object", "default": None, "description": "Paging.",
                     "properties": {"cursor": {"type": "string", "default": None,
                                               "description": "Cursor of the next page."}}},
        },
        "required": ["jql"],
    },
}


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    path = tmp_path / "atlassian.json"
    path.write_text(json.dumps({"tools": [SEARCH]}, indent=2), encoding="utf-8")
    return path


def response(tmp_path: Path, arguments: dict) -> Path:
    path = tmp_path / "response.json"
    path.write_text(json.dumps({"content": [{"type": "tool_use", "id": "c1",
                                             "name": "jira_search", "input": arguments}]}))
    return path


@pytest.mark.parametrize("arguments", [
    {"jql": "project = OPS", "fields": None},
    {"jql": "project = OPS", "fields": None, "page": None},
    {"jql": "project = OPS", "page": {"cursor": None}},
])
def test_check_call_accepts_null_where_the_default_is_null(run, catalog, tmp_path,
                                                           arguments):
    result = run("check-call", str(response(tmp_path, arguments)), "--provider", "anthropic",
                 "-c", str(catalog), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["calls"][0]["accepted"] is True


@pytest.mark.parametrize(("arguments", "pointer"), [
    ({"jql": None}, "/jql"),  # required, no null default
    ({"jql": "x", "limit": None}, "/limit"),  # a default that is not null
    ({"jql": "x", "fields": 5}, "/fields"),  # not null: the type still applies
])
def test_check_call_still_refuses_other_nulls_and_wrong_types(run, catalog, tmp_path,
                                                              arguments, pointer):
    result = run("check-call", str(response(tmp_path, arguments)), "--provider", "anthropic",
                 "-c", str(catalog), "--json")
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["calls"][0]["errors"]
    assert [e["pointer"] for e in errors] == [pointer]


def test_lint_does_not_report_a_null_default(run, catalog):
    result = run("lint", str(catalog), "--json")
    findings = json.loads(result.stdout)["findings"]
    assert [f for f in findings if f["rule"] == "TC104"] == []
