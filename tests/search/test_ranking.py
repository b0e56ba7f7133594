"""`rank` shortlists before it orders (toolcat.search.ranking._shortlist) and squashes only the
shortlist of a keyed scorer (hybrid): its answers must be exactly those of sorting every score,
ties broken by priority then catalog order, which is what these tests compute plainly."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.hybrid import squash
from toolcat.search.ranking import Scorer

LIMITS = (1, 3, 10, None)
THRESHOLDS = (0.0, 0.05, 0.5)


def plainly(scorer: Scorer, query: str, limit: int | None, min_score: float,
            where: np.ndarray | None) -> list[tuple[str, float]]:
    """The ranking by sorting every score (what rank did before it shortlisted)."""
    scores = np.asarray(scorer.scores(query), dtype=np.float64)
    kept = np.flatnonzero((scores > 0) & (scores >= min_score)
                          & (True if where is None else where)).tolist()
    kept.sort(key=lambda i: (-scores[i], -scorer.tools[i].priority, i))
    return [(scorer.tools[i].name, float(scores[i])) for i in kept[:limit]]


def ranked(scorer: Scorer, query: str, limit: int | None, min_score: float,
           where: np.ndarray | None) -> list[tuple[str, float]]:
    return [(s.tool.name, s.score) for s in rank(scorer, query, limit=limit,
                                                   min_score=min_score, where=where,
                                                   explain=False)]


def same_everywhere(scorer: Scorer, queries: Sequence[str]) -> None:
    half = np.arange(len(scorer.tools)) % 2 == 0
    for query in queries:
        for limit in LIMITS:
            for min_score in THRESHOLDS:
                for where in (None, half):
                    assert ranked(scorer, query, limit, min_score, where) == \
                        plainly(scorer, query, limit, min_score, where), (query, limit,
                                                                            min_score)


@pytest.fixture(scope="module")
def seal(benchdata: Path) -> tuple[list[Tool], list[str]]:
    tools = list(load_catalog(benchdata / "seal_tools" / "catalog.json").tools)
    lines = (benchdata / "seal_tools" / "queries.jsonl").read_text().splitlines()
    return tools, [json.loads(line)["query"] for line in lines[:12]]


def test_bm25_over_4k_tools_ranks_as_sorting_every_score(seal):
    tools, queries = seal
    same_everywhere(build_scorer("bm25", tools), queries)


class Tied:
    """Scores with many ties across the catalog and priorities that break some of them;
    keyed like hybrid when `keyed` (scores are `squash` of the key)."""

    name = "tied"

    def __init__(self, size: int, keyed: bool) -> None:
        rng = np.random.default_rng(7)
        self.tools = [Tool(f"t{i}", priority=int(rng.integers(0, 3)) * 10)
                      for i in range(size)]
        self.key = rng.integers(0, 40, size).astype(np.float64) / 4  # 0 to 9.75 nats
        if keyed:
            self.ranking_key = self._ranking_key

    def _ranking_key(self, query: str) -> tuple[np.ndarray, Callable[[Any], Any]]:
        return self.key, squash

    def scores(self, query: str) -> np.ndarray:
        return squash(self.key)

    def explain(self, query: str, index: int) -> tuple[str, dict[str, Any]]:
        return "", {}


@pytest.mark.parametrize("keyed", [False, True])
def test_ties_at_the_limit_go_to_priority_then_catalog_order(keyed):
    scorer = Tied(5000, keyed)
    same_everywhere(scorer, ["any"])
    assert len(ranked(scorer, "any", 3, 0.0, None)) == 3


def test_hybrid_over_4k_tools_ranks_as_sorting_every_score(seal, embedder, shared_cache):
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.hybrid import HybridScorer
    from toolcat.search.semantic import SemanticScorer

    tools, queries = seal
    # stand-in tool vectors (encoding 4,076 tools takes minutes): the ranking code is the
    # same whatever the vectors are, and their cosines spread over -0.2..0.2 as unrelated
    # real ones do
    vectors = np.random.default_rng(3).standard_normal((len(tools), 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    hybrid = HybridScorer.from_parts(BM25Scorer(tools),
                                     SemanticScorer.from_vectors(tools, embedder, vectors))
    assert hasattr(hybrid, "ranking_key")
    same_everywhere(hybrid, queries[:6])


def test_a_large_catalogs_product_in_two_halves_is_bit_for_bit_the_whole_one():
    """Past SPLIT_ROWS tools one query's product runs in two halves on two threads; its
    numbers, hence every score and ranking, must be those of the one product."""
    from toolcat.search import embeddings

    rng = np.random.default_rng(11)
    for rows in (embeddings.SPLIT_ROWS, embeddings.SPLIT_ROWS + 1_000 + 7):
        matrix = rng.standard_normal((rows, 384)).astype(np.float32)
        for _ in range(5):
            query = rng.standard_normal((1, 384)).astype(np.float32)
            with embeddings._one_blas_thread():
                assert np.array_equal(embeddings._halved(query, matrix), query @ matrix.T)
        assert embeddings._halves_sound[(rows, 384)] is True
