"""The fusion's calibration per embedding model: the midpoint of hybrid's squashing.

A model's cosines have a scale of their own: a query-side update (minilm-tools) puts every
request nearer to every tool, unrelated ones included, so at the base model's midpoint "tell me
a joke" would score over pick's floor of 0.05. train/fusion.py (`--measures midpoint --write`)
fits a model's midpoint on public training requests against catalogs that cannot serve them,
so that the floor turns away as many of them as it does for the base model, and stores it here
with the model's identity; a model none was fitted for keeps the default.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from toolcat.search.abstain import MODELS, file_name

MAX_MIDPOINT = 50.0  # nats: a midpoint read from a file is bounded


def path_for(ident: str) -> Path:
    """The calibration file of the embedding model of identity `ident` (one per model name,
    beside its zero-shot fits)."""
    return MODELS / f"fusion.{file_name(ident)}.json"


@cache
def midpoint(ident: str, default: float) -> float:
    """The midpoint fitted for the model `ident`, or `default` when none was (or the file
    names another identity, or holds no sane number)."""
    try:
        stored = json.loads(path_for(ident).read_text(encoding="utf-8"))
        found = float(stored["midpoint"])
        fitted_for = str(stored["model"])
    except (OSError, KeyError, TypeError, ValueError):
        return default
    if fitted_for != ident or not math.isfinite(found) or not 0 < found <= MAX_MIDPOINT:
        return default
    return found


def write(ident: str, value: float) -> Path:
    """Store `value` as the midpoint of the model `ident` (train/fusion.py)."""
    path = path_for(ident)
    path.write_text(json.dumps({"model": ident, "midpoint": value}, indent=1) + "\n",
                    encoding="utf-8")
    midpoint.cache_clear()
    return path
