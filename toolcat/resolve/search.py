"""The searches the model can run during a session.

- seed 001's `search_tools`: the query is an RE2 regular expression (the syntax of Go's regexp,
  case-sensitive unless it says `(?i)`) matched against each tool's name and description; when
  nothing matches, a fuzzy search (substring, then word-level, then character-level similarity)
  returns the 5 best.
- seed 004's gateway search: `(?i)` + the query over name, description and parameter names and
  descriptions; an invalid regex falls back to keyword matching; results are capped and the
  always_keep names are always included.

RE2 runs in linear time, so a pattern from a model or a script cannot hang toolcat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from toolcat.model import Tool
from toolcat.search.text import parameter_texts, terms, words

FUZZY_LIMIT = 5
# character-level similarity (rapidfuzz partial_ratio of the name) a fuzzy hit needs:
# "wether" -> get_weather is 0.83, while unrelated names score 0.5-0.67
FUZZY_MIN_SIMILARITY = 0.75


class PatternError(ValueError):
    """The regular expression does not compile; the message is RE2's."""


def compile_pattern(pattern: str, *, ignore_case: bool = False) -> Any:
    """Compile `pattern` with RE2 (errors as PatternError, never logged to stderr)."""
    import re2

    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise PatternError(str(detail)) from None


@dataclass(frozen=True)
class Found:
    """Tools a search returned, how it found them, and the score of each (1.0 for a match)."""

    tools: tuple[Tool, ...]
    method: str
    scores: tuple[float, ...] = ()


def search_tools(tools: Sequence[Tool], query: str) -> Found:
    """Seed 001's search_tools over `tools`.

    Raises:
        PatternError: the query is not a valid regular expression.
    """
    regex = compile_pattern(query)
    matched = tuple(t for t in tools if regex.search(t.name) or regex.search(t.description))
    if matched:
        return Found(matched, "regex", (1.0,) * len(matched))
    return fuzzy_search(tools, query)


def fuzzy_search(tools: Sequence[Tool], query: str, limit: int = FUZZY_LIMIT) -> Found:
    """Seed 001's fallback: substring, then word-level, then character-level similarity.

    A substring hit ranks above any word-level hit, which ranks above character similarity.
    """
    wanted = query.lower().strip()
    query_words = set(words(query))
    scored: list[tuple[float, int, Tool]] = []
    for i, tool in enumerate(tools):
        name, description = tool.name.lower(), tool.description.lower()
        if wanted and (wanted in name or wanted in description):
            score = 3.0
        elif query_words and (hits := query_words & set(words(f"{tool.name} {tool.description}"))):
            score = 2.0 + len(hits) / len(query_words)
        else:
            similarity = fuzz.partial_ratio(wanted, name) / 100
            score = similarity if similarity >= FUZZY_MIN_SIMILARITY else 0.0
        if score > 0:
            scored.append((score, i, tool))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = scored[:limit]
    return Found(tuple(t for _, _, t in best), "fuzzy", tuple(s for s, _, _ in best))


def gateway_text(tool: Tool) -> str:
    """What seed 004's search matches: name, description, parameter names and descriptions."""
    parts = [tool.name, tool.description]
    for name, description in parameter_texts(tool.parameters):
        parts += [name, description]
    return "\n".join(p for p in parts if p)


def gateway_search(tools: Sequence[Tool], query: str, *, limit: int,
                   always_keep: Sequence[str] = ()) -> Found:
    """Seed 004's tool-search backend over the deferred `tools`."""
    try:
        regex = compile_pattern(query, ignore_case=True)
    except PatternError:
        return _with_always_keep(keyword_search(tools, query, limit), tools, always_keep)
    matched = tuple(t for t in tools if regex.search(gateway_text(t)))[:limit]
    return _with_always_keep(Found(matched, "regex", (1.0,) * len(matched)), tools, always_keep)


def keyword_search(tools: Sequence[Tool], query: str, limit: int) -> Found:
    """Tools sharing the most query terms with their searchable text (a regex fallback)."""
    wanted = set(terms(query))
    if not wanted:
        return Found((), "keyword")
    scored = []
    for i, tool in enumerate(tools):
        share = len(wanted & set(terms(gateway_text(tool)))) / len(wanted)
        if share > 0:
            scored.append((share, i, tool))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = scored[:limit]
    return Found(tuple(t for _, _, t in best), "keyword", tuple(s for s, _, _ in best))


def _with_always_keep(found: Found, tools: Sequence[Tool], always_keep: Sequence[str]) -> Found:
    have = {t.qualified_name for t in found.tools}
    extra = tuple(t for t in tools if (t.name in always_keep or t.qualified_name in always_keep)
                  and t.qualified_name not in have)
    return Found(found.tools + extra, found.method, found.scores + (1.0,) * len(extra))
