"""The tuning file: small, versioned JSON, keyed to the content of each tool.

    {"format": "toolcat-tuning", "version": 4,
     "model": "all-MiniLM-L6-v2@...", "dimension": 384,
     "weights": {"semantic_weight": 12, "usage_weight": 8, "usage_floor": 0.3,
                 "term_weight": 0.5, "lift": 1, "mix": 0.5, "calibration": 1},
     "min_score": null,
     "abstain": {"margin": 0.02, "requests": [{"vector": "<base64 int8>", "scale": 0.0031},
                                               ...]},
     "trained": "<base64: 6 bytes of SHA-256 per training request>",
     "report": {...how the weights were chosen...},
     "tools": {"server:name": {"key": "<16 hex: the tool's content>", "count": 12,
                               "vector": "<base64 int8>", "scale": 0.0031,
                               "terms": {"stem": 5, ...}, "bias": -0.41,
                               "declined": 30, "declined_vector": "<base64 int8>",
                               "declined_scale": 0.0029}}}

A usage vector is stored as signed bytes times `scale` (a cosine moves by less than 0.01):
about 1.1 KB a tool, whatever the number of requests. `bias` (version 4) is the tool's
calibration bias (`toolcat.tune.calibration`), left out when 0; `declined` (version 4) how
many requests were shown the tool and did not call it (a log's `shown`), with their mean
embedding kept as the usage vector is; left out when none. Request texts are not kept, only
their digests, so that `bench` can tell its queries from the training ones. `abstain`
(version 4) holds the embeddings of requests no tool fits (small talk, requests labeled with
no tool; at most MAX_NEGATIVES) as vectors are stored, and the margin
(`toolcat.search.abstain`); null when none was fitted.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np

from toolcat.errors import CatalogError, ConfigError
from toolcat.model import SourceRef
from toolcat.search.abstain import MAX_MARGIN, MAX_NEGATIVES, Abstention
from toolcat.search.tuning import (
    DIGEST_BYTES,
    LIMITS,
    MAX_BIAS,
    MAX_COUNT,
    MAX_DIMENSION,
    MAX_TERMS,
    ToolUsage,
    Tuning,
    Weights,
)
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_text, read_text
from toolcat.source.positions import PositionIndex, join

FORMAT = "toolcat-tuning"
VERSION = 4  # 2: the weight 'lift' (version 1 files read with the largest); 3: 'mix';
# 4: 'abstain', 'calibration', 'negative_weight' and each tool's 'bias' and 'declined' (older
# files read with none)
ADDED = {"lift": 2, "mix": 3, "calibration": 4, "negative_weight": 4,
         "abstain": 4}  # the version that brought each value
BIAS_DIGITS = 4  # a bias is kept to four decimals (what is measured is what is written)
MAX_BYTES = 256 * 1024 * 1024  # a tuning file is read whole; past this it is refused


def quantized(vector: np.ndarray) -> np.ndarray:
    """`vector` as the file keeps it (signed bytes times a scale), read back."""
    values, scale = _quantize(vector)
    return values.astype(np.float32) * np.float32(scale)


def rounded_bias(bias: float) -> float:
    """`bias` as the file keeps it."""
    return round(float(bias), BIAS_DIGITS)


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
        if usage.bias:
            entry["bias"] = rounded_bias(usage.bias)
        if usage.declined and usage.declined_vector is not None:
            values, scale = _quantize(usage.declined_vector)
            entry["declined"] = usage.declined
            entry["declined_vector"] = base64.b64encode(values.tobytes()).decode()
            entry["declined_scale"] = float(np.float32(scale))
        tools[name] = entry
    abstain = None
    if tuning.abstention is not None:
        requests = []
        for vector in tuning.abstention.vectors:
            values, scale = _quantize(vector)
            dimension = len(values)
            requests.append({"vector": base64.b64encode(values.tobytes()).decode(),
                             "scale": float(np.float32(scale))})
        abstain = {"margin": tuning.abstention.margin, "requests": requests}
    return {"format": FORMAT, "version": VERSION, "model": tuning.model,
            "dimension": dimension, "weights": tuning.weights.to_json(),
            "min_score": tuning.min_score, "abstain": abstain,
            "trained": base64.b64encode(b"".join(sorted(tuning.trained))).decode(),
            "report": dict(tuning.report), "tools": tools}


def dumps(tuning: Tuning) -> str:
    return json.dumps(to_json(tuning), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")) + "\n"


def load_tuning(path: str | Path) -> Tuning:
    """The tuning saved at `path`.

    Raises:
        ConfigError: the file cannot be read, is not a toolcat tuning, is of a newer
            version, or holds a value `toolcat tune` cannot write (a weight outside its
            range, a count past MAX_COUNT, more than MAX_TERMS stems a tool, a vector not of
            unit length); one line naming the file, and the line and column of the value.
    """
    path = Path(path)
    shown = str(path)
    try:
        text = read_text(path)  # bounded: a device or an endless pipe is refused, not read
    except CatalogError as exc:
        raise _bad(shown, f"cannot read the tuning file ({exc.message})") from None
    if len(text) > MAX_BYTES:
        raise _bad(shown, f"a tuning file is at most {MAX_BYTES // 2**20} MiB")
    try:
        parsed = parse_text(text, shown, yaml_syntax=False)
    except CatalogError as exc:
        raise ConfigError(f"not a tuning file: not JSON ({exc.message})",
                          where=exc.where or SourceRef(shown)) from None
    return replace(from_json(parsed.data, shown, parsed.index),
                   digest=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())


def from_json(data: Any, shown: str, index: PositionIndex | None = None) -> Tuning:
    """The tuning `data` holds, every value checked against what `toolcat tune` writes;
    `index` places an error at its line and column."""
    check = FieldReader(shown, index, document="the tuning file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise check.error("", "not a toolcat tuning file (`toolcat tune -o FILE` makes one)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise check.error("/version" if "version" in data else "",
                        "the tuning file has no valid 'version'")
    if version > VERSION:
        raise check.error("/version", f"tuning format version {version} is newer than this "
                        f"toolcat reads ({VERSION}); upgrade toolcat, or run `toolcat tune` "
                        "again")
    model = _needed(check, data, "model", str)
    dimension = _needed(check, data, "dimension", int)
    if not 0 <= dimension <= MAX_DIMENSION:
        raise check.error("/dimension", f"'dimension' must be from 0 to {MAX_DIMENSION}")
    weights = _weights(_needed(check, data, "weights", dict), check, version)
    min_score = data.get("min_score")
    if min_score is not None and (not _number(min_score) or not 0 <= min_score <= 1):
        raise check.error("/min_score", "'min_score' must be a number from 0 to 1 or null")
    abstention = _abstention(data, dimension, check) if version >= ADDED["abstain"] else None
    trained = _trained(_needed(check, data, "trained", str), check)
    report = data.get("report", {})
    if not isinstance(report, dict):
        raise check.error("/report", "'report' must be a mapping")
    tools = {}
    for name, entry in _needed(check, data, "tools", dict).items():
        tools[name] = _usage(name, entry, dimension, check)
    return Tuning(model, weights, tools, None if min_score is None else float(min_score),
                  trained, report, shown, abstention=abstention)


def _needed(check: FieldReader, data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        names = {str: "a string", int: "a whole number", dict: "a mapping"}
        raise check.error(join("", key) if key in data else "",
                          f"the tuning file needs '{key}' ({names.get(kind, kind.__name__)})")
    return value


def _bad(shown: str, message: str) -> ConfigError:
    return ConfigError(message, where=SourceRef(shown))


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)


def _weights(data: Mapping[str, Any], check: FieldReader, version: int) -> Weights:
    values = {}
    for key, (low, high) in LIMITS.items():
        value = data.get(key)
        if value is None and version < ADDED.get(key, 1):
            value = high if key == "lift" else low  # version 1 had no lift: the most; no mix
        if not _number(value) or not low <= value <= high:
            raise check.error(join("/weights", key) if key in data else "/weights",
                            f"'weights.{key}' must be a number from {low:g} to {high:g} "
                            "(the range `toolcat tune` chooses from)")
        values[key] = float(value)
    return Weights(**values)


def _trained(text: str, check: FieldReader) -> frozenset[bytes]:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise check.error("/trained", "'trained' is not base64") from None
    if len(raw) % DIGEST_BYTES:
        raise check.error("/trained", "'trained' does not hold whole digests")
    return frozenset(raw[i:i + DIGEST_BYTES] for i in range(0, len(raw), DIGEST_BYTES))


def _usage(name: str, entry: Any, dimension: int, check: FieldReader) -> ToolUsage:
    where = f"tool '{name}'"
    at = join("/tools", name)
    if not isinstance(entry, dict):
        raise check.error(at, f"{where}: each tool is a mapping")
    key, count = entry.get("key"), entry.get("count")
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise check.error(join(at, "key") if "key" in entry else at,
                        f"{where}: 'key' must be the 16 hex digits of the tool's content")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise check.error(join(at, "count") if "count" in entry else at,
                        f"{where}: 'count' must be a whole number from 1 to {MAX_COUNT:,}")
    vector = _vector(entry, "vector", "scale", dimension, at, where, check)
    terms = entry.get("terms", {})
    if not isinstance(terms, dict) or not all(
            isinstance(t, str) and isinstance(n, int) and not isinstance(n, bool)
            and 1 <= n <= count for t, n in terms.items()):
        raise check.error(join(at, "terms"), f"{where}: 'terms' maps stems to counts from 1 to "
                        "the tool's 'count'")
    if len(terms) > MAX_TERMS:
        raise check.error(join(at, "terms"), f"{where}: at most {MAX_TERMS} terms a tool "
                        f"(`toolcat tune` keeps the {MAX_TERMS} most frequent)")
    for term in terms:
        if not _STEM.fullmatch(term):
            raise check.error(join(at, "terms", term), f"{where}: '{term[:40]}' is not a stem "
                            f"(lowercase letters and digits, at most {MAX_STEM})")
    bias = entry.get("bias", 0.0)
    if not _number(bias) or not -MAX_BIAS <= bias <= MAX_BIAS:
        raise check.error(join(at, "bias"), f"{where}: 'bias' must be a number from "
                          f"{-MAX_BIAS:.4f} to {MAX_BIAS:.4f} (ln 8 either way)")
    declined_vector = _vector(entry, "declined_vector", "declined_scale", dimension, at, where,
                              check)
    declined = entry.get("declined", 0)
    if not isinstance(declined, int) or isinstance(declined, bool) \
            or not 0 <= declined <= MAX_COUNT or (declined > 0) != (declined_vector is not None):
        raise check.error(join(at, "declined") if "declined" in entry else at,
                          f"{where}: 'declined' must be a whole number from 1 to {MAX_COUNT:,}, "
                          "given with 'declined_vector'")
    return ToolUsage(key, count, vector, dict(terms), float(bias), declined, declined_vector)


def _vector(entry: Mapping[str, Any], key: str, scale_key: str, dimension: int, at: str,
            where: str, check: FieldReader,
            what: str = "a mean direction of past requests") -> np.ndarray | None:
    """The unit vector kept at `key` as signed bytes times `scale_key` (None: absent)."""
    if key not in entry:
        return None
    scale = entry.get(scale_key)
    try:
        raw = base64.b64decode(entry[key], validate=True) if isinstance(entry[key], str) \
            else b""
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != dimension or not dimension or not _number(scale) or scale <= 0:
        raise check.error(join(at, key), f"{where}: '{key}' must be {dimension} "
                          f"base64 bytes with a positive '{scale_key}'")
    vector = np.frombuffer(raw, dtype=np.int8).astype(np.float32) * np.float32(scale)
    if abs(float(np.linalg.norm(vector)) - 1) > UNIT_SLACK:
        raise check.error(join(at, scale_key), f"{where}: '{key}' times '{scale_key}' must be "
                          f"of unit length ({what})")
    return vector


def _abstention(data: Mapping[str, Any], dimension: int,
                check: FieldReader) -> Abstention | None:
    if "abstain" not in data:
        raise check.error("", "the tuning file needs 'abstain' (a mapping, or null)")
    found = data["abstain"]
    if found is None:
        return None
    if not isinstance(found, dict):
        raise check.error("/abstain", "'abstain' must be a mapping or null")
    margin = found.get("margin")
    if not _number(margin) or not 0 <= margin <= MAX_MARGIN:
        raise check.error("/abstain/margin" if "margin" in found else "/abstain",
                          f"'abstain.margin' must be a number from 0 to {MAX_MARGIN:g} (a "
                          "margin under 0 would turn away requests nearer to a tool)")
    requests = found.get("requests")
    if not isinstance(requests, list) or len(requests) > MAX_NEGATIVES:
        raise check.error("/abstain/requests" if "requests" in found else "/abstain",
                          f"'abstain.requests' must be a list of at most {MAX_NEGATIVES} "
                          "request vectors")
    vectors = []
    for n, entry in enumerate(requests):
        at = f"/abstain/requests/{n}"
        where = f"abstain.requests[{n}]"
        if not isinstance(entry, dict):
            raise check.error(at, f"{where}: each request is a mapping with 'vector' and "
                              "'scale'")
        vector = _vector(entry, "vector", "scale", dimension, at, where, check,
                         "a request's embedding")
        if vector is None:
            raise check.error(at, f"{where}: 'vector' must be {dimension} base64 bytes with a "
                              "positive 'scale'")
        vectors.append(vector)
    return Abstention(np.stack(vectors) if vectors else np.zeros((0, dimension), np.float32),
                      float(margin))


_KEY = re.compile(r"[0-9a-f]{16}")
MAX_STEM = 64  # characters of a stem (toolcat's text preparation keeps [a-z0-9] runs)
_STEM = re.compile(rf"[a-z0-9]{{1,{MAX_STEM}}}")
UNIT_SLACK = 0.02  # int8 rounding moves a unit vector's length by far less
