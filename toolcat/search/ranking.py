"""The scorer contract and the one ranking function every command uses.

A scorer is built once over a sequence of tools (that is its index) and then scores queries:
`scores(query)` gives one number in 0..1 per tool, in the order the tools were given;
`explain(query, i)` says why tool `i` got its score. Ranking, thresholds and limits live in
`rank`, so every scorer is ranked the same way.

Optional, for speed: a scorer may also define `scores_many(queries)` (`Batched`), one list of
scores per query, when scoring a batch is cheaper than one query at a time (the semantic
scorer encodes queries in batches). Call `score_many(scorer, queries)`, which uses it when it
is there. What else a scorer can do is declared the same way, by protocols beside `Scorer`:
`Abstaining` (it can turn a request away), `Staged` (it may answer with its lexical stage for
now), `Completing` (that stage can be completed) and `Embedding` (it ranks with an embedding
model, which `ranking_model` names).
A scorer whose scores are a non-decreasing function of a key per tool (hybrid squashes its
evidence: a power and a division per tool) may define `ranking_key(query)` (see `Keyed`):
`rank` then computes the scores of the few tools that may rank, not of every tool.

A score is comparable across queries within one scorer: docs/search.md says what each scorer's
score means, so a threshold (`min_score`) means the same for every query.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable
from weakref import WeakKeyDictionary

from toolcat.model import Tool

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from toolcat.search.embeddings import Embedder

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


# What a scorer can do besides `scores` and `explain`, declared by the methods and attributes
# it has; callers ask with isinstance (the protocols are runtime-checkable), never by name.


@runtime_checkable
class Batched(Protocol):
    """A scorer that scores a batch of queries for less than one at a time (semantic,
    hybrid, cascade, tuned: queries are encoded together)."""

    def scores_many(self, queries: Sequence[str]) -> Sequence[Scores]:
        """`scores(query)` of each of `queries`."""
        ...


@runtime_checkable
class Abstaining(Protocol):
    """A scorer that can turn a request away: nearer to requests no tool fits than to any
    tool (hybrid's zero-shot abstention, a tuning's learned one)."""

    def turned_away(self, query: str) -> bool:
        ...

    def turned_away_many(self, queries: Sequence[str]) -> list[bool]:
        """`turned_away(query)` of each of `queries`, their vectors encoded together."""
        ...


@runtime_checkable
class Staged(Protocol):
    """A scorer that may answer with its lexical stage while the rest is not ready (hybrid
    before its embeddings, and a tuning over it): `notice` says why (None once complete)."""

    @property
    def notice(self) -> str | None:
        ...


@runtime_checkable
class Completing(Protocol):
    """A staged scorer whose missing stage can be made ready now (serve runs `complete` on a
    thread); a failure leaves the lexical stage and says so in its notice. `progress(tools
    done, tools to encode)` hears how the catalog's encoding goes, if it is encoded now."""

    def complete(self, progress: Callable[[int, int], None] | None = None) -> None:
        ...


@runtime_checkable
class Embedding(Protocol):
    """A scorer that ranks with an embedding model (semantic, hybrid, cascade, and a tuning
    over them): `embedder` is that model."""

    @property
    def embedder(self) -> Embedder:
        ...


def ranking_model(scorer: object) -> str | None:
    """The label of the embedding model `scorer` ranks with (its identity without the
    version), or None for a scorer without one."""
    return scorer.embedder.label if isinstance(scorer, Embedding) else None


def score_many(scorer: Scorer, queries: Sequence[str]) -> list[Scores]:
    """`scorer.scores` of each query, batched when the scorer is `Batched`."""
    if isinstance(scorer, Batched):
        return list(scorer.scores_many(queries))
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
    on arrays, a few passes over the catalog in numpy and none in Python: the best `limit`
    are found among a shortlist (see `_shortlist`), not by sorting or partitioning every
    score; a predicate is turned into a mask once per scorer (see `tool_mask`); a scorer
    that has `ranking_key` (see `Keyed`) turns only its shortlist into scores.
    """
    import numpy as np

    to_scores: Callable[[Any], Any] | None = None
    if isinstance(scorer, Keyed):
        values, to_scores = scorer.ranking_key(query)
        values = np.asarray(values, dtype=np.float64)
    else:
        values = np.asarray(scorer.scores(query), dtype=np.float64)
    keep = values > 0
    if min_score > 0 and to_scores is None:
        keep &= values >= min_score
    if where is not None:
        keep &= tool_mask(scorer, where) if callable(where) else np.asarray(where, dtype=bool)
    candidates = _shortlist(values, keep, limit, to_scores is not None)
    scores = values[candidates]
    if to_scores is not None:  # the shortlist's scores, then the tests on scores proper
        scores = np.asarray(to_scores(scores), dtype=np.float64)
        kept = scores > 0
        if min_score > 0:
            kept &= scores >= min_score
        candidates, scores = candidates[kept], scores[kept]
    if limit is not None and limit < len(candidates):
        # every candidate at least as good as the limit-th best, ties included, so that ties
        # are broken by priority and catalog order below
        kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        best = scores >= kth
        candidates, scores = candidates[best], scores[best]
    preference = _preference(scorer)
    keys = (candidates, -scores) if preference is None else \
        (candidates, preference[candidates], -scores)
    order = np.lexsort(keys)[:limit]
    ranked = []
    for position, at in enumerate(order.tolist(), 1):
        i = int(candidates[at])
        reason, details = scorer.explain(query, i) if explain else ("", {})
        ranked.append(Scored(scorer.tools[i], float(scores[at]), position, reason, details))
    return ranked


@runtime_checkable
class Keyed(Protocol):
    """A scorer whose scores are a non-decreasing function of a cheaper key per tool (hybrid:
    its evidence in nats, squashed into 0..1), so that `rank` turns only a shortlist into
    scores. A score is 0 where the key is not above 0."""

    def ranking_key(self, query: str) -> tuple[npt.NDArray[np.floating[Any]],
                                               Callable[[Any], Any]]:
        """The key of every tool, and the function giving the scores of some keys (exactly
        the numbers `scores(query)` has for them)."""
        ...


BLOCK = 32  # values per block whose maximum bounds the shortlist (see `_shortlist`)
# How far below the bound a key may be and still be shortlisted: a score computed from a key
# is non-decreasing in it up to rounding, many orders of magnitude below this
KEY_MARGIN = 1e-9


def _shortlist(values: Any, keep: Any, limit: int | None, keys: bool) -> Any:
    """The indices, ascending, of the kept values that may be among the best `limit`: a
    superset of every kept value at least the `limit`-th best, ties included.

    The `limit`-th largest of the blocks' maxima (BLOCK values each) is at most the
    `limit`-th largest value, since each of those blocks holds a value at least as large;
    only values at or above it are shortlisted, a few times `limit` of them, and found
    with passes over the catalog, where a partition of every kept value costs ten times as
    much. With `keys` (see Keyed), a margin covers the rounding of the scores computed from
    them."""
    import numpy as np

    candidates = np.flatnonzero(keep)
    if limit is None or len(candidates) <= limit * BLOCK:
        return candidates
    kept = values[candidates]
    whole = len(kept) // BLOCK * BLOCK
    maxima = kept[:whole].reshape(-1, BLOCK).max(axis=1)
    if whole < len(kept):
        maxima = np.append(maxima, kept[whole:].max())
    bound = np.partition(maxima, len(maxima) - limit)[len(maxima) - limit]
    if keys:
        bound -= abs(bound) * KEY_MARGIN
    return candidates[kept >= bound]


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
