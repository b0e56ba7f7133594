"""One positioned reader for the input files toolcat reads besides catalogs.

toolcat.yaml (and `[tool.toolcat]`), profiles, lock files, lint baselines, ... are each a
small document of settings. `FieldReader` reads the values of one such document: each reader
checks a value's type, range or choices and, when it is wrong, raises a ConfigError naming the
file, the line and the column of the value (of its key, for an unknown key), and the setting
by its dotted path (`mcp.max_in_prompt`). A document read without positions (a pyproject.toml
table) is named by its file alone.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from toolcat.errors import ConfigError
from toolcat.model import SourceRef
from toolcat.source.positions import PositionIndex, join

S = TypeVar("S", bound=str)  # one of a fixed set of names (a Literal)

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$")


class FieldReader:
    """Reads the values of one settings document; every problem a ConfigError at its place.

    Pointers are JSON pointers into the document (`/lint/select/0`); `label` turns one into
    the name a message gives the setting (`lint.select`).
    """

    def __init__(self, file: str, index: PositionIndex | None = None, *,
                 document: str = "the file") -> None:
        self.file = file
        self.index = index
        self.document = document  # how a message names the document's top value

    # ---- positions and errors ------------------------------------------------------------

    def where(self, pointer: str = "", *, key: bool = False) -> SourceRef:
        """The file:line:column of the value at `pointer` (of its key with `key`); the file
        alone when the document has no positions."""
        if self.index is None:
            return SourceRef(self.file)
        line, column = self.index.locate(pointer + ("#key" if key else ""))
        return SourceRef(self.file, line, column, pointer)

    def error(self, pointer: str, message: str, *, key: bool = False,
              hint: str | None = None) -> ConfigError:
        return ConfigError(message, where=self.where(pointer, key=key), hint=hint)

    def label(self, pointer: str) -> str:
        """`/mcp/max_in_prompt` as `mcp.max_in_prompt` (the document itself: `document`)."""
        return pointer.strip("/").replace("/", ".") or self.document

    # ---- value readers -------------------------------------------------------------------

    def mapping(self, pointer: str, value: Any, known: Sequence[str]) -> dict[str, Any]:
        """A mapping (None reads as empty) whose keys are all in `known`."""
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a mapping")
        self.known_keys(pointer, value, known)
        return value

    def known_keys(self, pointer: str, value: Mapping[str, Any], known: Sequence[str], *,
                   message: Callable[[str], str] | None = None) -> None:
        """Raise at the first key of `value` not in `known`, naming the known ones and the
        closest; `message(key)` words the error when the default does not fit."""
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                where = "" if not pointer else f" in '{self.label(pointer)}'"
                text = message(key) if message is not None else \
                    f"unknown setting '{key}'{where}; known: {', '.join(known)}"
                raise self.error(join(pointer, key), text, key=True,
                                 hint=f"did you mean '{close[0]}'?" if close else None)

    def boolean(self, pointer: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.error(pointer, f"'{self.label(pointer)}' must be true or false")
        return value

    def text(self, pointer: str, value: Any, *, allow_empty: bool = True,
             what: str | None = None) -> str:
        """A string (not blank unless `allow_empty`); `what` says what it must be instead of
        "a string"."""
        if not isinstance(value, str) or (not allow_empty and not value.strip()):
            article = "a non-empty" if not allow_empty else "a"
            raise self.error(pointer, f"'{self.label(pointer)}' must be "
                             f"{what or article + ' string'}")
        return value

    def integer(self, pointer: str, value: Any, *, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a whole number")
        if value < minimum:
            raise self.error(pointer, f"'{self.label(pointer)}' must be at least {minimum}")
        return value

    def number(self, pointer: str, value: Any, *, low: float, high: float | None = None,
               low_open: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a number")
        too_low = value <= low if low_open else value < low
        if too_low or (high is not None and value > high):
            bound = f"> {low:g}" if low_open else f">= {low:g}"
            upper = f" and <= {high:g}" if high is not None else ""
            raise self.error(pointer, f"'{self.label(pointer)}' must be {bound}{upper}")
        return float(value)

    def choice(self, pointer: str, value: Any, choices: Sequence[S]) -> S:
        """`value` as the one of `choices` it equals (typed as they are)."""
        if value not in choices:
            close = difflib.get_close_matches(str(value), choices, n=1)
            raise self.error(pointer, f"'{self.label(pointer)}' must be one of "
                             f"{', '.join(choices)} (got {value!r})",
                             hint=f"did you mean '{close[0]}'?" if close else None)
        return choices[choices.index(value)]

    def names(self, pointer: str, value: Any, *, one: bool = False,
              check: Callable[[str, str], None] | None = None) -> tuple[str, ...]:
        """A list of non-empty strings (with `one`, a single string too), each passed to
        `check(pointer, name)`; duplicates dropped, order kept."""
        items = [value] if one and isinstance(value, str) else value
        if not isinstance(items, list):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a list of names")
        out = []
        for i, item in enumerate(items):
            item_pointer = join(pointer, i) if items is value else pointer
            if not isinstance(item, str) or not item.strip():
                raise self.error(item_pointer,
                                 f"each entry of '{self.label(pointer)}' must be a name")
            if check is not None:
                check(item_pointer, item)
            out.append(item)
        return tuple(dict.fromkeys(out))

    def duration(self, pointer: str, value: Any) -> float:
        """Seconds, from a number or "2s", "500ms", "1m"."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = float(value)
        else:
            match = _DURATION.match(value) if isinstance(value, str) else None
            if not match:
                raise self.error(pointer, f"'{self.label(pointer)}' must be a duration such "
                                 "as 2, \"2s\" or \"500ms\"")
            scale = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[match.group(2)]
            seconds = float(match.group(1)) * scale
        if seconds <= 0:
            raise self.error(pointer, f"'{self.label(pointer)}' must be more than 0 seconds")
        return seconds

    def typed(self, pointer: str, value: Any, kinds: type | tuple[type, ...], what: str) -> Any:
        """`value` when it is of `kinds` (true and false are no numbers unless `bool` is one
        of them), else an error saying the setting must be `what`."""
        allowed = kinds if isinstance(kinds, tuple) else (kinds,)
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            raise self.error(pointer, f"'{self.label(pointer)}' must be {what}")
        return value

    def entries(self, pointer: str, value: Any, *, what: str) -> list[Any]:
        """A list (None reads as empty); `what` says what it must be a list of."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(pointer, f"'{self.label(pointer)}' must be a list of {what}")
        return value

    def fields(self, pointer: str, value: Any, kinds: Mapping[str, type],
               required: Collection[str], message: str) -> dict[str, Any]:
        """A mapping whose `required` keys are present and non-empty and whose keys in `kinds`
        hold values of their type; `message` is the error at the mapping otherwise."""
        if not isinstance(value, dict) or any(not value.get(k) for k in required) or any(
                k in value and not isinstance(value[k], kind) for k, kind in kinds.items()):
            raise self.error(pointer, message)
        return value
