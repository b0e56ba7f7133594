"""A request of more than ten words that hands over a value (a piece with a digit, or
something in quotes) is not turned away by the small-talk margin alone: it asks to act on
that value, however near to small talk its other words lie ("tell Marco in a DM that I'm
running 5 min behind"). Small talk still is, even with a name or a short number, and a
request of that form for a service the catalog lacks still is, by the off-catalog model
(toolcat.search.abstain.far_from_tools)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REAL_SERVERS, servers_of
from toolcat.search.abstain import hands_over_a_value

# fresh3's servers but its two largest (Yunxiao's 203 DevOps tools and DigitalOcean's 115
# cloud tools, neither about messages or restaurants): 206 of its 524 tools to encode
SERVERS = ("teams", "zabbix", "sonarqube", "selenium", "argocd", "neon", "1password",
           "browser-tools", "pinecone", "netlify", "excel", "clickhouse")


@pytest.fixture(scope="module")
def fresh3(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(servers_of(REAL_SERVERS / "fresh3-catalog.json", SERVERS,
                          tmp_path_factory.mktemp("fresh3")))


@pytest.mark.parametrize(("request_", "hands_over"), [
    ("tell Marco in a DM that I'm running 5 min behind", True),
    ("remember that the Q4 offsite is in Lisbon on Feb 12", True),
    ("find the phonetics for the word 'quixotic' for me", True),
    ("hey Sam, good morning", False),  # a name is no value: a greeting names whom it greets
    ("thanks, that's all for today", False),
    ("are you a bot or a real person", False),
])
def test_a_value_handed_over_is_read_from_a_digit_or_a_quote(request_, hands_over):
    assert hands_over_a_value(request_) is hands_over


def _pick(run, catalog: str, request: str) -> dict[str, object]:
    found: dict[str, object] = json.loads(run(
        "pick", "-c", catalog, request, "--allow-unsafe", "--json").stdout)
    return found


@pytest.mark.semantic
def test_a_message_handing_over_a_time_keeps_its_tools(run, shared_cache, fresh3):
    """On fresh3's real servers (206 tools, Teams among them) a request to message a person
    that hands over a time keeps Teams' tools; before, it lay nearer to small talk than to
    any tool and got none."""
    for request in ("tell Marco in a DM that I'm running 5 min behind",
                    "tell Ana in a DM that I'll be 15 min late for our 1:1"):
        kept = _pick(run, fresh3, request)
        picks = kept["picks"]
        assert isinstance(picks, list) and picks, kept["message"]
        assert any(p["server"] == "teams" for p in picks), picks


@pytest.mark.semantic
def test_talk_and_a_missing_service_of_the_same_form_are_still_turned_away(run, shared_cache,
                                                                          fresh3):
    """A greeting that names someone, short talk with a number, and a long request handing
    over a time for a restaurant (no server of fresh3 books one) still get no tool."""
    for request in ("hey Sam, good morning", "lol 10/10",
                    "book a table for 2 at Nonna Rosa tonight at 8 please, somewhere quiet"):
        away = _pick(run, fresh3, request)
        assert away["picks"] == [], (request, away["picks"])
        assert str(away["message"]).startswith("no tool fits"), away["message"]
