"""Where a text holds one of many names ("GitLab", "google maps"), in time linear in the text
and independent of how many names there are.

A name is its words (`search.text.split_name`: `GitLab` is `Git Lab`); the text holds it where
a run of its ASCII words, joined by nothing but spaces, `_` or `-`, spells the name's words
in order, split only where the name's words meet (`gitlab`, `git lab`, `Git-Lab` for
`GitLab`; not `gi tlab`), or, for a name of one word, once into two words of MIN_PIECE letters
or more (`lunch money` for `lunchmoney`, as the product is written), with no word character on
either side. This is what one regular expression of every name, joined by `|`,
would find; but such a pattern over the 20,000 server names of a large catalog takes seconds
to compile, which a search pays before its first answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from toolcat.search.text import split_name

_WORD = re.compile(r"[A-Za-z0-9]+")
_JOINS = frozenset(" \t\n\r\f\v_-")
MAX_WORDS = 16  # words of a name looked for; a longer name is never found
MIN_PIECE = 3  # letters of each of two words a text may split one word of a name into


class PhraseFinder:
    """The names of `names` a text holds, as spans of it (see the module docstring)."""

    def __init__(self, names: Iterable[str]) -> None:
        # a name's words run together, lower case -> where its words meet, for each name
        self._names: dict[str, set[frozenset[int]]] = {}
        self._longest = 0
        for name in names:
            words = split_name(name).lower().split()
            if not words or len(words) > MAX_WORDS:
                continue
            joined, meets, at = "".join(words), set(), 0
            for word in words[:-1]:
                at += len(word)
                meets.add(at)
            self._names.setdefault(joined, set()).add(frozenset(meets))
            self._longest = max(self._longest, len(joined))

    def __bool__(self) -> bool:
        return bool(self._names)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The (start, end) of each name `text` holds, left to right, the longest where
        several start at one word, none overlapping."""
        words = [m.span() for m in _WORD.finditer(text)]
        found: list[tuple[int, int]] = []
        i = 0
        while i < len(words):
            end = self._longest_at(text, words, i)
            if end is None:
                i += 1
                continue
            found.append((words[i][0], words[end][1]))
            i = end + 1
        return found

    def _longest_at(self, text: str, words: list[tuple[int, int]], i: int) -> int | None:
        """The last word of the longest name that starts at word `i`, if one does."""
        start = words[i][0]
        if start > 0 and _word_char(text[start - 1]):
            return None
        best = None
        joined = ""
        meets: set[int] = set()
        # where the text splits a name of one word into two words long enough to be words
        # ("lunch money" for the server `lunchmoney`, as its product is written)
        spaced: set[int] = set()
        for j in range(i, min(len(words), i + MAX_WORDS)):
            if j > i:
                gap = text[words[j - 1][1]:words[j][0]]
                if not set(gap) <= _JOINS:
                    break
                meets.add(len(joined))
                if min(words[j - 1][1] - words[j - 1][0], words[j][1] - words[j][0]) \
                        >= MIN_PIECE:
                    spaced.add(len(joined))
            joined += text[words[j][0]:words[j][1]].lower()
            if len(joined) > self._longest:
                break
            end = words[j][1]
            if end < len(text) and _word_char(text[end]):
                continue
            if any(meets <= known or (not known and len(meets) == 1 and meets <= spaced)
                   for known in self._names.get(joined, ())):
                best = j
        return best


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"
