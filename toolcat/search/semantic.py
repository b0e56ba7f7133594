"""Semantic similarity: cosine of sentence embeddings of the query and of each tool.

Each tool is embedded once as its name (split into words), description and parameter texts;
vectors are cached on disk (see `toolcat.search.embeddings`), so only the query is encoded at
search time. A batch of queries (`scores_many`, as bench runs them) is cached too, so a second
run over the same query set encodes nothing. The score is the cosine similarity of the unit
vectors with negatives clipped to 0: the same number for the same pair of texts whatever else
the catalog holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from toolcat.model import Tool
from toolcat.search.device import Progress
from toolcat.search.embeddings import Embedder, embed_texts, load_embedder
from toolcat.search.text import identifier_names, own_description, parameter_texts, split_name

MAX_CHARS = 2000  # the model reads 256 word pieces; longer text only costs time


def tool_text(tool: Tool, names: frozenset[str] = frozenset()) -> str:
    """What a tool is embedded as: `name words: description. Parameters: name: text; ...`,
    without the description's clauses that point to another of the `names`."""
    params = "; ".join(f"{split_name(n)}: {d}" if d else split_name(n)
                       for n, d in parameter_texts(tool.parameters))
    text = f"{split_name(tool.name)}: {own_description(tool, names)}".strip()
    if params:
        text += f" Parameters: {params}"
    return text[:MAX_CHARS]


def tool_vectors(tools: Sequence[Tool], embedder: Embedder, *, cache: bool = True,
                 progress: Progress | None = None) -> tuple[np.ndarray, int]:
    """The vectors of `tools` (one row each) and how many had to be encoded now."""
    names = identifier_names(tools)
    return embed_texts(embedder, [tool_text(t, names) for t in tools], cache=cache,
                       progress=progress)


class SemanticScorer:
    """Cosine similarity of embeddings from a sentence-transformers model (offline)."""

    name = "semantic"

    def __init__(self, tools: Sequence[Tool], *, model: str | None = None,
                 cache: bool = True, device: str | None = None,
                 progress: Progress | None = None) -> None:
        """`device`: see toolcat.search.device; `progress(done, total)` hears how encoding
        the tools goes, when some are not in the cache."""
        embedder = load_embedder(model, device)
        self._setup(tools, embedder,
                    *tool_vectors(tools, embedder, cache=cache, progress=progress), cache)

    @classmethod
    def from_vectors(cls, tools: Sequence[Tool], embedder: Embedder, vectors: np.ndarray,
                     encoded: int = 0, cache: bool = True) -> SemanticScorer:
        """A scorer over `tools` with their vectors already at hand (a persisted index)."""
        scorer = cls.__new__(cls)
        scorer._setup(tools, embedder, vectors, encoded, cache)
        return scorer

    def _setup(self, tools: Sequence[Tool], embedder: Embedder, vectors: np.ndarray,
               encoded: int, cache: bool) -> None:
        self.tools = tools
        self.cache = cache
        self.embedder = embedder
        self.vectors, self.encoded = vectors, encoded
        self._matrix: Any = None
        self._last: tuple[str | None, np.ndarray] = (None, np.zeros(0))

    def similarity(self, queries: Sequence[str], *, cached: bool = False) -> np.ndarray:
        """Cosine similarities, one row per query (unclipped, -1..1). With `cached`, query
        vectors come from (and go to) the disk cache."""
        if not queries:
            return np.zeros((0, len(self.tools)), dtype=np.float32)
        if cached:
            vectors, _ = embed_texts(self.embedder, queries, cache=self.cache)
            return vectors @ self.vectors.T
        if len(queries) == 1 and queries[0] == self._last[0]:
            return self._last[1]
        if self._matrix is None:
            self._matrix = self.embedder.matrix(self.vectors)
        found = self.embedder.similarity(queries, self._matrix)
        if len(queries) == 1:
            self._last = (queries[0], found)  # explain() asks again for the same query
        return found

    def score_array(self, query: str) -> np.ndarray:
        return np.clip(self.similarity([query])[0], 0.0, 1.0)

    def scores(self, query: str) -> np.ndarray:
        return self.score_array(query)

    def scores_many(self, queries: Sequence[str]) -> list[list[float]]:
        return np.clip(self.similarity(queries, cached=True), 0.0, 1.0).tolist()

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        cosine = float(self.similarity([query])[0][index])
        return (f"semantic similarity {cosine:.2f} ({self.embedder.ident.split('@')[0]})",
                {"cosine": round(cosine, 6), "model": self.embedder.ident})
