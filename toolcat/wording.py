"""Small pieces of English shared by messages everywhere."""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # all but \t and \n


def printable(text: str) -> str:
    """`text` with every control character but tabs and line ends written as its escape (a
    carriage return, an escape sequence's ESC, a Unicode line separator), so no name a file
    chose can overwrite or recolour what the terminal shows."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def one_line(text: str) -> str:
    """`text` as one printable terminal line: its lines joined by spaces."""
    return printable(" ".join(text.split("\n")))


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
