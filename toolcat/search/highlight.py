"""Where a query matched in a tool's text, so a table can highlight it."""

from __future__ import annotations

import re

from toolcat.search.regex import compile_query

# a word of running text or of an identifier: `getWeather` -> get, Weather
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
STEMMING = frozenset({"bm25", "hybrid", "semantic"})  # scorers that match word stems


def word_spans(text: str, query: str, *, stemmed: bool = False) -> list[tuple[int, int]]:
    """Spans of the words of `text` that a query word finds: the same word (or stem, when
    `stemmed`), a prefix, an abbreviation (`msg` -> message) or a close spelling
    (`wether` -> weather)."""
    from rapidfuzz import fuzz

    from toolcat.search.fuzzy import TYPO_CUTOFF, is_abbreviation, query_words
    from toolcat.search.text import stem

    wanted = query_words(query)
    same = {stem(w) for w in wanted} if stemmed else set(wanted)
    spans = []
    for match in _WORD.finditer(text):
        word = match.group().lower()
        if len(word) < 2:
            continue
        if (stem(word) if stemmed else word) in same or any(
                (len(q) >= 3 and word.startswith(q))
                or (2 <= len(q) <= 5 and is_abbreviation(q, word))
                or (len(q) >= 4 and fuzz.ratio(q, word) >= TYPO_CUTOFF) for q in wanted):
            spans.append(match.span())
    return spans


def pattern_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Character spans of the case-insensitive pattern's matches in `text` (none when the
    pattern is unusable)."""
    pattern, _ = compile_query(query)
    if pattern is None:
        return []
    data = text.encode()
    return [(len(data[:m.start()].decode(errors="ignore")),
             len(data[:m.end()].decode(errors="ignore")))
            for m in pattern.finditer(data) if m.end() > m.start()]


def spans(text: str, query: str, scorer: str) -> list[tuple[int, int]]:
    """What to highlight in `text` for results of `scorer`: the pattern's matches for
    `regex`, matched words for the others."""
    if scorer == "regex":
        return pattern_spans(text, query)
    return word_spans(text, query, stemmed=scorer in STEMMING)
