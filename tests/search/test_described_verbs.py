"""A request's verb that a tool's own text uses for its action, while its name says another
(toolcat.search.described): "buy 3 shares" for Alpaca's `place_stock_order`, whose `side` is
`"buy" or "sell"`. Model-free, but for the last tests, which rank with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import servers_of
from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.described import Described, stated_verbs
from toolcat.search.text import stem

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


def stems(*words: str) -> set[str]:
    return {stem(w) for w in words}


def test_the_verbs_a_tools_text_uses_for_its_action() -> None:
    side = {"type": "object", "required": ["side"], "properties": {
        "side": {"type": "string", "description": '"buy" or "sell".'},
        "symbol": {"type": "string", "description": 'A ticker, e.g. "AAPL" or "SPY".'}}}
    order = Tool(name="place_order", server="broker", parameters=side,
                 description="Place an order for a stock.")
    assert stated_verbs(order) == stems("place", "buy", "sell")
    launch = Tool(name="launch_app", server="phone",
                  description="Launch an app. Use this to open a specific app by its package.")
    assert stated_verbs(launch) == stems("launch", "open")
    places = Tool(name="create_order", server="shop", description="Places an order to a supplier.")
    assert stated_verbs(places) == stems("places")
    nouns = Tool(name="lb_router_top_consumers", server="lb",
                 description="Top consumers of bandwidth on a router.")
    assert stated_verbs(nouns) == set()  # a noun opens it: no determiner after "Top"
    enum = Tool(name="manage_service", server="svc", description="The service's state.",
                parameters={"type": "object", "required": ["action"], "properties": {
                    "action": {"enum": ["start", "stop", "restart"]},
                    "visibility": {"enum": ["private", "public"]}}})
    assert stated_verbs(enum) == stems("start", "stop", "restart")  # optional: a setting


@pytest.mark.parametrize("parameters", [
    None, True, {"properties": []}, {"properties": {"a": 3}},
    {"properties": {"a": {"enum": [1, 2]}, "b": {"description": 7}}},
    {"properties": {"a": {"enum": [f"v{k}" for k in range(10_000)]}}},
    {"properties": {"a": {"description": '"x" or "y"' * 5_000}}},
])
def test_hostile_schemas_state_no_verb_and_raise_nothing(parameters: object) -> None:
    if isinstance(parameters, dict):
        parameters = {**parameters, "required": ["a", "b"]}
    tool = Tool(name="get_thing", server="s", description="",
                parameters=parameters)  # type: ignore[arg-type]
    assert stated_verbs(tool) == set()  # no value of a long list is read


@pytest.fixture(scope="module")
def trading(tmp_path_factory: pytest.TempPathFactory) -> list[Tool]:
    """Alpaca's broker beside fresh12's other servers of money and markets (Korean tax's
    bonus shares came first before), 308 of its 785 tools."""
    return list(load_catalog(servers_of(
        DATA / "fresh12-catalog.json", ("alpaca", "korean-tax", "stock-sdk", "lightbill"),
        tmp_path_factory.mktemp("fresh12"))).tools)


@pytest.fixture(scope="module")
def described(trading: list[Tool]) -> Described:
    from toolcat.search.bm25 import BM25Scorer

    return Described(trading, BM25Scorer(trading))


@pytest.mark.parametrize(("request_", "verb"), [
    ("please sell 40 shares of NVDA", "sell"),
    ("buy 25 shares of Microsoft for the retirement account", "buy"),  # a number after it
    ("I want to buy some Cardano", "buy"),
])
def test_a_trades_verb_lifts_the_tools_whose_arguments_say_it(
        trading: list[Tool], described: Described, request_: str, verb: str) -> None:
    found = described.evidence(request_)
    assert described.verb(request_) == verb
    assert {trading[i].name for i in found.nonzero()[0]} == {"place_stock_order",
                                                            "place_crypto_order"}
    # read as the name's verb: what "place" earns, alike for both, more than the table's nat
    assert len(set(found[found > 0].tolist())) == 1
    assert found.max() > AGREEMENT


@pytest.mark.parametrize("request_", [
    "get my open orders",  # a verb of the action table: its own evidence
    "top 10 movers today",  # a number after a word no tool states as a verb
    "which orders did I place yesterday",  # no order
])
def test_other_requests_are_left_to_the_other_verb_readings(described: Described,
                                                            request_: str) -> None:
    assert not described.evidence(request_).any()


def test_a_server_whose_name_says_the_verb_is_left_to_its_name() -> None:
    from toolcat.search.bm25 import BM25Scorer

    calendar = [
        Tool(name="accept_event", server="cal", description="Accept an event invitation."),
        Tool(name="decline_event", server="cal",
             description="Decline an event. Use this to accept or decline an invitation."),
        Tool(name="list_events", server="cal", description="List the events of a calendar."),
        Tool(name="get_event", server="cal", description="Get an event by its id."),
    ]
    described = Described(calendar, BM25Scorer(calendar))
    assert not described.evidence("accept the invite from Marco").any()


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the catalog is encoded once a session
@pytest.mark.parametrize(("request_", "expected"), [
    ("buy 3 shares of MSFT at market", "place_stock_order"),  # Korean tax's bonus shares before
    ("buy 0.5 ETH at market", "place_crypto_order"),
])
def test_a_trade_puts_the_order_tool_first_and_says_why(trading: list[Tool], request_: str,
                                                        expected: str) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", trading), request_, limit=1)
    assert found[0].tool.name == expected
    assert f"'buy' is how {expected}'s description says its action" in found[0].reason
