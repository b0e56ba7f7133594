"""A question that gives no order asks to look (toolcat.search.looking): the tools whose name
does more than look lose a nat. Model-free, but for the last test, which ranks a real
server's tools through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import real_part
from toolcat.model import Tool
from toolcat.search.looking import Looks, unordered

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize("request_", [
    "did the nightly uptime monitor pass last night",
    "is anyone on the SRE rotation getting buried?",
    "what's the status of ENG-412",
    "Who changed things in the Platform workspace this week?",
    "any unread mail from the accountant?",
])
def test_a_question_without_an_order_asks_to_look(request_: str) -> None:
    assert unordered(request_)


@pytest.mark.parametrize("request_", [
    "how do I add a label to an issue?",  # an order's verb after "how do I"
    "can you delete the old branch?",  # "can you" opens an order
    "create an issue in PROJ",
    "CHG0040021 is good to go for tonight's window",  # a statement: it asks for a change
    "",
    "? " * 400,  # too long to be a question
])
def test_an_order_or_a_statement_is_no_such_question(request_: str) -> None:
    assert not unordered(request_)


def test_the_tools_that_act_lose_a_nat_and_the_others_keep_theirs() -> None:
    tools = [Tool(name=n, description=n, server="monitors")
             for n in ("getMonitor", "runMonitor", "listMonitors", "deleteMonitor", "whoami")]
    assert Looks(tools).evidence("did the nightly monitor pass?").tolist() == [
        0.0, -1.0, 0.0, -1.0, 0.0]
    assert Looks(tools).evidence("run the nightly monitor").tolist() == [0.0] * 5
    assert Looks([]).evidence("is it up?").tolist() == []


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh5-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_question_about_a_run_picks_the_tool_that_reads_it_and_says_why(run, tmp_path):
    catalog = str(real_part("fresh5", tmp_path))  # Postman's monitors among its neighbours
    result = run("pick", "did the nightly uptime monitor pass last night", "-c", catalog,
                 "-k", "3", "--allow-unsafe", "--json", "--explain")
    assert result.exit_code == 0, result.output
    picks = json.loads(result.output)["picks"]
    assert picks[0]["name"] == "getMonitor"  # runMonitor came first
    acting = next(t for t in picks if t["name"] == "runMonitor")
    assert acting["provenance"]["details"]["question_evidence"] == -1.0
    assert "gives no order" in acting["reason"]
