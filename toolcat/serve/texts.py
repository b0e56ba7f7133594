"""The texts serve's regex search matches tools' descriptions and parameters against, kept
per catalog.

search_tools tries the query as a pattern first, over every searchable tool's name,
description and parameters. A remembered catalog decodes a tool's definition when its
description or parameters are first read, and the parameters' text
(toolcat.search.regex.parameter_field) walks every schema: together about a second and a
half at 43,000 tools, which the first search of a session would wait for. A catalog read
from files keeps these texts in the sealed cache under its content key, as serve keeps its
security verdict (toolcat.serve.trust), so a catalog seen before reads them back instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from toolcat.model import Catalog, Tool

PART = "regex-texts-1.json"  # the number changes when parameter_field's text does
TEXTS_LIMIT = 512 << 20  # bytes of kept texts
KEEP_TEXTS = 8  # catalogs whose texts are kept


def regex_texts(catalog: Catalog, tools: Sequence[Tool]) -> tuple[list[str], list[str]]:
    """The description and the parameter text of each of `tools` (catalog tools, in any
    order and number), from the catalog's kept texts when it was seen before."""
    from toolcat.search.index import catalog_key, index_path
    from toolcat.search.regex import parameter_field
    from toolcat.source import cache

    key = catalog_key(catalog)
    if key is None:
        return [t.description for t in tools], [parameter_field(t) for t in tools]
    path = index_path(key, PART)
    count = len(catalog.tools)
    kept = cache.recall(path, TEXTS_LIMIT, lambda payload: _texts(payload, count),
                        "regex search texts")
    if kept is None:
        kept = ([t.description for t in catalog.tools],
                [parameter_field(t) for t in catalog.tools])
        made = kept
        cache.store(path, lambda handle: handle.write(json.dumps(
            {"descriptions": made[0], "parameters": made[1]}).encode()), KEEP_TEXTS)
    if len(tools) == count and all(a is b for a, b in zip(tools, catalog.tools, strict=True)):
        return kept
    at = {id(t): i for i, t in enumerate(catalog.tools)}
    places = [at[id(t)] for t in tools]
    return [kept[0][i] for i in places], [kept[1][i] for i in places]


def _texts(payload: memoryview, count: int) -> tuple[list[str], list[str]]:
    data = json.loads(bytes(payload))
    if not isinstance(data, dict):
        raise ValueError("not a map of texts")
    descriptions, parameters = data.get("descriptions"), data.get("parameters")
    for texts in (descriptions, parameters):
        if not isinstance(texts, list) or len(texts) != count or not all(
                isinstance(text, str) for text in texts):
            raise ValueError(f"not two lists of {count} texts")
    assert isinstance(descriptions, list) and isinstance(parameters, list)
    return descriptions, parameters
