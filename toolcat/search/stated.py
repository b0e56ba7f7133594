"""The verb a request states decides between siblings that act on one object.

Vendor servers name a tool by a verb and what it acts on, and give one object several verbs:
`close_pull_request` and `merge_pull_request`, `merge_merge_request` and
`update_merge_request`. Their descriptions say nearly the same, and the embedding of a request
that names the object by a value ("close #231 without merging", "merge MR !42 now that the
pipeline passed") is near them all; BM25F counts the verb as one word among the request's, and
the object's words, which the siblings share, outweigh it. The action table's nat
(`toolcat.search.actions`) is too little where the model prefers another sibling by a tenth of
a cosine.

When the request's verb (the first word that stands as an order's verb and is one of the action
table's, `toolcat.search.orders`) is the verb of a tool's name, a sibling of the same server
acting on the same object (the same words after the verb) with a verb of another action (in
none of the table's groups of the stated verb: "reply" is no other action than "send") that the
request gives no order to do is put LEAD under the best of the tools with the stated verb, when
it was ahead of it by at most REACH: between siblings, the stated verb decides. A sibling far
ahead keeps its lead (the request's words and the model both prefer it), and a verb the request
says only as a state or after "without" ("without merging") is not ordered; a sibling with less
than LEAD of evidence, which does not fit, has nothing to give. Where a sibling gave way and no
word of the request names the object, the tools with the stated verb get the action table's
AGREEMENT, which the table gives a verb said as the name says it only with a word of its
object: the siblings that fit say what the request acts on ("#231"), and without it a tool of
another server that fits as little came first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, PARTICLES, groups_of, named, phrasal
from toolcat.search.orders import verbs
from toolcat.search.text import stem, stems

LEAD = 0.5  # nats under the stated sibling: a tie broken, as a narrower sibling's
REACH = 2.0  # nats of lead a sibling may have and still give way
MAX_GROUP = 32  # siblings kept per object: memory and time bounded on hostile catalogs


class Stated:
    """Evidence taken from siblings whose verb the request does not state, when it states a
    sibling's (see the module docstring). A request's evidence is a few array operations
    over the siblings of the groups its verb is in: no loop in Python over the catalog."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        by_object: dict[tuple[str, frozenset[str]], list[tuple[int, str]]] = {}
        for i, (tool, action) in enumerate(zip(tools, named(tools), strict=True)):
            if action is not None and action[1]:
                found = by_object.setdefault((tool.server, action[1]), [])
                if len(found) < MAX_GROUP:
                    found.append((i, action[0]))
        self._verb_ids: dict[str, int] = {}
        tool_of: list[int] = []  # per sibling: the tool, its group, its verb's id
        group_of: list[int] = []
        verb_of: list[int] = []
        rows: dict[str, list[int]] = {}  # a verb -> the siblings of the groups it is in
        by_word: dict[str, list[int]] = {}  # a word of an object -> the groups acting on it
        groups = 0
        for (_, acted_on), members in by_object.items():
            verbs_here = {verb for _, verb in members}
            if len(verbs_here) < 2:
                continue
            start = len(tool_of)
            for i, verb in members:
                tool_of.append(i)
                group_of.append(groups)
                verb_of.append(self._verb_ids.setdefault(verb, len(self._verb_ids)))
            for verb in verbs_here:
                rows.setdefault(verb, []).extend(range(start, len(tool_of)))
            for word in acted_on:
                by_word.setdefault(word, []).append(groups)
            groups += 1
        self._tool = np.array(tool_of, dtype=np.int64)
        self._group = np.array(group_of, dtype=np.int64)
        self._verb = np.array(verb_of, dtype=np.int64)
        self._rows = {verb: np.array(found, dtype=np.int64) for verb, found in rows.items()}
        self._by_word = {word: np.array(found, dtype=np.int64) for word, found in by_word.items()}
        self._groups = groups
        self._size = len(tools)

    def stated(self, request: str) -> str | None:
        """The stem of the request's verb when it is the verb of siblings' names, else None."""
        for verb in verbs(request):
            found = stem(verb.word)
            if phrasal(verb):  # "set up" states no "set"
                return None
            if groups_of(found) and verb.particle not in PARTICLES:
                return found if found in self._rows else None
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
        rows = self._rows[verb]
        tool, group, verb_of = self._tool[rows], self._group[rows], self._verb[rows]
        mine = verb_of == self._verb_ids[verb]
        # siblings of another action: not a verb the request orders, nor one of the stated
        # verb's groups ("reply" is no other action than "send")
        alike = {stem(v.word) for v in verbs(request)} | {
            v for v in self._verb_ids if groups_of(v) & groups_of(verb)}
        others = ~np.isin(verb_of, [self._verb_ids[v] for v in alike if v in self._verb_ids])
        scores = evidence[tool]
        top = np.full(self._groups, -np.inf)
        np.maximum.at(top, group[mine], scores[mine])
        ahead = scores - top[group]
        over = ahead + LEAD
        give = others & (over > 0) & (ahead <= REACH) & (scores >= LEAD)
        np.minimum.at(found, tool[give], -over[give])
        gave = np.zeros(self._groups, dtype=bool)
        gave[group[give]] = True
        named_object = np.zeros(self._groups, dtype=bool)
        for word in set(stems(request)):
            said = self._by_word.get(word)
            if said is not None:
                named_object[said] = True
        lifted = mine & gave[group] & ~named_object[group]
        found[tool[lifted]] = AGREEMENT
        return found
