"""`search_tools`: regex first, fuzzy when the pattern matches nothing, top 5.

The result has the search_tools response shape (`found`, `tools`, `message`) so that an agent's
search tool can return it as is; `toolcat search` prints it. A query that is not a usable
pattern gets the invalid-pattern error (`{"error": "invalid regex pattern: ..."}`), the same for the
command and for a model's search_tools call; only the gateway search falls back to
keywords, as that seed says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.search.index import scorer_for
from toolcat.search.ranking import Scored, Scorer, rank

FOUND = "Found matching tools. Use 'add_tool' to load the ones you need."
FOUND_FUZZY = ("No tool matches the pattern; these are the closest by fuzzy search. Use "
               "'add_tool' to load the ones you need.")
NOT_FOUND = "No tools found matching the pattern"
LIMIT = 5


@dataclass(frozen=True)
class SearchResult:
    """Ranked tools for a query, which scorer produced them, and what to tell the caller."""

    query: str
    scorer: str
    results: tuple[Scored, ...]
    message: str
    note: str | None = None
    error: str | None = None  # the invalid-pattern error: the query is not a usable pattern

    @property
    def found(self) -> int:
        return len(self.results)

    def to_json(self) -> dict[str, Any]:
        """The response (`found`, `tools`, `message`), plus `scorer` and `note`; or
        the `{"error": ...}` for a query that is not a usable pattern."""
        if self.error is not None:
            return {"error": self.error}
        return {
            "found": self.found,
            "tools": [{"name": s.tool.name, "description": s.tool.description,
                       "server": s.tool.server, "score": round(s.score, 6),
                       "safety": s.tool.safety, "reason": s.reason} for s in self.results],
            "message": self.message,
            "scorer": self.scorer,
            "note": self.note,
        }


def search_tools(query: str, tools: Sequence[Tool], *, scorer: str | Scorer | None = None,
                 limit: int = LIMIT, min_score: float = 0.0, **options: Any) -> SearchResult:
    """Rank `tools` for `query`, up to `limit` of them.

    With no `scorer`, tool search mode's behaviour: the query is a case-insensitive regular
    expression; when it matches no tool, fuzzy search (substring, words, characters) takes
    over; an unusable pattern is the invalid-pattern error (`error`, nothing found). Otherwise the
    named scorer (or the given Scorer) ranks alone.

    Raises:
        UsageError: unknown scorer or option.
    """
    if scorer is not None:
        chosen = scorer if not isinstance(scorer, str) else scorer_for(scorer, tools, **options)
        found = tuple(rank(chosen, query, limit=limit, min_score=min_score))
        return SearchResult(query, chosen.name, found, FOUND if found else NOT_FOUND)
    from toolcat.search.regex import RegexScorer

    if options:
        raise UsageError(f"option {', '.join(options)} needs --scorer: the default regex and "
                         "fuzzy search take none")
    error = pattern_error(query)
    if error is not None:
        return SearchResult(query, "regex", (), error, error=error)
    regex = RegexScorer(tools)
    found = tuple(rank(regex, query, limit=limit, min_score=min_score))
    if found:
        return SearchResult(query, "regex", found, FOUND)
    fuzzy = scorer_for("fuzzy", tools)
    found = tuple(rank(fuzzy, query, limit=limit, min_score=min_score))
    return SearchResult(query, "fuzzy", found, FOUND_FUZZY if found else NOT_FOUND)


def pattern_error(query: str) -> str | None:
    """The error for a query that is not a usable pattern (invalid, or needing what RE2
    lacks: lookaround, backreferences), or None."""
    from toolcat.search.regex import compile_query

    problem = compile_query(query)[1]
    if problem is None:
        return None
    return problem if problem.startswith("invalid regex pattern") else \
        f"invalid regex pattern: {problem}"
