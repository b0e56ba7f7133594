"""The scorer contract and the one ranking function every command uses.

A scorer is built once over a sequence of tools (that is its index) and then scores queries:
`scores(query)` gives one number in 0..1 per tool, in the order the tools were given;
`explain(query, i)` says why tool `i` got its score. Ranking, thresholds and limits live in
`rank`, so every scorer is ranked the same way.

Optional, for speed: a scorer may also define `scores_many(queries)`, one list of scores per
query, when scoring a batch is cheaper than one query at a time (the semantic scorer encodes
queries in batches). Call `score_many(scorer, queries)`, which uses it when it is there.

A score is comparable across queries within one scorer: docs/search.md says what each scorer's
score means, so a threshold (`min_score`) means the same for every query.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias
from weakref import WeakKeyDictionary

from toolcat.model import Tool

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# One score per tool: the index-backed scorers (bm25, semantic, hybrid, cascade) give a float
# array, the per-tool loops (regex, keyword, fuzzy, relevance, a function) a list.
Scores: TypeAlias = "Sequence[float] | npt.NDArray[np.floating[Any]]"


class Scorer(Protocol):
    name: str
    tools: Sequence[Tool]

    def scores(self, query: str) -> Scores:
        """One score in 0..1 per tool, aligned with `tools` (a list or a numpy array)."""
        ...

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        """A human-readable reason and machine-readable details for `tools[index]`."""
        ...


def score_many(scorer: Scorer, queries: Sequence[str]) -> list[Scores]:
    """`scorer.scores` of each query, batched when the scorer has `scores_many`."""
    batched = getattr(scorer, "scores_many", None)
    if batched is not None:
        return list(batched(queries))
    return [scorer.scores(q) for q in queries]


@dataclass(frozen=True)
class Scored:
    """One ranked tool: its 1-based rank, score in 0..1, and why."""

    tool: Tool
    score: float
    rank: int
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.tool.name, "server": self.tool.server, "rank": self.rank,
                "score": round(self.score, 6), "reason": self.reason,
                "details": dict(self.details)}


def rank(
    scorer: Scorer,
    query: str,
    *,
    limit: int | None = None,
    min_score: float = 0.0,
    explain: bool = True,
    where: Callable[[Tool], bool] | Sequence[bool] | npt.NDArray[np.bool_] | None = None,
) -> list[Scored]:
    """Tools by descending score, at or above `min_score`, and only those `where` accepts
    when it is given: a predicate on a tool, or one flag per tool. Equal scores go to the
    higher `priority` first ("preferred when multiple tools match"), then catalog order.

    Tools scoring exactly 0 never rank: a zero means "no evidence at all". The work is done
    on arrays: the best `limit` by partition, not by sorting every score; a predicate is
    turned into a mask once per scorer (see `tool_mask`).
    """
    import numpy as np

    scores = np.asarray(scorer.scores(query), dtype=np.float64)
    keep = scores > 0
    if min_score > 0:
        keep &= scores >= min_score
    if where is not None:
        keep &= tool_mask(scorer, where) if callable(where) else np.asarray(where, dtype=bool)
    candidates = np.flatnonzero(keep)
    if limit is not None and limit < len(candidates):
        values = scores[candidates]
        # every candidate at least as good as the limit-th best, ties included, so that ties
        # are broken by priority and catalog order below
        kth = np.partition(values, len(values) - limit)[len(values) - limit]
        candidates = candidates[values >= kth]
    preference = _preference(scorer)
    keys = (candidates, -scores[candidates]) if preference is None else \
        (candidates, preference[candidates], -scores[candidates])
    order = candidates[np.lexsort(keys)][:limit]
    ranked = []
    for position, i in enumerate(order.tolist(), 1):
        reason, details = scorer.explain(query, i) if explain else ("", {})
        ranked.append(Scored(scorer.tools[i], float(scores[i]), position, reason, details))
    return ranked


_masks: WeakKeyDictionary[Any, dict[Callable[[Tool], bool], Any]] = WeakKeyDictionary()
_preferences: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()


def _preference(scorer: Scorer) -> Any:
    """The tools' priorities negated (a sort key), or None when they are all equal; computed
    once per scorer."""
    try:
        return _preferences[scorer]
    except KeyError:
        found = _preferences[scorer] = _negated_priorities(scorer.tools)
        return found
    except TypeError:  # a scorer that cannot be weakly referenced: computed every time
        return _negated_priorities(scorer.tools)


def _negated_priorities(tools: Sequence[Tool]) -> Any:
    import numpy as np

    priorities = np.fromiter((t.priority for t in tools), dtype=np.int64, count=len(tools))
    if not len(priorities) or (priorities == priorities[0]).all():
        return None
    return -priorities


def tool_mask(scorer: Scorer, predicate: Callable[[Tool], bool]) -> Any:
    """`predicate` over `scorer.tools` as a boolean array, computed once per scorer and
    predicate: it depends only on the catalog, not on the query."""
    import numpy as np

    try:
        found = _masks.setdefault(scorer, {})
    except TypeError:  # a scorer that cannot be weakly referenced: computed every time
        found = {}
    mask = found.get(predicate)
    if mask is None:
        if len(found) >= 8:  # predicates made afresh on every call (lambdas) are not kept
            found.clear()
        mask = found[predicate] = np.fromiter((bool(predicate(t)) for t in scorer.tools),
                                              dtype=bool, count=len(scorer.tools))
    return mask
