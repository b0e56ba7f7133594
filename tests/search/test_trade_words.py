"""The trade's word for the user's, learned from what public tool texts state together
(toolcat.search.trade_words): "files" for a tool that says directory. Model-free, but for the
last tests, which rank a real catalog of benchmarks/data/real-servers with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.text import stem
from toolcat.search.trade_words import KEEP, TradeWords, associates

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("word", "associate"), [
    ("files", "directory"), ("database", "sql"), ("repos", "repository"), ("mail", "email")])
def test_the_shipped_table_holds_words_tool_texts_state_together(word: str,
                                                                 associate: str) -> None:
    found = associates(stem(word))
    assert associate in found
    assert len(found) <= KEEP


@pytest.mark.parametrize("word", ["", "zzzqx", "x" * 10_000, "kubectl apply"])
def test_a_word_no_tool_text_holds_has_no_associates(word: str) -> None:
    assert associates(stem(word)) == ()


def test_the_lexical_stage_reads_nothing_through_the_tool_texts() -> None:
    tools = [Tool(name="onelake_delete_directory", description="Deletes a directory.",
                  server="fabric")]
    trade = TradeWords(BM25Scorer(tools))
    assert not trade.evidence("remove the old files", None).any()
    assert trade.read_as("remove the old files", 0, None) == []


@pytest.fixture(scope="module")
def lakehouse() -> list[Tool]:
    """Three servers of the fresh10 half: Microsoft Fabric's OneLake, Cloudinary's media
    library (which has a `delete-folder`) and GitHub: 208 tools."""
    return [t for t in load_catalog(DATA / "fresh10-catalog.json").tools
            if t.server in {"fabric", "cloudinary", "github"}]


@pytest.mark.semantic
def test_the_trades_word_puts_the_tool_that_says_it_first(lakehouse: list[Tool]) -> None:
    from toolcat.search import build_scorer, rank

    # without the reading, Cloudinary's `delete-folder` led: "folder" is its word
    found = rank(build_scorer("hybrid", lakehouse),
                 "remove the Files/staging/old folder from the lakehouse, with all its files",
                 limit=3)
    assert found[0].tool.name == "onelake_delete-directory"
    assert "files -> directory, tool texts" in found[0].reason
    assert ["files", "directory"] in found[0].details["trade_words"]


@pytest.mark.semantic
def test_a_tool_that_states_the_word_gets_nothing_from_its_associates(
        lakehouse: list[Tool]) -> None:
    from toolcat.search import build_scorer, rank

    scorer = build_scorer("hybrid", lakehouse)
    embedder = scorer.semantic.embedder
    request = "which files are under Files/raw in the bronze lakehouse"
    trade = scorer.thesaurus.trade
    assert "files" in [word for word, _, _ in trade.readings(request, embedder)]
    lexical = BM25Scorer(lakehouse)
    file_term = lexical.term_id(stem("files"))
    assert file_term is not None
    index = lexical.index
    stating = index.indices[index.indptr[file_term]:index.indptr[file_term + 1]].tolist()
    assert stating  # the catalog states the word: those tools are read as typed
    for tool in stating:
        assert "files" not in [word for word, _ in trade.read_as(request, tool, embedder)]
    first = rank(scorer, request, limit=1)[0]
    assert lakehouse.index(first.tool) in stating
    assert "trade_words" not in first.details
