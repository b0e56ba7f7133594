"""A verb that makes its object (toolcat.search.making): "file a bug", "log a call", "raise an
invoice" ask to create one. Model-free, but for the last tests, which rank real catalogs of
benchmarks/data/real-servers with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.making import Making, made, without

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_", "verb"), [
    ("file a ticket: the export button does nothing", "file"),
    ("please log a call with the Hendersons about the quote", "log"),
    ("log 3.5 hours on PAY-77 for the refactor", "log"),
    ("log 45 minutes on PAY-77", "log"),  # only the number kept it from a verb's place
    ("record a $80 parking expense for the site visit", "record"),
    ("raise an invoice to Initech for the October retainer", "raise"),
    ("leave a comment on the design doc", "leave"),
    ("book a room for the retro on Friday", "book"),
    ("declare an incident: payments are timing out", "declare"),
    ("Raise another bug for the flaky login test", "raise"),
])
def test_a_verb_that_makes_a_new_object_is_read(request_: str, verb: str) -> None:
    assert made(request_) == verb


@pytest.mark.parametrize("request_", [
    "leave the #random channel",  # a thing that is there: to leave it, not to make one
    "file the report under Q3",
    "show me the log of yesterday's deploy",  # a verb of the table
    "which calls did we log last week",  # a question: no order
    "the log a user left is empty",  # "log" as a noun, no order's verb
    "add a comment and then file a bug",  # the first order's verb is the table's
    "set up a booking page",  # a phrasal verb of the table
    "",
])
def test_other_requests_make_nothing(request_: str) -> None:
    assert made(request_) is None


def test_the_verb_is_taken_out_once_as_a_word() -> None:
    assert without("File a file-upload bug", "file").split() == ["a", "file-upload", "bug"]
    assert without("log a call, then check the log", "log").split() == [
        "a", "call,", "then", "check", "the", "log"]


@pytest.fixture(scope="module")
def marketplace() -> list[Tool]:
    """The catalog of the fresh9 half: eBay's `ebay_leave_feedback_for_buyer` beside
    Contentful's `create_comment`, among 1,136 tools."""
    return list(load_catalog(DATA / "fresh9-catalog.json").tools)


def test_a_server_whose_name_opens_with_the_verb_is_left_to_it(marketplace: list[Tool]) -> None:
    making = Making(marketplace)
    left = {t.server for t, kept in zip(marketplace, making.left("leave"), strict=True) if kept}
    assert left == {"ebay"}
    found = making.evidence("leave a comment on the homepage entry")
    lifted = {(marketplace[i].server, marketplace[i].name) for i in found.nonzero()[0]}
    assert {("contentful", "create_comment"), ("contentful", "create_entry")} <= lifted
    assert not any(server == "ebay" for server, _ in lifted)  # left to its own `leave`
    assert set(found[found > 0].tolist()) == {AGREEMENT}
    assert not making.left("book").any()


def test_hostile_names_and_requests_raise_nothing() -> None:
    tools = [Tool(name="", server="s"), Tool(name="_" * 500, server=""),
             Tool(name="log", server="s"), Tool(name="create_log", server="s")]
    making = Making(tools)
    assert making.left("log").tolist() == [True, False, True, True]
    assert not making.evidence("log a " * 5_000).any()  # only `s` creates, and it is left


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the servers' tools are encoded once a session
@pytest.mark.parametrize(("half", "servers", "request_", "expected", "verb"), [
    # `stories-upload-file` led by its "file", read as a word and embedded
    ("fresh", {"shortcut", "datadog", "hubspot"},
     "file a story about the search results loading twice", "stories-create", "file"),
    ("fresh6", {"xero", "linear", "airflow"},  # `update-invoice` led
     "raise an invoice to Globex for 3 days of onsite training", "create-invoice", "raise"),
])
def test_a_made_object_puts_the_creating_tool_first_and_says_why(
        half: str, servers: set[str], request_: str, expected: str, verb: str) -> None:
    from toolcat.search import build_scorer, rank

    # three servers of the half, not its hundreds of tools: encoding them is the test's cost
    tools = [t for t in load_catalog(DATA / f"{half}-catalog.json").tools
             if t.server in servers]
    found = rank(build_scorer("hybrid", tools), request_, limit=3)
    assert found[0].tool.name == expected
    assert f"'{verb}' with a new object makes it, read as create" in found[0].reason
    assert f"'{verb}' read as the verb that makes what the request names" in found[0].reason
