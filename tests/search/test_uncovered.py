"""A short request whose object is of a kind of service no tool of the catalog is about
("book train tickets to Paris" over a calendar) gets no tool, with the words no tool has and
that kind as the reason; a request that names such a word for a tool of the catalog to act
on ("add the flight to Lisbon to my calendar", "run an aggregation on the movies
collection"), as the topic of a search, as a name, or in a question, keeps its tools
(toolcat.search.uncovered, toolcat.search.named)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import FEATURES, OffCatalog, catalog_kinds, without_quotes
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.named import named_words
from toolcat.search.uncovered import GAP, asks_a_question, uncovered_kind
from toolcat.search.unmentioned import absent, read_words, unmentioned

REAL = DATA / "real"
CALENDAR = str(CATALOGS / "calendar.yaml")  # real catalog files: a calendar's tools
GITHUB = str(CATALOGS / "github.yaml")  # GitHub's tools
DATABASE = str(CATALOGS / "database.yaml")  # a SQL database's
SLACK = str(CATALOGS / "slack.yaml")
FILES = str(CATALOGS / "filesystem.yaml")
MONGODB = str(REAL / "mongodb_aggregate.json")  # MongoDB's one aggregate tool


def test_every_word_no_tool_has_is_read_not_only_the_rare_ones():
    """`absent` reads "car", an everyday word `unmentioned` leaves (it reads names), and like
    it leaves the action, what is quoted and the values."""
    github = BM25Scorer(load_catalog(GITHUB).tools)
    assert absent("unlock the car", github, without_quotes) == ["car"]
    assert unmentioned("unlock the car", github, without_quotes) == []
    assert absent("close 'pepperoni pizza' in ENG-412", github, without_quotes) == []


def test_a_word_a_tool_states_is_told_apart_from_the_words_no_tool_has():
    """Over MongoDB's one tool, "collection" is a word the tool states (its parameter);
    "movies", the collection's name, is not."""
    mongodb = BM25Scorer(load_catalog(MONGODB).tools)
    assert read_words("run an aggregation on the movies collection", mongodb,
                      without_quotes) == [("aggregation", True), ("movies", False),
                                          ("collection", True)]


@pytest.mark.parametrize(("request_", "names"), [
    ("list the services for project Apollo", {"apollo"}),  # capitalised
    ("book train tickets to Paris", {"paris"}),
    ("Unlock the car", set()),  # the first word is capitalised as a sentence's
    ("done. Now unlock the car", set()),  # so is a sentence's
    ("drop the old_invoices table", {"old", "invoices"}),  # identifiers
    ("read recipes.md and myNotes", {"recipes", "md", "mynotes"}),
    ("create a spreadsheet called car maintenance log for me", {"car", "maintenance", "log"}),
    ("make a channel named gardening, then invite bob", {"gardening"}),
])
def test_a_word_written_as_a_name_is_a_value(request_, names):
    assert named_words(request_) == names


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
    for catalog in (CALENDAR, MONGODB):
        away = picks(run, catalog, "book train tickets to Paris")
        assert away["picks"] == []
        assert "no tool fits: nothing in this catalog mentions 'train', 'tickets', nearest " \
               "to public transit, a kind of service no tool here is about" in away["message"]


@pytest.mark.semantic
@pytest.mark.parametrize(("catalog", "request_"), [
    (CALENDAR, "add the flight to Lisbon to my calendar"),  # what the calendar holds
    (CALENDAR, "move my dentist appointment to friday"),  # a kind the calendar is about
    (GITHUB, "search for repos about pizza recipes"),  # the topic of a search
    (GITHUB, "star the react repo"),  # a word nearer to the catalog's tools than to a kind
    # the data a tool acts on named by a word of another kind of service, over small
    # catalogs (benchmarks/data/small-catalogs, written before the rule ran on them)
    (MONGODB, "run an aggregation on the movies collection"),
    (MONGODB, "group the restaurants collection by borough"),
    (DATABASE, "describe the recipes table"),
    (SLACK, "post the lunch menu in the food channel"),
    (FILES, "read the file recipes.md"),
])
def test_a_request_naming_such_a_word_for_a_tool_keeps_its_tools(run, shared_cache, catalog,
                                                                 request_):
    assert picks(run, catalog, request_)["picks"]


def _kinds_model() -> OffCatalog:
    """Two kinds of service, flights (the first axis) and calendars (the second), in a space of
    four dimensions."""
    return OffCatalog(small_talk=np.zeros((0, 4)), kinds=("flights", "calendar"),
                      kind_vectors=np.eye(4)[:2], weights=np.zeros(len(FEATURES)), bias=0.0,
                      threshold=0.0, cover=0.0)


def _unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float64)
    return vector / np.linalg.norm(vector)


def test_a_tool_near_the_kind_in_passing_leaves_the_words_read_as_of_that_kind():
    """Words 0.6 near flights over a catalog whose one tool nearest flights lies 0.41 near it
    (and 0.25 near the words): the words are more of that kind than any tool by more than
    MARGIN, so the kind is named; abstain15's absolute bar (no tool at 0.20) kept it. A tool
    as much of that kind as the words (0.55), or a whole request of a kind the catalog's tools
    are nearer to than the words are to theirs, keeps it."""
    model = _kinds_model()
    words = _unit(0.6, 0.0, 0.0, 0.8)
    passing = np.stack([_unit(0.41, 0.0, np.sqrt(1 - 0.41 ** 2), 0.0)])
    assert float((passing @ words).max()) < 0.6 - GAP
    assert uncovered_kind(model, catalog_kinds(model, passing), words, words, passing) \
        == "flights"
    close = np.stack([_unit(0.55, 0.0, np.sqrt(1 - 0.55 ** 2), 0.0)])
    assert float((close @ words).max()) < 0.6 - GAP
    assert uncovered_kind(model, catalog_kinds(model, close), words, words, close) is None
    calendar = np.stack([passing[0], _unit(0.0, 0.7, -np.sqrt(1 - 0.7 ** 2), 0.0)])
    request = _unit(0.0, 1.0, 0.0, 0.0)  # the whole request lies in calendars
    assert uncovered_kind(model, catalog_kinds(model, calendar), request, words, calendar) \
        is None
    assert uncovered_kind(model, catalog_kinds(model, calendar), words, words, calendar) \
        == "flights"
