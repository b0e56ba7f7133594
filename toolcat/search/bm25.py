"""Field-aware BM25 (BM25F) over a tool's name, description, parameters and tags.

Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields" (CIKM 2004).
For a query term t and a tool d with fields f (each of length len_f, mean length avg_f):

    tf~(t, d) = sum_f  w_f * tf(t, f) / (1 - b_f + b_f * len_f / avg_f)
    sat(t, d) = tf~ / (k1 + tf~)                          saturation, in [0, 1)
    idf(t)    = ln(1 + (N - df + 0.5) / (df + 0.5))       Lucene's non-negative idf
    BM25F     = sum_t idf(t) * (k1 + 1) * sat(t, d)

Terms are Snowball stems of lower-case words with camelCase and separators split and stop
words removed, so `sendMessage`, `send_message` and "sending messages" meet.

The score divides BM25F by the most the query could earn, `(k1 + 1) * sum_t idf(t)`, so it is
the idf-weighted share of the query a tool explains, saturated per term: 1 means every query
term occurs strongly in the tool. Query terms no tool contains carry no evidence either way
and are left out, but the denominator never drops below the idf of a term that occurs in a
single tool: a query that matches only common words cannot look like a perfect match.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from toolcat.model import Tool
from toolcat.search.text import (
    identifier_names,
    own_description,
    parameter_texts,
    split_name,
    stems,
)

# Field weights and length normalisation. The name is short and chosen with care, so one
# occurrence there says more than one in a long description; parameters describe inputs, not
# purpose, so they count for less.
FIELDS: dict[str, tuple[float, float]] = {  # name: (weight w_f, length normalisation b_f)
    "name": (3.0, 0.3),
    "description": (1.0, 0.75),
    "parameters": (0.5, 0.75),
    "tags": (1.0, 0.3),
}


def tool_fields(tool: Tool, names: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """The stems of each field of `tool`; clauses of its description that point to another
    of the `names` are left out (see `own_description`)."""
    params = []
    for name, description in parameter_texts(tool.parameters):
        params += [split_name(name), description]
    return {
        "name": stems(split_name(tool.name)),
        "description": stems(own_description(tool, names)),
        "parameters": stems(" ".join(params)),
        "tags": stems(" ".join(split_name(tag) for tag in tool.tags)),
    }


class BM25Scorer:
    """BM25F with per-query normalisation to 0..1 (see the module docstring)."""

    name = "bm25"

    def __init__(self, tools: Sequence[Tool], *, k1: float = 1.2) -> None:
        self.tools = tools
        self.k1 = k1
        names = identifier_names(tools)
        fields = [tool_fields(t, names) for t in tools]
        n = len(tools)
        mean = {f: (sum(len(d[f]) for d in fields) / n if n else 0.0) or 1.0 for f in FIELDS}
        weighted: dict[str, dict[int, float]] = {}
        for i, doc in enumerate(fields):
            for f, (weight, b) in FIELDS.items():
                norm = 1 - b + b * len(doc[f]) / mean[f]
                for term, tf in Counter(doc[f]).items():
                    row = weighted.setdefault(term, {})
                    row[i] = row.get(i, 0.0) + weight * tf / norm
        # term -> [(tool, sat)]: the saturation does not depend on the query, so a query
        # only adds idf * sat along the postings of its terms
        self._postings: dict[str, list[tuple[int, float]]] = {}
        self._idf: dict[str, float] = {}
        for term, row in weighted.items():
            self._postings[term] = [(i, tf / (k1 + tf)) for i, tf in row.items()]
            self._idf[term] = math.log(1 + (n - len(row) + 0.5) / (len(row) + 0.5))
        # the idf of a term that occurs in one tool: the least a query's weight can be
        self._idf_floor = math.log(1 + (n - 0.5) / 1.5) if n else 1.0
        self._fields = fields

    def evidence(self, query: str) -> tuple[list[float], float]:
        """Unnormalised evidence `sum_t idf(t) * sat(t, d)` per tool (in nats, since idf is a
        log-odds weight), and the most any tool could earn (the denominator of the score)."""
        out = [0.0] * len(self.tools)
        mass = 0.0
        for term in dict.fromkeys(stems(query)):
            posting = self._postings.get(term)
            if posting is None:
                continue
            idf = self._idf[term]
            for i, sat in posting:
                out[i] += idf * sat
            mass += idf
        return out, (max(mass, self._idf_floor) if mass else 1.0)

    def scores(self, query: str) -> list[float]:
        evidence, most = self.evidence(query)
        return [e / most for e in evidence]

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        fields = self._fields[index]
        matched: dict[str, list[str]] = {}
        for term in dict.fromkeys(stems(query)):
            where = [f for f in FIELDS if term in fields[f]]
            if where:
                matched[term] = where
        if not matched:
            return "no query term occurs in the tool", {"matched": {}}
        by_term = ", ".join(f"{t} ({'/'.join(w)})" for t, w in matched.items())
        return f"BM25F matched {by_term}", {"matched": matched}
