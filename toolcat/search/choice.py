"""The scorer a command ranks with, chosen once: which scorer, whether a tuning applies to it,
and the floor that follows. pick, search, resolve, serve and bench read this one value
instead of each deciding whether a tuning applies and spelling `+tuning` again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolcat.search import TUNABLE, default_scorer, tuned_name

if TYPE_CHECKING:
    from toolcat.search.tuning import Tuning


@dataclass(frozen=True)
class ScorerChoice:
    """`scorer`: the registry name built; `tuning`: the tuning whose evidence is added to it
    (None when none was given or the scorer is not one a tuning applies to, TUNABLE);
    `reason`: why this scorer, in one line."""

    scorer: str
    reason: str = ""
    tuning: Tuning | None = None

    @property
    def name(self) -> str:
        """What results say ranked them: `hybrid`, or `hybrid+tuning` when tuned."""
        return self.scorer if self.tuning is None else tuned_name(self.scorer)

    def floor(self, default: float) -> float:
        """The score under which nothing is picked: the tuning's fitted threshold when it
        has one, else `default`."""
        fitted = self.tuning.min_score if self.tuning is not None else None
        return default if fitted is None else fitted


def takes_tuning(scorer: str | None) -> bool:
    """Whether a tuning's evidence is added to the scorer called `scorer` (TUNABLE): the one
    place that decides it."""
    return scorer in TUNABLE


def choose_scorer(name: str | None, tools: int, tuning: Tuning | None = None, *,
                  given: str = "the scorer asked for") -> ScorerChoice:
    """The scorer called `name` (None: the default for a catalog of `tools` tools), with
    `tuning` when it applies to that scorer; `given` says why a named scorer was chosen."""
    scorer, reason = (name, given) if name is not None else default_scorer(tools)
    applied = tuning if takes_tuning(scorer) else None
    if applied is not None:
        reason += f", tuned by {applied.label}"
    return ScorerChoice(scorer, reason, applied)
