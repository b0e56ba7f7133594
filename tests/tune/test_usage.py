"""What `toolcat tune` learns from: labeled sets, call logs, chat transcripts, and the example
requests authors write on tools, read from every shape that can hold them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.errors import CatalogError, ConfigError
from toolcat.tune import read_sources
from toolcat.tune.usage import example_usage, read_usage


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


def names(catalog, request) -> list[list[str]]:
    return [[catalog.tools[i].name for i in group] for group in request.groups]


def write_lines(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_call_log_gives_each_query_the_tools_it_called(demo, tmp_path):
    log = write_lines(tmp_path / "calls.jsonl", [
        {"query": "is it raining in Oslo", "called": ["get_weather"]},
        {"query": "forecast then mail it", "called": ["weather_forecast", "send_email"]},
        {"query": "use the old tool", "called": ["retired_tool"]},
    ])
    usage = read_usage(log, demo)
    assert [(r.text, names(demo, r), r.kind) for r in usage.requests] == [
        ("is it raining in Oslo", [["get_weather"]], "log"),
        ("forecast then mail it", [["weather_forecast"], ["send_email"]], "log")]
    assert usage.unknown == {"retired_tool": 1}


def test_a_malformed_call_log_line_is_named_by_file_and_line(demo, tmp_path):
    log = write_lines(tmp_path / "calls.jsonl", [
        {"query": "fine", "called": ["get_weather"]}, {"query": "bad", "called": "get_weather"}])
    with pytest.raises(ConfigError) as caught:
        read_usage(log, demo)
    assert str(caught.value).startswith(f"{log}:2:")
    assert "'called' must be a list of tool names" in str(caught.value)


def test_a_call_log_says_which_offered_tools_were_not_called(demo, tmp_path, run):
    log = write_lines(tmp_path / "calls.jsonl", [
        {"query": "is it raining in Oslo", "called": ["get_weather"],
         "shown": ["get_weather", "send_email", "weather_forecast"]},
        {"query": "mail the report", "called": ["send_email"]},
    ])
    usage = read_usage(log, demo)
    declined = [[demo.tools[i].name for i in r.declined] for r in usage.requests]
    assert declined == [["send_email", "weather_forecast"], []]
    bad = write_lines(tmp_path / "bad.jsonl", [
        {"query": "fine", "called": ["get_weather"], "shown": ["get_weather"]},
        {"query": "bad", "called": ["get_weather"], "shown": "send_email"}])
    result = run("tune", "-c", str(CATALOGS), "-q", str(bad), "-o", str(tmp_path / "t.json"))
    assert result.exit_code == 2
    assert f"{bad}:2:" in result.output and "'shown' must be a list of tool names" \
        in result.output
    assert "Traceback" not in result.output


def test_transcripts_take_the_user_message_before_the_tool_calls(demo, tmp_path):
    conversation = {"messages": [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "what's the weather in Lisbon?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
        {"role": "user", "content": [{"type": "text", "text": "mail that to Ana"}]},
        {"role": "assistant", "function_call": {"name": "send_email", "arguments": "{}"}},
        {"role": "user", "content": "thanks!"},
        {"role": "assistant", "content": "You're welcome."},
    ]}
    one_per_line = write_lines(tmp_path / "chats.jsonl", [conversation, conversation])
    single = tmp_path / "chat.json"
    single.write_text(json.dumps(conversation["messages"]), encoding="utf-8")
    for path, count in ((one_per_line, 2), (single, 1)):
        usage = read_usage(path, demo)
        expected = [("what's the weather in Lisbon?", [["get_weather"]]),
                    ("mail that to Ana", [["send_email"]])] * count
        assert [(r.text, names(demo, r)) for r in usage.requests] == expected
        assert {r.kind for r in usage.requests} == {"transcript"}


def test_a_labeled_query_set_is_read_as_bench_reads_it(demo, tmp_path):
    queries = tmp_path / "queries.yaml"
    queries.write_text("- {id: a, query: open a PR, relevant: [create_pull_request]}\n"
                       "- {id: b, query: sing a song, relevant: []}\n", encoding="utf-8")
    usage = read_usage(queries, demo)
    assert [(r.text, names(demo, r), r.kind) for r in usage.requests] == [
        ("open a PR", [["create_pull_request"]], "labeled"), ("sing a song", [], "labeled")]
    assert len(read_usage(CATALOGS / "demo-queries.jsonl", demo).requests) == 109


def test_wire_names_with_a_server_prefix_are_found(demo, tmp_path):
    log = write_lines(tmp_path / "calls.jsonl",
                      [{"query": "open a PR", "called": ["github__create_pull_request"]}])
    assert names(demo, read_usage(log, demo).requests[0]) == [["create_pull_request"]]


def test_example_requests_are_read_from_every_shape_that_can_hold_them(tmp_path):
    (tmp_path / "own.yaml").write_text(
        "tools:\n- name: file_ticket\n  description: Create an issue.\n"
        "  example_requests: [raise a jira for the login bug]\n", encoding="utf-8")
    (tmp_path / "openai.json").write_text(json.dumps({"tools": [{
        "type": "function", "function": {
            "name": "page_oncall", "description": "Page someone.",
            "parameters": {"type": "object", "properties": {}},
            "x-example-requests": ["wake up whoever is on call"]}}]}), encoding="utf-8")
    (tmp_path / "mcp.json").write_text(json.dumps({"tools": [{
        "name": "rollback", "description": "Roll back a deploy.",
        "inputSchema": {"type": "object"},
        "_meta": {"io.toolcat/example_requests": ["undo the last release"]}}]}),
        encoding="utf-8")
    catalog = load_catalog(tmp_path)
    found = {t.name: t.example_requests for t in catalog.tools}
    assert found == {"file_ticket": ("raise a jira for the login bug",),
                     "page_oncall": ("wake up whoever is on call",),
                     "rollback": ("undo the last release",)}
    usage = example_usage(catalog)
    assert {(r.text, catalog.tools[r.tools[0]].name, r.kind) for r in usage.requests} == {
        ("raise a jira for the login bug", "file_ticket", "example"),
        ("wake up whoever is on call", "page_oncall", "example"),
        ("undo the last release", "rollback", "example")}
    assert len(read_sources(catalog, []).requests) == 3


def test_example_requests_of_the_wrong_type_are_an_error_at_their_key(tmp_path):
    bad = tmp_path / "tools.json"
    bad.write_text(json.dumps({"tools": [{"name": "x", "description": "y",
                                          "inputSchema": {"type": "object"},
                                          "x-example-requests": [1, 2]}]}), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(bad)
    assert str(caught.value).startswith(f"{bad}:")
    assert "must be a list of requests" in str(caught.value)


@pytest.mark.parametrize("beside", ["", "  _meta: {other: 1}\n"], ids=["alone", "beside-meta"])
def test_example_requests_survive_a_round_trip_through_the_toolcat_shape(run, tmp_path, beside):
    # a `_meta` without toolcat's key must not be taken for where the requests are kept
    (tmp_path / "own.yaml").write_text(
        "tools:\n- name: file_ticket\n  description: Create an issue.\n"
        "  example_requests: [raise a jira]\n" + beside, encoding="utf-8")
    result = run("convert", "-c", str(tmp_path / "own.yaml"), "--to", "toolcat")
    assert result.exit_code == 0, result.output
    back = tmp_path / "back.yaml"
    back.write_text(result.stdout, encoding="utf-8")
    assert load_catalog(back).tools[0].example_requests == ("raise a jira",)
