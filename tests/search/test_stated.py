"""The verb a request states decides between siblings acting on one object
(toolcat.search.stated). Model-free, but for the last test, which ranks with the real model."""

from __future__ import annotations

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.stated import LEAD, REACH, Stated


def tools(server: str, *names: str) -> list[Tool]:
    return [Tool(name=n, description=f"{n} does it", server=server) for n in names]


REPO = tools("repo", "merge_pull_request", "close_pull_request", "get_pull_request",
             "list_issues", "close_issue")


def given(request: str, evidence: list[float]) -> list[float]:
    return Stated(REPO).evidence(request, np.array(evidence)).round(6).tolist()


def test_a_sibling_a_little_ahead_gives_way_to_the_verb_stated():
    # merge_pull_request 1 nat ahead of close_pull_request: put LEAD under it, get_ too; no
    # word names the pull request, and close_pull_request gets the action's nat
    assert given("close #231 without merging", [9.0, 8.0, 8.2, 9.5, 3.0]) == [
        -(1.0 + LEAD), AGREEMENT, -(0.2 + LEAD), 0.0, 0.0]
    # a word of its object said: the action table gave the nat already
    assert given("close pull request 231", [9.0, 8.0, 0.0, 0.0, 0.0]) == [
        -(1.0 + LEAD), 0.0, 0.0, 0.0, 0.0]


def test_a_sibling_far_ahead_or_one_the_request_also_orders_keeps_its_evidence():
    assert given("close #231", [8.0 + REACH + 0.1, 8.0, 0.0, 0.0, 0.0]) == [0.0] * 5
    assert given("close #231 and merge #232", [9.0, 8.0, 0.0, 0.0, 0.0]) == [0.0] * 5


@pytest.mark.parametrize("request_", [
    "which pull requests were closed last week",  # a state, no order
    "show me pull request 231",  # the verb is no sibling's of that object
    "get rid of the stale pull request",  # the table's verb made another by its particle
])
def test_no_stated_verb_of_the_siblings_changes_nothing(request_: str) -> None:
    assert not any(given(request_, [9.0, 8.0, 8.5, 1.0, 1.0]))


def test_servers_that_do_not_name_tools_by_action_have_no_siblings():
    topics = tools("finance", "getQuote", "getQuoteShort", "news")
    assert not Stated(topics).evidence("get the quote of AAPL", np.ones(3)).any()
    assert not Stated([]).evidence("close everything", np.zeros(0)).any()


MERGE_REQUESTS = [Tool(name=name, server="gitlab", description=text) for name, text in (
    ("merge_merge_request", "Merge a merge request in a GitLab project"),
    ("update_merge_request", "Update a merge request (either mergeRequestIid or branchName "
                             "must be provided)"),
    ("create_merge_request", "Create a new merge request in a GitLab project"),
    ("get_merge_request", "Get details of a merge request"),
    ("approve_merge_request", "Approve a merge request"),
    ("list_merge_requests", "List merge requests in a GitLab project"))]


@pytest.mark.semantic
def test_the_verb_stated_puts_its_sibling_first() -> None:
    # the model put approve_ first (0.514 against 0.497): every sibling names the merge
    # request, and "merge" is also a word of each one's object
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", MERGE_REQUESTS),
                 "merge !42 now that the pipeline passed", limit=3)
    assert found[0].tool.name == "merge_merge_request"
    assert "the request's verb is a sibling's acting on the same" in found[1].reason


def test_a_sibling_with_a_synonym_of_the_stated_verb_is_no_other_action():
    mail = tools("mail", "send_email", "reply_to_email", "delete_email")
    evidence = np.array([6.5, 7.5, 7.0])
    found = Stated(mail).evidence("send a message to the team", evidence).round(6).tolist()
    # reply, of the send group, keeps its lead; delete gives way, and no word names the e-mail
    assert found == [AGREEMENT, 0.0, -(0.5 + LEAD)]
