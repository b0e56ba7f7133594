"""Small pieces of English shared by messages everywhere."""

from __future__ import annotations


def plural(count: int, word: str, words: str | None = None) -> str:
    """`1 tool`, `2 tools`, `1,000 tools`; `words` for an irregular plural."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"
