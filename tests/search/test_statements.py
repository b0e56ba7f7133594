"""A statement in a query language pasted into a request (SQL, PromQL, LogQL, JQL, Cypher)
is evidence for the tools that take one in that language, and its identifiers are values,
not words about what is asked."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from toolcat.search.statements import languages, without_statements

REAL = REPO / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_text", "language"), [
    ('rate(http_requests_total{job="api",status=~"5.."}[5m]) over the last hour', "promql"),
    ("SELECT count(*) FROM users on my neon db", "sql"),
    ("select id, name from customers where country = 'NO'", "sql"),
    ('{app="web"} |= "timeout"', "logql"),
    ('project = PROJ AND status = "In Progress" ORDER BY created', "jql"),
    ("MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name", "cypher"),
])
def test_a_statement_is_recognised_by_its_syntax(request_text, language):
    assert languages(request_text) == {language}


@pytest.mark.parametrize("request_text", [
    "select the rows from the sheet", "select name from the list", "match the colours",
    "update the status and set a reminder", "status = open and assigned to me",
    "delete the old file from the drive",
])
def test_prose_is_no_statement(request_text):
    assert languages(request_text) == set()
    assert without_statements(request_text) == request_text


def test_a_statements_words_are_left_out_and_the_rest_kept():
    assert without_statements("SELECT count(*) FROM users on my neon db") == "on my neon db"


@pytest.mark.semantic
def test_a_pasted_promql_expression_picks_the_tool_that_takes_promql(run, shared_cache):
    """Its identifiers (`job`, `status`) put Jenkins' `list_jobs` first; the expression's form
    says Grafana's `query_prometheus` (`expr`: "The PromQL expression to query")."""
    result = run("pick", "-c", str(REAL / "fresh2-catalog.json"),
                 'rate(http_requests_total{job="api",status=~"5.."}[5m]) over the last hour',
                 "--explain", "--json")
    assert result.exit_code == 0, result.output
    first = json.loads(result.stdout)["picks"][0]
    assert first["name"] == "query_prometheus"
    assert "takes a statement in the language" in first["reason"]
