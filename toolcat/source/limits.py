"""The limits every parsed file is held to, and the walk that checks a parsed value against them.

Nesting deeper than MAX_DEPTH, strings longer than MAX_STRING and lone surrogates (a `\\ud800`
escape JSON decodes into a code point no UTF-8 text can hold) are refused, so no later stage
(a recursive validator, a tokenizer, a printer) meets them. A file is read up to
MAX_FILE_BYTES; YAML aliases may grow a document only so far (ALIAS_RATIO and the extras).
"""

from __future__ import annotations

import math
import re
from typing import Any

from toolcat.errors import CatalogError
from toolcat.model import SourceRef
from toolcat.source.positions import PositionIndex, escape

MAX_DEPTH = 64  # nested mappings/lists; real tool schemas stay under 12


MAX_STRING = 1_000_000  # characters in one string or key


MAX_FILE_BYTES = 512 * 2**20  # one catalog file; 43,000 real tools take about 60 MiB


READ_PIECE = 2**22


# Aliases may make a YAML document at most ALIAS_RATIO times the nodes and characters the
# file holds, and never add more than ALIAS_EXTRA_NODES nodes or ALIAS_EXTRA_CHARS characters.
ALIAS_RATIO = 100


ALIAS_EXTRA_NODES = 1_000_000


ALIAS_EXTRA_CHARS = 10_000_000


# What JSON's `\\udNNN` escapes decode to when they are not a valid pair: not a character,
# so printing, writing or encoding the text fails. Any other code point is writable.
SURROGATE = re.compile("[\ud800-\udfff]")


# The only way a JSON text (UTF-8, decoded strictly) holds one: an escape \uD800-\uDFFF.
# A text without any has nothing to look for (a scan of 20 MB takes 20 ms; looking at every
# string of 43,000 tools took a fifth more than the rest of the walk).
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


JSON_SCALARS = (str, int, float, bool, type(None))


def check_value(value: Any, shown: str, index: PositionIndex | None = None,
                type_names: set[str] | None = None, *, surrogates: bool = True) -> None:
    """Raise a CatalogError at the place of value_problem's problem, if there is one."""
    found = value_problem(value, type_names, surrogates=surrogates)
    if found:
        problem, pointer = found
        where = SourceRef(shown, *index.locate(pointer), pointer) if index else \
            SourceRef(shown, pointer=pointer)
        raise CatalogError(problem, where=where)


def value_problem(value: Any, type_names: set[str] | None = None, *,
                  surrogates: bool = True) -> tuple[str, str] | None:
    """(problem, JSON pointer) of the first place where a JSON value nests deeper than
    MAX_DEPTH, holds a string (or key) longer than MAX_STRING or holding a lone surrogate, or
    a non-finite number; else None. `type_names`, when given, receives every string value of
    a `type` key on the way (or UNKNOWN_TYPES when the fast walk did not see them all).
    `surrogates=False` skips looking for lone surrogates, for a value parsed from a JSON
    text that holds no escape that could make one.

    For values that did not come through parse_file, such as the arguments of a tool call."""
    if _within_limits(value, type_names, surrogates):
        return None
    if type_names is not None:
        type_names.add(UNKNOWN_TYPES)
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, at, depth = stack.pop()
        problem = bad_scalar(item)
        if problem is None and isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                problem = f"nested deeper than {MAX_DEPTH} levels"
            elif isinstance(item, dict):
                for key, sub in item.items():
                    child = f"{at}/{escape(str(key))}"
                    if isinstance(key, str) and (problem := bad_text(key)):
                        return problem, child + "#key"
                    stack.append((sub, child, depth + 1))
            else:
                stack.extend((sub, f"{at}/{i}", depth + 1) for i, sub in enumerate(item))
        if problem:
            return problem, at
    return None


UNKNOWN_TYPES = "?"  # not a JSON Schema type name: the loader checks every schema


def _within_limits(value: Any, type_names: set[str] | None = None,
                   surrogates: bool = True) -> bool:
    """Whether value_problem would find nothing: one pass that builds no pointers (the walk
    that names the place runs only when something is wrong)."""
    stack = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        kind = type(node)
        if kind is dict:
            if depth >= MAX_DEPTH:
                return False
            if type_names is not None:
                named = node.get("type")
                if type(named) is str:
                    type_names.add(named)
            for key in node:
                if isinstance(key, str) and (len(key) > MAX_STRING or (
                        surrogates and not key.isascii() and SURROGATE.search(key))):
                    return False
            children = node.values()
        elif kind is list:
            if depth >= MAX_DEPTH:
                return False
            children = node
        else:
            children = (node,)
            depth -= 1  # a lone scalar is checked below at the depth of its parent
        for child in children:
            kind = type(child)
            if kind is str:
                if len(child) > MAX_STRING or (surrogates and not child.isascii()
                                               and SURROGATE.search(child)):
                    return False
            elif kind is dict or kind is list:
                push((child, depth + 1))
            elif kind is float:
                if not math.isfinite(child):
                    return False
            elif kind not in _PLAIN:
                return False  # a subclass or another type: the careful walk decides
    return True


_PLAIN = frozenset({int, bool, type(None)})


def bad_scalar(item: Any) -> str | None:
    if isinstance(item, str):
        return bad_text(item)
    if isinstance(item, float) and not math.isfinite(item):
        return "NaN and Infinity are not JSON numbers"
    return None


def bad_text(text: str) -> str | None:
    """What is wrong with a string or key: too long, or holding a lone surrogate."""
    if len(text) > MAX_STRING:
        return _too_long(text)
    if not text.isascii() and (found := SURROGATE.search(text)):
        return (f"a lone surrogate ({ascii(found.group())[1:-1]} escape) is not a Unicode "
                "character; no UTF-8 text can hold it")
    return None


def _too_long(text: str) -> str:
    return f"a string of {len(text):,} characters; the limit is {MAX_STRING:,}"
