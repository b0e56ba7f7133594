"""Specificity among siblings: a narrower name the request never asks for.

Vendor servers name tools by adding qualifiers to a plainer sibling's name: `cancel_pipeline`
and `cancel_pipeline_job`, `list_pipelines` and `list_merge_request_pipelines`, `get_story`
and `get_story_by_id`. Their descriptions and embeddings are near each other, and for "stop
the pipeline" the narrower one won by a few hundredths of a nat, although the request never
says "job". A tool whose name's words hold all of a plainer sibling's on the same server,
plus words the request does not say, loses NARROWER nats when that sibling fits about as
well (its evidence within NARROWER of the narrower tool's): of two tools that fit, the one
that adds nothing unasked leads. A sibling that fits clearly worse changes nothing, and a
request that says the qualifier ("list the pipeline jobs") keeps the narrower tool.

Names are compared as sets of the stems of their words, stop words included (`git_show` is
not the plainest name of mcp-server-git: "show" says what it does), and only names that open
with the same word are siblings (a namespace put before a name is another author's, not a
qualifier: BFCL's `math.gcd` and `gcd`). A tool's plainer siblings are found by looking up the
subsets of its name's stems, so building costs time linear in the catalog (names of more than
MAX_WORDS stems are not narrowed, and MAX_PLAIN siblings per tool are kept at most).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from toolcat.model import Tool
from toolcat.search.text import stem, stems, words

# Half a nat: about a third of what a shared rare word earns, so it breaks near-ties between
# siblings and never overturns a clear lead.
NARROWER = 0.5
MAX_WORDS = 6  # 62 subsets looked up per name at most
MAX_PLAIN = 16  # plainer siblings kept per tool: memory and time bounded on hostile catalogs


class Siblings:
    """NARROWER evidence taken from tools narrower than a sibling that fits about as well
    (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        split = [words(t.name[:200]) for t in tools]
        names = [tuple(sorted({stem(w) for w in found})) for found in split]
        heads = [found[:1] for found in split]
        by_name: dict[tuple[str, tuple[str, ...]], list[int]] = {}
        for i, (tool, name) in enumerate(zip(tools, names, strict=True)):
            if name:
                by_name.setdefault((tool.server, name), []).append(i)
        narrow: list[int] = []
        plain: list[int] = []
        extras: list[set[str]] = []
        for i, (tool, name) in enumerate(zip(tools, names, strict=True)):
            if len(name) < 2 or len(name) > MAX_WORDS:
                continue
            found = [j for size in range(1, len(name)) for subset in combinations(name, size)
                     for j in by_name.get((tool.server, subset), ())[:MAX_PLAIN]
                     if heads[j] == heads[i]][:MAX_PLAIN]
            narrow.extend([i] * len(found))
            plain.extend(found)
            extras.extend(set(name).difference(names[j]) for j in found)
        self._narrow = np.array(narrow, dtype=np.int64)
        self._plain = np.array(plain, dtype=np.int64)
        by_extra: dict[str, list[int]] = {}  # a stem -> the pairs it narrows
        for k, extra in enumerate(extras):
            for word in extra:
                by_extra.setdefault(word, []).append(k)
        self._by_extra = {word: np.array(pairs, dtype=np.int64)
                          for word, pairs in by_extra.items()}
        self._size = len(tools)

    def evidence(self, request: str, evidence: np.ndarray) -> np.ndarray:
        """-NARROWER for each tool with at least NARROWER of `evidence` and a plainer sibling
        whose evidence is within NARROWER of its own, where the request says none of the words
        that make it narrower; else 0."""
        found = np.zeros(self._size)
        if not len(self._narrow):
            return found
        unasked = np.ones(len(self._narrow), dtype=bool)
        for word in set(stems(request)):
            pairs = self._by_extra.get(word)
            if pairs is not None:
                unasked[pairs] = False
        narrow, plain = self._narrow[unasked], self._plain[unasked]
        close = (evidence[plain] >= evidence[narrow] - NARROWER) & (evidence[narrow] >= NARROWER)
        found[narrow[close]] = -NARROWER
        return found
