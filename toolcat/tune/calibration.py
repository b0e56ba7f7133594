"""Per-tool calibration: a bias for each tool with usage, learned from the training requests.

The zero-shot scorer has habits: some tools come first for far more requests than need them
(a broad description, a common word in the name), others for far fewer. Over the training
requests, a tool's *needed* mass n (each request shares one unit among the tools it needs)
against its *first* mass f (the requests whose zero-shot first tool it is) says by how much:
log(n / f) is the correction of the scorer's odds for that tool, as a classifier's
posteriors are corrected for a shift of its class priors (Saerens et al., Neural Computation
14(1), 2002).

Few requests say little, so each tool's estimate is shrunk toward 0 by how uncertain it is,
with no constant set by hand (empirical Bayes, as a meta-analysis pools studies):

    L = log((n + 1/2) / (f + 1/2))             the log ratio, Haldane-Anscombe corrected
    s2 = 1 / (n + 1/2) + 1 / (f + 1/2)         its sampling variance (Poisson counts)
    t2 = max(var(L) - mean(s2), 0)             the spread of the tools' true ratios
    bias = L * t2 / (t2 + s2)                  within +-MAX_BIAS

A tool with few requests keeps little of its ratio, and when the ratios spread no more than
their noise every bias is 0. Only tools with usage get one (a tool no request needed has no
evidence of being under-ranked, and the tuning keeps no entry for it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.search.tuning import MAX_BIAS
from toolcat.tune.material import Material

PRIOR = 0.5  # Haldane-Anscombe: half a request added to each count


def tool_biases(material: Material, train: Sequence[int], tools: np.ndarray) -> np.ndarray:
    """The calibration bias of each tool at `tools` (catalog indices, with usage in
    `train`), learned from the `train` requests that need a tool."""
    if not len(tools):
        return np.zeros(0)
    rows = material.positives(train)
    needed = np.zeros(material.size)
    first = np.zeros(material.size)
    if rows:  # first among the tools with usage: both masses share out the same requests
        evidence = material.base[np.ix_(np.asarray(rows), tools)]
        top = np.argmax(evidence, axis=1)
        some = evidence[np.arange(len(rows)), top] > 0  # a request no tool matches has none
        np.add.at(first, tools[top[some]], 1.0)
    for i in rows:
        groups = material.requests[i].groups
        for group in groups:
            for tool in group:
                needed[tool] += 1.0 / (len(groups) * len(group))
    n, f = needed[tools] + PRIOR, first[tools] + PRIOR
    ratio = np.log(n / f)
    noise = 1 / n + 1 / f
    if len(tools) < 2:
        return np.zeros(len(tools))
    spread = max(float(ratio.var(ddof=1)) - float(noise.mean()), 0.0)
    if not spread:
        return np.zeros(len(tools))
    return np.asarray(np.clip(ratio * spread / (spread + noise), -MAX_BIAS, MAX_BIAS))
