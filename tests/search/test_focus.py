"""What a request asks for apart from its modifiers (toolcat.search.focus): the head a hybrid
embeds too, and the tools whose name acts on a word an order says only as where or about what.
Model-free, but for the last test, which ranks a real server's tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.model import Tool
from toolcat.search.focus import ASIDE, MAX_CHARS, Focus, name_object, read
from toolcat.search.text import stem

DEV = (Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
       / "dev-catalog.json")


def test_an_order_asks_for_its_object_and_names_the_rest_as_where():
    found = read("add an item 'Vendor onboarding' to the Procurement board")
    assert found.head == "add an item 'Vendor onboarding'"
    assert found.asked == {"add", "item"}
    assert found.aside == {stem("procurement"), "board"}


def test_of_stays_in_the_phrase_and_a_word_said_in_both_is_asked():
    found = read("set the status of item 4412 to Done")
    assert found.head == "set the status of item 4412"
    assert "item" in found.asked and not found.aside & found.asked
    assert read("move the card to the board, then delete the board").aside == set()


def test_a_preposition_that_opens_the_request_or_follows_be_cuts_nothing():
    assert read("what's in src/config/settings.py").head == "what's in src/config/settings.py"
    assert read("pretend the device is in Tokyo").head == "pretend the device is in Tokyo"
    assert read("make a folder named screenshots").head == "make a folder"
    assert read("kubernetes").head == "kubernetes"


def test_each_order_has_a_head_of_its_own_and_other_clauses_are_read_whole():
    found = read("if it's 3pm in New York, show the time in Berlin")
    assert found.head == "if it's 3pm in New York , show the time"
    assert found.asked == {"time"}  # "show" is a stop word
    assert found.aside == {"berlin"}
    # a question or a story puts what it is about anywhere: read whole, nothing set aside
    story = "I'm curious about the public holidays in Australia"
    assert read(story).aside == set() and read(story).head == story
    question = "how long does it take to drive from each warehouse to each store"
    assert read(question).head == question


def test_a_long_request_is_read_in_linear_time_up_to_its_bound():
    found = read("list the rows " + "in the table " * 50_000)
    assert found.head == "list the rows"
    assert found.aside == {stem("table")}
    assert read("in the table " * MAX_CHARS).aside == set()  # no content word: no cut


def test_a_name_acts_on_its_last_word_before_a_preposition():
    assert name_object("create_board") == "board"
    assert name_object("asana_add_project_to_task") == stem("project")
    assert name_object("getMyCards") == "card"
    assert name_object("hubspot-search-objects") == "object"
    # a prefix, or a name that is all object or all verb, acts on nothing it says
    assert name_object("kubectl_get") is None
    assert name_object("whoami") is None
    assert name_object("fetch") is None


def test_a_tool_whose_name_acts_on_a_word_said_aside_loses_a_nat():
    monday = [Tool(name=n, description=f"{n} does it", server="monday")
              for n in ("create_board", "create_item", "move_item_to_board")]
    focus = Focus(monday)
    found = focus.evidence(read("add an item 'Vendor onboarding' to the Procurement board"))
    assert found.tolist() == [-ASIDE, 0.0, 0.0]
    assert not focus.evidence(read("which items are on the Procurement board?")).any()
    assert not focus.evidence(read("create a board")).any()
    assert not Focus([]).evidence(read("add an item to the board")).any()


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not DEV.exists(), reason="the real-server set is absent")
def test_the_object_of_the_order_decides_on_a_real_catalog_and_the_reason_says_why(run):
    # "the page" says where the javascript runs: GitLab's wiki page tools led before
    result = run("search", "run some javascript in the page to read document.title", "-c",
                 str(DEV), "--scorer", "hybrid", "--limit", "30", "--json")
    assert result.exit_code == 0, result.output
    found = {t["name"]: t for t in json.loads(result.output)["tools"]}
    assert next(iter(found)) == "puppeteer_evaluate"
    assert "only as where or about what" in found["get_wiki_page"]["reason"]
