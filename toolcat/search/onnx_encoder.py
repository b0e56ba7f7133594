"""Queries encoded without torch: the sentence-transformers model exported once to ONNX and
run by onnxruntime, with the model's own tokenizer (the `tokenizers` library) and numpy.

Importing torch and sentence-transformers and loading MiniLM takes 6-10 s on a CPU, which a
search on a catalog whose embeddings are stored would spend to encode one short query. The
first time toolcat loads the torch model anyway (`toolcat index`, or the first texts it
encodes), it exports the model's transformer to ONNX beside the embedding cache; from then on
queries are encoded by onnxruntime, which starts in about half a second.

What is exported is the transformer alone; the pooling is done here as sentence-transformers
does it for a mean-pooling model: the mean of the token vectors under the attention mask
(the count clamped to 1e-9), then L2 normalisation (the norm clamped to 1e-12). The tokenizer
truncates at the model's `max_seq_length` and pads a batch to its longest text, as
sentence-transformers does. Only models made of a Transformer, a mean Pooling and optionally a
Normalize module are exported; any other is encoded by torch. An export is checked against
the torch model on probe texts before it is kept (cosine ≥ EXPORT_COSINE).

The export is a sealed cache entry (toolcat.source.cache), like the embeddings: one whose
seal does not verify is removed with one warning line and exported again when torch is next
loaded. The session is built from the very bytes whose seal was checked.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import json
import logging
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import toolcat.search.native as native
from toolcat.source import cache as cache_files

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger("toolcat")
FORMAT = "onnx-transformer-1"  # changes when what is exported changes: older exports are unused
EXPORT_LIMIT = 1 << 31  # bytes of an export: ONNX files hold at most 2 GB
EXPORT_COSINE = 0.9999  # an export must agree this well with torch on the probe texts
PROBES = ("find the weather in Paris tomorrow",
          "send an email to my manager about the quarterly report and attach the slides",
          "x")
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_MODULES = {"sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
            "sentence_transformers.models.Normalize"}


def runtime_available() -> bool:
    """Whether onnxruntime and tokenizers are installed (checked without importing them);
    writing the export needs the onnx package besides (`export`)."""
    return installed("onnxruntime") and installed("tokenizers")


def installed(module: str) -> bool:
    """Whether `module` can be imported (checked without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # a module set to None in sys.modules: as good as not installed
        return False


def export_path(folder: Path, ident: str) -> Path:
    """Where the export of the model `ident` is kept, in its embedding cache `folder`."""
    digest = hashlib.sha256(f"{ident}\0{FORMAT}".encode()).hexdigest()[:16]
    return folder / f"{digest}-query-encoder.onnx"


def exportable(location: str) -> bool:
    """Whether the model at `location` (a folder) is a mean-pooling sentence-transformers
    model with a tokenizer.json: what the pooling here reproduces exactly."""
    folder = Path(location)
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        types = [m["type"] for m in modules]
        pooling = next(m for m in modules if m["type"].endswith(".Pooling"))
        config = json.loads((folder / pooling["path"] / "config.json").read_text(
            encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return False
    means = [k for k, v in config.items() if k.startswith("pooling_mode") and v]
    return (set(types) <= _MODULES and types[:2] == [
        "sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling"]
        and means == ["pooling_mode_mean_tokens"]
        and config.get("include_prompt", True) is not False
        and (folder / "tokenizer.json").is_file() and max_tokens(location) is not None)


@functools.lru_cache(maxsize=8)
def stated_dimension(location: str) -> int | None:
    """The length of the vectors of the model at `location` when it is one the export
    reproduces (`exportable`): its mean pooling's `word_embedding_dimension`, which is what
    both the export and sentence-transformers give; None otherwise."""
    if not exportable(location):
        return None
    folder = Path(location)
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        pooling = next(m for m in modules if m["type"].endswith(".Pooling"))
        value = json.loads((folder / pooling["path"] / "config.json").read_text(
            encoding="utf-8"))["word_embedding_dimension"]
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
        else None


class OnnxEncoder:
    """The exported transformer, its tokenizer and the pooling: unit vectors of texts."""

    def __init__(self, model: bytes, location: str, max_length: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self._model = model
        self._sessions: dict[int, Any] = {}
        self._lock = threading.Lock()
        self._runtime = onnxruntime
        self.tokenizer = Tokenizer.from_file(str(Path(location) / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length)
        self.tokenizer.no_padding()
        self.dimension = int(self._session(1).get_outputs()[0].shape[-1])

    def _session(self, threads: int) -> Any:
        """A session running on `threads` threads (0: onnxruntime's choice), made once."""
        with native.section(), self._lock:
            if threads not in self._sessions:
                options = self._runtime.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                # threads that spin while waiting starve the other jobs of a busy machine
                # (the torch path sets OMP_WAIT_POLICY=PASSIVE for the same reason)
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                options.log_severity_level = 3
                self._sessions[threads] = self._runtime.InferenceSession(
                    self._model, options, providers=["CPUExecutionProvider"])
            return self._sessions[threads]

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Unit-length float32 vectors, one row per text. One text runs on one thread (its
        layers are too small to gain from more: see embeddings._one_thread); batches on
        onnxruntime's choice of threads, as torch batches run on torch's. Texts are batched
        by length, as sentence-transformers batches them: a batch is padded to its longest
        text, and requests of 20 and 300 word pieces side by side cost twice the time (the
        vectors are the same, each row is computed apart)."""
        session = self._session(1 if len(texts) == 1 else 0)
        with native.section():
            encodings = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        parts = []
        for start in range(0, len(texts), batch_size):
            batch = [encodings[i] for i in order[start:start + batch_size]]
            width = max(len(e.ids) for e in batch)
            feed = {name: np.zeros((len(batch), width), dtype=np.int64) for name in INPUTS}
            for row, encoding in enumerate(batch):
                size = len(encoding.ids)
                feed["input_ids"][row, :size] = encoding.ids
                feed["attention_mask"][row, :size] = encoding.attention_mask
                feed["token_type_ids"][row, :size] = encoding.type_ids
            with native.section():
                hidden = session.run(None, feed)[0]
            parts.append(pool(hidden, feed["attention_mask"]))
        pooled = parts[0] if len(parts) == 1 else np.concatenate(parts)
        found = np.empty_like(pooled)
        found[order] = pooled
        return found


def pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors under `mask`, L2-normalised: sentence-transformers' Pooling
    (mean tokens) and `normalize_embeddings=True`, with its clamps."""
    weights = mask[..., None].astype(np.float32)
    mean = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.clip(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12, None)
    unit: np.ndarray = (mean / norms).astype(np.float32)
    return unit


def max_tokens(location: str) -> int | None:
    """The word pieces the model at `location` reads (`max_seq_length` in its
    sentence_bert_config.json), or None when it does not say."""
    try:
        config = json.loads((Path(location) / "sentence_bert_config.json").read_text(
            encoding="utf-8"))
        value = config["max_seq_length"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, int) and value > 0 else None


def load(path: Path, location: str) -> OnnxEncoder | None:
    """The encoder stored at `path`, or None when there is none (or it was refused: a
    warning line says so and removes it, see toolcat.source.cache.recall)."""
    max_length = max_tokens(location)
    if max_length is None:
        return None
    return cache_files.recall(path, EXPORT_LIMIT,
                              lambda payload: OnnxEncoder(bytes(payload), location,
                                                          max_length),
                              "exported query encoder")


def export(model: SentenceTransformer, path: Path, location: str) -> OnnxEncoder | None:
    """Export `model`'s transformer to ONNX, check it against `model` on PROBES, keep it
    at `path` as a sealed entry and return it; None when the export fails, disagrees with
    torch, or the cache cannot be written (the torch model then goes on encoding)."""
    if not cache_files.usable(path.parent):
        return None
    if not installed("onnx"):  # torch.onnx.export writes through it
        cache_files.warn_once("onnx", "the onnx package is not installed: the model cannot "
                              "be exported, so every query loads torch, which takes seconds "
                              "(pip install 'toolcat[semantic]')")
        return None
    import torch

    transformer: Any = model[0]
    max_length = max_tokens(location)
    if max_length is None or max_length != model.max_seq_length or \
            set(transformer.tokenizer.model_input_names) != set(INPUTS):
        return None

    class LastHiddenState(torch.nn.Module):
        """The transformer called by keyword (its positional order changes between
        transformers versions), giving its token vectors."""

        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    wrapped = LastHiddenState(transformer.auto_model).eval()
    # two texts of different lengths: the mask's padding path is the one traced
    sample = transformer.tokenizer(list(PROBES[:2]), padding=True, return_tensors="pt")
    buffer = io.BytesIO()
    try:
        with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
            warnings.simplefilter("ignore")
            # torch annotates `f` as a path; the exporter writes to a file object too
            torch.onnx.export(
                wrapped, tuple(sample[name] for name in INPUTS), buffer,  # type: ignore[arg-type]
                input_names=list(INPUTS), output_names=["last_hidden_state"],
                dynamic_axes={name: {0: "batch", 1: "tokens"}
                              for name in (*INPUTS, "last_hidden_state")},
                opset_version=17, dynamo=False)
        encoder = OnnxEncoder(buffer.getvalue(), location, max_length)
    except Exception as exc:  # an exporter's failure costs only the faster start
        log.info("toolcat: the model could not be exported to ONNX (%s); torch encodes "
                 "queries", " ".join(str(exc).split())[:160])
        return None
    reference = model.encode(list(PROBES), normalize_embeddings=True, convert_to_numpy=True,
                             show_progress_bar=False)
    agreement = float(np.min(np.sum(encoder.encode(list(PROBES)) * reference, axis=1)))
    if agreement < EXPORT_COSINE:
        log.info("toolcat: the ONNX export disagrees with torch (cosine %.6f); not kept",
                 agreement)
        return None
    entry = cache_files.sealed(path, buffer.getbuffer())
    if entry is not None:
        try:
            cache_files.write_atomically(path, lambda handle: handle.write(entry))
        except OSError:
            return encoder
    return encoder
