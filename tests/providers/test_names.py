"""Wire names: a name two servers share goes out as `server__tool`, a name the provider
rejects is sanitized, and check-call maps both back to the right tool."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import DATA
from toolcat.model import Tool
from toolcat.providers import PROVIDERS
from toolcat.providers.names import ANY_NAME, name_map

HARD = str(DATA / "providers" / "hard.yaml")
OPENAI = PROVIDERS["openai"].limits.names
GEMINI = PROVIDERS["gemini"].limits.names


def tools(*qualified: str) -> list[Tool]:
    return [Tool(name=q.split(":", 1)[1], server=q.split(":", 1)[0]) for q in qualified]


def test_only_shared_names_get_their_server_in_front():
    names = name_map(tools("github:search", "jira:search", "jira:create_issue"), OPENAI)
    wired = {t.qualified_name: names.wire(t) for t in names.by_wire.values()}
    assert wired == {"github:search": "github__search", "jira:search": "jira__search",
                     "jira:create_issue": "create_issue"}
    assert names.tool("jira__search").qualified_name == "jira:search"


def test_always_prefixes_every_tool_of_a_server():
    names = name_map(tools("jira:create_issue"), OPENAI, "always")
    assert names.wire(tools("jira:create_issue")[0]) == "jira__create_issue"


def test_names_do_not_depend_on_the_order_of_the_tools():
    listed = tools("a:Math.sum", "b:Math_sum", "a:x", "b:search", "c:search")
    forward = name_map(listed, OPENAI)
    backward = name_map(list(reversed(listed)), OPENAI)
    assert dict(forward.by_tool) == dict(backward.by_tool)


def test_a_sanitized_name_never_takes_another_tools_name():
    names = name_map(tools("a:Math.sum", "a:Math_sum"), OPENAI)
    dotted, plain = names.wire(tools("a:Math.sum")[0]), names.wire(tools("a:Math_sum")[0])
    assert plain == "Math_sum"
    assert re.fullmatch(r"Math_sum_[0-9a-f]{8}", dotted)


def test_each_provider_rule_is_kept():
    long = "x" * 70
    listed = tools("s:Math.sum", "s:list repos", f"s:{long}", "s:9lives")
    openai = name_map(listed, OPENAI)
    gemini = name_map(listed, GEMINI)
    assert [openai.wire(t) for t in listed][:2] == ["Math_sum", "list_repos"]
    assert all(OPENAI.accepts(openai.wire(t)) for t in listed)
    assert len(openai.wire(listed[2])) == 64
    assert gemini.wire(listed[0]) == "Math.sum"  # Gemini allows dots
    assert gemini.wire(listed[3]) == "_9lives"  # but a letter or _ first
    assert name_map(listed, ANY_NAME).wire(listed[1]) == "list repos"


def response(*calls: tuple[str, dict]) -> str:
    return json.dumps({"choices": [{"message": {"tool_calls": [
        {"id": f"call_{i}", "type": "function",
         "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(calls)]}}]})


def show_all(folder) -> str:
    """A profile in normal mode: every tool is in the request, whatever the query."""
    path = folder / "show-all.yaml"
    path.write_text("name: show-all\nmodel: {name: any, tool_calling: true, size_b: 70}\n"
                    "mcp: {defer: false}\n")
    return str(path)


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_render_and_check_call_round_trip_through_the_cli(run, tmp_path):
    result = run("render", "search jira issues", "-c", HARD, "--provider", "openai", "--json",
                 "-p", show_all(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    sent = {t["function"]["name"] for t in data["payload"]["tools"]}
    assert {"github__search", "jira__search", "Math_sum"} <= sent
    assert "search" not in sent and "Math.sum" not in sent
    assert data["names"]["jira:search"] == "jira__search"
    (tmp_path / "reply.json").write_text(response(
        ("jira__search", {"jql": "project = OPS"}),
        ("Math_sum", {"nums": [1, 2], "target": 3}),
        ("github__read_file", {"path": "README.md"})))
    checked = run("check-call", str(tmp_path / "reply.json"), "--provider", "openai",
                  "-c", HARD, "--json")
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    assert [c["tool"] for c in report["calls"]] == ["jira:search", "jira:Math.sum",
                                                    "github:read_file"]
    assert all(c["accepted"] for c in report["calls"])


def test_a_prefixed_call_is_validated_against_its_own_servers_schema(run, tmp_path):
    (tmp_path / "reply.json").write_text(response(("github__search", {"jql": "x"})))
    checked = run("check-call", str(tmp_path / "reply.json"), "--provider", "openai",
                  "-c", HARD, "--json")
    assert checked.exit_code == 1
    call = json.loads(checked.stdout)["calls"][0]
    assert call["tool"] == "github:search"
    assert '"query" is a required property' in call["errors"][0]["message"]


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_render_prints_one_line_per_kind_of_note_and_every_note_with_verbose(run):
    short = run("render", "search jira issues", "-c", HARD, "--provider", "gemini")
    full = run("render", "search jira issues", "-c", HARD, "--provider", "gemini", "-v")
    assert short.exit_code == full.exit_code == 0
    assert "tool names changed for Google Gemini (check-call maps them back): 5 tools" \
        in short.stderr
    assert full.stderr.count("\n") > short.stderr.count("\n")
    assert "jira:read_file is sent as 'jira__read_file'" in full.stderr


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_text_prompt_prefixes_shared_names_and_check_call_reads_them_back(run, tmp_path):
    prompt = run("render", "search jira issues", "-c", HARD, "-f", "hermes",
                 "-p", show_all(tmp_path)).stdout
    assert '"name": "jira__search"' in prompt and '"name": "Math.sum"' in prompt
    (tmp_path / "completion.txt").write_text(
        '<tool_call>\n{"name": "jira__search", "arguments": {"jql": "project = OPS"}}\n'
        '</tool_call>')
    checked = run("check-call", str(tmp_path / "completion.txt"), "-f", "hermes", "-c", HARD,
                  "--json")
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout)["calls"][0]["tool"] == "jira:search"


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_project_can_prefix_every_tool(run, tmp_path):
    from pathlib import Path

    Path("toolcat.yaml").write_text("names: {prefix: always}\n")
    data = json.loads(run("render", "create a jira issue", "-c", HARD, "--provider", "openai",
                          "--json").stdout)
    sent = {t["function"]["name"] for t in data["payload"]["tools"]}
    assert "jira__create_issue" in sent and "create_issue" not in sent
    (tmp_path / "reply.json").write_text(response(
        ("jira__create_issue", {"fields": {"summary": "Broken build"}})))
    checked = run("check-call", str(tmp_path / "reply.json"), "--provider", "openai",
                  "-c", HARD, "--json")
    assert json.loads(checked.stdout)["calls"][0]["tool"] == "jira:create_issue"
    Path("toolcat.yaml").write_text("names: {prefix: sometimes}\n")
    wrong = run("render", "x", "-c", HARD, "--provider", "openai")
    assert wrong.exit_code == 2
    assert "'names.prefix' must be one of collisions, always" in wrong.stderr
