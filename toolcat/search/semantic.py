"""Semantic similarity: cosine of sentence embeddings of the query and of each tool.

Each tool is embedded twice: once as its whole text (name split into words, description and
parameter texts) and once as its summary (name and description only). A tool's vector is the
blend `(1 - SUMMARY_SHARE) * whole + SUMMARY_SHARE * summary`, so its score is the same blend
of the two cosines. One mean-pooled vector of the whole text is pulled towards the bulk of
it, and for most tools the bulk is parameters or a list of returned fields: they can outweigh
the one line that says what the tool is for, and a near miss wins (get_file_info for "read the
file notes.txt", export_query_to_csv for "run this SQL query", git_show for "show the commit
history"). The summary keeps that line's say; the whole text keeps the
parameters', which answer requests that name concrete values (the labeled sets lose accuracy
without them).

Vectors are cached on disk (see `toolcat.search.embeddings`), so only the query is encoded at
search time. A batch of queries (`scores_many`, as bench runs them) is cached too, so a second
run over the same query set encodes nothing. The score is the blend of the two cosine
similarities (in -1..1) with negatives clipped to 0: the same number for the same pair of
texts whatever else the catalog holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, overload

import numpy as np

from toolcat.model import Tool
from toolcat.search.device import Progress
from toolcat.search.embeddings import (
    Embedder,
    EmbeddingCache,
    embed_texts,
    load_embedder,
    text_key,
)
from toolcat.search.split import by_best_part
from toolcat.search.text import (
    Repeated,
    identifier_names,
    own_description,
    parameter_texts,
    repeated_sentences,
    split_name,
    stand_in,
)

MAX_CHARS = 2000  # the model reads 256 word pieces; longer text only costs time
# The summary's share of a tool's vector, measured on the labeled sets and on the obvious
# queries of tests/search/test_obvious_queries.py (docs/ranking.md):
# 0.2 to 0.3 fix the same near misses, and the semantic scorer alone gains on every set; past
# 0.2 the hybrid loses a little on bfcl_v4, whose requests name parameter values.
SUMMARY_SHARE = 0.2
CHUNK = 2048  # tools encoded, then saved to the embedding cache, at a time
# nats of evidence per unit of cosine: hybrid's weight of the embedding (its module docstring
# says why 12), here so that semantic's split of a request weighs parts the same way
LAMBDA = 12.0
# nats per unit of cosine added for each doubling of a request's length past LENGTH_FROM
# words: the lexical evidence is a sum over the request's words, which grows with them, the
# cosine one number that does not; chosen on train/fusion.py's training requests (docs/search.md)
LENGTH_WEIGHT = 3.0
LENGTH_FROM = 8
_WORD = re.compile(r"\w+")


def length_weight(request: str) -> float:
    """The nats per unit of cosine a request of this length adds to the semantic weight: none
    up to LENGTH_FROM words (runs of letters and digits), LENGTH_WEIGHT a doubling past it."""
    count = len(_WORD.findall(request))
    return LENGTH_WEIGHT * math.log2(count / LENGTH_FROM) if count > LENGTH_FROM else 0.0


def tool_texts(tool: Tool, names: frozenset[str] = frozenset(),
               repeated: Repeated = frozenset()) -> tuple[str, str]:
    """What a tool is embedded as: its whole text and its summary. The summary is `name
    words: description`, without its server's `repeated` sentences and the description's
    clauses that point to another of the `names` (see `own_description`), a description
    that says little completed by the tool's title and parameters' names (`stand_in`); the
    whole text adds `Parameters: name: text; ...`."""
    description = stand_in(tool, own_description(tool, names, repeated))
    summary = f"{split_name(tool.name)}: {description}".strip()
    params = "; ".join(f"{split_name(n)}: {d}" if d else split_name(n)
                       for n, d in parameter_texts(tool.parameters))
    whole = f"{summary} Parameters: {params}" if params else summary
    return whole[:MAX_CHARS], summary[:MAX_CHARS]


def blend(whole: np.ndarray, summary: np.ndarray) -> np.ndarray:
    """Tool vectors from the unit vectors of their whole texts and summaries (row by row)."""
    return ((1 - SUMMARY_SHARE) * whole + SUMMARY_SHARE * summary).astype(np.float32)


@overload
def tool_vectors(tools: Sequence[Tool], embedder: Embedder, *, cache: bool = True,
                 progress: Progress | None = None, encode: Literal[True] = True
                 ) -> tuple[np.ndarray, int]: ...


@overload
def tool_vectors(tools: Sequence[Tool], embedder: Embedder, *, cache: bool = True,
                 progress: Progress | None = None, encode: bool = True
                 ) -> tuple[np.ndarray, int] | None: ...


def tool_vectors(tools: Sequence[Tool], embedder: Embedder, *, cache: bool = True,
                 progress: Progress | None = None, encode: bool = True
                 ) -> tuple[np.ndarray, int] | None:
    """The vectors of `tools` (one row each, see `blend`) by the model that encodes tools
    (`embedder.documents`), and how many texts had to be encoded now. `progress(tools done,
    tools to encode)` counts tools, not texts, and hears only of the tools that had a text
    to encode; what is encoded is kept in the cache CHUNK tools at a time, so an interrupted
    run resumes where it stopped. Without `encode`, None when any text is not in the
    cache."""
    embedder = embedder.documents
    names, repeated = identifier_names(tools), repeated_sentences(tools)
    pairs = [tool_texts(t, names, repeated) for t in tools]
    keys = {text_key(text) for pair in pairs for text in pair}
    known = EmbeddingCache(embedder.ident).get(keys) if cache else {}
    todo = [i for i, (whole, summary) in enumerate(pairs)
            if text_key(whole) not in known or text_key(summary) not in known]
    if todo and not encode:
        return None
    if todo and progress is not None:  # before the model loads: a caller can say what comes
        progress(0, len(todo))
    encoded = 0
    for start in range(0, len(todo), CHUNK):
        chunk = [pairs[i] for i in todo[start:start + CHUNK]]
        texts = [whole for whole, _ in chunk] + [summary for _, summary in chunk]

        def told(done: int, total: int, start: int = start, size: int = len(chunk)) -> None:
            if progress is not None:
                progress(start + done * size // max(total, 1), len(todo))

        encoded += embed_texts(embedder, texts, cache=cache, known=known,
                               progress=told if progress is not None else None)[1]
        if progress is not None:
            progress(start + len(chunk), len(todo))
    texts = [whole for whole, _ in pairs] + [summary for _, summary in pairs]
    vectors, _ = embed_texts(embedder, texts, cache=False, known=known)
    return blend(vectors[:len(tools)], vectors[len(tools):]), encoded


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
                     encoded: int = 0, cache: bool = True, ann: Any = None) -> SemanticScorer:
        """A scorer over `tools` with their vectors already at hand (a persisted index);
        `ann`: their approximate nearest-neighbour index (toolcat.search.ann), for catalogs
        too large for an exact product per query."""
        scorer = cls.__new__(cls)
        scorer._setup(tools, embedder, vectors, encoded, cache, ann)
        return scorer

    def _setup(self, tools: Sequence[Tool], embedder: Embedder, vectors: np.ndarray,
               encoded: int, cache: bool, ann: Any = None) -> None:
        self.tools = tools
        self.cache = cache
        self.embedder = embedder
        self.vectors, self.encoded = vectors, encoded
        self.ann = ann
        self._matrix: Any = None
        self._last: tuple[str | None, np.ndarray] = (None, np.zeros(0))

    def warm(self) -> None:
        """Load the model and ready the product, so that the first query costs what the
        others do (serve does this on a thread before it turns hybrid)."""
        self.similarity(["warm up"])
        self._last = (None, np.zeros(0))

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
        if self.ann is not None and len(queries) == 1:
            found = self.ann.similarity(self.embedder.query_vector(queries[0]),
                                        self.vectors)[None, :]
            self._last = (queries[0], found)
            return found
        if self._matrix is None:
            self._matrix = self.embedder.matrix(self.vectors)
        found = self.embedder.similarity(queries, self._matrix)
        if len(queries) == 1:
            self._last = (queries[0], found)  # explain() asks again for the same query
        return found

    def split_similarity(self, queries: Sequence[str], *, cached: bool = False
                         ) -> tuple[np.ndarray, list[tuple[str, ...]], np.ndarray]:
        """Each tool's cosine for each query, the better of the whole request's and its best
        part's where its parts ask for different things (toolcat.search.split, lifts
        included); with the parts of each query and, per query and tool, the index of the
        part its cosine came from (-1: the whole request)."""
        # the split's thresholds are in nats: the cosine counts hybrid's weight of it there,
        # so that a part is sure of its best tool at the same cosine in both scorers
        found = by_best_part(
            queries, lambda texts: LAMBDA * np.clip(self.similarity(texts, cached=cached), 0,
                                                    None))
        cosine = np.array([f.evidence for f in found]).reshape(len(queries), -1) / LAMBDA
        return cosine, [f.texts for f in found], np.array([f.source for f in found])

    def score_array(self, query: str) -> np.ndarray:
        return np.clip(self.split_similarity([query])[0][0], 0.0, 1.0)

    def scores(self, query: str) -> np.ndarray:
        return self.score_array(query)

    def scores_many(self, queries: Sequence[str]) -> list[list[float]]:
        return np.clip(self.split_similarity(queries, cached=True)[0], 0.0, 1.0).tolist()

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        cosines, texts, source = self.split_similarity([query])
        cosine = float(cosines[0][index])
        details: dict[str, Any] = {"cosine": round(cosine, 6), "model": self.embedder.ident}
        reason = f"semantic similarity {cosine:.2f} ({self.embedder.label})"
        if source[0][index] >= 0:
            part = texts[0][source[0][index]]
            reason = f"{reason}, for the part of the request {part!r}"
            details["part"] = part
        return reason, details
