"""pick's "no tool fits" threshold, fitted on requests no tool fits and held-out ones that
need a tool."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.search.hybrid import squash
from toolcat.search.pick import MIN_SCORE
from toolcat.search.tuning import Weights
from toolcat.tune.choose import SEED
from toolcat.tune.held import Held
from toolcat.tune.material import Material, matched_for

MAX_TURNED_AWAY = 0.02  # of held-out requests that need a tool, the most the threshold drops
THRESHOLD_FOLDS = 5  # the threshold's positives are scored by usage built without them
MARGIN = 0.5  # the threshold stays under half the score that all but 2% of needed tools reach:
# new requests worded unlike the ones it was fitted on score lower


def fit_threshold(material: Material, train: Sequence[int], weights: Weights,
                  seed: int = SEED) -> float | None:
    """pick's "no tool fits" threshold, fitted on held-out requests.

    The requests no tool fits are the built-in chit-chat (toolcat.tune.chitchat) and the
    training requests labeled with no tool; the threshold is just above the best score any
    of them gives a tool, but never above MARGIN times the score that all but MAX_TURNED_AWAY
    of the tools requests need reach (one of each group, each request scored by usage built
    without it, in five folds). None (pick's default stays) with fewer than five requests
    that need a tool, or when the fit would lower pick's default."""
    negative = [i for i in train if not material.requests[i].groups] + material.chitchat
    positive = material.positives(train)
    if len(positive) < 5 or not negative:
        return None
    order = np.random.default_rng(seed + 1).permutation(len(positive))
    own: list[float] = []
    top = 0.0
    for part in range(THRESHOLD_FOLDS):
        held = [positive[j] for j in order[part::THRESHOLD_FOLDS].tolist()]
        left_out = set(held)
        rest = [i for i in train if i not in left_out]
        check = Held(material, matched_for(material, rest), held)
        scores = squash(check.evidence(weights))
        own += [max(scores[j, t] for t in group)  # each tool needed, at its best member
                for j, i in enumerate(held) for group in material.requests[i].groups]
        if part == 0:
            top = float(squash(Held(material, check.matched, negative)
                               .evidence(weights)).max())
    highest = MARGIN * float(np.quantile(own, MAX_TURNED_AWAY))  # all but that share, halved
    fitted = min(highest, top + 1e-4)
    return round(min(fitted, 1.0), 4) if fitted > MIN_SCORE else None

