"""`priority` ("higher = preferred when multiple tools match"): it breaks ties in
relevance, and orders the tools the levels matched by capability; where a cap cuts the list,
the trace says what priority did."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA
from tests.resolution.conftest import fate
from toolcat.catalog.load import load_catalog
from toolcat.resolution import Resolver

CATALOG = DATA / "resolve" / "priority.yaml"  # the capabilities.yaml shape
QUERY = "import a csv file"  # csv_to_table and csv_to_sheet tie; priority 50 and 80


@pytest.fixture
def resolve(profile):
    catalog = load_catalog(CATALOG)

    def go(text: str, query: str = QUERY):
        return Resolver(catalog, profile(text)).resolve(query)

    return go


def test_priority_breaks_a_tie_in_relevance_where_the_cap_cuts(resolve):
    r = resolve("model: {size_b: 70}\nmcp: {max_in_prompt: 1}")
    assert r.verdict("csv_to_sheet").score == r.verdict("csv_to_table").score
    assert r.names("visible") == ["tool_search", "csv_to_sheet"]  # catalog order says table
    assert fate(r, "csv_to_table") == ("deferred", "over-cap")
    assert "ranked below csv_to_sheet: same score, lower priority (50 < 80)" in \
        r.verdict("csv_to_table").reason
    assert "priority 80 ranks it above csv_to_table" in r.verdict("csv_to_sheet").reason
    order = r.trace.find("order")[0]
    assert (order.outcome, order.rule) == ("score, then priority", "priority")


def test_priority_does_not_outrank_relevance_without_levels(resolve):
    # excel_analyzer has the highest priority but nothing to do with the request
    r = resolve("model: {size_b: 70}\nmcp: {max_in_prompt: 3}")
    assert r.names("visible")[1:] == ["csv_to_sheet", "csv_to_table"]  # then the fit ends
    assert r.verdict("excel_analyzer").status == "deferred"


def test_with_levels_priority_orders_the_tools_matched_by_capability(resolve):
    r = resolve("model: {size_b: 70}\nbuiltins: []\nmcp: {defer: false, max_in_prompt: 2}\n"
                "levels: {required_capabilities: [data_processing]}")
    assert fate(r, "memory_recall") == ("visible", "level-core")  # core: not cut by the cap
    # the prompt lists them by preference too: priority 90, 80, then the core tool's 70
    assert r.names("visible") == ["excel_analyzer", "csv_to_sheet", "memory_recall"]
    assert fate(r, "csv_to_table") == ("excluded", "over-cap")
    assert fate(r, "csv_processor") == ("excluded", "over-cap")
    assert "priority 50" in r.verdict("csv_to_table").reason
    assert fate(r, "chart_generator") == ("excluded", "level-no-capability")
    order = r.trace.find("order")[0]
    assert (order.outcome, order.rule) == ("priority, then score", "priority")


def test_the_json_trace_shows_the_priority(run, write):
    profile = write("scorer: keyword\nmodel: {size_b: 70}\nmcp: {max_in_prompt: 1}\n")
    data = json.loads(run("resolve", QUERY, "-c", str(CATALOG), "-p", str(profile),
                          "--json").stdout)
    cut = {t["name"]: t for t in data["deferred"]}["csv_to_table"]
    assert cut["rule"] == "over-cap" and "lower priority (50 < 80)" in cut["reason"]
