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

PRIOR = 0.5  # Haldane-Anscombe: half a request added to each count


def tool_biases(evidence: np.ndarray, groups: Sequence[tuple[tuple[int, ...], ...]],
                tools: np.ndarray) -> np.ndarray:
    """The calibration bias of each tool at `tools` (catalog indices, the tools with
    usage), learned from training requests that need a tool: their zero-shot `evidence`
    (one row a request, one column a catalog tool) and the `groups` of tools each needs."""
    if len(tools) < 2 or not len(groups):
        return np.zeros(len(tools))
    size = evidence.shape[1]
    needed = np.zeros(size)
    first = np.zeros(size)
    # first among the tools with usage: both masses share out the same requests
    among = evidence[:, tools]
    top = np.argmax(among, axis=1)
    some = among[np.arange(len(groups)), top] > 0  # a request no tool matches has none
    np.add.at(first, tools[top[some]], 1.0)
    for need in groups:
        for group in need:
            for tool in group:
                needed[tool] += 1.0 / (len(need) * len(group))
    n, f = needed[tools] + PRIOR, first[tools] + PRIOR
    ratio = np.log(n / f)
    noise = 1 / n + 1 / f
    spread = max(float(ratio.var(ddof=1)) - float(noise.mean()), 0.0)
    if not spread:
        return np.zeros(len(tools))
    return np.asarray(np.clip(ratio * spread / (spread + noise), -MAX_BIAS, MAX_BIAS))
