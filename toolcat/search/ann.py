"""Approximate nearest neighbours for the semantic stage of very large catalogs.

Up to ANN_FROM tools, the semantic stage is one exact product of the query's vector with
every tool's (torch, one thread): about 1.5 ms at 43,000 tools, well under the time the model
takes to encode the query itself. At 100,000 tools the product costs about what encoding the
query does (82 ms against 60-70 ms, both on one starved thread of a loaded machine), and past
it grows with the catalog, while faiss's HNSW graph answered 100,000 in 0.75 ms with recall@10
0.993 against the exact search (benchmarks/ann_speed.py, docs/scaling.md). The graph is
built once per catalog and model, beside the stored embeddings, and loaded with them.

The index gives the CANDIDATES nearest tools; their cosines are exact (their rows of the
stored vectors), every other tool's cosine counts as 0, as a tool with no query term counts
0 lexically. The hybrid adds its lexical evidence for every tool, so a tool that BM25F finds
still ranks even when the graph misses it.

LIBRARIES maps a name to a backend; DEFAULT is the one measured best (docs/scaling.md:
benchmarks/ann_speed.py compares it with hnswlib and usearch).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

ANN_FROM = 100_000  # tools; below this the exact product is fast enough (docs/scaling.md)
CANDIDATES = 200  # nearest tools whose cosine is computed exactly
M = 32  # graph degree
EF_CONSTRUCTION = 200
EF_SEARCH = 160
log = logging.getLogger("toolcat")


class Index(Protocol):
    def search(self, query: np.ndarray, k: int) -> np.ndarray:
        """Ids of (about) the `k` nearest rows to `query`, nearest first."""
        ...

    def dump(self) -> bytes:
        """The index as bytes (stored as a sealed cache entry)."""
        ...


@dataclass(frozen=True)
class Backend:
    build: Callable[[np.ndarray], Index]
    load: Callable[[memoryview, int], Index]  # what `dump` gave, and the rows it must hold
    suffix: str


class _Faiss:
    def __init__(self, index: Any) -> None:
        self.index = index
        index.hnsw.efSearch = EF_SEARCH

    @classmethod
    def build(cls, vectors: np.ndarray) -> _Faiss:
        import faiss

        index = faiss.IndexHNSWFlat(vectors.shape[1], M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = EF_CONSTRUCTION
        index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index)

    @classmethod
    def load(cls, payload: memoryview, size: int) -> _Faiss:
        import faiss

        index = faiss.deserialize_index(np.frombuffer(payload, dtype=np.uint8))
        if index.ntotal != size:
            raise ValueError("the stored graph does not fit this catalog")
        return cls(index)

    def search(self, query: np.ndarray, k: int) -> np.ndarray:
        _, ids = self.index.search(query[None, :].astype(np.float32), k)
        found: np.ndarray = ids[0]
        return found[found >= 0]

    def dump(self) -> bytes:
        import faiss

        data: bytes = faiss.serialize_index(self.index).tobytes()
        return data


LIBRARIES = {"faiss": Backend(_Faiss.build, _Faiss.load, "faiss")}
DEFAULT = "faiss"  # measured against hnswlib and usearch: benchmarks/ann_speed.py


class Nearest:
    """The nearest-neighbour stage of a semantic scorer (see the module docstring)."""

    def __init__(self, index: Index) -> None:
        self.index = index

    def similarity(self, query: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        """Cosine of `query` to every row of `vectors`: exact for the CANDIDATES nearest by
        the graph, 0 for the others."""
        found = self.index.search(query, min(CANDIDATES, len(vectors)))
        out = np.zeros(len(vectors), dtype=np.float32)
        out[found] = vectors[found] @ query
        return out


def load_or_build_ann(stem: Path, ident: str, vectors: np.ndarray,
                      library: str = DEFAULT, keep: int = 8) -> Nearest:
    """The graph of `vectors` stored at `stem` + its name, a sealed cache entry, built and
    stored when it is not there or cannot be used (with a one-line warning); the folder keeps
    the files of the `keep` catalogs used last (toolcat.search.index.KEEP_CATALOGS)."""
    import hashlib

    from toolcat.source import cache

    backend = LIBRARIES[library]
    model = hashlib.sha256(ident.encode()).hexdigest()[:12]
    path = stem.with_name(f"{stem.name}ann-{model}.{backend.suffix}")
    # the vectors themselves, and per row the graph's links (2 * M ids of 8 bytes at most)
    limit = vectors.nbytes + len(vectors) * (2 * M * 8 + 64) + (1 << 20)
    index = cache.recall(path, limit, lambda payload: backend.load(payload, len(vectors)),
                         "search cache")
    if index is None:
        index = backend.build(vectors)
        data = index.dump()
        cache.store(path, lambda handle: handle.write(data), keep)
    return Nearest(index)
