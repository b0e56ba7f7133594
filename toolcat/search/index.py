"""The persisted search index: what a scorer computes from the catalog alone, kept on disk.

A catalog read from files is identified by its content (toolcat.catalog.kept.catalog_key:
the text of its files and of every file a `$ref` pointed into, the tools' names as loaded, the
versions of toolcat and of reading), and its index by that and this format's number (`FORMAT`:
other data kept per catalog has its own versions there). The BM25 index is stored under that
key, and the tool embeddings under that key and the model's identity, in `cache_dir()/index/`.
A later run on the same catalog, in any process, loads them instead of rebuilding: no
tokenizing, no encoding.

Every file is a sealed cache entry (toolcat.source.cache): plain numpy arrays in .npy
records (never pickles), read as views of the entry rather than copies, or a
nearest-neighbour graph, bounded in size before it is read, whose seal must verify under
this user's key. One that cannot be used (truncated,
garbage, planted, copied from another catalog's key, another format, arrays that do not fit
the catalog or the model) is rebuilt and replaced, with a one-line warning on the `toolcat`
logger. Files are written atomically, so a reader never sees half of one. A catalog that is
not only files (tools given in Python, a Python module) is indexed in memory every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toolcat.catalog import kept
from toolcat.errors import ToolcatError, UsageError
from toolcat.model import Catalog, Tool
from toolcat.search import (
    LARGE_CATALOG,
    PERSISTED,
    SEMANTIC,
    build_scorer,
    check_options,
    default_scorer,
)
from toolcat.search.choice import takes_tuning
from toolcat.search.ranking import Scorer
from toolcat.source import cache as entries

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.device import Progress
    from toolcat.search.semantic import SemanticScorer
    from toolcat.search.tuning import Tuning
    from toolcat.search.values import Values

# Bump when what is stored changes, or when loading the same files can give other tools
# (a loader change that a toolcat release number does not mark): stale indexes are then ignored.
FORMAT = 13  # 2: BM25F names length-normalised with b = 0.75; 3: tool vectors blend two views;
# 4: a BM25F field for the values of example calls; 5: sealed entries; 6: BM25F title and
# server fields, a server's boilerplate left out; 7: a schema's parameters read within bounds
# (text.schema_parameters); 8: CJK text read as pairs of letters (text.words); 9: words of
# scripts other than Latin read (text.words); 10: accented Latin words read whole, folded,
# and a tool's own language's stems; 11: a tool that says little read by its title and
# parameters' names (text.stand_in); 12: an acronym's plural read as one word, its
# singular ("GPUs" -> gpu, text.acronym_plurals); 13: a description's first sentence a BM25F
# field of its own
# Indexes of this many catalogs are kept, the most recently used; each edit of a catalog gives
# it a new key, so without a bound the folder would grow with every edit.
KEEP_CATALOGS = 8
BM25_LIMIT = 16 << 20  # bytes of a BM25 index beyond 8 per byte of the catalog's files
MAX_WIDTH = 8192  # dimensions of an embedding model's vectors
log = logging.getLogger("toolcat")
T = TypeVar("T")


def catalog_key(catalog: Catalog) -> str | None:
    """The key of `catalog`'s index files: its content key (toolcat.catalog.kept, None for a
    catalog not read from files alone) and this format's number."""
    content = kept.catalog_key(catalog)
    if content is None:
        return None
    return hashlib.sha256(f"index {FORMAT}\0{content}".encode()).hexdigest()[:40]


def index_path(key: str, part: str) -> Path:
    return entries.cache_dir() / "index" / f"{key}-{part}"


def load_or_build(path: Path, limit: int, load: Callable[[list[np.ndarray]], T],
                  build: Callable[[], T], save: Callable[[T, Any], None]) -> T:
    """`load(arrays)` of the entry at `path` when it is there, sealed by this user, at most
    `limit` bytes and sound (.npy records of plain arrays, read as views of the entry:
    source.cache.numpy_arrays); otherwise `build()`, saved to `path` (atomically; a cache
    that cannot be written is left alone). An entry that cannot be used gives one warning
    line."""
    loaded = _recall(path, limit, load)
    if loaded is not None:
        return loaded
    built = build()
    entries.store(path, lambda handle: save(built, handle), KEEP_CATALOGS)
    return built


def _recall(path: Path, limit: int, load: Callable[[list[np.ndarray]], T]) -> T | None:
    """`load(arrays)` of the sealed entry at `path`, or None (see `load_or_build`)."""
    def parse(payload: memoryview) -> T:
        return load(entries.numpy_arrays(payload))

    return entries.recall(path, limit, parse, "search cache")


def _catalog_bytes(sources: Sequence[str]) -> int:
    """The size of the files a catalog was read from (what bounds its index)."""
    total = 0
    for source in sources:
        try:
            total += Path(source).stat().st_size
        except OSError:
            total += 1 << 20
    return total


def _bm25_limit(source: Catalog | Sequence[Tool]) -> int:
    sources = source.sources if isinstance(source, Catalog) else ()
    return BM25_LIMIT + 8 * _catalog_bytes(sources)


# When a semantic scorer's tool embeddings are not at hand: `auto` computes them for a
# catalog of up to LARGE_CATALOG tools and otherwise answers with the lexical stage (hybrid)
# until `toolcat index` has computed them; `now` computes them whatever the size; `stored`
# never computes them; `later` answers lexically at once and leaves `complete()` to the
# caller (serve runs it on a thread).
EMBEDDINGS = ("auto", "now", "stored", "later")
_SEMANTIC_OPTIONS = ("model", "cache", "device", "progress")


def scorer_for(name: str | None, source: Catalog | Sequence[Tool], *,
               tuning: Tuning | None = None, embeddings: str = "auto",
               **options: Any) -> Scorer:
    """The one way to build a scorer: `name` (None: `default_scorer`) over `source`, from
    the persisted index when it is a catalog read from files and seen before, with
    `tuning`'s evidence when the scorer is one a tuning applies to. `embeddings`: see
    EMBEDDINGS.

    Raises:
        UsageError: an unknown scorer, an option it does not take, a bad `embeddings`.
        MissingExtraError: the scorer needs the `semantic` extra.
    """
    if embeddings not in EMBEDDINGS:
        raise UsageError(f"unknown embeddings '{embeddings}'; known: {', '.join(EMBEDDINGS)}")
    tools = source.tools if isinstance(source, Catalog) else tuple(source)
    if name is None:
        name = default_scorer(len(tools))[0]
    if tuning is not None and takes_tuning(name):
        from toolcat.search.cascade import CascadeScorer
        from toolcat.search.hybrid import HybridScorer
        from toolcat.search.tuning import TunedScorer, effective_weights

        weights = effective_weights(tuning, tools)
        base = scorer_for(name, source, embeddings=embeddings,
                          **{**options, "semantic_weight": weights.semantic_weight})
        # what a tunable scorer is built as (a cascade without its vectors: hybrid's stage)
        assert isinstance(base, HybridScorer | CascadeScorer)
        return TunedScorer(base, tuning, weights)
    if name not in PERSISTED:
        return build_scorer(name, tools, **options)
    check_options(name, options)
    key = catalog_key(source) if isinstance(source, Catalog) else None
    limit = _bm25_limit(source)
    lexical_options = {k: v for k, v in options.items() if k == "k1"}
    if name == "bm25":
        return _bm25(key, tools, limit, **lexical_options)
    semantic_options = {k: v for k, v in options.items() if k in _SEMANTIC_OPTIONS}
    if name == "cascade":
        from toolcat.search.cascade import CascadeScorer

        # Every tool's vector, or none: a query never waits for its candidates to be
        # encoded (at 43,000 tools, 50 candidates took a second on a CPU). Where they are
        # not computed (`auto` past LARGE_CATALOG tools), the lexical stage below answers.
        stored = None if embeddings == "later" else _semantic(key, tools, embeddings,
                                                              **semantic_options)
        if stored is not None:
            return CascadeScorer.from_lexical(_bm25(key, tools, limit), **options,
                                              vectors=stored.vectors)
        options = {k: v for k, v in options.items() if k != "candidates"}
    if name == "semantic":
        semantic = _semantic(key, tools, "now", **semantic_options)
        assert semantic is not None
        return semantic
    return _hybrid(key, tools, limit, embeddings, options, semantic_options)


def _hybrid(key: str | None, tools: Sequence[Tool], limit: int, embeddings: str,
            options: dict[str, Any], semantic_options: dict[str, Any]) -> Scorer:
    """The hybrid scorer over `tools`: whole when its embeddings are at hand (see
    EMBEDDINGS), else its lexical stage, which `complete()` makes whole."""
    from toolcat.search.hybrid import HybridScorer

    # the semantic weight, if given, and the value kinds' table kept with the index
    given: dict[str, Any] = {k: v for k, v in options.items() if k == "semantic_weight"}
    given["values"] = _values(key, tools, limit)
    lexical = _bm25(key, tools, limit)
    # `later`: even stored embeddings wait for the thread that loads them and the model
    semantic = None if embeddings == "later" else _semantic(key, tools, embeddings,
                                                            **semantic_options)
    if semantic is not None:
        return HybridScorer.from_parts(lexical, semantic, **given)
    from toolcat.search.embeddings import load_embedder

    notice = ("the semantic stage is loading; ranked by words only until it is ready"
              if embeddings == "later" else
              f"the embeddings of this catalog ({len(tools):,} tools) are not computed yet; "
              "ranked by words only (run `toolcat index` to compute them once)")

    def complete(progress: Progress) -> SemanticScorer:
        done = _semantic(key, tools, "now", **{**semantic_options, "progress": progress})
        assert done is not None
        done.warm()
        return done

    return HybridScorer.lexical_stage(
        lexical, load_embedder(options.get("model"), options.get("device")), notice,
        complete, cache=options.get("cache", True), **given)


def prefetch_encoder(name: str | None, catalog: Catalog, **options: Any) -> bool:
    """Start loading the query encoder on a thread (Embedder.prefetch) when the scorer
    `name` (None: the default) will encode a query over `catalog` and the catalog's
    embeddings are stored (a catalog still to be encoded has seconds to wait anyway). A
    command that builds its scorer a little later (resolve, render) then finds the encoder
    loaded, or partly. Returns whether it did: the semantic stage is then a matter of
    reading the stored vectors in place and of that encoder."""
    from toolcat.search.embeddings import load_embedder, semantic_available

    if name is None:
        name = default_scorer(len(catalog.tools))[0]
    if name not in SEMANTIC or not catalog.tools or not semantic_available() \
            or options.get("cache", True) is False:
        return False
    try:
        embedder = load_embedder(options.get("model"), options.get("device"))
    except ToolcatError:  # reported when the scorer is built
        return False
    key = catalog_key(catalog)
    if key is not None and vectors_path(key, embedder.documents.ident).is_file():
        embedder.prefetch()
        return True
    return False


@dataclass(frozen=True)
class Indexed:
    """What `index_catalog` did: the tools indexed, the texts encoded now (0: all were
    stored), where the index is, and whether a nearest-neighbour graph was built."""

    tools: int
    encoded: int
    seconds: float
    folder: str
    model: str
    ann: str | None

    def to_json(self) -> dict[str, Any]:
        return {"tools": self.tools, "encoded": self.encoded,
                "seconds": round(self.seconds, 3), "folder": self.folder, "model": self.model,
                "ann": self.ann}


def index_catalog(catalog: Catalog, *, model: str | None = None, device: str | None = None,
                  progress: Progress | None = None) -> Indexed:
    """Compute and keep everything the search scorers need from `catalog` alone: the BM25F
    index and every tool's embeddings (and, past ann.ANN_FROM tools, their nearest-neighbour
    graph), so that a later search in any process encodes nothing but its query.
    `progress(tools done, tools to encode)` hears how encoding goes.

    Raises:
        UsageError: the catalog is not read only from JSON or YAML files (nothing to key a
            stored index by).
        MissingExtraError: the `semantic` extra is not installed.
    """
    import time

    from toolcat.search.ann import ANN_FROM, DEFAULT

    key = catalog_key(catalog)
    if key is None:
        raise UsageError("only a catalog read from JSON or YAML files can be indexed ahead "
                         "of time (its files key the stored index)")
    began = time.perf_counter()
    _bm25(key, catalog.tools, _bm25_limit(catalog))
    semantic = _semantic(key, catalog.tools, "now", model=model, device=device,
                         progress=progress)
    assert semantic is not None
    return Indexed(len(catalog.tools), semantic.encoded, time.perf_counter() - began,
                   str(index_path(key, "").parent), semantic.embedder.ident,
                   DEFAULT if len(catalog.tools) >= ANN_FROM else None)


def _bm25(key: str | None, tools: Sequence[Tool], limit: int, k1: float = 1.2) -> BM25Scorer:
    from toolcat.search.bm25 import BM25Index, BM25Scorer

    if key is None:
        return BM25Scorer(tools, k1=k1)

    def load(arrays: list[np.ndarray]) -> BM25Index:
        return BM25Index.from_arrays(arrays, size=len(tools), k1=k1)

    def build() -> BM25Index:
        # the .npz an earlier release kept, read through two copies: built again, not kept
        with contextlib.suppress(OSError):
            index_path(key, f"bm25-{k1:g}.npz").unlink(missing_ok=True)
        return BM25Index.build(tools, k1)

    index = load_or_build(index_path(key, f"bm25-{k1:g}.arrays"), limit, load, build,
                          lambda index, handle: entries.save_arrays(handle, index.arrays()))
    return BM25Scorer.from_index(tools, index)


def _values(key: str | None, tools: Sequence[Tool], limit: int) -> Values:
    """The value kinds `tools`' parameters take (toolcat.search.values), its tool side kept
    under the catalog's key and the code that makes it (values.table_ident)."""
    from toolcat.search.values import Taken, Values, table_ident

    ident = table_ident()
    if key is None or ident is None:
        return Values(tools)
    path = index_path(key, f"values-{ident}.arrays")

    def keep(make: Callable[[], Taken]) -> Taken:
        return load_or_build(path, limit, lambda arrays: Taken.from_arrays(arrays, len(tools)),
                             make, lambda taken, handle: entries.save_arrays(handle,
                                                                             taken.arrays()))

    return Values(tools, keep)


def _semantic(key: str | None, tools: Sequence[Tool], embeddings: str,
              model: str | None = None, cache: bool = True, device: str | None = None,
              progress: Progress | None = None) -> SemanticScorer | None:
    """The semantic scorer of `tools` with their embeddings, or None when `embeddings` says
    not to compute them and they are not stored (see EMBEDDINGS)."""
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.semantic import SemanticScorer

    embedder = load_embedder(model, device)
    compute = embeddings == "now" or (embeddings == "auto" and len(tools) <= LARGE_CATALOG)
    if key is None or not cache:
        from toolcat.search.semantic import tool_vectors

        found = tool_vectors(tools, embedder, cache=cache, progress=progress,
                             encode=compute)
        if found is None:
            return None
        return SemanticScorer.from_vectors(tools, embedder, *found, cache)
    path = vectors_path(key, embedder.documents.ident)  # the tools' vectors, by their model
    limit = len(tools) * MAX_WIDTH * 4 + 4096  # rows of float32, and the .npy header

    def load(arrays: list[np.ndarray]) -> np.ndarray:
        return _realigned(path, _fitting_vectors(arrays, len(tools), embedder.dimension))

    if not compute:
        stored = _recall(path, limit, load)
        if stored is None:
            return None
        return SemanticScorer.from_vectors(tools, embedder, stored, 0, True,
                                           ann=_ann(key, embedder.documents.ident, stored))
    encoded = 0

    def build() -> np.ndarray:
        nonlocal encoded
        from toolcat.search.semantic import tool_vectors

        vectors, encoded = tool_vectors(tools, embedder, progress=progress)
        return vectors

    vectors = load_or_build(path, limit, load, build, _save_vectors)
    return SemanticScorer.from_vectors(tools, embedder, vectors, encoded, True,
                                       ann=_ann(key, embedder.documents.ident, vectors))


def vectors_path(key: str, ident: str) -> Path:
    return index_path(key, f"vectors-{hashlib.sha256(ident.encode()).hexdigest()[:12]}.npy")


def _fitting_vectors(arrays: list[np.ndarray], size: int, width: int) -> np.ndarray:
    """The stored tool vectors, the one array of their entry: `size` rows of `width`
    float32s.

    Raises:
        ValueError: the entry does not fit the catalog and model.
    """
    import numpy as np

    if len(arrays) != 1:
        raise ValueError("the stored embeddings are not one array")
    vectors = arrays[0]
    if vectors.ndim != 2 or len(vectors) != size or vectors.dtype != np.float32 \
            or vectors.shape[1] != width:
        raise ValueError("the stored embeddings do not fit this catalog and model")
    return vectors


def _realigned(path: Path, vectors: np.ndarray) -> np.ndarray:
    """`vectors`, read in place from their mapped entry; when that entry was written before
    arrays were aligned in entries (their numbers 40 bytes past a 64-byte boundary), they are
    aligned and stored again, once, so that later processes read them in place instead of
    each copying 66 MB (at 43,000 tools) to align them (embeddings.aligned)."""
    from toolcat.search.embeddings import MATRIX_ALIGN, aligned

    if vectors.ctypes.data % MATRIX_ALIGN == 0 or not entries.mapped(vectors):
        return vectors
    moved = aligned(vectors)
    entries.store(path, lambda handle: _save_vectors(moved, handle), KEEP_CATALOGS)
    return moved


def _save_vectors(vectors: np.ndarray, handle: Any) -> None:
    entries.save_arrays(handle, [vectors])  # an .npy file, its numbers aligned in the entry


def _ann(key: str, ident: str, vectors: np.ndarray) -> Any:
    """The approximate nearest-neighbour index of `vectors` when the catalog is large enough
    for one (toolcat.search.ann), else None."""
    from toolcat.search.ann import ANN_FROM, load_or_build_ann

    if len(vectors) < ANN_FROM:
        return None
    return load_or_build_ann(index_path(key, ""), ident, vectors, keep=KEEP_CATALOGS)
