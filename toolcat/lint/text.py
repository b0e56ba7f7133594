"""Words of names and descriptions, as the description and catalog rules compare them."""

from __future__ import annotations

import re

from toolcat.lint.findings import Context
from toolcat.model import Tool
from toolcat.search.text import split_camel
from toolcat.source.positions import unescape

_WORD = re.compile(r"\w+")

STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it its of on or that the this to with".split()
)


def words(text: str) -> list[str]:
    """Lower-case words; camelCase and snake_case are split (`getUserId` -> get user id)."""
    return list(_WORD.findall(split_camel(text).replace("_", " ").lower()))


_NOT_PLURAL = frozenset("does goes has was this its yes always news series species status "
                        "canvas alias bias atlas perhaps across less unless thus plus".split())


def stem(word: str) -> str:
    """A crude plural fold, enough to see that 'firms' and 'firm' say the same thing."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) \
            and word not in _NOT_PLURAL:
        return word[:-3] + "y" if word.endswith("ies") else word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """`words` without stop words, plurals folded."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def description_words(tool: Tool, ctx: Context) -> list[str]:
    """The `content_words` of the tool's description, read once per distinct description in
    a lint run (TC304 and TC501 both compare them; catalogs repeat descriptions). The list
    is shared: callers do not change it."""
    known: dict[str, list[str]] = ctx.shared("description-words", dict)
    text = tool.description
    found = known.get(text)
    if found is None:
        found = known[text] = content_words(text)
    return found


def parameter_path(pointer: str) -> str:
    """A readable name for the property at a schema pointer: `filter.status`, `items[].id`."""
    tokens = [unescape(t) for t in pointer.split("/")[1:]]
    parts: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("properties", "patternProperties", "$defs", "definitions") \
                and i + 1 < len(tokens):
            parts.append(tokens[i + 1])
            i += 2
            continue
        if token in ("items", "additionalProperties") and parts:
            parts[-1] += "[]"
        i += 1
    return ".".join(parts) or "(root)"
