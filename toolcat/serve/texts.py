"""The texts serve's regex and fuzzy searches match tools' descriptions and parameters
against, kept per catalog.

search_tools tries the query as a pattern first, over every searchable tool's name,
description and parameters; fuzzy search, its last resort, matches the same words. A
remembered catalog decodes a tool's definition when its description or parameters are first
read, and the texts walk every schema: about a second and a half at 43,000 tools for the
regex search, which the first search of a session would wait for, and a second more for the
fuzzy index. A catalog read from files keeps these texts in the sealed cache under its
content key (toolcat.catalog.kept), as serve keeps its security verdict (toolcat.serve.trust),
so a catalog seen before reads them back instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from toolcat.catalog.kept import Kind, catalog_key, kept
from toolcat.model import Catalog, Tool

# kept by toolcat.catalog.kept, at most 512 MB an entry; the version changes when
# parameter_field's text (REGEX) or other_text's (FUZZY) does (2: a schema's parameters read
# within bounds, text.schema_parameters)
REGEX = Kind("regex-texts", 2, ".json", 512 << 20)
FUZZY = Kind("fuzzy-texts", 2, ".json", 512 << 20)


def regex_texts(catalog: Catalog, tools: Sequence[Tool]) -> tuple[list[str], list[str]]:
    """The description and the parameter text of each of `tools` (catalog tools, in any
    order and number), from the catalog's kept texts when it was seen before."""
    from toolcat.search.regex import parameter_field

    descriptions, parameters = _kept(catalog, tools, REGEX, [
        ("descriptions", lambda t: t.description), ("parameters", parameter_field)])
    return descriptions, parameters


def fuzzy_texts(catalog: Catalog, tools: Sequence[Tool]) -> list[str]:
    """The fuzzy index's text of each of `tools` besides their names (other_text)."""
    from toolcat.search.fuzzy import other_text

    return _kept(catalog, tools, FUZZY, [("others", other_text)])[0]


def _kept(catalog: Catalog, tools: Sequence[Tool], kind: Kind,
          fields: list[tuple[str, Callable[[Tool], str]]]) -> list[list[str]]:
    if catalog_key(catalog) is None:  # nothing kept: the texts of `tools` alone
        return [[make(t) for t in tools] for _, make in fields]
    names = [name for name, _ in fields]
    count = len(catalog.tools)
    texts = kept(kind, catalog, lambda: [[make(t) for t in catalog.tools] for _, make in fields],
                 lambda payload: _texts(payload, names, count),
                 lambda made, handle: handle.write(
                     json.dumps(dict(zip(names, made, strict=True))).encode()))
    if len(tools) == count and all(a is b for a, b in zip(tools, catalog.tools, strict=True)):
        return texts
    at = {id(t): i for i, t in enumerate(catalog.tools)}
    places = [at[id(t)] for t in tools]
    return [[column[i] for i in places] for column in texts]


def _texts(payload: memoryview, names: list[str], count: int) -> list[list[str]]:
    data = json.loads(bytes(payload))
    if not isinstance(data, dict):
        raise ValueError("not a map of texts")
    found = []
    for name in names:
        texts = data.get(name)
        if not isinstance(texts, list) or len(texts) != count or not all(
                isinstance(text, str) for text in texts):
            raise ValueError(f"'{name}' is not a list of {count} texts")
        found.append(texts)
    return found
