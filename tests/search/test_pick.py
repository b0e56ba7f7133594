"""pick: safety, threshold, limit, timeout fallback, provenance."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

import toolcat
from tests.conftest import CATALOGS
from toolcat.errors import UsageError
from toolcat.search import build_scorer
from toolcat.search.pick import PickResult, pick


class SlowScorer:
    """A user's own scorer that takes longer than the caller can wait."""

    name = "slow"

    def __init__(self, tools):
        self.tools = tools
        self.release = threading.Event()

    def scores(self, query):
        self.release.wait(10)
        return [1.0] * len(self.tools)

    def explain(self, query, index):
        return "always", {}


def test_unsafe_tools_are_left_out_unless_allowed(demo):
    safe = pick("drop the users table", demo, scorer="bm25")
    # the best fit is unsafe: the safe tools left (create_table) do something else
    assert safe.picks == () and not safe.fits
    assert safe.best_unsafe is not None and safe.best_unsafe.tool.name == "drop_table"
    assert "the best fit, database:drop_table" in safe.message
    assert "database:drop_table" in safe.excluded_unsafe
    other = pick("list the tables of the database", demo, scorer="bm25")
    assert other.fits and other.best_unsafe is None
    assert all(p.tool.safe for p in other.picks)
    unsafe = pick("drop the users table", demo, scorer="bm25", allow_unsafe=True)
    assert unsafe.picks[0].tool.name == "drop_table"
    assert unsafe.excluded_unsafe == ()


def test_at_most_max_candidates_are_picked_best_first(demo):
    result = pick("pull request", demo, scorer="bm25", max_candidates=2)
    assert len(result.picks) == 2
    assert [p.rank for p in result.picks] == [1, 2]
    assert result.picks[0].score >= result.picks[1].score


def test_tools_under_the_threshold_are_not_picked(demo):
    scores = [p.score for p in pick("pull request", demo, scorer="bm25").picks]
    result = pick("pull request", demo, scorer="bm25", min_score=scores[1])
    assert [p.score for p in result.picks] == scores[:2]


def test_when_no_tool_fits_the_result_is_empty_and_says_so(demo):
    result = pick("bake a chocolate cake", demo, scorer="bm25")
    assert result.picks == ()
    assert not result.fits
    assert result.message == "no tool fits: none scored at least 0.05 with bm25"


def test_each_pick_carries_its_reason_and_provenance(demo):
    best = pick("open a pull request for my branch", demo, scorer="bm25").picks[0]
    assert best.tool.name == "create_pull_request"
    assert best.reason.startswith("BM25F matched")
    assert best.provenance["scorer"] == "bm25"
    assert best.provenance["details"]["matched"]
    assert best.provenance["origin"]["file"].endswith("github.yaml")
    assert best.provenance["origin"]["line"] > 0


def test_when_scoring_runs_out_of_time_the_first_tools_in_order_are_picked(demo):
    slow = SlowScorer(demo.tools)
    try:
        result = pick("anything", demo, scorer=slow, timeout_ms=50)
    finally:
        slow.release.set()
    assert result.timed_out
    first_safe = [t for t in demo.tools if t.safe][:3]
    assert [p.tool for p in result.picks] == first_safe
    assert all(p.score == 0.0 and p.provenance["details"] == {"fallback": "timeout"}
               for p in result.picks)
    assert "did not finish in 50 ms" in result.message


def test_scoring_that_finishes_in_time_is_used(demo):
    result = pick("open a pull request", demo, scorer="bm25", timeout_ms=60_000)
    assert not result.timed_out
    assert result.picks[0].tool.name == "create_pull_request"


def test_a_scorer_built_beforehand_can_be_reused(demo):
    scorer = build_scorer("fuzzy", demo.tools)
    assert pick("send msg", demo, scorer=scorer).picks[0].tool.name == "send_message"


def test_a_scorer_built_over_other_tools_is_refused(demo):
    with pytest.raises(UsageError):
        pick("send msg", demo, scorer=build_scorer("fuzzy", demo.tools[:5]))


def test_results_are_frozen(demo):
    result = pick("send msg", demo, scorer="fuzzy")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.picks = ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.picks[0].score = 1.0


def test_the_catalog_may_be_a_path_and_pick_is_public_api():
    result = toolcat.pick("send msg", str(CATALOGS / "slack.yaml"), scorer="fuzzy")
    assert isinstance(result, PickResult)
    assert result.picks[0].tool.name == "send_message"


@pytest.mark.parametrize("option", [{"max_candidates": 0}, {"min_score": 1.5},
                                    {"timeout_ms": 0}])
def test_bad_option_values_are_usage_errors(demo, option):
    with pytest.raises(UsageError):
        pick("send msg", demo, scorer="fuzzy", **option)


@pytest.mark.semantic
def test_the_default_scorer_is_the_most_accurate_one_installed(demo, shared_cache):
    result = pick("drop the users table", demo, allow_unsafe=True)
    assert result.scorer == "hybrid"
    assert result.picks[0].tool.name == "drop_table"


def test_decorated_classes_and_functions_are_picked_and_given_back():
    @toolcat.tool(name="get_weather", description="Get the current weather for a city.",
                  parameters={"type": "object", "properties": {"city": {"type": "string"}}})
    class GetWeather:
        def run(self) -> str:
            return "sunny"

    @toolcat.tool(description="Send an email message to someone.",
                  parameters={"type": "object", "properties": {"to": {"type": "string"}},
                              "required": ["to"]})
    def send_email(to: str) -> str:
        return to

    result = toolcat.pick("weather in Paris", [GetWeather, send_email], scorer="bm25")
    assert [(p.tool.name, p.target) for p in result.picks] == [("get_weather", GetWeather)]
    with pytest.raises(UsageError, match="is not a toolcat tool"):
        toolcat.pick("weather", [GetWeather, "get_weather"], scorer="bm25")


@pytest.mark.parametrize("command", [["pick", "fetch a web page", "--scorer", "bm25"],
                                     ["search", "fetch"]])
def test_equal_scores_go_to_the_higher_priority_then_catalog_order(run, tmp_path, command):
    catalog = tmp_path / "pages.yaml"
    catalog.write_text("tools:\n" + "".join(
        f"  - {{name: fetch_page_{x}, description: Fetch a web page., priority: {p}, "
        "parameters: {type: object, properties: {}}}\n" for x, p in
        (("a", 50), ("b", 90), ("c", 50))))
    result = run(*command, "-c", str(catalog), "--json")
    found = json.loads(result.stdout)
    names = [p["name"] for p in found.get("picks", found.get("tools", []))]
    assert names == ["fetch_page_b", "fetch_page_a", "fetch_page_c"]
