"""Look-alike characters: text folded to the ASCII it imitates, and TR39 skeletons of names.

The confusables data of Unicode TR39 (confusables.txt) comes from the `confusable-homoglyphs`
package, which ships it as JSON: for each character, the characters it can be mistaken for.
Two foldings are built from it:

- `fold_text` for reading text as a model would: compatibility forms (full-width, mathematical
  letters) and accents are folded by NFKD, invisible characters dropped, Unicode tag characters
  (the "ASCII smuggling" block) decoded to the ASCII they encode, and every other non-ASCII
  letter replaced by the ASCII letter it imitates (Cyrillic `о` -> `o`); then lower case.
- `skeleton` for comparing names: the same, and also ASCII look-alikes (`1` -> `l`, `0` -> `O`,
  `I` -> `l`, `m` -> `rn`), as TR39's skeleton does, so `git_1og` and `git_log` compare equal.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib.resources import files

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties) minus the tag block, which is
# decoded instead: these render as nothing.
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e001f\U000e0080-\U000e0fff]")
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_TAGS = {code: code - 0xE0000 for code in range(0xE0020, 0xE007F)}


@cache
def _confusables() -> dict[str, list[str]]:
    """Character -> the characters TR39 says it can be mistaken for (both directions)."""
    path = files("confusable_homoglyphs") / "confusables.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {key: [entry["c"].strip("\u200e") for entry in entries]
            for key, entries in data.items() if len(key) == 1}


def _ascii_lookalike(char: str) -> str | None:
    """The ASCII text `char` imitates: a lower-case letter first, else any ASCII."""
    found = [c for c in _confusables().get(char, ()) if c.isascii() and c.strip()]
    if not found:
        return None
    return min(found, key=lambda c: (not c.islower(), not c.isalpha(), len(c), c))


@cache
def _text_table() -> dict[int, str]:
    """Non-ASCII character -> the ASCII it imitates, read in lower case first (Cyrillic `І`
    is the lower-case `і`, an `i`, though TR39 maps the capital to `l`)."""
    table: dict[int, str] = {}
    for char in _confusables():
        if char.isascii():
            continue
        lower = char.casefold()
        found = (_ascii_lookalike(lower) if len(lower) == 1 else None) \
            or _ascii_lookalike(char)
        if found:
            table[ord(char)] = found
    return table


def text_table() -> dict[int, str]:
    """The table `fold_text` folds other scripts' look-alike letters by (non-ASCII character
    -> the ASCII it imitates), for readers that fold only some words (`lint.reading`)."""
    return _text_table()


@cache
def _name_table() -> dict[int, str]:
    """Every character with a TR39 look-alike in ASCII, ASCII ones included (`1` -> `l`).

    The data lists confusables both ways; an ASCII character is mapped only when it has a
    single look-alike, its TR39 prototype (`1` has only `l`; `l` itself has dozens)."""
    data = _confusables()
    return {ord(char): found for char in data
            if (not char.isascii() or len(data[char]) == 1)
            and (found := _ascii_lookalike(char)) is not None and found != char}


def fold_text(text: str) -> str:
    """`text` as the ASCII it looks like, in lower case (see the module's docstring)."""
    if text.isascii():
        return text.lower()
    text = text.translate(_TAGS)
    text = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    text = _IGNORABLE.sub("", text)
    return (text if text.isascii() else text.translate(_text_table())).casefold()


def skeleton(name: str) -> str:
    """A key under which names that look alike are equal: TR39 look-alikes folded to ASCII,
    lower case, separators (`_ - . space`) removed."""
    text = _IGNORABLE.sub("", _MARKS.sub("", unicodedata.normalize("NFKD", name)))
    return _SEPARATORS.sub("", text.translate(_name_table()).lower())


def plain(name: str) -> str:
    """A name without case and separators: names equal here differ only in spelling style."""
    return _SEPARATORS.sub("", name.casefold())


def disguised_characters(name: str) -> list[tuple[str, str]]:
    """(character, what it imitates) for each character of `name` that passes for another:
    non-ASCII ones, and ASCII ones TR39 maps to a different single character (`1`, `0`, `I`)."""
    found = []
    for char in dict.fromkeys(name):
        folded = unicodedata.normalize("NFKD", char)
        if char.isascii():
            target = _name_table().get(ord(char))
            if target is not None and len(target) == 1:
                found.append((char, target))
        elif folded.isascii() and folded.strip():
            found.append((char, folded))
        else:
            target = _name_table().get(ord(char))
            found.append((char, target or "?"))
    return found


_SEPARATORS = re.compile(r"[\s_.\-]+")
