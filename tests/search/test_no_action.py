"""A request whose form asks for no action on any system (a question about the assistant, a
word about the conversation, a joke, a question about concepts) gets no tool from `pick`,
with that reason, where the off-catalog model leans to no tool; a real request using the same
words keeps its tools (toolcat.search.no_action)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from toolcat.search.abstain import without_quotes
from toolcat.search.no_action import no_action_form

REAL = REPO / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_", "form"), [
    ("what tools do you have access to?", "talk to the assistant"),
    ("which model are you, btw", "talk to the assistant"),
    ("are you a bot or a real person", "talk to the assistant"),
    ("sorry, ignore my last message", "talk about the conversation"),
    ("nvm, forget what I just asked", "talk about the conversation"),
    ("tell me a joke about accountants", "a joke or a poem"),
    ("in general what's the difference between a lead and a deal?",
     "a question about concepts"),
])
def test_a_request_that_asks_for_no_action_is_read_from_its_form(request_, form):
    assert no_action_form(without_quotes(request_)) == form


@pytest.mark.parametrize("request_", [
    "can you help me find a good pair of running shoes?",  # asks the assistant to act
    "I need to find a post on my site, could you help me with that?",
    "please list what you have in the backlog",
    "what do you remember about Alice",  # names a thing of the world
    "What is the difference between a sorcery and an instant spell in MTG?",
    "text +4915112345678: your table is ready",  # the message handed over
    "post 'thank you, you rock' in #general",  # a quoted value
    "This shopping app is a joke, there's no way to keep track of my cart!",
    "create an issue for the login bug",
])
def test_a_request_for_an_action_is_not_read_as_talk(request_):
    assert no_action_form(without_quotes(request_)) is None


@pytest.mark.semantic
def test_pick_turns_away_talk_and_keeps_a_request_with_the_same_words(run, shared_cache):
    """On fresh13's real servers (136 tools) a question about the assistant and a joke get
    no tool, and say why; "how much have you spent in this session so far", which M-PESA's
    session report answers, keeps its tools."""
    catalog = str(REAL / "fresh13-catalog.json")
    for request, form in (("which of your tools would you trust least?",
                           "talk to the assistant"),
                          ("tell me a joke about email marketing", "a joke or a poem")):
        away = json.loads(run("pick", "-c", catalog, request, "--allow-unsafe",
                              "--json").stdout)
        assert away["picks"] == [], away["picks"]
        assert f"asks for no action on any system ({form})" in away["message"], \
            away["message"]
    spent = json.loads(run("pick", "-c", catalog, "how much have you spent in this session "
                           "so far", "--allow-unsafe", "--json").stdout)
    assert spent["picks"], spent["message"]


@pytest.mark.semantic
def test_a_question_to_the_assistant_about_a_thing_keeps_its_tools(run, shared_cache):
    """On dev's servers, "what do you remember about Alice" asks the memory server about
    Alice: it names a thing, and keeps the memory server's tools."""
    alice = json.loads(run("pick", "-c", str(REAL / "dev-catalog.json"),
                           "what do you remember about Alice", "--allow-unsafe",
                           "--json").stdout)
    assert any(p["server"] == "memory" for p in alice["picks"]), alice
