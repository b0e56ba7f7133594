"""An initialism the user typed for words the catalog's tool names spell out
(toolcat.search.initialisms). Model-free, but for the last tests, which rank and pick over
real catalogs of benchmarks/data/real-servers with the real model; the requests are ours, not
a half's."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.conftest import servers_of
from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.initialisms import Initialisms, Names, typed

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.fixture(scope="module")
def code_review() -> list[Tool]:
    """Backlog, Codacy and git of the fresh5 half: pull requests in names and descriptions,
    and no tool that says "PR"."""
    return [t for t in load_catalog(DATA / "fresh5-catalog.json").tools
            if t.server in {"backlog", "codacy", "git"}]


@pytest.fixture(scope="module")
def books() -> list[Tool]:
    """Tally, Square and Paystack of the fresh20 half: `get_profit_and_loss` says "Profit &
    Loss"."""
    return [t for t in load_catalog(DATA / "fresh20-catalog.json").tools
            if t.server in {"tally", "square", "paystack"}]


def read(tools: list[Tool], request: str) -> dict[str, list[str]]:
    return {written: [reading for reading, _ in targets]
            for written, targets in Initialisms(BM25Scorer(tools)).readings(request)}


def test_what_is_an_initialism() -> None:
    assert [w for w, _, _ in typed("P&L for last month")] == ["P&L"]
    assert [w for w, _, _ in typed("M & A deals this year")] == ["M & A"]
    assert [(w, letters) for w, letters, _ in typed("open PRs in the api repo")] == [
        ("PRs", "pr")]
    # an identifier's prefix, and a request written wholly in capitals, are not
    assert typed("what's the status of ENG-412") == []
    assert typed("DELETE THE USER NOW") == []


def test_a_names_words_are_spelled_in_runs() -> None:
    names = Names(["get_profit_and_loss", "getPullRequests", "list_pull_request_issues",
                   "get_b2b_report"])
    assert list(names.runs("pl")) == [("profit", "and", "loss")]
    assert names.runs("pr") == {("pull", "requests"): 1, ("pull", "request"): 1}
    assert names.runs("lpri") == {("list", "pull", "request", "issues"): 1}
    assert not names.runs("gb") and not names.runs("br")  # "b2b" is no word


def test_an_initialism_is_read_as_the_phrase_the_catalog_uses(
        code_review: list[Tool], books: list[Tool]) -> None:
    assert read(code_review, "which PRs are still waiting for a review")["PRs"][0] == \
        "pull request"
    assert read(books, "P&L for last month") == {"P&L": ["profit and loss"]}


def test_words_a_name_only_strings_together_are_not_read() -> None:
    # "B I" is spelled by build_id's words, but no description uses "build id" MIN_USES times
    tools = [Tool(name="get_build_id", description="Return the build id of a job."),
             Tool(name="list_jobs", description="List the jobs.")]
    assert read(tools, "read-only login for the BI team") == {}
    # "&" stands for "and": a name's two words a description never joins by it are no reading
    assert read([Tool(name="pages_list", description="List the pages of a site.")],
                "P&L please") == {}


def test_an_initialism_the_catalog_states_is_read_as_typed(code_review: list[Tool]) -> None:
    tools = [*code_review, Tool(name="create_pr", description="Open a PR.")]
    assert read(tools, "open a PR from my branch") == {}


def test_a_hostile_request_costs_linear_time(books: list[Tool]) -> None:
    initialisms = Initialisms(BM25Scorer(books))
    start = time.process_time()
    initialisms.readings("P&L " * 100_000 + "pl")
    initialisms.readings("AB CD " * 100_000 + "x")
    assert time.process_time() - start < 5


@pytest.mark.semantic
def test_the_tool_an_initialism_names_is_found_and_explained(books: list[Tool]) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", books), "P&L for the last quarter", limit=3)
    assert found[0].tool.name == "get_profit_and_loss"
    assert "P&L -> profit and loss" in found[0].reason


@pytest.mark.semantic
def test_pick_does_not_turn_an_initialism_away_as_small_talk(
        run: Callable[..., Result], tmp_path: Path) -> None:
    # without the reading the model put "P&L ..." nearer to small talk than to any tool
    catalog = servers_of(DATA / "fresh20-catalog.json", ("tally", "paystack"), tmp_path)
    result = run("pick", "-c", str(catalog), "--json", "P&L for FY 24-25")
    assert result.exit_code == 0, result.output
    picked = json.loads(result.output)
    assert picked["fits"]
    assert picked["picks"][0]["name"] == "get_profit_and_loss"
