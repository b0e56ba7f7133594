"""A short request whose object is of a kind of service no tool of the catalog is about
("book train tickets to Paris" over a calendar) gets no tool, with the words no tool has and
that kind as the reason; a request that names such a word for a tool of the catalog to act
on ("add the flight to Lisbon to my calendar"), as the topic of a search, or in a question,
keeps its tools (toolcat.search.uncovered)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import without_quotes
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.uncovered import asks_a_question
from toolcat.search.unmentioned import absent, unmentioned

CALENDAR = str(CATALOGS / "calendar.yaml")  # real catalog files: a calendar's tools
GITHUB = str(CATALOGS / "github.yaml")  # GitHub's tools


def test_every_word_no_tool_has_is_read_not_only_the_rare_ones():
    """`absent` reads "car", an everyday word `unmentioned` leaves (it reads names), and like
    it leaves the action, what is quoted and the values."""
    github = BM25Scorer(load_catalog(GITHUB).tools)
    assert absent("unlock the car", github, without_quotes) == ["car"]
    assert unmentioned("unlock the car", github, without_quotes) == []
    assert absent("close 'pepperoni pizza' in ENG-412", github, without_quotes) == []


def test_a_question_is_not_read_for_its_kind():
    """What a question asks about is what a tool looks up ("law", over a parliament's votes),
    as a topic is; an order to act is read."""
    assert asks_a_question("how did the Greens vote on the nature restoration law?")
    assert asks_a_question("what's my credit score") and asks_a_question("can you, though?")
    assert not asks_a_question("unlock the car")
    assert not asks_a_question("book train tickets to Paris, somewhere near the station")


def picks(run, catalog: str, request: str) -> dict:
    return json.loads(run("pick", "-c", catalog, request, "--json").stdout)


@pytest.mark.semantic
def test_a_request_of_a_kind_no_tool_is_about_gets_no_tool(run, shared_cache):
    """Train tickets over a calendar: no tool fits, and pick names the words no tool has and
    the kind of service they are nearest to (the zero-shot model turned the request away as
    such a request only where the catalog's tools were far from it all)."""
    away = picks(run, CALENDAR, "book train tickets to Paris")
    assert away["picks"] == []
    assert "nothing in this catalog mentions 'train', 'tickets', 'Paris', nearest to " \
           "events and tickets, a kind of service no tool here is about" in away["message"]


@pytest.mark.semantic
@pytest.mark.parametrize(("catalog", "request_"), [
    (CALENDAR, "add the flight to Lisbon to my calendar"),  # what the calendar holds
    (CALENDAR, "move my dentist appointment to friday"),  # a kind the calendar is about
    (GITHUB, "search for repos about pizza recipes"),  # the topic of a search
    (GITHUB, "star the react repo"),  # a word nearer to the catalog's tools than to a kind
])
def test_a_request_naming_such_a_word_for_a_tool_keeps_its_tools(run, shared_cache, catalog,
                                                                 request_):
    assert picks(run, catalog, request_)["picks"]
