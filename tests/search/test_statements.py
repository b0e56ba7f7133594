"""A statement in a query language pasted into a request (SQL, PromQL, LogQL, JQL, Cypher,
SPL) is evidence for the tools that take one in that language, and its identifiers are values,
not words about what is asked; so are pasted source code and a stack trace, for the tools
that run code and those that read crashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, real_part
from toolcat.search.statements import languages, without_statements

REAL = REPO / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_text", "language"), [
    ('rate(http_requests_total{job="api",status=~"5.."}[5m]) over the last hour', "promql"),
    ("SELECT count(*) FROM users on my neon db", "sql"),
    ("select id, name from customers where country = 'NO'", "sql"),
    ('{app="web"} |= "timeout"', "logql"),
    ('project = PROJ AND status = "In Progress" ORDER BY created', "jql"),
    ("MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name", "cypher"),
    ("index=web sourcetype=access_combined | top limit=10 clientip", "spl"),
    ("| tstats count where index=main by sourcetype", "spl"),
    ("what does len(str(2**100)) come out as", "code"),
    ("does 'a,b,,c'.split(',') keep the empty one?", "code"),
    ("what does [3, 1, 2].map(x => x * 2) give", "code"),
    ("def double(x): return x * 2 -- what is double(4)?", "code"),
    ("users keep hitting java.lang.IllegalStateException in the app", "trace"),
    ("at org.example.cart.Cart.total(Cart.java:88) again, since the release", "trace"),
    ('File "/srv/app/main.py", line 12, in handler', "trace"),
    ("TypeError: Cannot read properties of undefined (reading 'id')", "trace"),
    ("at render (/app/src/view.js:14:7) after the deploy", "trace"),
])
def test_a_statement_is_recognised_by_its_syntax(request_text, language):
    assert languages(request_text) == {language}


@pytest.mark.parametrize("request_text", [
    "select the rows from the sheet", "select name from the list", "match the colours",
    "update the status and set a reminder", "status = open and assigned to me",
    "delete the old file from the drive",
    "what's the weather (in Oslo) today", "call me (maybe) tomorrow", "e.g. the notes.txt file",
    "rate it => 5 stars", "compare v1.2 and v1.3", "the index is slow | help",
    "show me the error log of the checkout service", "index = 3 in the list",
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


def test_calls_inside_a_statement_are_its_language_not_code():
    assert languages("SELECT max(length(name)) FROM customers") == {"sql"}


def test_pasted_code_and_traces_leave_the_words_about_them():
    assert without_statements("run this and tell me what it prints: print(sum(range(4)))") \
        == "run this and tell me what it prints:"
    assert without_statements("java.lang.NullPointerException at a.b.C.run(C.java:3) - since when?"
                              ) == "- since when?"


def _first(run, catalog: str | Path, request: str) -> dict:
    result = run("pick", "-c", str(REAL / catalog), request, "--explain", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["picks"][0]


@pytest.mark.semantic
def test_pasted_javascript_picks_the_tool_that_runs_it(run, shared_cache):
    """The request's words (`title`, `case`) are anyone's; the call on a name says code, and
    puppeteer's `puppeteer_evaluate` takes a script it describes as JavaScript."""
    first = _first(run, "dev-catalog.json",
                   "what does document.title.toLowerCase() give on the page that's open")
    # "open" is in `open_nodes`' name: the code outweighs a word the request has left
    assert first["name"] == "puppeteer_evaluate"
    assert "it takes code, which the request pastes" in first["reason"]


@pytest.mark.semantic
def test_a_pasted_stack_trace_picks_the_tools_that_read_crashes(run, shared_cache):
    first = _first(run, "fresh2-catalog.json",
                   "java.lang.IllegalStateException at com.example.notes.MainActivity.onCreate"
                   "(MainActivity.java:42) on the test phone, what happened")
    assert first["name"] in {"mobile_list_crashes", "mobile_get_crash", "mobile_get_device_logs"}
    assert "a stack trace" in first["reason"]


@pytest.mark.semantic
def test_a_pasted_spl_search_picks_splunks_search(run, shared_cache, tmp_path):
    first = _first(run, real_part("fresh11", tmp_path),
                   "sourcetype=access_combined status=404 | top limit=20 uri_path")
    assert first["name"] in {"search_splunk", "search_async", "search_realtime",
                             "export_search_results"}
    assert "takes a statement in the language" in first["reason"]
