"""Which words of a request stand as its verbs, which as states (toolcat.search.orders), what a
state takes back from the tools whose name acts with it (toolcat.search.states), and a verb the
table lacks read as one of its actions (toolcat.search.verbs.group_of). Model-free, but for the
last two tests, which pick through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.model import Tool
from toolcat.search.actions import asked
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.orders import MAX_CHARS, states, verbs
from toolcat.search.states import States
from toolcat.search.verbs import spoken


def said(request: str) -> list[str]:
    return [verb.word for verb in verbs(request)]


@pytest.mark.parametrize(("request_", "expected"), [
    ("delete the old branch", ["delete"]),
    ("please can you archive the Q3 board?", ["archive"]),
    ("I need to delete it", ["delete"]),
    ("I'd like you to delete it", ["delete"]),
    ("what's the best way to create a token", ["create"]),
    ("I reset the branch by accident, how do I find the commit I was on", ["find"]),
    ("LGTM, approve pull request 482", ["lgtm", "approve"]),
    ("we hired Jamal for the desk, give him a seat", ["give"]),
    ("customer 4411 wants to cancel at the end of the month", ["cancel"]),
])
def test_a_verb_stands_where_an_order_puts_it(request_: str, expected: list[str]) -> None:
    assert said(request_) == expected


@pytest.mark.parametrize("request_", [
    "how many open issues does the MOBILE project have",  # a state before a noun
    "I need a throwaway copy of the prod database",  # a noun after a determiner
    "jon@acme.com gets view access to the deck",  # a value, then a third person
    "read-only login for the BI team",  # one word with what follows
    "customer says she's still waiting",  # a plural or third person ending
    "sprint 14 is over",  # a number follows
    "invoices in the storage account",
])
def test_a_noun_or_a_state_is_no_verb_and_no_action(request_: str) -> None:
    assert "open" not in said(request_) and "copy" not in said(request_)
    assert "view" not in said(request_) and "read" not in said(request_)
    assert asked(request_) == frozenset()
    assert spoken(request_) is None


def test_a_verb_the_table_lacks_before_a_preposition_is_a_noun() -> None:
    assert spoken("bug for the Mobile project: login does nothing") is None
    assert spoken("file a bug for the Mobile project") == "file"


@pytest.mark.parametrize(("request_", "expected"), [
    ("list the closed tickets", {"closed"}),
    ("the shop is closed on Monday", {"closed"}),
    ("show me the failed jobs", {"failed"}),
    ("how many open issues does it have", {"open"}),
    ("close the ticket", set()),  # an order
    ("I accidentally wiped the column", set()),  # a story's verb
    ("write a draft to legal asking for the countersigned NDA", {"countersigned"}),
])
def test_a_state_stands_before_a_noun_or_after_be(request_: str, expected: set[str]) -> None:
    assert states(request_) == expected


def test_a_long_request_is_read_up_to_its_bound() -> None:
    request = "delete it, " * 50_000
    assert len(verbs(request)) <= MAX_CHARS
    assert states("the closed tickets " * 50_000) == {"closed"}


def test_a_state_takes_back_its_words_evidence_from_the_names_that_act_with_it() -> None:
    tools = [Tool(name=n, description=d, server="desk") for n, d in (
        ("close_ticket", "Close a ticket."),
        ("list_tickets", "List tickets, filtered by status: open or closed."),
        ("get_ticket", "Get a ticket."))]
    lexical = BM25Scorer(tools)
    found = States(tools, lexical).evidence("any closed tickets from acme")
    closed = lexical.evidence("closed")[0]
    assert found[0] == pytest.approx(-closed[0]) and found[0] < 0
    assert found[1] == 0 and found[2] == 0  # the list tool keeps what its description says
    assert not States(tools, lexical).evidence("close the closed ticket twice").any()
    assert not States([], BM25Scorer([])).evidence("the closed tickets").any()


ID = {"type": "object", "properties": {"ticket_id": {"type": "string"}}, "required": ["ticket_id"]}
TICKETS = [
    ("close_ticket", "Close a support ticket so that it no longer appears in the queue.", ID),
    ("list_tickets", "List the support tickets of a queue, filtered by status.",
     {"type": "object", "properties": {"status": {"type": "string"}}}),
    ("get_ticket", "Get one support ticket with its messages.", ID),
    ("create_ticket", "Create a support ticket for a customer.",
     {"type": "object", "properties": {"subject": {"type": "string"}}, "required": ["subject"]}),
    ("delete_ticket", "Delete a support ticket for good.", ID),
]


def write_tickets(folder: Path) -> Path:
    path = folder / "tickets.json"
    path.write_text(json.dumps({"tools": [
        {"name": name, "description": text, "parameters": schema}
        for name, text, schema in TICKETS]}))
    return path


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_a_state_is_a_filter_the_list_tool_takes_not_an_action(run, tmp_path):
    catalog = str(write_tickets(tmp_path))
    # "closed" matched close_ticket's name: it was picked second, and now falls past the cut
    result = run("pick", "list the closed tickets", "-c", catalog, "-k", "2", "--json")
    assert result.exit_code == 0, result.output
    assert [p["name"] for p in json.loads(result.output)["picks"]] == ["list_tickets"]
    result = run("search", "any closed tickets from acme", "-c", catalog, "--scorer", "hybrid",
                 "--json")
    found = json.loads(result.output)["tools"]
    assert found[0]["name"] == "list_tickets"
    reasons = {t["name"]: t["reason"] for t in found}
    assert "says 'closed' as a state" in reasons["close_ticket"]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_an_unusual_verb_is_read_as_an_action_and_picks_that_sibling(run, tmp_path):
    # "spawn" is no verb of the table, and no name of the catalog opens with a verb near it:
    # read as create, it picks create_ticket (get_ticket came first before)
    result = run("pick", "spawn a ticket for acme", "-c", str(write_tickets(tmp_path)),
                 "-k", "2", "--json", "--explain")
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)["picks"][0]
    assert first["name"] == "create_ticket"
    assert "'spawn' read as create" in first["reason"]
