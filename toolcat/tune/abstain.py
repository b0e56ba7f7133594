"""Fitting a tuning's abstention (`toolcat.search.abstain`): the requests no tool fits that it
keeps, and the margin by which a request must be nearer to them than to any tool's evidence
to be turned away.

The margin is the least that turns away at most MAX_TURNED_AWAY of the requests that need a
tool, each scored against usage built without it (cross-fitted) in two ways, as the weights
are checked (`toolcat.tune.choose`): in folds of requests (traffic: its tools have other
requests), and in folds of tools (every request of a group of tools held out: new tools,
matched by their own text only). The larger of the two margins is kept, and never under 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.search.abstain import MAX_NEGATIVES, Abstention, contrast
from toolcat.tune.choose import SEED
from toolcat.tune.material import Material, tool_usages
from toolcat.tune.threshold import MAX_TURNED_AWAY, THRESHOLD_FOLDS

MIN_POSITIVES = 20  # fewer requests that need a tool bound nothing: no abstention


def fit_abstention(material: Material, train: Sequence[int],
                   seed: int = SEED) -> Abstention | None:
    """The abstention learned from the `train` requests: the built-in small talk and the
    ones labeled with no tool, and the margin (module docstring). None without the tools'
    vectors, or with fewer than MIN_POSITIVES requests that need a tool."""
    from toolcat.tune.file import quantized

    positive = material.positives(train)
    if material.tool_vectors is None or len(positive) < MIN_POSITIVES:
        return None
    negative = material.chitchat + [i for i in train if not material.requests[i].groups]
    if len(negative) > MAX_NEGATIVES:  # the built-in phrases first, a sample of the rest
        rng = np.random.default_rng(seed + 2)
        rest = negative[len(material.chitchat):]
        kept = rng.choice(len(rest), MAX_NEGATIVES - len(material.chitchat), replace=False)
        negative = material.chitchat + [rest[j] for j in sorted(kept.tolist())]
    vectors = np.stack([quantized(material.vectors[i]) for i in negative])
    scores = [_by_requests(material, train, positive, vectors, seed),
              _by_tools(material, train, positive, vectors, seed)]
    found = [np.quantile(s, 1 - MAX_TURNED_AWAY) for s in scores if len(s)]
    margin = max([0.0, *(float(f) for f in found)])
    return Abstention(vectors, round(margin, 4))


def _contrasts(material: Material, rest: Sequence[int], held: Sequence[int],
               negatives: np.ndarray) -> np.ndarray:
    """The contrast of each `held` request with usage built from `rest`."""
    assert material.tool_vectors is not None
    _, usages = tool_usages(material, rest)
    evidence = [material.tool_vectors] + [u.vector[None, :] for u in usages
                                          if u.vector is not None]
    return contrast(negatives, np.concatenate(evidence).astype(np.float32),
                    material.vectors[list(held)])


def _by_requests(material: Material, train: Sequence[int], positive: Sequence[int],
                 negatives: np.ndarray, seed: int) -> np.ndarray:
    """Contrasts of the requests that need a tool, in folds of requests; requests of the
    same text share a fold (no request is scored against itself)."""
    texts: dict[str, list[int]] = {}
    for i in positive:
        texts.setdefault(" ".join(material.requests[i].text.lower().split()), []).append(i)
    groups = list(texts.values())
    order = np.random.default_rng(seed + 3).permutation(len(groups)).tolist()
    out = []
    for part in range(THRESHOLD_FOLDS):
        held = [i for j in order[part::THRESHOLD_FOLDS] for i in groups[j]]
        left_out = set(held)
        if held:
            out.append(_contrasts(material, [i for i in train if i not in left_out], held,
                                  negatives))
    return np.concatenate(out) if out else np.zeros(0)


def _by_tools(material: Material, train: Sequence[int], positive: Sequence[int],
              negatives: np.ndarray, seed: int) -> np.ndarray:
    """Contrasts of the requests that need a tool, in folds of tools: each request whose
    tools all fall in one fold, scored with usage of the other folds' tools only."""
    used = sorted({t for i in positive for t in material.requests[i].tools})
    fold = dict(zip(used, (np.random.default_rng(seed + 4).permutation(len(used))
                           % THRESHOLD_FOLDS).tolist(), strict=True))
    out = []
    for part in range(THRESHOLD_FOLDS):
        held = [i for i in positive if all(fold[t] == part for t in material.requests[i].tools)]
        rest = [i for i in train
                if not any(fold.get(t) == part for t in material.requests[i].tools)]
        if held:
            out.append(_contrasts(material, rest, held, negatives))
    return np.concatenate(out) if out else np.zeros(0)
