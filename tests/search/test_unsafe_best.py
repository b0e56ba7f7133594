"""When the best fit of a request is a tool left out as unsafe, the cut measures the safe
tools against it, the same way in pick, serve's search and resolve's automatic search: a
safe tool that fits about as well is offered, one that fits far worse is not, and the
unsafe tool is named with how to allow it."""

from __future__ import annotations

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.resolution.profile import Profile
from toolcat.resolution.resolver import Resolver
from toolcat.search.pick import pick
from toolcat.serve.gate import Gate

SPRINTS = """
tools:
  - name: update_sprint
    description: Update the dates of a sprint of the board.
    safe: false
  - name: get_sprint_issues
    description: Get the issues of a sprint of the board, with their owners and its dates.
  - name: create_board
    description: Create a board for a project.
  - name: drop_table
    description: Drop a database table and every row in it.
    safe: false
  - name: list_tables
    description: List the tables of the database.
"""
BM25 = Profile(scorer="bm25")


@pytest.fixture(scope="module")
def sprints(tmp_path_factory):
    path = tmp_path_factory.mktemp("unsafe-best") / "sprints.yaml"
    path.write_text(SPRINTS)
    return load_catalog(path)


def test_pick_offers_a_safe_tool_that_fits_about_as_well_and_names_the_unsafe_best(sprints):
    result = pick("sprint dates of the board", sprints, scorer="bm25")
    assert result.best_unsafe is not None and result.best_unsafe.tool.name == "update_sprint"
    assert result.picks[0].tool.name == "get_sprint_issues"
    assert all(p.tool.safe for p in result.picks)
    assert "the best fit, sprints:update_sprint" in result.message
    assert "--allow-unsafe" in result.message
    assert result.to_json()["best_unsafe"]["name"] == "update_sprint"


def test_pick_offers_nothing_when_the_safe_tools_fit_far_worse_than_the_unsafe_best(sprints):
    result = pick("drop the table", sprints, scorer="bm25")
    assert result.picks == () and result.message.startswith("no safe tool fits")
    assert result.best_unsafe is not None and result.best_unsafe.tool.name == "drop_table"
    uncut = pick("drop the table", sprints, scorer="bm25", cut_off=False)
    assert uncut.picks == ()  # without the cut there is no measure of fit: none, as before


def test_serve_search_cuts_against_the_unsafe_best_and_names_it(sprints):
    gate = Gate(sprints, BM25)
    near = gate.search("sprint dates of the board").response
    assert near["tools"][0]["name"] == "get_sprint_issues"
    assert [t["name"] for t in near["left_out"]] == ["update_sprint"]
    far = gate.search("drop the table").response
    assert far["tools"] == [] and far["left_out"][0]["name"] == "drop_table"
    assert "--allow-unsafe" in far["message"]
    allowed = Gate(sprints, BM25, allow_unsafe=True).search("drop the table").response
    assert allowed["tools"][0]["name"] == "drop_table"


def test_resolve_automatic_search_cuts_against_the_unsafe_best(sprints):
    profile = Profile(scorer="bm25", builtins=("tool_search",))
    resolver = Resolver(sprints, profile)
    far = resolver.resolve("drop the table")
    assert far.verdict("list_tables").rule == "past-fit"
    assert far.verdict("drop_table").rule == "unsafe"
    near = resolver.resolve("sprint dates of the board")
    assert near.verdict("get_sprint_issues").rule == "auto-search-match"
