"""The default scorer: keyword overlap between the query and a tool's name,
description and tags.

Score = the fraction of the query's terms (stop words removed) that occur among the tool's
terms. 1.0 means every query term is in the tool; the value means the same for every query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolcat.model import Tool
from toolcat.search.text import split_name, terms


class KeywordScorer:
    name = "keyword"

    def __init__(self, tools: Sequence[Tool]) -> None:
        self.tools = tools
        self._terms = [
            frozenset(terms(" ".join([t.name, split_name(t.name), t.description, *t.tags])))
            for t in tools
        ]

    def scores(self, query: str) -> list[float]:
        wanted = set(terms(query))
        if not wanted:
            return [0.0] * len(self.tools)
        return [len(wanted & have) / len(wanted) for have in self._terms]

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        wanted = sorted(set(terms(query)))
        matched = [w for w in wanted if w in self._terms[index]]
        if not matched:
            return "no query keyword occurs in the tool", {"matched": [], "query_terms": wanted}
        return (f"matched {', '.join(matched)} ({len(matched)} of {len(wanted)} query terms)",
                {"matched": matched, "query_terms": wanted})
