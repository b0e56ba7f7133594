"""Ranking on tools imported from real MCP servers (benchmarks/data/real-servers): a server's
name finds its tools, the cut leaves out what fits far worse, and the request set runs
through `toolcat bench` with the default scorer ahead of bm25. The data itself holds together:
every label names a tool of its half, and SOURCE.md's table counts each half's tools."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.search.cut import fit
from toolcat.search.pick import pick

REAL = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
DEV = REAL / "dev-catalog.json"
pytestmark = pytest.mark.skipif(not DEV.exists(), reason="the real-server set is absent")


HALVES = ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
          "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
          "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21")


@pytest.mark.parametrize("half", HALVES)
def test_every_label_of_a_request_names_exactly_one_tool_of_its_half(half):
    catalog = load_catalog(REAL / f"{half}-catalog.json")
    names = Counter(t.name for t in catalog.tools)
    qualified = {t.qualified_name for t in catalog.tools}
    lines = (REAL / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines if line.strip()]
    assert len({item["id"] for item in items}) == len(items)
    for item in items:
        labels = [*item.get("relevant", []),
                  *(label for group in item.get("relevant_groups", []) for label in group)]
        assert item["query"].strip() and labels, item["id"]
        for label in labels:
            found = label in qualified if ":" in label else names[label] == 1
            assert found, (item["id"], label)


@pytest.mark.parametrize("half", HALVES)
def test_source_md_counts_the_tools_of_every_server_of_a_half(half):
    rows = re.findall(rf"^\| {half} \| (\d*[a-z][\w-]*) \|.*\| (\d+) \|$",
                      (REAL / "SOURCE.md").read_text(encoding="utf-8"), re.MULTILINE)
    tools = Counter(t.server for t in load_catalog(REAL / f"{half}-catalog.json").tools)
    assert {server: int(count) for server, count in rows} == dict(tools)


def test_a_server_name_finds_its_tools_even_when_their_text_never_says_it(run):
    # postgres's one tool is "query: Run a read-only SQL query"
    result = run("search", "postgres", "-c", str(DEV), "--scorer", "bm25", "--json")
    assert result.exit_code == 0, result.output
    tools = json.loads(result.output)["tools"]
    assert tools and tools[0]["server"] == "postgres"


def test_a_server_name_finds_every_tool_of_the_server(run):
    result = run("search", "slack", "-c", str(DEV), "--scorer", "bm25", "--limit", "8",
                 "--json")
    assert result.exit_code == 0, result.output
    assert {t["server"] for t in json.loads(result.output)["tools"]} == {"slack"}


def test_the_cut_keeps_the_first_and_what_fits_about_as_well():
    assert fit([]) == 0
    assert fit([0.3]) == 1
    assert fit([0.9, 0.85, 0.8, 0.2, 0.19]) == 3  # odds 9, 5.7, 4, then 0.25: the fit ends
    assert fit([0.5, 0.5, 0.5]) == 3  # ties are all kept
    assert fit([1.0, 0.999]) == 2  # a perfect score does not cut every other tool


def test_pick_leaves_out_the_tools_past_the_fit_on_a_real_catalog():
    catalog = load_catalog(DEV)
    query = "convert 3pm New York time to Berlin time"
    cut = pick(query, catalog, max_candidates=5, scorer="bm25", allow_unsafe=True)
    whole = pick(query, catalog, max_candidates=5, scorer="bm25", allow_unsafe=True,
                 cut_off=False)
    assert cut.picks[0].tool.name == "convert_time"
    assert len(whole.picks) == 5
    assert 1 <= len(cut.picks) < 5
    assert cut.tools == whole.tools[:len(cut.picks)]
    assert list(cut.past_fit) == [t.qualified_name for t in whole.tools[len(cut.picks):]]
    assert cut.to_json()["past_fit"] == list(cut.past_fit)
    assert "left out by the cut" in cut.message


def test_pick_no_cut_on_the_command_line(run):
    args = ("pick", "take a screenshot of the page", "-c", str(DEV), "--scorer", "bm25",
            "-k", "5", "--allow-unsafe", "--json")
    cut = json.loads(run(*args).output)
    whole = json.loads(run(*args, "--no-cut").output)
    assert whole["cut_off"] is False and len(whole["picks"]) == 5 and not whole["past_fit"]
    assert cut["cut_off"] is True and len(cut["picks"]) + len(cut["past_fit"]) == 5


@pytest.mark.semantic
@pytest.mark.timeout(1200)  # encodes the tools once, on a CPU shared with other tests
@pytest.mark.usefixtures("shared_cache")
# heldout, and thirteen: issue 37's own servers with requests written before any result
@pytest.mark.parametrize("half", ["heldout", "thirteen"])
def test_the_held_out_requests_rank_better_with_the_default_than_with_bm25(run, half):
    result = run("bench", "-c", str(REAL / f"{half}-catalog.json"), "-q",
                 str(REAL / f"{half}-queries.jsonl"), "-s", "bm25,hybrid", "-k", "1,5",
                 "--json")
    assert result.exit_code == 0, result.output
    metrics = {s["name"]: s["metrics"] for s in json.loads(result.output)["scorers"]}
    for metric in ("hit@1", "recall@5", "ndcg@5", "mrr"):
        assert metrics["hybrid"][metric] > metrics["bm25"][metric], metric
    assert metrics["hybrid"]["recall@5"] >= 0.85


def test_thirteen_is_the_thirteen_servers_as_the_other_halves_hold_them():
    """thirteen's catalog is derived (benchmarks/data/real-servers/SOURCE.md): every tool of
    its servers, as dev, heldout and fresh hold them, and nothing else."""
    taken = {"dev": {"gitlab", "kubernetes", "desktop-commander", "slack", "postgres",
                     "puppeteer", "context7", "duckduckgo"},
             "heldout": {"atlassian", "circleci", "chrome-devtools", "markitdown"},
             "fresh": {"azure-devops"}}
    expected = [tool for half, servers in taken.items()
                for tool in json.loads((REAL / f"{half}-catalog.json").read_text())["tools"]
                if tool.get("server") in servers]
    thirteen = json.loads((REAL / "thirteen-catalog.json").read_text())["tools"]
    assert thirteen == expected
