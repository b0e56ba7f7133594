"""Text as a model reads it, before the learned detector looks for any cue.

A disguise changes what a reviewer or a pattern sees, not what a model reads: a model reads
`ⅰgnore` (a Roman numeral), `ｉｇｎｏｒｅ` (full width), `𝐢𝐠𝐧𝐨𝐫𝐞` (mathematical bold),
`іgnore` (a Cyrillic `і` inside a Latin word), `ig\u200bnore` (a zero-width space), `1gn0re`
(digits for letters), `**ignore**` and `<!-- ignore -->` as the word "ignore". `as_read`
undoes each, so that a sentence hidden in any of them reaches the detector as plain words:

- Unicode NFKC (full-width, mathematical and enclosed letters, ligatures);
- what a model decodes, decoded (`toolcat.lint.decoding`): base64, hexadecimal,
  URL-encoding, rot13 and Unicode tag characters that read as words;
- invisible characters dropped (zero-width spaces and joiners, soft hyphens, word joiners,
  byte-order marks, Unicode tag characters), except a joiner between two letters of a script
  that writes with it (Persian's zero-width non-joiner, the joiners of Indic scripts);
- look-alike letters of other scripts (Unicode TR39's confusables, the data `lookalike`
  reads) folded to the Latin letter they imitate, in a word that mixes them with Latin
  letters, or in a word made only of them inside Latin text; a word of Cyrillic or Greek in
  Cyrillic or Greek text is left as it is, and so is a Latin letter with an accent;
- digits for letters (`0 1 3 4 5 7`) inside a word that has letters on both sides of them;
- markup taken out with its content kept: HTML comments and tags, markdown emphasis and
  strike-through, code fences, and the pipes of a table row (its cells read as a list,
  each under its column's header when the table has one).

Text that holds none of these is returned as it is (the same object), cheaply: nearly all of
it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

from toolcat.lint.decoding import HINT, decoded
from toolcat.lint.lookalike import text_table

# what may need reading in ASCII text: markup, or a digit between letters (searched from
# the digit: a pattern that opens with a letter is tried at nearly every character)
_MARKUP = ("<", "*", "__", "~~", "```", "|")
LEET = r"[013457](?<=[a-zA-Z][013457])[013457]*[a-zA-Z]"
_LEET_HINT = re.compile(LEET)
# always invisible; the two joiners (U+200C, U+200D) only between letters of scripts
# that write with them
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b"
                        "\u200e\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff"
                        "\uffa0\U000e0000-\U000e007f]")
_JOINER = re.compile("[\u200c\u200d]")
_LETTERS = re.compile(r"[^\W\d_]+")
_LEET = re.compile(r"(?<=[a-zA-Z])[013457]+(?=[a-zA-Z])|\b[013457](?=[a-zA-Z]{3,}\b)")
_DIGIT_LETTERS = str.maketrans("013457", "oieast")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
# a tag: one name (`<b>`, `</p>`, `<important_notes>`), or an HTML element's with attributes;
# `<the contents of the file>` is a placeholder written in words, read as they are
_TAG = re.compile(r"</?[a-zA-Z][\w:-]{0,30}/?>|</?(?:a|p|div|span|b|i|u|code|pre|br|img|font"
                  r"|ul|ol|li|table|tr|td|th|h[1-6]|em|strong|sup|sub|small|details|summary"
                  r"|section|blockquote|note)\s[^<>]{0,200}>")
# spans bounded: an opening mark without its close is tried against a bounded stretch, so
# a line of unclosed marks is read in linear time
_EMPHASIS = re.compile(r"(\*\*|__|~~)(?=\S)(.{1,200}?)(?<=\S)\1"
                       r"|(?<![\w*])\*(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\*(?![\w*])")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[\w+-]*[ \t]*$", re.MULTILINE)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$",
                         re.MULTILINE)
_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$", re.MULTILINE)


# a markdown table with its header: each row is read with the header's cells as keys
# ("| step | shown in replies |" over "| copy to backup | no |": "step: copy to backup,
# shown in replies: no."), as a model reads a cell by its column
_TABLE = re.compile(r"^[ \t]*\|(?P<head>[^\n]*)\|[ \t]*\n[ \t]*\|?[ \t]*:?-{3,}[^\n]*\n"
                    r"(?P<rows>(?:[ \t]*\|[^\n]*\|[ \t]*(?:\n|$))+)", re.MULTILINE)


def _headed(match: re.Match[str]) -> str:
    head = [cell.strip() for cell in match.group("head").split("|")]
    rows = []
    for line in match.group("rows").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append(", ".join(f"{key}: {cell}" if key else cell
                              for key, cell in zip(head, cells, strict=False) if cell) + ".")
    return "\n".join(rows) + "\n"


def as_read(text: str) -> str:
    """`text` as a model reads it (see the module's docstring); `text` itself when nothing in
    it is disguised or marked up."""
    if text.isascii():
        if HINT.search(text):
            text = decoded(text)
        return _unmarked(text) if _marked(text) else text
    return _read(text)


def _marked(text: str) -> bool:
    """Whether `text` may hold markup or digits for letters (`_unmarked` may change it)."""
    return any(mark in text for mark in _MARKUP) or _LEET_HINT.search(text) is not None


def ascii_changes() -> str:
    """What `as_read` may change in an ASCII text, as one expression (for RE2, over bytes):
    a payload's hint (`decoding.HINT`), a mark of `_MARKUP`, or digits for letters (LEET
    without its look-behind, which RE2 has not). A text in which it finds nothing is read as
    it is written: a pass over many texts joined then finds the few `as_read` must read."""
    leet = LEET.replace("(?<=[a-zA-Z][013457])", "").replace("[013457]", "[a-zA-Z][013457]", 1)
    return "|".join([HINT.pattern, *map(re.escape, _MARKUP), leet])


@lru_cache(maxsize=1 << 14)
def _read(text: str) -> str:
    folded = decoded(unicodedata.normalize("NFKC", text))
    folded = _INVISIBLE.sub("", folded)
    if "\u200c" in folded or "\u200d" in folded:
        folded = _joiners_dropped(folded)
    if not folded.isascii():
        folded = _folded_words(folded)
    return _unmarked(folded) if _marked(folded) else folded


def _joiners_dropped(text: str) -> str:
    """`text` without the zero-width joiners that do not sit between two letters of a
    script other than Latin (where they shape the letters: Persian, the Indic scripts)."""
    def kept(match: re.Match[str]) -> str:
        at = match.start()
        before = text[at - 1] if at else ""
        after = text[at + 1] if at + 1 < len(text) else ""
        shaping = all(c.isalpha() and not c.isascii() and not _latin(c) for c in (before, after)
                      if c) and before and after
        return match.group() if shaping else ""
    return _JOINER.sub(kept, text)


def _folded_words(text: str) -> str:
    """`text` with the look-alike letters of its words folded to Latin (`_fold_word`): in a
    word that mixes them with Latin letters, or in a word made only of them between two
    Latin words (or one, at an end): "please сору the file", not a Russian sentence."""
    words = list(_LETTERS.finditer(text))
    kinds = [_kind(match.group()) for match in words]
    out: list[str] = []
    at = 0
    for i, match in enumerate(words):
        if kinds[i] == "mixed" or (kinds[i] == "lookalike" and all(
                kinds[j] == "latin" for j in (i - 1, i + 1) if 0 <= j < len(words))
                and len(words) > 1):
            out += [text[at:match.start()], _fold_word(match.group())]
            at = match.end()
    return "".join([*out, text[at:]]) if out else text


def _kind(word: str) -> str:
    """"latin" (ASCII or accented Latin letters only), "mixed" (Latin letters and look-alikes
    of them from other scripts), "lookalike" (only such look-alikes) or "other"."""
    if word.isascii():
        return "latin"
    table = text_table()
    foreign = [c for c in word if not c.isascii() and not _latin(c)]
    if not foreign:
        return "latin"
    if not all(ord(c) in table for c in foreign):
        return "other"
    return "lookalike" if len(foreign) == len(word) else "mixed"


def _fold_word(word: str) -> str:
    table = text_table()
    return "".join(table[ord(c)] if not c.isascii() and not _latin(c) else c for c in word)


@cache
def _latin(char: str) -> bool:
    """Whether `char` is a Latin letter (with or without an accent)."""
    return unicodedata.name(char, "").startswith("LATIN")


def _unmarked(text: str) -> str:
    """`text` with markup taken out and its content kept, and digits read as letters inside
    words (see the module's docstring)."""
    if "<" in text:
        text = _COMMENT.sub(lambda m: f" {m.group(1).strip()} ", text)
        text = _TAG.sub(" ", text)
    if "*" in text or "_" in text or "~" in text:
        text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or "", text)
    if "```" in text or "~~~" in text:
        text = _FENCE.sub("", text)
    if "|" in text:
        text = _TABLE.sub(_headed, text)
        text = _TABLE_RULE.sub("", text)
        text = _ROW.sub(lambda m: ", ".join(c.strip() for c in m.group(1).split("|")
                                            if c.strip()) + ".", text)
    if _LEET.search(text):
        text = _NUMBER_OR_LEET.sub(_letters, text)
    return text.lstrip()


# a run of six digits or more makes a word a number (an IBAN, an order id), whose digits
# stand for themselves: `GB33BUKB2020...` is an account, not leet
_NUMBER_OR_LEET = re.compile(r"(?P<number>\b[A-Za-z0-9]*\d{6}[A-Za-z0-9]*\b)|" + _LEET.pattern)


def _letters(match: re.Match[str]) -> str:
    return match.group() if match.group("number") else match.group().translate(_DIGIT_LETTERS)
