"""The gateway `relevance` scoring: points for what the session and the query say.

    +1000  the tool was expanded by an earlier search in this session
     +100  the tool is in `always_keep`
     +100  the tool was used recently (it answered a call in the conversation)
      +50  the tool's exact name appears in the query
      +10  per query token found in the tool's name or description
           (with `evidence`, another toolcat scorer: instead, round(100 x its score), so
           its 0..1 score of the query against the tool counts like up to 10 shared tokens)

Query tokens are lower-case alphanumeric words with short words (fewer than 3 letters) and
stop words dropped, as in the gateway. The score squashes the points to 0..1 without changing
their order: points / (points + 50). One token is 0.17, the exact name 0.5, `always_keep` or
recent use 0.67, an expanded tool 0.95: the same points give the same score for every query.
Names in the three lists may be plain or `server:tool`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolcat.model import Tool
from toolcat.search.ranking import Scorer
from toolcat.search.text import split_name, terms

EXPANDED, ALWAYS_KEEP, RECENTLY_USED, EXACT_NAME, PER_TOKEN = 1000, 100, 100, 50, 10
MATCH = 100  # points of a perfect match by the evidence scorer
HALF = 50  # points that make a score of 0.5
_NAME_LIKE = re.compile(r"[\w.:-]+")


def tokens(text: str) -> set[str]:
    return {t for t in terms(text) if len(t) >= 3}


class RelevanceScorer:
    """The weights, normalised (see the module docstring)."""

    name = "relevance"

    def __init__(self, tools: Sequence[Tool], *, always_keep: Iterable[str] = (),
                 expanded: Iterable[str] = (), recently_used: Iterable[str] = (),
                 evidence: Scorer | None = None) -> None:
        self.tools = tools
        self.evidence = evidence
        self._matched: tuple[str, list[int]] | None = None  # the last query's match points
        self._parsed: _Query | None = None
        lists = {"expanded": _names(expanded), "always_keep": _names(always_keep),
                 "recently_used": _names(recently_used)}
        self._fixed = [
            {reason: weight for reason, weight in (("expanded", EXPANDED),
                                                   ("always_keep", ALWAYS_KEEP),
                                                   ("recently_used", RECENTLY_USED))
             if {t.name, t.qualified_name} & lists[reason]}
            for t in tools
        ]
        # with evidence, the tokens are not scored: not worth taking every text apart for
        self._tokens = [set() if evidence is not None else
                        tokens(f"{t.name} {split_name(t.name)} {t.description}") for t in tools]
        self._by_token: dict[str, list[int]] = {}
        for i, found in enumerate(self._tokens):
            for token in found:
                self._by_token.setdefault(token, []).append(i)
        self._by_name: dict[str, list[int]] = {}  # names a query can hold as one word
        self._odd_names: list[tuple[str, int]] = []  # names with spaces or symbols
        for i, tool in enumerate(tools):
            lower = tool.name.lower()
            if _NAME_LIKE.fullmatch(lower):
                self._by_name.setdefault(lower, []).append(i)
            else:
                self._odd_names.append((lower, i))

    def _named(self, query: _Query) -> set[int]:
        if query.named is None:
            found = {i for word in query.words for i in self._by_name.get(word, ())}
            found.update(i for name, i in self._odd_names if name in query.lower)
            query.named = found
        return query.named

    def _parse(self, query: str) -> _Query:
        """The query taken apart, once for the calls of every tool (points, explain)."""
        if self._parsed is None or self._parsed.text != query:
            self._parsed = _Query(query)
        return self._parsed

    def points(self, query: str, index: int) -> dict[str, int]:
        """The points of `tools[index]` by reason (only the reasons that gave points)."""
        parsed = self._parse(query)
        found = dict(self._fixed[index])
        if index in self._named(parsed):
            found["exact_name"] = EXACT_NAME
        if self.evidence is not None:
            match = self._match(query)[index]
            if match:
                found["match"] = match
            return found
        overlap = len(parsed.tokens & self._tokens[index])
        if overlap:
            found["token_overlap"] = PER_TOKEN * overlap
        return found

    def _match(self, query: str) -> list[int]:
        """The evidence scorer's points per tool for `query` (the last query's are kept)."""
        assert self.evidence is not None
        if self._matched is None or self._matched[0] != query:
            scores = self.evidence.scores(query)
            self._matched = (query, [round(MATCH * float(s)) for s in scores])
        return self._matched[1]

    def scores(self, query: str) -> list[float]:
        parsed = self._parse(query)
        totals = [sum(fixed.values()) for fixed in self._fixed]
        if self.evidence is not None:
            totals = [total + match for total, match in zip(totals, self._match(query),
                                                             strict=True)]
        else:
            for token in parsed.tokens:
                for i in self._by_token.get(token, ()):
                    totals[i] += PER_TOKEN
        for i in self._named(parsed):
            totals[i] += EXACT_NAME
        return [total / (total + HALF) for total in totals]

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        points = self.points(query, index)
        if not points:
            return "no points: not kept, expanded or used, and no query token matches", {
                "points": {}, "total": 0}
        words = {"expanded": "expanded earlier", "always_keep": "always kept",
                 "recently_used": "used recently", "exact_name": "named in the query",
                 "token_overlap": "query tokens",
                 "match": f"{self.evidence.name if self.evidence else ''} match"}
        reason = ", ".join(f"{words[k]} +{v}" for k, v in points.items())
        return reason, {"points": points, "total": sum(points.values())}


class _Query:
    """A query taken apart once: its tokens, and the name-like words it contains."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.named: set[int] | None = None  # the tools it names, by index (see _named)
        self.lower = text.lower()
        self.tokens = tokens(text)
        found = [w.strip(".:-") for w in _NAME_LIKE.findall(self.lower)]
        self.words = set(found) | {part for w in found for part in w.split(":")}  # server:tool



def _names(values: Iterable[str]) -> frozenset[str]:
    if isinstance(values, str):
        values = [values]
    return frozenset(values)
