"""The persisted search index: what a scorer computes from the catalog alone, kept on disk.

A catalog read from files is identified by its content: the SHA-256 of the text of every file
it was read from (taken as it was read, `Catalog.digests`, so a file changed since cannot key
the tools read before) and of every file a `$ref` pointed into, the tools' names as loaded,
and the versions of toolcat and of this format. The BM25 index is stored under that key, and
the tool embeddings under that key and the model's identity, in `cache_dir()/index/`. A later
run on the same catalog, in any process, loads them instead of rebuilding: no tokenizing, no
encoding.

Every file is a sealed cache entry (toolcat.source.cache): an uncompressed .npz or .npy of
plain arrays (never pickles), bounded in size before it is read, whose seal must verify under
this user's key. One that cannot be used (truncated, garbage, planted, copied from another
catalog's key, another format, arrays that do not fit the catalog or the model) is rebuilt
and replaced, with a one-line warning on the `toolcat` logger. Files are written atomically,
so a reader never sees half of one. A catalog that is not only files (tools given in Python,
a Python module) is indexed in memory every time.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar
from urllib.parse import unquote

from toolcat import __version__
from toolcat.model import Catalog, Tool
from toolcat.search import build_scorer, check_options
from toolcat.search.base import Scorer
from toolcat.source import cache

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.device import Progress

# Bump when what is stored changes, or when loading the same files can give other tools
# (a loader change that a toolcat release number does not mark): stale indexes are then ignored.
FORMAT = 5  # 2: BM25F names length-normalised with b = 0.75; 3: tool vectors blend two views;
# 4: a BM25F field for the values of example calls; 5: sealed entries
# Indexes of this many catalogs are kept, the most recently used; each edit of a catalog gives
# it a new key, so without a bound the folder would grow with every edit.
KEEP_CATALOGS = 8
BM25_LIMIT = 16 << 20  # bytes of a BM25 index beyond 8 per byte of the catalog's files
MAX_WIDTH = 8192  # dimensions of an embedding model's vectors
INDEXED = (".json", ".yaml", ".yml")  # the files a persisted index may be read from
log = logging.getLogger("toolcat")
T = TypeVar("T")


def catalog_key(catalog: Catalog) -> str | None:
    """The content hash of a catalog read from files, or None when it was not (only) read
    from JSON or YAML files."""
    digest = hashlib.sha256(f"toolcat {__version__} index {FORMAT}\0".encode())
    if not catalog.sources:
        return None
    for source in catalog.sources:  # the text each file was read from, hashed as it was read
        if Path(source).suffix.lower() not in INDEXED or source not in catalog.digests:
            return None
        digest.update(bytes.fromhex(catalog.digests[source]))
    for uri in sorted(catalog.documents):
        path = Path(unquote(uri.removeprefix("file://")))
        if not uri.startswith("file://") or path.suffix.lower() not in INDEXED:
            return None
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            return None
    digest.update("\0".join(t.qualified_name for t in catalog.tools).encode())
    return digest.hexdigest()[:40]


def index_path(key: str, part: str) -> Path:
    return cache.cache_dir() / "index" / f"{key}-{part}"


def load_or_build(path: Path, limit: int, load: Callable[[BinaryIO], T], build: Callable[[], T],
                  save: Callable[[T, Any], None]) -> T:
    """`load(file)` of the entry at `path` when it is there, sealed by this user, at most
    `limit` bytes and sound (an .npz is read only when its members are stored uncompressed);
    otherwise `build()`, saved to `path` (atomically; a cache that cannot be written is left
    alone). An entry that cannot be used gives one warning line."""
    def parse(payload: memoryview) -> T:
        return load(cache.numpy_file(payload, limit))

    loaded = cache.recall(path, limit, parse, "search cache")
    if loaded is not None:
        return loaded
    built = build()
    cache.store(path, lambda handle: save(built, handle), KEEP_CATALOGS)
    return built


def _catalog_bytes(sources: Sequence[str]) -> int:
    """The size of the files a catalog was read from (what bounds its index)."""
    total = 0
    for source in sources:
        try:
            total += Path(source).stat().st_size
        except OSError:
            total += 1 << 20
    return total


def indexed_scorer(name: str, catalog: Catalog | Sequence[Tool], **options: Any) -> Scorer:
    """The scorer called `name` over the catalog's tools, from the persisted index when the
    catalog was seen before (see the module docstring); `build_scorer` otherwise."""
    if not isinstance(catalog, Catalog):
        return build_scorer(name, catalog, **options)
    tools = catalog.tools
    key = catalog_key(catalog)
    if key is None or name not in ("bm25", "semantic", "hybrid", "cascade"):
        return build_scorer(name, tools, **options)
    check_options(name, options)
    limit = BM25_LIMIT + 8 * _catalog_bytes(catalog.sources)
    if name == "bm25":
        return _bm25(key, tools, limit, **options)
    if name == "cascade":
        from toolcat.search.cascade import CascadeScorer

        return CascadeScorer.from_lexical(_bm25(key, tools, limit), **options)
    from toolcat.search.semantic import SemanticScorer

    semantic = SemanticScorer.from_vectors(tools, *_vectors(key, tools, **{
        k: v for k, v in options.items() if k in ("model", "cache", "device", "progress")}))
    if name == "semantic":
        return semantic
    from toolcat.search.hybrid import HybridScorer

    return HybridScorer.from_parts(_bm25(key, tools, limit), semantic, **{
        k: v for k, v in options.items() if k == "semantic_weight"})


def _bm25(key: str, tools: Sequence[Tool], limit: int, k1: float = 1.2) -> BM25Scorer:
    from toolcat.search.bm25 import BM25Index, BM25Scorer

    def load(file: BinaryIO) -> BM25Index:
        return BM25Index.load(file, size=len(tools), k1=k1)

    index = load_or_build(index_path(key, f"bm25-{k1:g}.npz"), limit, load,
                          lambda: BM25Index.build(tools, k1), BM25Index.save)
    return BM25Scorer.from_index(tools, index)


def _vectors(key: str, tools: Sequence[Tool], model: str | None = None, cache: bool = True,
             device: str | None = None, progress: Progress | None = None,
             ) -> tuple[Any, np.ndarray, int, bool]:
    """The embedder, the tools' vectors (one row per tool), how many were encoded now, and
    `cache`. Without `cache`, nothing is read or written."""
    import numpy as np

    from toolcat.search.embeddings import load_embedder
    from toolcat.search.semantic import tool_vectors

    embedder = load_embedder(model, device)
    if not cache:
        return (embedder, *tool_vectors(tools, embedder, cache=False, progress=progress),
                False)
    encoded = 0

    def build() -> np.ndarray:
        nonlocal encoded
        vectors, encoded = tool_vectors(tools, embedder, progress=progress)
        return vectors

    def load(file: BinaryIO) -> np.ndarray:
        vectors: np.ndarray = np.load(file, allow_pickle=False)
        if vectors.ndim != 2 or len(vectors) != len(tools) or vectors.dtype != np.float32 \
                or vectors.shape[1] != embedder.dimension:
            raise ValueError("the stored embeddings do not fit this catalog and model")
        return vectors

    ident = hashlib.sha256(embedder.ident.encode()).hexdigest()[:12]
    limit = len(tools) * MAX_WIDTH * 4 + 4096  # rows of float32, and the .npy header
    vectors = load_or_build(index_path(key, f"vectors-{ident}.npy"), limit, load, build,
                            lambda built, handle: np.save(handle, built))
    return embedder, vectors, encoded, True

