"""The seeds' advice surfaced: the "30+ tools: tool search mode" and the "over 20
tools pick, under 10 skip", in `toolcat stats` and in resolve's trace."""

from __future__ import annotations

import json

import pytest


def catalog(write, count: int) -> str:
    tools = "".join(f"  - name: tool_{i}\n    description: Do task number {i} well.\n"
                    f"    parameters: {{type: object, properties: {{}}}}\n"
                    for i in range(count))
    return str(write("tools:\n" + tools, f"c{count}.yaml"))


@pytest.mark.parametrize(("count", "key"), [
    (1, "show-all"), (9, "show-all"), (10, "pick-optional"), (20, "pick-optional"),
    (21, "pick"), (29, "pick"), (30, "tool-search"), (72, "tool-search")])
def test_stats_advises_by_the_seeds_thresholds(run, write, count, key):
    path = catalog(write, count)
    data = json.loads(run("stats", "-c", path, "--json").stdout)
    assert data["advice"]["key"] == key
    text = run("stats", "-c", path).stdout
    assert f"advice: {count} tool" in text


def test_the_advice_names_the_seeds(run, write):
    big = run("stats", "-c", catalog(write, 30)).stdout
    assert "use tool search mode" in big and "toolcat pick" in big
    small = run("stats", "-c", catalog(write, 5)).stdout
    assert "under 10, show them all (normal mode; picking per request gains nothing" in small


def test_resolve_advises_tool_search_mode_when_30_tools_are_shown_at_once(run, write):
    path = catalog(write, 31)
    normal = write("scorer: bm25\nmcp: {defer: false}\n")
    data = json.loads(run("resolve", "task", "-c", path, "-p", str(normal), "--json").stdout)
    advice = [n for n in data["trace"]["children"] if n["subject"] == "advice"]
    assert [(n["outcome"], n["rule"]) for n in advice] == [("tool search mode",
                                                            "advice-tool-search")]
    assert advice[0]["reason"].startswith("31 catalog tools shown at once")
    searching = write("scorer: bm25\n", "searching.yaml")  # the automatic search: 10 at most
    data = json.loads(run("resolve", "task", "-c", path, "-p", str(searching), "--json").stdout)
    assert not [n for n in data["trace"]["children"] if n["subject"] == "advice"]
    few = catalog(write, 29)
    data = json.loads(run("resolve", "task", "-c", few, "-p", str(normal), "--json").stdout)
    assert not [n for n in data["trace"]["children"] if n["subject"] == "advice"]


def test_resolve_text_names_at_most_a_line_of_tools_per_group(run, write):
    """A large catalog defers thousands of tools: the text trace names the first few of each
    group and counts the rest; --json keeps every one."""
    path = catalog(write, 300)
    profile = write("scorer: bm25\n", "lexical.yaml")
    text = " ".join(run("resolve", "task", "-c", path, "-p", str(profile)).stdout.split())
    assert "deferred (300)" in text
    assert "via tool_search: tool_0, tool_1," in text
    assert "tool_39, … and 260 more (--json lists all)" in text
    assert "tool_299" not in text
    data = json.loads(run("resolve", "task", "-c", path, "-p", str(profile), "--json").stdout)
    assert len(data["deferred"]) == 300
