"""Which language a sentence is written in, by CLD2 (`pycld2`: Google's Compact Language
Detector 2, Apache 2.0, its tables compiled into the package, so nothing is downloaded):
for lint's foreign sentences (toolcat.lint.detector) and for the requests the zero-shot
abstention may judge (`foreign`: its model reads English; toolcat.search.hybrid).

The learned detector's function words (`detector.language`) know about twenty-five languages
by a few words each; a sentence in Welsh, Somali, Basque, Esperanto or Estonian holds none of
them and read as English. CLD2 names about 80 languages from their letter sequences, in C,
at tens of microseconds a sentence; it is asked only where the function words leave English
as the fallback (a sentence with fewer than two English function words), so English text
rarely reaches it.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pycld2

from toolcat import cjk

# CLD2 is not sure below this many letters: a short phrase ("Image resizer") is anything
SHORTEST = 20
# A character of Chinese, Japanese or Korean carries about a word ("删除这个文件", delete this
# file, is six) and its script is no Latin language's: for a request (`foreign`) it counts as
# CJK_LETTERS letters, so "苹果股票价格" (the price of Apple's stock) is long enough to name
CJK_LETTERS = 5
_CJK = re.compile(f"[{cjk.LETTERS}{cjk.JAMO}]")
_NAMES: dict[str, str] = {code: name.title().replace("_", " ")
                          for name, code in pycld2.LANGUAGES}
_NAMES.update({"en": "English", "iw": "Hebrew", "zh": "Chinese", "zh-Hant": "Chinese"})
# what CLD2 answers when it cannot tell
_UNKNOWN = frozenset({"un", "xx", "xxx", ""})


@lru_cache(maxsize=1 << 16)
def identified(text: str, shortest: int = SHORTEST) -> str:
    """The ISO 639 code CLD2 gives `text` when it is sure of it (`en`, `cy`, `so`, ...), or
    "" when it is not (shorter than `shortest` characters, mixed, a list of names). A text
    holding two languages is named by the one most of it is in."""
    if len(text) < shortest:
        return ""
    try:
        reliable, _, details = pycld2.detect(text)
    except pycld2.error:  # bytes that are not UTF-8 (a lone surrogate)
        return ""
    code = details[0][1]
    return code if reliable and code not in _UNKNOWN else ""


@lru_cache(maxsize=1 << 16)
def guessed(text: str) -> str:
    """CLD2's best guess for `text` where it is not sure (`identified` gives ""): a language
    it cannot name but can tell from English ("Vnimanie: vse prezhnie ukazaniya ...", Russian
    in Latin letters, guessed Slovak) gets a code, English telegraphese ("Valid IETF BCP 47
    short form locale tag") gets "en" or ""."""
    try:
        _, _, details = pycld2.detect(text, bestEffort=True)
    except pycld2.error:
        return ""
    code = details[0][1]
    return "" if code in _UNKNOWN else code


def english(text: str) -> bool:
    """Whether CLD2 is sure that all of `text` is English (no other language in any part)."""
    try:
        reliable, _, details = pycld2.detect(text)
    except pycld2.error:
        return False
    return bool(reliable) and details[0][1] == "en" and not details[1][2]


def name(code: str) -> str:
    """The English name of a language code of CLD2 or of the detector's tags."""
    return _NAMES.get(code, code)


def letters(text: str) -> int:
    """The length of `text` in letters of a Latin script: a character of Chinese, Japanese
    or Korean counts as CJK_LETTERS (linear: one pass of a character class)."""
    return len(text) + (CJK_LETTERS - 1) * len(_CJK.findall(text))


def of_request(text: str) -> str:
    """The ISO 639 code of the language CLD2 is sure a request is written in, or "": as
    `identified`, with a CJK letter counting as CJK_LETTERS letters (`letters`)."""
    return identified(text, shortest=0) if letters(text) >= SHORTEST else ""


def foreign(text: str) -> bool:
    """Whether CLD2 is sure that `text` is in a language other than English (a request
    typed in Spanish or German, or a short one in Chinese): what a model that reads English
    cannot judge."""
    lang = of_request(text)
    return bool(lang) and lang != "en"
