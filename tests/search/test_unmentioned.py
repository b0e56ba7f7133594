"""A request that names what no tool of the catalog mentions, and that its best tool fits
weakly, gets no tool, with the words as the reason: in pick's text and --json and in serve's
search answer (toolcat.search.unmentioned)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.resolution.profile import Profile
from toolcat.search.abstain import without_quotes
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.unmentioned import MOST_SPECIFIC, specificity, unmentioned
from toolcat.serve.gate import Gate

GITHUB = str(CATALOGS / "github.yaml")  # a real catalog file: GitHub's tools, no chat
SLACK = "post in #eng on slack that the deploy is done"

BASE = ("--model", "all-MiniLM-L6-v2")


@pytest.fixture(scope="module")
def github() -> BM25Scorer:
    return BM25Scorer(load_catalog(GITHUB).tools)


def test_the_words_no_tool_mentions_are_read_without_the_values(github):
    """What no tool of the catalog says, of some weight in English; not the request's first
    word (its action), its channels, identifiers, quotes and URLs, nor words a tool has."""
    assert unmentioned(SLACK, github, without_quotes) == ["slack", "deploy"]
    assert unmentioned("open a pull request for the fix", github, without_quotes) == []
    assert unmentioned("summarise https://slack.example/x for me", github,
                       without_quotes) == []  # the action and the URL's host: not read
    assert unmentioned("tick off 'pepperoni pizza' in ENG-412", github,
                       without_quotes) == []  # a quoted title and an identifier: values
    # common words are no name of anything ("tomorrow", "turn" are in no tool of GitHub's)
    assert unmentioned("please turn it around by tomorrow", github, without_quotes) == []


def test_a_name_weighs_by_how_specific_it_is():
    """How specific the words no tool mentions are (the tenth feature measured in
    train/missing_service_study.py): a service's name in no general English list ("datadog")
    weighs more than one that is also a word ("slack"), and a word as common as RARE
    nothing; together they weigh at most MOST_SPECIFIC."""
    assert specificity(["datadog"]) > specificity(["jira"]) > specificity(["slack"]) > 0
    assert specificity([]) == 0 and specificity(["tomorrow"]) == 0
    assert specificity(["datadog", "pagerduty", "grafana", "zulip"]) == MOST_SPECIFIC


def test_a_request_for_a_service_the_catalog_never_mentions_is_turned_away(run,
                                                                           shared_cache):
    """Slack on a catalog of GitHub tools: no tool fits, and pick says which word no tool
    mentions; a request the catalog serves keeps its tools."""
    away = json.loads(run("pick", "-c", GITHUB, SLACK, "--json", *BASE).stdout)
    assert away["picks"] == []
    assert "nothing in this catalog mentions 'slack'" in away["message"]
    assert "zero-shot" in away["message"]
    text = run("pick", "-c", GITHUB, SLACK, *BASE).stdout
    assert "no tool fits: nothing in this catalog mentions 'slack'" in text
    kept = json.loads(run("pick", "-c", GITHUB, "open a pull request", "--json",
                          *BASE).stdout)
    assert kept["picks"][0]["name"] == "create_pull_request"
    # the caller's threshold alone: no abstention
    floor = json.loads(run("pick", "-c", GITHUB, SLACK, "--json", "--min-score", "0.05",
                           *BASE).stdout)
    assert floor["picks"]


@pytest.mark.parametrize("model", [(), ("--model", "minilm-tools")], ids=str)
def test_every_model_shows_no_tool_for_it(run, shared_cache, model):
    """Whichever model ranks, the Slack request gets no GitHub tool (under `minilm-tools`
    no tool reaches even the 0.05 floor) and the pull request keeps its tool."""
    away = json.loads(run("pick", "-c", GITHUB, SLACK, "--json", *model).stdout)
    assert away["picks"] == [] and away["message"].startswith("no tool fits")
    kept = json.loads(run("pick", "-c", GITHUB, "open a pull request", "--json",
                          *model).stdout)
    assert kept["picks"][0]["name"] == "create_pull_request"


def test_serve_says_why_it_found_nothing(shared_cache):
    """serve's search_tools answers with the same reason as pick, and finds the tools of a
    request the catalog serves."""
    gate = Gate(load_catalog(GITHUB), Profile(scorer="hybrid", scorer_options={
        "model": "all-MiniLM-L6-v2"}))
    gate.complete()  # the semantic stage: until it is ready, serve answers by words only
    away = gate.search(SLACK)
    assert away.found == () and away.method == "hybrid (turned away)"
    assert "nothing in this catalog mentions 'slack'" in away.response["message"]
    kept = gate.search("open a pull request")
    assert "create_pull_request" in kept.found
