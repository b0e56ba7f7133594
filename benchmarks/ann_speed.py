"""Exact (numpy) against approximate nearest-neighbour search (faiss-cpu HNSW, hnswlib,
usearch) for the semantic stage: build time, query time, memory and recall@10 against the
exact top 10, at the sizes of real catalogs and past them.

Vectors: the real tool embeddings of a catalog (`--catalog`, computed and kept by `toolcat
index`), and synthetic catalogs of 200k-1M vectors made realistic from them: each is a real
tool vector plus Gaussian noise of the spread real vectors have around their neighbours,
normalised (so they cluster as real tools do, unlike uniform random vectors, which make
every index look good). Queries: real queries of the labeled sets, encoded with the model.

    python benchmarks/ann_speed.py --catalog ../shared/benchdata/seal_tools/catalog.json
    python benchmarks/ann_speed.py --sizes 200000 1000000 --libraries faiss usearch
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# one thread for every library, exact search included: on a shared machine a thread pool
# spinning on busy cores measures the machine, not the search
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from benchdata import BENCHDATA  # noqa: E402

from toolcat.search.ann import EF_CONSTRUCTION, EF_SEARCH, LIBRARIES, Backend, M  # noqa: E402

K = 10


@contextlib.contextmanager
def _scratch(data: bytes | None = None) -> Iterator[Path]:
    """A temporary file (holding `data`): these libraries read and write paths only."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "index"
        if data is not None:
            path.write_bytes(data)
        yield path


class _Hnswlib:
    def __init__(self, index: Any) -> None:
        self.index = index
        index.set_ef(EF_SEARCH)
        index.set_num_threads(1)

    @classmethod
    def build(cls, vectors: np.ndarray) -> _Hnswlib:
        import hnswlib

        index = hnswlib.Index(space="ip", dim=vectors.shape[1])
        index.init_index(max_elements=len(vectors), M=M, ef_construction=EF_CONSTRUCTION)
        index.add_items(vectors, np.arange(len(vectors)))
        return cls(index)

    @classmethod
    def load(cls, payload: memoryview, size: int) -> _Hnswlib:
        import hnswlib

        index = hnswlib.Index(space="ip", dim=0)
        with _scratch(bytes(payload)) as path:
            index.load_index(str(path))
        if index.get_current_count() != size:
            raise ValueError("the stored graph does not fit this catalog")
        return cls(index)

    def search(self, query: np.ndarray, k: int) -> np.ndarray:
        ids, _ = self.index.knn_query(query[None, :], k=k)
        found: np.ndarray = ids[0].astype(np.int64)
        return found

    def dump(self) -> bytes:
        with _scratch() as path:
            self.index.save_index(str(path))
            return path.read_bytes()


class _Usearch:
    def __init__(self, index: Any) -> None:
        self.index = index
        index.expansion_search = EF_SEARCH

    @classmethod
    def build(cls, vectors: np.ndarray) -> _Usearch:
        from usearch.index import Index as Usearch

        index = Usearch(ndim=vectors.shape[1], metric="ip", dtype="f32", connectivity=M,
                        expansion_add=EF_CONSTRUCTION, expansion_search=EF_SEARCH)
        index.add(np.arange(len(vectors)), vectors)
        return cls(index)

    @classmethod
    def load(cls, payload: memoryview, size: int) -> _Usearch:
        from usearch.index import Index as Usearch

        with _scratch(bytes(payload)) as path:
            index = Usearch.restore(str(path))
        if index is None or len(index) != size:
            raise ValueError("the stored graph does not fit this catalog")
        return cls(index)

    def search(self, query: np.ndarray, k: int) -> np.ndarray:
        found: np.ndarray = self.index.search(query, k).keys.astype(np.int64)
        return found

    def dump(self) -> bytes:
        with _scratch() as path:
            self.index.save(str(path))
            return path.read_bytes()


def libraries() -> dict[str, Backend]:
    """toolcat's backend and the two it was measured against."""
    return {**LIBRARIES, "hnswlib": Backend(_Hnswlib.build, _Hnswlib.load, "hnsw"),
            "usearch": Backend(_Usearch.build, _Usearch.load, "usearch")}


def real_vectors(catalog: Path) -> np.ndarray:
    from toolcat.catalog.load import load_catalog
    from toolcat.search.index import scorer_for

    scorer = scorer_for("semantic", load_catalog(catalog))
    return np.asarray(scorer.vectors, dtype=np.float32)  # type: ignore[attr-defined]


def query_vectors(count: int) -> np.ndarray:
    from toolcat.search.embeddings import embed_texts, load_embedder

    texts = []
    for name in ("seal_tools", "metatool", "bfcl_v4"):
        with (BENCHDATA / name / "queries.jsonl").open(encoding="utf-8") as handle:
            texts += [json.loads(line)["query"] for line in handle][: count // 3 + 1]
    return embed_texts(load_embedder(), texts[:count])[0]


def synthetic(real: np.ndarray, size: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # the spread of real vectors around their nearest neighbour, per dimension
    sample = real[rng.choice(len(real), min(len(real), 2000), replace=False)]
    nearest = np.argsort(-(sample @ real.T), axis=1)[:, 1]
    spread = float(np.std(sample - real[nearest]))
    out = real[rng.integers(0, len(real), size)] + rng.normal(
        0, spread, (size, real.shape[1])).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out.astype(np.float32)


def exact_top(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    scores = vectors @ query
    top = np.argpartition(-scores, K)[:K]
    return top[np.argsort(-scores[top])]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    found = libraries()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catalog", type=Path,
                        default=BENCHDATA / "seal_tools" / "catalog.json")
    parser.add_argument("--sizes", type=int, nargs="*", default=[200_000])
    parser.add_argument("--libraries", nargs="+", default=list(found))
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    real = real_vectors(args.catalog)
    queries = query_vectors(args.queries)
    sets = [(f"{len(real):,} real tool vectors ({args.catalog.parent.name})", real)]
    sets += [(f"{size:,} synthetic", synthetic(real, size)) for size in args.sizes]
    print("| vectors | search | build | per query (median) | recall@10 | memory |")
    print("|---|---|---|---|---|---|")
    for label, vectors in sets:
        truth = [exact_top(vectors, q) for q in queries]
        times = []
        for q in queries:
            began = time.perf_counter()
            exact_top(vectors, q)
            times.append(time.perf_counter() - began)
        exact_ms = statistics.median(times) * 1000
        print(f"| {label} | numpy exact | - | {exact_ms:.2f} ms | 1.000 | "
              f"{vectors.nbytes / 1e6:.0f} MB vectors |", flush=True)
        for name in args.libraries:
            before = rss_mb()
            began = time.perf_counter()
            index = found[name].build(vectors)
            build_s = time.perf_counter() - began
            grown = rss_mb() - before
            hits, times = 0, []
            for q, expected in zip(queries, truth, strict=True):
                began = time.perf_counter()
                ids = index.search(q, K)
                times.append(time.perf_counter() - began)
                hits += len(set(ids[:K].tolist()) & set(expected.tolist()))
            ms = statistics.median(times) * 1000
            print(f"| {label} | {name} | {build_s:.1f} s | {ms:.3f} ms "
                  f"({exact_ms / ms:.0f}× faster) | {hits / (K * len(queries)):.3f} | "
                  f"+{grown:.0f} MB |", flush=True)
            del index


if __name__ == "__main__":
    main()
