"""Where a query matched in a tool's text, so a table can highlight it."""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from toolcat.search import scorer_kind
from toolcat.search.regex import compile_query
from toolcat.search.text import STOPWORDS, located, stem, words

MAX_SPANS = 1000  # per text: more is no help to a reader, and each costs a style in the table


def word_spans(text: str, found: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Spans of the words of `text`, read as search reads them (toolcat.search.text.located:
    lower-cased, accents dropped, CJK as pairs), that `found` accepts."""
    return list(islice(((start, end) for start, end, word in located(text) if found(word)),
                       MAX_SPANS))


def pattern_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Character spans of the case-insensitive pattern's matches in `text` (none when the
    pattern is unusable)."""
    pattern, _ = compile_query(query)
    if pattern is None:
        return []
    data = text.encode()
    found = islice((m for m in pattern.finditer(data) if m.end() > m.start()), MAX_SPANS)
    if len(data) == len(text):  # ASCII: byte offsets are character offsets
        return [m.span() for m in found]
    # byte offsets to character offsets in one pass over the matches, which come in order
    out: list[tuple[int, int]] = []
    byte, char = 0, 0

    def chars(offset: int) -> int:
        nonlocal byte, char
        char += len(data[byte:offset].decode(errors="ignore"))
        byte = offset
        return char

    for match in found:
        out.append((chars(match.start()), chars(match.end())))
    return out


def spans(text: str, query: str, scorer: str) -> list[tuple[int, int]]:
    """What to highlight in `text` for results of `scorer`: the pattern's matches for
    `regex`; for `fuzzy` the words a query word found (the same, a prefix, an abbreviation
    like `msg`, a misspelling like `wether`); the words with a query word's stem for the
    scorers whose kind `stems` (tuned or not); the query's words for the others."""
    if scorer == "regex":
        return pattern_spans(text, query)
    if scorer == "fuzzy":
        from rapidfuzz import fuzz

        from toolcat.search.fuzzy import TYPO_CUTOFF, is_abbreviation, query_words

        wanted = query_words(query)
        return word_spans(text, lambda w: any(
            w == q or (len(q) >= 3 and w.startswith(q))
            or (2 <= len(q) <= 5 and is_abbreviation(q, w))
            or (len(q) >= 4 and fuzz.ratio(q, w) >= TYPO_CUTOFF) for q in wanted))
    kept = {w for w in words(query) if w not in STOPWORDS}
    kind = scorer_kind(scorer)
    if kind is not None and kind.stems:
        stems = {stem(w) for w in kept}
        return word_spans(text, lambda w: stem(w) in stems)
    return word_spans(text, lambda w: w in kept)
