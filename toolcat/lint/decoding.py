"""Orders a model can decode, decoded before the detector reads them.

A model reads base64, hexadecimal, URL-encoding, rot13 and Unicode tag characters (invisible
ASCII, "ASCII smuggling") as text: an order hidden in any of them is still an order to it.
`decoded` puts the plain text in place of each payload that decodes to words, so that the
detector's cues read it like any other sentence; a payload that decodes to no words (an
image, a hash, an identifier that happens to be base64's letters) is left as it is.

Linear in the text: each payload is decoded once, and only a run long enough to hold words.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from urllib.parse import unquote

# a run of base64's letters long enough to hold a sentence of four words, standing alone
_BASE64 = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/]{24,}={0,2}(?![\w+/=-])"
                     r"|(?<![\w=-])[A-Za-z0-9_-]{24,}={0,2}(?![\w=-])")
_HEX = re.compile(r"(?<![\w\\])(?:0x)?(?:[0-9a-fA-F]{2}){12,}(?!\w)|(?:\\x[0-9a-fA-F]{2}){12,}")
_PERCENT = re.compile(r"(?:%[0-9a-fA-F]{2}[^%\s]{0,3}){4,}")
# rot13 of English's commonest short words (the, and, you, is, of, to, for, this, your, with):
# a text holding several of them is English in rot13
_ROT13_WORDS = re.compile(r"\b(?:gur|naq|lbh|vf|bs|gb|sbe|guvf|lbhe|jvgu|nyy|nal)\b")
_WORDS = re.compile(r"[A-Za-z]{2,}")
# the Unicode tag characters that stand for printable ASCII (U+E0020-U+E007E)
_TAGS = re.compile("[\U000e0020-\U000e007e]+")
# what may hold a payload, searched for first: nearly every text holds none
HINT = re.compile(r"[A-Za-z0-9+/_-]{24}|(?:[0-9a-fA-F]{2}){12}|%[0-9a-fA-F]{2}"
                  r"|\b(?:gur|lbh|naq)\b")


def decoded(text: str) -> str:
    """`text` with each payload it hides (base64, hexadecimal, URL-encoding, rot13, tag
    characters) replaced by what it says, when that reads as words; `text` itself when it
    hides none."""
    if not text.isascii() and _TAGS.search(text):
        text = _TAGS.sub(lambda m: " " + "".join(chr(ord(c) - 0xE0000) for c in m.group())
                         + " ", text)
    if not HINT.search(text):
        return text
    if "%" in text:
        text = _PERCENT.sub(_unpercent, text)
    text = _BASE64.sub(_unbase64, text)
    text = _HEX.sub(_unhex, text)
    if _ROT13_WORDS.search(text):
        text = _unrot13(text)
    return text


def _unpercent(match: re.Match[str]) -> str:
    plain = unquote(match.group())
    return plain if _words(plain) else match.group()


def _unbase64(match: re.Match[str]) -> str:
    payload = match.group().rstrip("=")
    padded = payload + "=" * (-len(payload) % 4)
    try:
        data = (base64.urlsafe_b64decode(padded) if "-" in padded or "_" in padded
                else base64.b64decode(padded))
    except (binascii.Error, ValueError):
        return match.group()
    plain = _text(data)
    return f" {plain} " if plain is not None else match.group()


def _unhex(match: re.Match[str]) -> str:
    digits = match.group().replace("\\x", "").removeprefix("0x")
    try:
        plain = _text(binascii.unhexlify(digits[: len(digits) // 2 * 2]))
    except (binascii.Error, ValueError):
        return match.group()
    return f" {plain} " if plain is not None else match.group()


def _text(data: bytes) -> str | None:
    """`data` as text when it is printable and reads as words (`_words`), else None."""
    try:
        plain = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not plain.isprintable() and not all(c.isprintable() or c in "\n\t" for c in plain):
        return None
    return plain if _words(plain) else None


def _words(text: str) -> bool:
    """Whether `text` reads as a sentence: four words or more, letters most of it."""
    words = _WORDS.findall(text)
    letters = sum(len(word) for word in words)
    return len(words) >= 4 and letters * 10 >= len(text) * 6


def _unrot13(text: str) -> str:
    """`text` with each sentence that reads as English in rot13 (two of its commonest words,
    more than it holds as written) turned back."""
    parts = _CLAUSES.split(text)
    for at, part in enumerate(parts):
        hits = len(_ROT13_WORDS.findall(part))
        if hits >= 2:
            turned = codecs.decode(part, "rot13")
            if hits > len(_ROT13_WORDS.findall(turned)):
                parts[at] = turned
    return "".join(parts)


# the text cut after a stop, a colon or a line break (the cuts kept): an encoded sentence
# often follows a plain one ("Decode this: Sbyybj ...")
_CLAUSES = re.compile(r"((?<=[.!?;:])\s+|\n)")
