"""A request that asks to undo an action, and the sibling whose name undoes it by a prefix
(toolcat.search.reversal). Model-free, but for the last tests, which rank a real catalog with
the real model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.orders import verbs
from toolcat.search.reversal import Reversals, Undoing, undoing
from toolcat.search.stated import LEAD, REACH
from toolcat.search.text import stem

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


def tools(server: str, *names: str) -> list[Tool]:
    return [Tool(name=n, description=f"{n} does it", server=server) for n in names]


MAIL = tools("mail", "schedule_campaign", "unschedule_campaign", "cancel_campaign",
             "send_campaign", "list_campaigns", "get_unread_items")
BOARD = tools("deck", "deck_assign_user_to_card", "deck_unassign_user_from_card",
              "deck_archive_card", "deck_unarchive_card", "deck_get_card")


def agreeing(catalog: list[Tool], request: str) -> set[str]:
    found = Reversals(catalog).agreement(request)
    assert set(found[found != 0].tolist()) <= {AGREEMENT}
    return {catalog[i].name for i in np.flatnonzero(found)}


@pytest.mark.parametrize("request_", [
    "oops, dont send tomorrow's campaign yet, take it off the schedule",
    "pull the newsletter out of the schedule",
    "remove the spring promo from the schedule",
    "stop scheduling the weekly digest",
])
def test_undoing_a_base_verb_lifts_the_sibling_that_undoes_it(request_: str) -> None:
    assert agreeing(MAIL, request_) == {"unschedule_campaign"}


def test_the_base_sibling_a_little_ahead_gives_way() -> None:
    evidence = np.array([9.0, 8.0, 9.5, 3.0, 1.0, 0.0])
    found = Reversals(MAIL).evidence("take it off the schedule", evidence).round(6).tolist()
    # schedule_ 1 nat ahead of unschedule_: LEAD under it; the others are not its base
    assert found == [-(1.0 + LEAD), 0.0, 0.0, 0.0, 0.0, 0.0]
    far = np.array([8.0 + REACH + 0.1, 8.0, 0.0, 0.0, 0.0, 0.0])
    assert not Reversals(MAIL).evidence("take it off the schedule", far).any()


def test_taking_one_thing_off_another_lifts_the_tool_that_takes_it_off() -> None:
    # no base named: the tools undoing something on the card that act on another thing too
    # (`unassign_user_from_card`), not the one undoing what was done to the card itself
    assert agreeing(BOARD, "take Marta off the Q1 report card") == {
        "deck_unassign_user_from_card"}
    given = Reversals(BOARD).evidence("take Marta off the Q1 report card",
                                      np.array([7.0, 6.5, 0.0, 0.0, 0.0]))
    assert given.round(6).tolist() == [-(0.5 + LEAD), 0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("request_", [
    "schedule the spring campaign for Monday",  # the base verb itself
    "take a screenshot of the schedule page",  # no particle: "take" as a verb of its own
    "which campaigns are off the schedule",  # no order
    "remove Marta from the card",  # "remove" has its own action: only a named base counts
    "stop the campaign that's sending",  # no -ing right after "stop"
    "get the unread items",  # `get_unread_items`: "unread" undoes no sibling's verb
    "",
])
def test_other_requests_undo_nothing(request_: str) -> None:
    assert agreeing(MAIL, request_) == set()
    assert agreeing(BOARD, request_) == set()


def test_a_prefixed_word_without_a_base_sibling_undoes_nothing() -> None:
    lone = tools("shop", "unlock_document", "discounts_create", "discounts_delete",
                 "deactivate_offer", "get_offer")
    assert Reversals(lone).bases == frozenset()  # no lock_, count_ or activate_ sibling
    assert not Reversals([]).agreement("take it off the schedule").any()


def test_the_request_side_reading() -> None:
    bases = frozenset({stem("schedule"), stem("track")})
    assert undoing("stop tracking staging.example.com", bases) == Undoing(
        "stop tracking", stem("track"))
    assert undoing("take it off the schedule please", bases) == Undoing(
        "take it off the schedule", stem("schedule"))
    assert undoing("please take them off my schedule", bases) == Undoing(
        "take them off my schedule", stem("schedule"))
    assert undoing("stop tracking it", frozenset()) is None
    assert undoing("undo the schedule for next week", bases) == Undoing(
        "undo the schedule", stem("schedule"))
    assert undoing("revert schedule 42", bases) == Undoing("revert schedule", stem("schedule"))
    assert undoing("undo my last schedule", bases) is None  # the noun right after, or none
    assert undoing("undo the merge", bases) is None  # no tool undoes a merge
    hostile = "take " + "x " * 50_000 + "off the schedule"
    assert undoing(hostile, bases) is None  # the object runs past MAX_OBJECT words


def test_a_negation_written_without_its_apostrophe_is_no_verb() -> None:
    # "dont" read as a verb was classified as stop, lifting cancel_campaign
    assert [v.word for v in verbs("oops, dont send tomorrow's campaign yet")] == []
    assert [v.word for v in verbs("we dont use it, delete the tag")] == ["delete"]


def test_undoing_what_a_noun_names_lifts_the_tool_that_undoes_it_in_a_real_catalog() -> None:
    """fresh14's Lunch Money: `unsplit_transaction` beside `split_transaction`, and Spectre's
    `unretweet` beside `retweet`, whose description says "undo": its "undo" took the
    request's action (5.4 nats) before "undo the split" was read as undoing a split."""
    catalog = [t for t in load_catalog(DATA / "fresh14-catalog.json").tools
               if t.server in {"lunchmoney", "spectre"}]
    assert agreeing(catalog, "undo the split on transaction 4410") == {"unsplit_transaction"}
    assert agreeing(catalog, "undo the retweet from this morning") == {"unretweet"}
    assert agreeing(catalog, "undo the import of yesterday") == set()  # nothing un-imports


@pytest.fixture(scope="module")
def mailing() -> list[Tool]:
    """The catalog of the fresh13 half (Mailchimp, Search Console, M-Pesa: 136 tools)."""
    return list(load_catalog(DATA / "fresh13-catalog.json").tools)


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the catalog is encoded once a session
def test_taking_a_campaign_off_the_schedule_ranks_unschedule_first(mailing: list[Tool]) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", mailing),
                 "the black friday blast is scheduled too early, pull it off the schedule",
                 limit=3)
    assert found[0].tool.name == "unschedule_campaign"
    assert "'pull it off the schedule' read as unschedule" in found[0].reason
    schedule = next(f for f in found if f.tool.name == "schedule_campaign")
    assert "the request asks to undo its name's verb" in schedule.reason
