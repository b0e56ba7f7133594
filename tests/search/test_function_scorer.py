"""The scorer contract through the public API: a plain function `(query, tool) ->
score` (or the `{score, reason, details}`, sync or async) passed to `toolcat.pick`, and
an object query stringified as JSON before scoring."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass

import pytest

import toolcat
from toolcat.errors import UsageError


def overlap(query: str, tool: toolcat.Tool) -> float:
    """A user's plain keyword scorer: the share of the query's words in the name."""
    words = set(query.lower().split())
    name = set(tool.name.split("_"))
    return len(words & name) / len(words) if words else 0.0


def test_a_plain_function_is_a_scorer(demo):
    result = toolcat.pick("weather forecast", demo, scorer=overlap)
    assert [p.tool.name for p in result.picks][:1] == ["weather_forecast"]
    assert result.picks[0].score == 1.0
    assert result.scorer == "overlap"
    assert result.picks[0].provenance["scorer"] == "overlap"
    assert result.picks[0].reason == "scored by overlap"
    # the policy still applies: the floor and the safety rule
    assert all(p.score >= 0.05 for p in result.picks)
    unsafe = toolcat.pick("delete message", demo, scorer=overlap)
    assert "delete_message" not in [p.tool.name for p in unsafe.picks]
    assert "slack:delete_message" in unsafe.excluded_unsafe


def test_seed_002s_result_shape_gives_the_reason_and_details(demo):
    def scorer(query, tool):
        score = overlap(query, tool)
        return {"score": score, "reason": f"name words of {tool.name}",
                "details": {"words": sorted(set(query.split()) & set(tool.name.split("_")))}}

    best = toolcat.pick("send message", demo, scorer=scorer).picks[0]
    assert (best.tool.name, best.reason) == ("send_message", "name words of send_message")
    assert best.provenance["details"] == {"words": ["message", "send"]}


def test_an_async_scorer_is_awaited_concurrently(demo):
    running, most = 0, 0

    async def llm_like(query, tool):
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.001)
        running -= 1
        return overlap(query, tool)

    result = toolcat.pick("list files", demo, scorer=llm_like)
    assert result.picks[0].tool.name == "list_files"
    assert most == len(demo.tools)  # every call was in flight at once


def test_the_function_is_called_once_per_tool_for_a_query(demo):
    calls = []

    def counting(query, tool):
        calls.append(tool.qualified_name)
        return overlap(query, tool)

    toolcat.pick("read file", demo, scorer=counting, max_candidates=5)
    assert len(calls) == len(demo.tools) == len(set(calls))


@pytest.mark.parametrize(("answer", "shown"), [
    ("high", "'high'"), (float("nan"), "nan"), (1.5, "1.5"), (True, "True"),
    ({"reason": "no score"}, "{'reason': 'no score'}")])
def test_a_bad_score_is_an_error_naming_the_tool(demo, answer, shown):
    with pytest.raises(UsageError) as error:
        toolcat.pick("weather", demo, scorer=lambda q, t: answer)
    message = error.value.message
    assert f"the scorer <lambda> returned {shown} for calendar:list_calendars" in message
    assert "a number in 0..1" in message


def test_a_negative_score_is_no_evidence(demo):
    result = toolcat.pick("weather", demo, scorer=lambda q, t: -0.3)
    assert result.picks == () and not result.fits


def test_scorer_options_do_not_apply_to_a_function(demo):
    with pytest.raises(UsageError, match="options apply only"):
        toolcat.pick("weather", demo, scorer=overlap, model="x")


def test_a_slow_function_falls_back_at_the_timeout(demo):
    release = threading.Event()

    def slow(query, tool):
        release.wait(10)
        return 1.0

    try:
        result = toolcat.pick("weather", demo, scorer=slow, timeout_ms=50)
    finally:
        release.set()
    assert result.timed_out and result.scorer == "slow"


@dataclass
class Request:
    messages: list[dict[str, str]]


@pytest.mark.parametrize("query", [
    {"messages": [{"role": "user", "content": "weather forecast for Tokyo"}]},
    Request([{"role": "user", "content": "weather forecast for Tokyo"}]),
])
def test_an_object_query_is_stringified_as_json(demo, query):
    seen = []

    def scorer(text, tool):
        seen.append(text)
        return overlap(text.replace('"', " ").replace(",", " "), tool)

    result = toolcat.pick(query, demo, scorer=scorer)
    expected = '{"messages":[{"role":"user","content":"weather forecast for Tokyo"}]}'
    assert result.query == expected and set(seen) == {expected}
    assert json.loads(result.query) == {"messages": [{"role": "user",
                                                      "content": "weather forecast for Tokyo"}]}
    assert result.picks[0].tool.name == "weather_forecast"


def test_an_object_query_works_with_a_built_in_scorer(demo):
    result = toolcat.pick({"task": "send a slack message to the team"}, demo, scorer="bm25")
    assert result.picks[0].tool.name == "send_message"


def test_a_query_json_cannot_hold_is_an_error(demo):
    with pytest.raises(UsageError, match="text or JSON-like data"):
        toolcat.pick({"when": object()}, demo, scorer="bm25")
