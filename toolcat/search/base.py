"""The scorer contract and the one ranking function every command uses.

A scorer is built once over a sequence of tools (that is its index) and then scores queries:
`scores(query)` gives one number in 0..1 per tool, in the order the tools were given;
`explain(query, i)` says why tool `i` got its score. Ranking, thresholds and limits live in
`rank`, so every scorer is ranked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from toolcat.model import Tool


class Scorer(Protocol):
    name: str
    tools: Sequence[Tool]

    def scores(self, query: str) -> Sequence[float]:
        """One score in 0..1 per tool, aligned with `tools`."""
        ...

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        """A human-readable reason and machine-readable details for `tools[index]`."""
        ...


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
) -> list[Scored]:
    """Tools by descending score (ties keep catalog order), at or above `min_score`.

    Tools scoring exactly 0 never rank: a zero means "no evidence at all".
    """
    scores = scorer.scores(query)
    order = sorted(
        (i for i, s in enumerate(scores) if s > 0 and s >= min_score),
        key=lambda i: (-scores[i], i),
    )
    if limit is not None:
        order = order[:limit]
    ranked = []
    for position, i in enumerate(order, 1):
        reason, details = scorer.explain(query, i) if explain else ("", {})
        ranked.append(Scored(scorer.tools[i], float(scores[i]), position, reason, details))
    return ranked
