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


# between texts read as one: no word holds it, no camelCase boundary or case rule (the final
# sigma of `lower`) reads across it
_APART = "\x00"


def words_of(texts: list[str]) -> list[list[str]]:
    """`words` of each of `texts`, the same lists, read in one pass over all of them joined
    (a catalog's names or descriptions: one regular expression pass and one `lower` instead
    of one per text)."""
    joined = _APART.join(texts)
    if joined.count(_APART) != max(len(texts) - 1, 0):  # a text holds the separator itself
        return [words(text) for text in texts]
    findall = _WORD.findall
    return [findall(part) for part in
            split_camel(joined).replace("_", " ").lower().split(_APART)] if texts else []


def content_words_of(found: list[list[str]]) -> list[list[str]]:
    """`content_words` from lists of `words`, each distinct word folded once."""
    folded = {w: stem(w) for w in set().union(*found) if w not in STOPWORDS}
    return [[folded[w] for w in each if w in folded] for each in found]


def description_plain_words(tool: Tool, ctx: Context) -> list[str]:
    """`words` of the tool's description, read once per distinct description of the catalog,
    all at once, in a lint run (catalogs repeat descriptions). The list is shared: callers do
    not change it."""
    found = _plain_descriptions(ctx).get(tool.description)
    return found if found is not None else words(tool.description)


def description_words(tool: Tool, ctx: Context) -> list[str]:
    """The `content_words` of the tool's description, once per distinct description (TC304
    and TC501 both compare them). The list is shared: callers do not change it."""
    def every() -> dict[str, list[str]]:
        plain = _plain_descriptions(ctx)
        return dict(zip(plain, content_words_of(list(plain.values())), strict=True))
    found = ctx.shared("description-words", every).get(tool.description)
    return found if found is not None else content_words(tool.description)


def _plain_descriptions(ctx: Context) -> dict[str, list[str]]:
    def every() -> dict[str, list[str]]:
        texts = list(dict.fromkeys(t.description for t in ctx.catalog.tools))
        return dict(zip(texts, words_of(texts), strict=True))
    return ctx.shared("description-plain-words", every)


def name_words(tool: Tool, ctx: Context) -> list[str]:
    """`words` of the tool's name, read for every name of the catalog at once in a lint run
    (TC304 and TC501). The list is shared: callers do not change it."""
    known: dict[int, list[str]] = ctx.shared("name-words", lambda: dict(zip(
        map(id, ctx.catalog.tools), words_of([t.name for t in ctx.catalog.tools]),
        strict=True)))
    found = known.get(id(tool))
    return found if found is not None else words(tool.name)


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
