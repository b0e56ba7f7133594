"""The tuning file: small, versioned JSON, keyed to the content of each tool.

    {"format": "toolcat-tuning", "version": 1,
     "model": "all-MiniLM-L6-v2@...", "dimension": 384,
     "weights": {"semantic_weight": 12, "usage_weight": 8, "usage_floor": 0.3,
                 "term_weight": 0.5},
     "min_score": null,
     "trained": "<base64: 6 bytes of SHA-256 per training request>",
     "report": {...how the weights were chosen...},
     "tools": {"server:name": {"key": "<16 hex: the tool's content>", "count": 12,
                               "vector": "<base64 int8>", "scale": 0.0031,
                               "terms": {"stem": 5, ...}}}}

A usage vector is stored as signed bytes times `scale` (a cosine moves by less than 0.01):
about 1.1 KB a tool, whatever the number of requests. Request texts are not kept, only
their digests, so that `bench` can tell its queries from the training ones.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np

from toolcat.errors import CatalogError, ConfigError
from toolcat.model import SourceRef
from toolcat.search.tuning import DIGEST_BYTES, ToolUsage, Tuning, Weights
from toolcat.source.files import read_text

FORMAT = "toolcat-tuning"
VERSION = 1
MAX_BYTES = 256 * 1024 * 1024  # a tuning file is read whole; past this it is refused


def quantized(vector: np.ndarray) -> np.ndarray:
    """`vector` as the file keeps it (signed bytes times a scale), read back."""
    values, scale = _quantize(vector)
    return values.astype(np.float32) * np.float32(scale)


def _quantize(vector: np.ndarray) -> tuple[np.ndarray, float]:
    top = float(np.abs(vector).max()) if len(vector) else 0.0
    scale = top / 127 if top else 1.0
    return np.round(vector / scale).astype(np.int8), scale


def to_json(tuning: Tuning) -> dict[str, Any]:
    tools = {}
    dimension = 0
    for name, usage in tuning.tools.items():
        entry: dict[str, Any] = {"key": usage.key, "count": usage.count}
        if usage.vector is not None:
            values, scale = _quantize(usage.vector)
            dimension = len(values)
            entry["vector"] = base64.b64encode(values.tobytes()).decode()
            entry["scale"] = float(np.float32(scale))
        entry["terms"] = dict(usage.terms)
        tools[name] = entry
    return {"format": FORMAT, "version": VERSION, "model": tuning.model,
            "dimension": dimension, "weights": tuning.weights.to_json(),
            "min_score": tuning.min_score,
            "trained": base64.b64encode(b"".join(sorted(tuning.trained))).decode(),
            "report": dict(tuning.report), "tools": tools}


def dumps(tuning: Tuning) -> str:
    return json.dumps(to_json(tuning), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")) + "\n"


def load_tuning(path: str | Path) -> Tuning:
    """The tuning saved at `path`.

    Raises:
        ConfigError: the file cannot be read, is not a toolcat tuning, or is of a newer
            version; one line naming the file.
    """
    path = Path(path)
    shown = str(path)
    try:
        text = read_text(path)  # bounded: a device or an endless pipe is refused, not read
        if len(text) > MAX_BYTES:
            raise _bad(shown, f"a tuning file is at most {MAX_BYTES // 2**20} MiB")
        data = json.loads(text)
    except ConfigError:
        raise
    except CatalogError as exc:
        raise _bad(shown, f"cannot read the tuning file ({exc.message})") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise _bad(shown, f"not a tuning file: not JSON ({first})") from None
    return from_json(data, shown)


def from_json(data: Any, shown: str) -> Tuning:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(shown, "not a toolcat tuning file (`toolcat tune -o FILE` makes one)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _bad(shown, "the tuning file has no valid 'version'")
    if version > VERSION:
        raise _bad(shown, f"tuning format version {version} is newer than this toolcat reads "
                   f"({VERSION}); upgrade toolcat, or run `toolcat tune` again")
    model = _get(data, "model", str, shown)
    dimension = _get(data, "dimension", int, shown)
    weights = _weights(_get(data, "weights", dict, shown), shown)
    min_score = data.get("min_score")
    if min_score is not None and (not _number(min_score) or not 0 <= min_score <= 1):
        raise _bad(shown, "'min_score' must be a number from 0 to 1 or null")
    trained = _trained(_get(data, "trained", str, shown), shown)
    report = data.get("report", {})
    if not isinstance(report, dict):
        raise _bad(shown, "'report' must be a mapping")
    tools = {}
    for name, entry in _get(data, "tools", dict, shown).items():
        tools[name] = _usage(name, entry, dimension, shown)
    return Tuning(model, weights, tools, None if min_score is None else float(min_score),
                  trained, report, shown)


def _bad(shown: str, message: str) -> ConfigError:
    return ConfigError(message, where=SourceRef(shown))


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)


def _get(data: Mapping[str, Any], key: str, kind: type, shown: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        names = {str: "a string", int: "a whole number", dict: "a mapping"}
        raise _bad(shown, f"the tuning file needs '{key}' ({names.get(kind, kind.__name__)})")
    return value


def _weights(data: Mapping[str, Any], shown: str) -> Weights:
    values = {}
    for key in Weights().to_json():
        value = data.get(key)
        if not _number(value) or value < 0:
            raise _bad(shown, f"'weights.{key}' must be a number of at least 0")
        values[key] = float(value)
    if values["usage_floor"] >= 1:
        raise _bad(shown, "'weights.usage_floor' must be under 1")
    return Weights(**values)


def _trained(text: str, shown: str) -> frozenset[bytes]:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _bad(shown, "'trained' is not base64") from None
    if len(raw) % DIGEST_BYTES:
        raise _bad(shown, "'trained' does not hold whole digests")
    return frozenset(raw[i:i + DIGEST_BYTES] for i in range(0, len(raw), DIGEST_BYTES))


def _usage(name: str, entry: Any, dimension: int, shown: str) -> ToolUsage:
    where = f"tool '{name}'"
    if not isinstance(entry, dict):
        raise _bad(shown, f"{where}: each tool is a mapping")
    key, count = entry.get("key"), entry.get("count")
    if not isinstance(key, str) or not isinstance(count, int) or isinstance(count, bool) \
            or count < 1:
        raise _bad(shown, f"{where}: needs 'key' (a string) and 'count' (at least 1)")
    vector = None
    if "vector" in entry:
        scale = entry.get("scale")
        try:
            raw = base64.b64decode(entry["vector"], validate=True) \
                if isinstance(entry["vector"], str) else b""
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != dimension or not dimension or not _number(scale) or scale <= 0:
            raise _bad(shown, f"{where}: 'vector' must be {dimension} base64 bytes with a "
                       "positive 'scale'")
        vector = np.frombuffer(raw, dtype=np.int8).astype(np.float32) * np.float32(scale)
    terms = entry.get("terms", {})
    if not isinstance(terms, dict) or not all(
            isinstance(t, str) and isinstance(n, int) and not isinstance(n, bool) and n > 0
            for t, n in terms.items()):
        raise _bad(shown, f"{where}: 'terms' maps stems to counts of at least 1")
    return ToolUsage(key, count, vector, dict(terms))
