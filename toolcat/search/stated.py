"""The verb a request states decides between siblings that act on one object.

Vendor servers name a tool by a verb and what it acts on, and give one object several verbs:
`close_pull_request` and `merge_pull_request`, `merge_merge_request` and
`update_merge_request`. Their descriptions say nearly the same, and the embedding of a request
that names the object by a value ("close #231 without merging", "merge MR !42 now that the
pipeline passed") is near them all; BM25F counts the verb as one word among the request's, and
the object's words, which the siblings share, outweigh it. The action table's nat
(`toolcat.search.actions`) is too little where the model prefers another sibling by a tenth of
a cosine.

When the request's verb (the first word that stands as an order's verb and is one of the
action table's, `toolcat.search.orders`) is the verb of a tool's name, a sibling of the same
server acting on the same object (the same words after the verb) with another verb that the
request gives no order to do is put LEAD under the best of the tools with the stated verb,
when it was ahead of it by at most REACH: between siblings, the stated verb decides. A sibling
far ahead keeps its lead (the request's words and the model both prefer it), and a verb the
request says only as a state or after "without" ("without merging") is not ordered; a sibling
with less than LEAD of evidence, which does not fit, has nothing to give. Where a
sibling gave way and no word of the request names the object, the tools with the stated verb
get the action table's AGREEMENT, which the table gives a verb said as the name says it only
with a word of its object: the siblings that fit say what the request acts on ("#231"), and
without it a tool of another server that fits as little came first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, PARTICLES, groups_of, named
from toolcat.search.orders import verbs
from toolcat.search.text import stem, stems

LEAD = 0.5  # nats under the stated sibling: a tie broken, as a narrower sibling's
REACH = 2.0  # nats of lead a sibling may have and still give way
MAX_GROUP = 32  # siblings kept per object: memory and time bounded on hostile catalogs


class Stated:
    """Evidence taken from siblings whose verb the request does not state, when it states a
    sibling's (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        by_object: dict[tuple[str, frozenset[str]], list[tuple[int, str]]] = {}
        for i, (tool, action) in enumerate(zip(tools, named(tools), strict=True)):
            if action is not None and action[1]:
                found = by_object.setdefault((tool.server, action[1]), [])
                if len(found) < MAX_GROUP:
                    found.append((i, action[0]))
        self._groups: list[tuple[np.ndarray, list[str], frozenset[str]]] = []
        self._by_verb: dict[str, list[int]] = {}  # a verb -> the groups it is in
        for (_, acted_on), members in by_object.items():
            verbs_of = [verb for _, verb in members]
            if len(set(verbs_of)) < 2:
                continue
            for verb in set(verbs_of):
                self._by_verb.setdefault(verb, []).append(len(self._groups))
            self._groups.append((np.array([i for i, _ in members], dtype=np.int64), verbs_of,
                                 acted_on))
        self._size = len(tools)

    def stated(self, request: str) -> str | None:
        """The stem of the request's verb when it is the verb of siblings' names, else None."""
        for verb in verbs(request):
            found = stem(verb.word)
            if groups_of(found) and verb.particle not in PARTICLES:
                return found if found in self._by_verb else None
        return None

    def evidence(self, request: str, evidence: np.ndarray) -> np.ndarray:
        """For each sibling of a tool whose verb the request states, acting on its object
        with a verb the request gives no order to do and ahead by at most REACH of
        `evidence`: what puts it LEAD under the best such tool; for the tools with the stated
        verb, when such a sibling gave way and the request names no word of their object,
        AGREEMENT; else 0."""
        found = np.zeros(self._size)
        verb = self.stated(request)
        if verb is None:
            return found
        ordered = {stem(v.word) for v in verbs(request)}
        about = set(stems(request))
        for group in self._by_verb[verb]:
            members, verbs_of, acted_on = self._groups[group]
            mine = np.array([v == verb for v in verbs_of])
            others = np.array([v not in ordered for v in verbs_of])
            top = float(evidence[members[mine]].max())
            over = evidence[members] - (top - LEAD)
            give = (others & (over > 0) & (evidence[members] - top <= REACH)
                    & (evidence[members] >= LEAD))
            found[members[give]] = np.minimum(found[members[give]], -over[give])
            if give.any() and not about & acted_on:
                found[members[mine]] = AGREEMENT
        return found
