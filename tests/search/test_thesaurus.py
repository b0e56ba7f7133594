"""A word no tool states, read through WordNet (toolcat.search.thesaurus): "eating" the
bandwidth for a tool of top consumers. Model-free, but for the last tests, which rank real
catalogs of benchmarks/data/real-servers with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.thesaurus import Thesaurus, synonyms

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("word", "reading"), [
    ("spent", "spend"),  # an irregular form: its base first
    ("paid", "payment"),  # a derivation of its verb
    ("eating", "consume"),  # the more general action of its verb
    ("invoices", "bill"),  # a plural: its synonyms
])
def test_the_shipped_table_reads_a_word_and_its_forms(word: str, reading: str) -> None:
    assert reading in synonyms(word)
    assert word not in synonyms(word)


@pytest.mark.parametrize("word", ["kubectl", "", "x" * 10_000, "zzzing", "qwertyuiop"])
def test_words_wordnet_lacks_have_no_reading(word: str) -> None:
    assert synonyms(word) == ()


def test_the_lexical_stage_reads_nothing_through_wordnet() -> None:
    tools = [Tool(name="list_top_consumers", description="The hosts that consume the most.",
                  server="net")]
    thesaurus = Thesaurus(BM25Scorer(tools))
    assert not thesaurus.evidence("who is eating the bandwidth", None).any()
    assert thesaurus.read_as("who is eating the bandwidth", 0, None) == []


@pytest.fixture(scope="module")
def isp() -> list[Tool]:
    """Three servers of the fresh12 half (an ISP's billing and routers, a PSA, a legal case
    manager): 326 tools, none of which says "eating" or "spent"."""
    return [t for t in load_catalog(DATA / "fresh12-catalog.json").tools
            if t.server in {"lightbill", "connectwise", "filevine"}]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the servers' tools are encoded once a session
def test_a_word_no_tool_states_puts_the_tool_of_its_sense_first(isp: list[Tool]) -> None:
    from toolcat.search import build_scorer, rank

    # without the reading, `lb_customer_usage` led: "customer" is its word
    found = rank(build_scorer("hybrid", isp),
                 "which customer is eating all our bandwidth on the tower router", limit=3)
    assert found[0].tool.name == "lb_router_top_consumers"
    assert "read through WordNet: eating -> consume" in found[0].reason
    assert found[0].details["wordnet"] == [["eating", "consume"]]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the servers' tools are encoded once a session
def test_a_word_the_catalog_states_is_read_as_typed(isp: list[Tool]) -> None:
    from toolcat.search import build_scorer

    scorer = build_scorer("hybrid", isp)
    embedder = scorer.semantic.embedder
    # "usage" is a word of lb_customer_usage: it is never read through WordNet
    assert scorer.thesaurus.expansions("show the bandwidth usage of customer 42", embedder) == []
    read = scorer.thesaurus.expansions("who is eating the bandwidth", embedder)
    assert [word for word, _ in read] == ["eating"]
