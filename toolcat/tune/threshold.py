"""pick's "no tool fits" threshold, fitted on requests no tool fits and held-out ones that
need a tool."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.search.hybrid import midpoint_of, squash
from toolcat.search.pick import MIN_SCORE
from toolcat.search.tuning import Weights
from toolcat.tune.choose import SEED, ZERO_SHOT
from toolcat.tune.held import Held
from toolcat.tune.material import Material, matched_for

MAX_TURNED_AWAY = 0.02  # of held-out requests that need a tool, the most the threshold drops
THRESHOLD_FOLDS = 5  # the threshold's positives are scored by usage built without them
STEP = 1e-4  # a threshold just above a score turns it away
MARGIN = 0.5  # the threshold stays under half the score that all but 2% of needed tools reach:
# new requests worded unlike the ones it was fitted on score lower


def fit_threshold(material: Material, train: Sequence[int], weights: Weights,
                  seed: int = SEED) -> float | None:
    """pick's "no tool fits" threshold, fitted on held-out requests.

    The requests no tool fits are the built-in chit-chat (toolcat.tune.chitchat) and the
    training requests labeled with no tool; the threshold is just above the best score any
    of them gives a tool, but never above MARGIN times the score that all but MAX_TURNED_AWAY
    of the tools requests need reach (one of each group, each request scored by usage built
    without it, in five folds). And never under pick's default carried to the scale of the
    tuned scores (`carried`): weights that raise every score (a larger semantic weight) raise
    the scores of small talk too, and the default alone would then let more of it through
    than the zero-shot scorer does. None (pick's default stays) with fewer than five
    requests that need a tool, or when the fit would lower pick's default."""
    negative = [i for i in train if not material.requests[i].groups] + material.chitchat
    positive = material.positives(train)
    if len(positive) < 5 or not negative:
        return None
    order = np.random.default_rng(seed + 1).permutation(len(positive))
    own: list[float] = []
    zero = tuned = np.zeros(0)
    for part in range(THRESHOLD_FOLDS):
        held = [positive[j] for j in order[part::THRESHOLD_FOLDS].tolist()]
        left_out = set(held)
        rest = [i for i in train if i not in left_out]
        check = Held(material, matched_for(material, rest), held)
        scores = squash(check.evidence(weights), midpoint_of(material.model))
        own += [max(scores[j, t] for t in group)  # each tool needed, at its best member
                for j, i in enumerate(held) for group in material.requests[i].groups]
        if part == 0:
            none = Held(material, check.matched, negative)
            zero = squash(none.evidence(ZERO_SHOT), midpoint_of(material.model)).max(axis=1)
            tuned = squash(none.evidence(weights), midpoint_of(material.model)).max(axis=1)
    highest = MARGIN * float(np.quantile(own, MAX_TURNED_AWAY))  # all but that share, halved
    fitted = max(min(highest, float(tuned.max()) + STEP), carried(zero, tuned))
    return round(min(fitted, 1.0), 4) if fitted > MIN_SCORE else None


def carried(zero: np.ndarray, tuned: np.ndarray) -> float:
    """pick's default threshold carried to the tuned scores: the least threshold at which
    the tuned scores (`tuned`: each request's best) accept no more of the requests no tool
    fits than the zero-shot scores (`zero`) do at MIN_SCORE."""
    allowed = int(np.sum(zero >= MIN_SCORE))
    if allowed >= len(tuned):
        return MIN_SCORE
    return float(np.sort(tuned)[::-1][allowed]) + STEP

