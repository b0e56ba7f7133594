"""What a sibling states and the others do not: the request compared with that alone.

On a vendor server, the tools that fit a request best are often siblings that share most of
their text: the object's words, the server's phrasing, the same parameters
(`create_pipeline` and `create_pipeline_schedule`, `get_current_time` and `convert_time`,
`delete_email` and `delete_mailbox`). Embedded whole, they lie within hundredths of a cosine
of each other, and what tells them apart, a word or two of each ("schedule", "between
timezones", "mailbox and ALL its contents"), weighs little in a vector made mostly of what they
share.

So the siblings that fit alike are compared on what each states alone. The siblings are the
CANDIDATES tools that fit best on the server of the best one, within REACH nats of it (two at
least). Each one's distinct text is the words of its embedded summary (its name's words and its
own description, `toolcat.search.semantic.tool_texts`) whose stems no other sibling's summary
has, in their order; one whose every word another sibling states is read by its name's words.
The model encodes those texts, and each sibling loses WEIGHT nats per unit of cosine it is
behind the sibling whose distinct text is nearest the request: of two siblings that fit alike,
the one whose own words say what the request asks leads. A request that names only a server
(`toolcat.search.central`) compares the server's tools as a whole and gets nothing here. A
request costs one encoding of itself and of at most CANDIDATES short texts, kept for the
process (`toolcat.search.verbs.unit_vectors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from toolcat.model import Tool
from toolcat.search.semantic import tool_texts
from toolcat.search.text import identifier_names, repeated_sentences, split_name, stem, words
from toolcat.search.verbs import unit_vectors

if TYPE_CHECKING:
    from toolcat.search.embeddings import Embedder

CANDIDATES = 6  # the best-fitting tools of the best one's server compared at most
REACH = 2.0  # nats behind the best a sibling may be, to be compared
# nats per unit of cosine a sibling is behind the nearest distinct text: half of hybrid's 12,
# chosen on the development halves (docs/ranking.md)
WEIGHT = 6.0


class Contrast:
    """Evidence taken from siblings whose distinct text is farther from the request than a
    sibling's (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        self._context: tuple[frozenset[str], frozenset[tuple[str, str]]] | None = None
        self._read: dict[int, tuple[list[str], frozenset[str]]] = {}

    def _summary(self, index: int) -> tuple[list[str], frozenset[str]]:
        """The words of tool `index`'s embedded summary and their stems, read on first need
        (the catalog's names and repeated sentences once)."""
        if index not in self._read:
            if self._context is None:
                self._context = (identifier_names(self._tools),
                                 repeated_sentences(self._tools))
            found = words(tool_texts(self._tools[index], *self._context)[1])
            self._read[index] = (found, frozenset(stem(w) for w in found))
        return self._read[index]

    def siblings(self, fitting: np.ndarray) -> list[int]:
        """The tools compared for a request whose evidence is `fitting`, the best first: none
        when fewer than two of its server's fit within REACH."""
        count = min(CANDIDATES * 5, len(fitting))
        if count < 2:
            return []
        top = np.argpartition(-fitting, count - 1)[:count]
        top = top[np.argsort(-fitting[top], kind="stable")]
        leader = int(top[0])
        server = self._tools[leader].server
        found = [int(i) for i in top if self._tools[int(i)].server == server
                 and fitting[int(i)] >= fitting[leader] - REACH][:CANDIDATES]
        return found if len(found) >= 2 else []

    def distinct(self, group: Sequence[int]) -> list[str]:
        """Each sibling's words that no other of `group` states (its name's words when none
        are)."""
        texts = []
        for i in group:
            others = frozenset().union(*(self._summary(j)[1] for j in group if j != i))
            named = frozenset(stem(w) for w in words(self._tools[i].name))
            own = dict.fromkeys(w for w in self._summary(i)[0]
                                if stem(w) in named or stem(w) not in others)
            texts.append(" ".join(own) or split_name(self._tools[i].name))
        return texts

    def evidence(self, request: str, fitting: np.ndarray, embedder: Embedder) -> np.ndarray:
        """For each sibling that fits alike (see `siblings`), -WEIGHT times how far its distinct
        text's cosine to `request` is behind the nearest one's; else 0."""
        found = np.zeros(len(self._tools))
        group = self.siblings(fitting)
        if not group:
            return found
        cosine = unit_vectors(embedder.documents, self.distinct(group)) @ \
            embedder.query_vector(request)
        found[group] = WEIGHT * (cosine - cosine.max())
        return found
