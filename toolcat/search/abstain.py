"""A tuning's abstention: a request is turned away ("no tool fits") when it is nearer to the
requests no tool fits than to any evidence for a tool.

The tuning keeps the embeddings of requests no tool fits (toolcat's built-in small talk and
the requests a user labeled `relevant: []`) and a margin. For a request q:

    away(q) = max_n cos(q, n) - max(max_t cos(q, text(t)), max_d cos(q, usage(d))) > margin

over those requests n, every tool's own text vector t and every usage vector d (the mean of
a tool's past requests). `toolcat tune` fits the margin (`toolcat.tune.abstain`): never under
0, so a request nearer to some tool than to every request no tool fits is never turned away,
and high enough that cross-fitted requests that need a tool are turned away at most 2% of the
time. A score threshold cannot do this on catalogs whose real requests are short and casual
(metatool): small talk scores as high as they do, but lies nearer to other small talk.

Abstention only ever withholds tools: it cannot show one. What a tuning file of a stranger can
do with it is bounded by the margin the loader accepts (from 0): a request nearer to some
tool's own text than to every vector the file holds is never turned away (docs/security.md,
"Tuning files: abstention").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX_NEGATIVES = 1024  # requests no tool fits kept in a tuning (a sample beyond)
MAX_MARGIN = 2.0  # cosines differ by at most 2: a margin past it turns nothing away
SHORT_WORDS = 10  # a request of at most this many words is short (Abstention.short_margin)
# the zero-shot abstention shipped for the default embedding model (train/abstention.py)
SHIPPED = Path(__file__).parent / "models" / "zero-shot-abstain.npz"


@dataclass(frozen=True)
class Abstention:
    """Unit vectors of requests no tool fits (one a row) and the fitted margin.

    `short_margin` (None: `margin`) is the margin of a short request (SHORT_WORDS words or
    fewer). A short request's cosine to a tool's long text is low, whether or not the tool
    fits, and small talk is short: "am I free thursday between 2 and 4?" lies as near to "are
    you there?" as to the calendar tool. The zero-shot decision fits a margin of its own for
    short requests (train/abstention.py); a tuning, fitted on the catalog's own requests,
    has one margin."""

    vectors: np.ndarray
    margin: float
    short_margin: float | None = None

    def margins(self, queries: Sequence[str]) -> np.ndarray:
        """The margin of each of `queries`: `short_margin` for a short one, else `margin`."""
        short = self.margin if self.short_margin is None else self.short_margin
        return np.array([short if len(q.split()) <= SHORT_WORDS else self.margin
                         for q in queries], dtype=np.float64)


def contrast(negatives: np.ndarray, evidence: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each request vector (rows of `queries`): its cosine to the nearest of `negatives`
    less its cosine to the nearest of `evidence` (tool text and usage vectors)."""
    near_none = _nearest(queries, negatives)
    near_tool = _nearest(queries, evidence)
    return np.asarray(near_none - near_tool)


def _nearest(queries: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    if not len(vectors):
        return np.full(len(queries), -1.0)
    return np.asarray((queries @ vectors.T).max(axis=1), dtype=np.float64)


def turned_away(abstention: Abstention, query: np.ndarray, tools: np.ndarray,
                usage: np.ndarray | None, first: np.ndarray | None = None) -> bool:
    """Whether the request of vector `query` is turned away (see the module docstring):
    `tools` the text vectors of every tool, `usage` the usage vectors of the tools the
    tuning applies to (None: none), `first` the indices of the tools to compare first (the
    best scored: one near enough ends the check before the whole catalog is read)."""
    size = len(query)
    if not len(abstention.vectors) or abstention.vectors.shape[1] != size \
            or tools.shape[1] != size:
        return False  # vectors of another model's size cannot be compared: none turned away
    # turned away when every tool's evidence is under the nearest request no tool fits,
    # less the margin
    bar = float(np.max(abstention.vectors @ query)) - abstention.margin
    for part in (usage, None if first is None else tools[first], tools):
        if part is not None and len(part) and part.shape[1] == size \
                and float(np.max(part @ query)) >= bar:
            return False
    return True


def shows_nothing(best: np.ndarray, threshold: float, away: np.ndarray) -> np.ndarray:
    """Which requests are turned away: the one definition that pick, serve, bench and tune
    share. A request is turned away when pick shows no tool for it: no tool scores at least
    `threshold` (its `best` score under it; -inf when nothing scored), or the abstention
    turns it away (`away`)."""
    return np.asarray((np.asarray(best, dtype=np.float64) < threshold)
                      | np.asarray(away, dtype=bool))


@functools.cache
def shipped(ident: str) -> Abstention | None:
    """The zero-shot abstention fitted once for the embedding model `ident` and shipped with
    toolcat (SHIPPED: the built-in small talk's vectors and two margins, for short requests
    and the others, fitted on public labeled sets so that at most 0.5% of their requests that
    need a tool are turned away; train/abstention.py), or None when none was fitted for that
    model."""
    try:
        with np.load(SHIPPED, allow_pickle=False) as stored:
            model, margin = str(stored["model"]), float(stored["margin"])
            short = float(stored["short_margin"]) if "short_margin" in stored else margin
            vectors = stored["vectors"].astype(np.float32)
    except (OSError, KeyError, ValueError):
        return None
    if model != ident or vectors.ndim != 2 \
            or not (0 <= margin <= MAX_MARGIN and 0 <= short <= MAX_MARGIN):
        return None
    return Abstention(vectors, margin, short)


def far_from_tools(abstention: Abstention, queries: np.ndarray, best: np.ndarray,
                   texts: Sequence[str]) -> np.ndarray:
    """Which requests (unit vectors, one a row; `texts` the requests) are turned away when
    `best` is each one's highest cosine to any tool: the nearest request no tool fits is
    nearer, by more than the request's margin (the module docstring, without usage)."""
    if not len(queries) or queries.shape[1] != abstention.vectors.shape[1]:
        return np.zeros(len(queries), dtype=bool)
    nearest = (queries @ abstention.vectors.T).max(axis=1)
    return np.asarray(nearest - best > abstention.margins(texts))
