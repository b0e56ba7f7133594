"""A learned weighing of the evidence hybrid's mechanisms compute, for its best candidates.

Each of hybrid's mechanisms (BM25F, the cosine of several readings, verb agreement, siblings,
a server's name, focus, number, states, statements, values...) adds evidence in nats with a
weight set by hand on the real-server halves of its day. `Reranker` weighs that evidence
again for the TOP tools of today's ranking: a tool's evidence gains `features @ weights`
(nats) less what today's best candidate gains (so the best keeps its evidence), where the features are each mechanism's evidence before it was summed and a few
facts about the candidate among the others (its rank under words alone and under the cosine
alone, how far it is behind the best, its description's length, its server's size). The
weights are residual: all zero is today's ranking.

The weights are fitted offline (train/rerank.py: a pairwise logistic loss over each labeled
request's candidates) for one embedding model; `shipped` reads them, and nothing is applied
for another model or without the semantic stage. Only TOP tools are weighed again, so the
cost per request is bounded whatever the catalog's size.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolcat.model import Tool
from toolcat.search.text import split_name

SHIPPED = Path(__file__).parent / "models" / "rerank.npz"
TOP = 30  # candidates weighed again per request
MAX_WEIGHT = 50.0  # a stored weight beyond this is not one train/rerank.py writes
# each mechanism's evidence for the request read whole, in nats (the clipped cosine: 0..1)
PIECES = ("words", "server", "action", "focus", "number", "states", "statements", "values",
          "look", "cosine", "narrower")
FEATURES = (*PIECES,
            "part",  # evidence a part of a split request gave beyond the whole request
            "behind",  # today's evidence minus the best candidate's
            "words_behind", "cosine_behind",  # the same for words alone, the cosine alone
            "words_rank", "cosine_rank",  # log(1 + rank among the candidates)
            "description", "name_words", "server_size",  # log(1 + count)
            "no_words")  # 1 when the request shares no word with the tool


@dataclass(frozen=True)
class Candidates:
    """One request's best tools by today's evidence, best first, with their features."""

    indices: np.ndarray  # tool indices
    evidence: np.ndarray  # today's evidence of each
    features: np.ndarray  # one row per candidate, one column per name in FEATURES


class Traits:
    """What a candidate's features read of the tool alone, computed once per catalog."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        sizes: dict[str, int] = {}
        for tool in tools:
            sizes[tool.server or ""] = sizes.get(tool.server or "", 0) + 1
        self.values = np.array(
            [(math.log1p(len((tool.description or "").split())),
              math.log1p(len(split_name(tool.name).split())),
              math.log1p(sizes[tool.server or ""] if tool.server else 1))
             for tool in tools], dtype=np.float64).reshape(len(tools), 3)


def candidates(pieces: Mapping[str, np.ndarray], whole: np.ndarray, evidence: np.ndarray,
               traits: Traits) -> Candidates:
    """The TOP tools of `evidence` (today's, one value per tool) and their features, from
    `pieces` (each of PIECES: one value per tool, the request read whole) and `whole` (the
    evidence of the request read whole)."""
    count = min(TOP, len(evidence))
    top = (np.argpartition(-evidence, count - 1)[:count] if count < len(evidence)
           else np.arange(len(evidence)))
    top = top[np.argsort(-evidence[top], kind="stable")]
    found = evidence[top]
    columns = [np.asarray(pieces[name][top], dtype=np.float64) for name in PIECES]
    words, cosine = columns[PIECES.index("words")], columns[PIECES.index("cosine")]
    columns += [found - whole[top], found - found.max(initial=0.0),
                words - words.max(initial=0.0), cosine - cosine.max(initial=0.0),
                np.log1p(_rank(words)), np.log1p(_rank(cosine)),
                *traits.values[top].T, (words <= 0).astype(np.float64)]
    return Candidates(top, found, np.stack(columns, axis=1).reshape(count, len(FEATURES)))


def _rank(values: np.ndarray) -> np.ndarray:
    """Each value's rank among `values`, 0 for the largest (ties share the better rank)."""
    ordered = np.sort(values)[::-1]
    return np.searchsorted(-ordered, -values, side="left").astype(np.float64)


@dataclass(frozen=True)
class Reranker:
    """Weights over FEATURES, in nats per unit, fitted for one embedding model."""

    model: str
    weights: np.ndarray

    def lift(self, found: Candidates) -> np.ndarray:
        """The evidence each candidate gains (or loses) next to today's best, which keeps
        its own: the weights are fitted on the order of candidates only, so a request's
        scores stay on the scale the threshold and the cut read."""
        weighed = found.features @ self.weights
        lifted: np.ndarray = weighed - weighed[0] if len(weighed) else weighed
        return lifted

    def apply(self, evidence: np.ndarray, found: Candidates) -> np.ndarray:
        """`evidence` with the candidates' weighed again (never below 0)."""
        out = evidence.copy()
        out[found.indices] = np.maximum(found.evidence + self.lift(found), 0.0)
        return out

    def reasons(self, found: Candidates, index: int, count: int = 3
                ) -> list[tuple[str, float]]:
        """The features that moved tool `index` most next to today's best (`lift`), with the
        nats each gave; none when it is not a candidate."""
        at = np.flatnonzero(found.indices == index)
        if not len(at):
            return []
        parts = (found.features[at[0]] - found.features[0]) * self.weights
        order = np.argsort(-np.abs(parts), kind="stable")[:count]
        return [(FEATURES[k], float(parts[k])) for k in order if abs(parts[k]) >= 0.05]


@functools.cache
def shipped(ident: str) -> Reranker | None:
    """The weights fitted for the embedding model `ident` and shipped with toolcat, or None
    when none were fitted for it (or the file is not one train/rerank.py writes)."""
    try:
        with np.load(SHIPPED, allow_pickle=False) as stored:
            model = str(stored["model"])
            names = tuple(str(n) for n in stored["features"])
            weights = stored["weights"].astype(np.float64)
    except (OSError, KeyError, ValueError):
        return None
    if model != ident or names != FEATURES or weights.shape != (len(FEATURES),) \
            or not np.all(np.abs(weights) <= MAX_WEIGHT):
        return None
    return Reranker(model, weights)
