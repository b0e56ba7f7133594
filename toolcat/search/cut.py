"""The cut: where the fit ends among the ranked tools that cleared the floor.

A floor (`min_score`) says whether a tool fits at all; it does not say how many of the tools
above it a request needs. Filling every slot with whatever clears the floor shows a model
tools that fit far worse than the best ("send a message to a Slack channel" loading five
email tools). The cut keeps the tools whose fit is comparable to the best one's and drops
the rest, zero-shot, from the scores alone:

    keep tool i  while  odds(score_i) >= RATIO * odds(score_1),   odds(s) = s / (1 - s)

Odds, not scores: a score near 1 hides large differences of evidence (0.95 and 0.99 are odds
of 19 and 99), and near 0 odds are the score itself, so the rule reads the same on every
scorer whose score grows with its evidence. For hybrid, whose odds are (evidence / 5 nats)^3
(toolcat.search.hybrid), a RATIO of 0.2 keeps the tools with at least 0.58 of the best
tool's evidence: a tool five times less likely to be the one asked for is not shown. The
first tool is always kept, unless a better tool was left out as unsafe: then every tool is
measured against that one with the stricter SUBSTITUTE (a stand-in fits at least half as
well), so a safe tool that fits far worse than the unsafe best (the `create_table` left for
"drop the users table") is not offered in its place. Abstention (no tool fits) comes before
the cut and is not its business. RATIO was read off a sweep on the development half of the
real-server set (benchmarks/real_servers.py), not fitted: from 0.1 to 0.5 recall@5 falls
from 0.878 to 0.851 (0.892 uncut) while the tools kept of 5 fall from 4.4 to 2.6; 0.2 keeps
0.1's recall with 3.95 tools.

pick, resolve's automatic search, render (through resolve), serve's search_tools and the
gateway's relevance strategy apply the same rule; docs/search.md gives its cost in recall.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

RATIO = 0.2
SUBSTITUTE = 0.5  # a stand-in for a better tool left out as unsafe fits at least half as well
_TOP = 0.99  # past it a score says no more (a score of 1, infinite odds, would cut all)


def odds(score: float) -> float:
    """s / (1 - s), with scores over 0.99 read as 0.99: no scorer is that precise, and a
    perfect score (1 when every word of the request matched) would cut every other tool."""
    score = min(max(score, 0.0), _TOP)
    return score / (1 - score)


def fit(scores: Iterable[float], ratio: float = RATIO, best: float | None = None) -> int:
    """How many of `scores` (best first, as ranked) to keep: the first, and every next one
    whose odds are at least `ratio` times the first one's (0 for no scores). With `best`,
    the score of a better tool that was left out (unsafe), every one is measured against it,
    the first too."""
    kept = 0
    bar = None if best is None else SUBSTITUTE * odds(best)
    for score in scores:
        if bar is None:
            bar = ratio * odds(score)
        elif odds(score) < bar:
            break
        kept += 1
    return kept


def fitting(scores: np.ndarray, ratio: float = RATIO, best: float = 0.0) -> np.ndarray:
    """Which of `scores` (any order) fit as well as `fit` keeps: odds at least `ratio`
    times the best one's, or `best`'s when it is higher (a better tool left out as unsafe).
    For scores best first, the kept ones are the first `fit(scores, best=best)`."""
    import numpy as np

    if not len(scores):
        return np.zeros(0, dtype=bool)
    clipped = np.clip(np.asarray(scores, dtype=np.float64), 0.0, _TOP)
    top = float(clipped.max())
    bar = ratio * odds(top) if top >= best else SUBSTITUTE * odds(best)
    found: np.ndarray = clipped / (1 - clipped) >= bar
    return found
