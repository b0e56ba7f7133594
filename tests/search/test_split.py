"""A request that asks for several things: each tool is scored by the part that asks for it,
only where the parts ask for different things (toolcat.search.split, used by `hybrid`,
`semantic` and `cascade`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from toolcat.search.split import SURE, by_best_part, parts

TWO_ASKS = "What's the weather in Paris tomorrow? Then send a slack message to the team about it."


def test_a_request_is_cut_where_another_ask_starts():
    assert parts(TWO_ASKS) == ["What's the weather in Paris tomorrow?",
                               "Then send a slack message to the team about it."]
    assert parts("Find the repo of toolcat; open an issue about the crash on start") == [
        "Find the repo of toolcat", "open an issue about the crash on start"]
    assert parts("Convert 100 dollars to euros and then email the result to Bob") == [
        "Convert 100 dollars to euros", "and then email the result to Bob"]
    assert parts("I need the capacity of warehouse 44. Additionally, I want the layout of "
                 "the library. Finally, get the price of Bitcoin.") == [
        "I need the capacity of warehouse 44.", "Additionally, I want the layout of the library.",
        "Finally, get the price of Bitcoin."]


def test_context_stays_with_the_ask_it_is_for():
    # a sentence that sets the scene is not an ask of its own
    for request in ("I'm planning a trip to Japan next year. Can you find out if there are "
                    "any long weekends in Japan in 2023?",
                    "I run a small bakery. Find me a flour supplier near Lyon.",
                    "Calculate the gain of an antenna with a frequency of 47.7 Hz, e.g. a "
                    "dipole. It has an aperture of 32.9 square meters.",
                    "open notes.txt"):
        assert parts(request) == [request]


def test_a_pasted_prompt_is_kept_whole():
    many = " ".join(f"Then do step number {i} of the plan." for i in range(12))
    assert parts(many) == [many]
    long = "Then fetch the weather for me. " * 200
    assert parts(long) == [long]


def evidence_of(table: dict[str, list[float]]):
    """An evidence function over three tools, read from `table` (one row per text)."""
    def evidence(texts):
        return np.array([table[t] for t in texts], dtype=float)
    return evidence


def test_parts_that_ask_for_the_same_tool_leave_the_request_whole():
    request = "Find flights to Oslo. Also find flights to Oslo next week."
    first, second = parts(request)
    table = {request: [6.0, 2.0, 1.0], first: [8.0, 1.0, 0.0], second: [9.0, 3.0, 0.0]}
    [found] = by_best_part([request], evidence_of(table))
    assert found.evidence.tolist() == [6.0, 2.0, 1.0] and (found.source == -1).all()


def test_each_tool_gets_the_evidence_of_the_part_that_asks_for_it():
    request = "Find flights to Oslo. Then book a hotel there for two nights."
    first, second = parts(request)
    table = {request: [7.0, 4.0, 3.0], first: [9.0, 1.0, 2.0],
             second: [1.0, SURE + 1, 0.5]}
    [found] = by_best_part([request], evidence_of(table))
    # the hotel part is sure of its tool, and lifted half way to the flight part's 9
    lift = (9.0 - (SURE + 1)) / 2
    assert found.evidence.tolist() == [9.0, SURE + 1 + lift, 3.0]
    assert found.source.tolist() == [0, 1, -1] and found.lift == (0.0, lift)


@pytest.mark.semantic
def test_pick_shows_a_tool_for_each_ask_and_says_which_part_it_answers(run, shared_cache):
    picked = run("pick", "-c", "demo", TWO_ASKS, "--json")
    assert picked.exit_code == 0, picked.output
    picks = json.loads(picked.stdout)["picks"]
    names = [p["qualified_name"] for p in picks]
    # read whole, the request put four Slack tools ahead of every weather tool
    assert names[:2] == ["slack:send_message", "weather:get_weather"]
    assert picks[1]["provenance"]["details"]["part"] == "What's the weather in Paris tomorrow?"
    explained = run("pick", "-c", "demo", TWO_ASKS, "--explain")
    assert "for the part \"What's the weather in Paris tomorrow?\"" in explained.stdout
    single = json.loads(run("pick", "-c", "demo", "I run a bakery. What's the weather in "
                            "Paris tomorrow?", "--json").stdout)["picks"]
    assert "part" not in single[0]["provenance"]["details"]


@pytest.mark.semantic
@pytest.mark.parametrize("scorer", ["semantic", "cascade"])
def test_semantic_and_cascade_split_a_request_as_hybrid_does(run, shared_cache, scorer):
    picked = run("pick", "-c", "demo", TWO_ASKS, "--scorer", scorer, "-k", "8", "--json")
    assert picked.exit_code == 0, picked.output
    picks = json.loads(picked.stdout)["picks"]
    names = [p["qualified_name"] for p in picks]
    # read whole, the weather words drowned the Slack ask: no Slack tool among the first
    # three of `semantic`; split, the ask of each part has its tool
    assert names[0] == "slack:send_message"
    assert any(n.startswith("weather:") for n in names)
    assert picks[0]["provenance"]["details"]["part"] == (
        "Then send a slack message to the team about it.")
    single = json.loads(run("pick", "-c", "demo", "I run a bakery. What's the weather in "
                            "Paris tomorrow?", "--scorer", scorer, "--json").stdout)["picks"]
    assert "part" not in single[0]["provenance"]["details"]
