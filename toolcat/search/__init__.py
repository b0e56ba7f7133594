"""Search and pick: SCORERS maps the name a user types to a scorer factory.

A factory takes the tools to index (and scorer options as keywords) and returns a Scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.search.base import Scored, Scorer, rank
from toolcat.search.keyword import KeywordScorer

SCORERS: dict[str, Callable[..., Scorer]] = {
    "keyword": KeywordScorer,
}


def build_scorer(name: str, tools: Sequence[Tool], **options: Any) -> Scorer:
    """Index `tools` with the scorer called `name`.

    Raises:
        UsageError: no scorer has that name.
    """
    try:
        factory = SCORERS[name]
    except KeyError:
        raise UsageError(f"unknown scorer '{name}'; known: {', '.join(SCORERS)}") from None
    return factory(tools, **options)


__all__ = ["SCORERS", "Scored", "Scorer", "build_scorer", "rank"]
