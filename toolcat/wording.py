"""Small pieces of English shared by messages everywhere."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# What may change how a line reads without showing itself: controls (C0, DEL, C1), format
# characters (bidirectional overrides, isolates and marks, zero-width spaces and joiners, the
# Arabic letter mark, invisible operators, tags), lone surrogates, private-use and unassigned
# code points, and the line and paragraph separators.
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Letters that draw nothing (the Hangul fillers, the blank Braille pattern), which pass for
# spaces; and combining overlays (canonical combining class 1: long stroke, solidus, ring
# overlays), which strike through the text before them: both are escaped too.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
OVERLAY = 1
_SUSPECT = re.compile("[^\x20-\x7e]")  # printable ASCII is never escaped: a fast path


def escaped(text: str, keep: str = "") -> str:
    """`text` with every character of the HIDDEN categories (and the BLANK_LETTERS and
    combining overlays) written as its code point,
    `\\u202e` (`\\U000e0041` past U+FFFF), except those in `keep` (tabs and line ends, where
    a message may have several lines). The one escaping rule for untrusted text shown to a
    person (docs/security.md): no name a file or a server chose can overwrite, recolour or
    reorder what a terminal or a client shows, hide text, or fail to encode."""
    return _escape(text, keep, _code_point)


def json_escaped(text: str) -> str:
    """JSON text with every character of the HIDDEN categories written as a JSON escape
    (`\\u202e`, a surrogate pair past U+FFFF): the same data for any JSON reader, and nothing a
    terminal would act on. Outside its strings JSON holds only line ends of that kind."""
    return _escape(text, "\n", _json_code)


def _escape(text: str, keep: str, code: Callable[[int], str]) -> str:
    def visible(found: re.Match[str]) -> str:
        char = found.group()
        if char in keep or (unicodedata.category(char) not in HIDDEN
                            and char not in BLANK_LETTERS
                            and unicodedata.combining(char) != OVERLAY):
            return char
        return code(ord(char))

    return _SUSPECT.sub(visible, text)


def _code_point(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _json_code(code: int) -> str:
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def printable(text: str) -> str:
    """`text` for a terminal: `escaped`, keeping its tabs and line ends."""
    return escaped(text, "\t\n")


def one_line(text: str) -> str:
    """`text` as one printable terminal line: its lines joined by spaces."""
    return escaped(" ".join(text.split("\n")), "\t")


def plural(count: int, word: str, words: str | None = None) -> str:
    """`1 tool`, `2 tools`, `1,000 tools`; `words` for an irregular plural."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def _json(value: object, limit: int = 60) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def schema_message(error: object) -> str:
    """A jsonschema validation error's message with its values written as JSON, as the user
    wrote them: `null is not of type "number"`, not Python's `None is not of type 'number'`."""
    message = str(getattr(error, "message", error))
    instance = getattr(error, "instance", None)
    shown = repr(instance)
    if message.startswith(shown):
        message = _json(instance) + message[len(shown):]
    for suffix in (" is a required property", " is a dependency of "):
        head, found, tail = message.partition(suffix)
        if found and head.startswith("'") and head.endswith("'"):
            message = _json(head[1:-1]) + found + tail
    head, found, tail = message.partition(" are not allowed (")
    if found:  # additionalProperties: ('a', 'b' were unexpected)
        import re

        message = head + found + re.sub(r"'([^'\\]*)'", lambda m: _json(m.group(1)), tail)
    expected = getattr(error, "validator_value", None)
    if isinstance(expected, (list, dict, str, bool)) or expected is None:
        written = repr(expected)
        if len(written) > 2 and written in message:
            message = message.replace(written, _json(expected, 120))
    return message
