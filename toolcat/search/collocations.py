"""The verb with its object: which sibling's action a request's verb phrase says.

Siblings of one server that share an object and differ by action (`create_solution_article`,
`update_solution_article`; `protect_document`, `unprotect_document`; `update_price`,
`create_price`) embed alike, and a request's verb the action table lacks often means an action
only with its object: "publish a help-center article" creates one, "bump the price" updates it,
"lock the offer letter" protects it. The verb alone, embedded or mapped to a catalog verb
(`toolcat.search.verbs`), says little there ("bump" is near no verb of a catalog), and the whole
request, embedded, is about the object: the siblings' cosines lie within hundredths.

So the action is read from the verb phrase. The request's phrase is its first order's verb
(`toolcat.search.orders`) with the words of its object up to a preposition or a clause word
("publish a help-center article", "bump the pro monthly price"); each sibling's is its name
from its verb on ("create solution article"). The model compares what the verb adds to its
object on each side: the vector of the phrase less the vector of its object alone, against the
vector of each sibling's name less its name's object ("solution article"). Less the object,
what is left is the action as the object colours it; compared whole, the object decides
("call off the scheduled email" is nearest `schedule_email`, less the object `cancel_scheduled`).

The siblings compared are the tools among the CANDIDATES that fit best, on the server of the
best, within WITHIN nats of it, whose name acts on a word of the best tool's object or of the
request's, on a server that names its tools by action (`toolcat.search.actions.named`), with two
verbs between them at least. The tools whose verb is the nearest get the action table's
AGREEMENT, when the nearest is FLOOR or more and MARGIN ahead of any sibling with another verb.
It reads only what the table and the catalog's verbs leave: a request whose verb the table
knows, maps to a catalog verb or reads as a group of the table (`toolcat.search.verbs`), a
verb without an object ("park ENG-112") and a statement ("checkout app is OutOfSync") get
nothing. A request costs at most 2 + 2 x CANDIDATES short encodings, kept for the process with
the catalog's verbs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import (
    AGREEMENT,
    PREFIX,
    asked,
    groups_of,
    name_words,
    named,
    verb_positions,
)
from toolcat.search.focus import CLAUSE_WORDS, PREPOSITIONS
from toolcat.search.making import made
from toolcat.search.orders import NO_VERB, verbs
from toolcat.search.text import stem
from toolcat.search.verbs import CatalogVerbs, unit_vectors

if TYPE_CHECKING:
    from toolcat.search.embeddings import Embedder

CANDIDATES = 10  # the best-fitting tools the siblings are taken from
WITHIN = 3.0  # nats behind the best a sibling may be, to be compared
# the nearest sibling's cosine (what the verb adds to its object, on both sides) and its lead
# over a sibling with another verb; chosen on the real-server halves and the demo set
# (docs/ranking.md): "block out my vacation" lies 0.33 from `delete_event`
FLOOR = 0.4
MARGIN = 0.05
OBJECT_WORDS = 4  # words of content read after the verb at most

_BE = frozenset("is are was were isn't aren't wasn't weren't".split())
_ENDS = PREPOSITIONS | CLAUSE_WORDS | {"of", "off"}  # what ends an object ("a branch off ...")
_PARTICLES = frozenset("off back out up down away over".split())


def phrase(request: str) -> tuple[str, str] | None:
    """The verb phrase of `request` and its object, lower case ("publish a help-center
    article" -> ("publish a article", "a article"): values are left out), when its first
    order's verb is not the action table's; else None."""
    if asked(request):
        return None
    for verb in verbs(request):
        rest = list(verb.rest)
        head = verb.word
        if rest[:2] == ["rid", "of"]:
            head, rest = f"{head} rid of", rest[2:]
        elif rest and rest[0] in _PARTICLES:
            head = f"{head} {rest.pop(0)}"
        kept: list[str] = []
        content = 0
        for at, token in enumerate(rest):
            if token in _BE:  # "checkout app is OutOfSync": a statement, no order
                return None
            if token in _ENDS and at:
                break
            if token.isalpha() and token not in _ENDS:
                kept.append(token)
                content += token not in NO_VERB
            if content >= OBJECT_WORDS:
                break
        found = " ".join(kept)
        return f"{head} {found}".strip(), found
    return None


class Collocations:
    """AGREEMENT for the siblings whose action the request's verb phrase says (see the module
    docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        words = name_words(tools)
        firsts = Counter((t.server, w[0]) for t, w in zip(tools, words, strict=True) if w)
        acting = {t.server for t, found in zip(tools, named(tools), strict=True) if found}
        # each tool's action phrase (its name from its verb on) and its object's stems
        self._phrases: list[tuple[str, str, frozenset[str]] | None] = []
        for tool, found, verb_at in zip(tools, words, verb_positions(tools, words),
                                        strict=True):
            if tool.server not in acting or not found:
                self._phrases.append(None)
                continue
            at = verb_at if verb_at is not None else 1 if (
                len(found) > 1 and not groups_of(stem(found[0]))
                and firsts[(tool.server, found[0])] >= PREFIX) else 0
            kept = [w for w in found[at:]
                    if w.isalpha() and not (w[0] == "v" and w[1:].isdigit())]
            self._phrases.append(
                (" ".join(kept), " ".join(kept[1:]), frozenset(stem(w) for w in kept[1:]))
                if len(kept) > 1 else None)

    def evidence(self, request: str, fitting: np.ndarray, embedder: Embedder,
                 catalog_verbs: CatalogVerbs) -> np.ndarray:
        """AGREEMENT for the siblings whose verb the request's verb phrase says, among the
        tools that fit best by `fitting` (see the module docstring); else 0."""
        found = np.zeros(len(self._tools))
        said = phrase(request)
        if (said is None or len(fitting) < 2 or made(request) is not None
                or not any(w not in NO_VERB for w in said[1].split())
                or catalog_verbs.mapped(request, embedder) is not None
                or catalog_verbs.classified(request, embedder) is not None):
            return found
        group = self._siblings(said[1], fitting)
        heads = [self._name(i)[0].split()[0] for i in group]
        if len(set(heads)) < 2:
            return found
        vectors = unit_vectors(embedder, [said[0], said[1],
                                          *(self._name(i)[0] for i in group),
                                          *(self._name(i)[1] for i in group)])
        cosine = _directions(vectors[2:2 + len(group)], vectors[2 + len(group):]) @ \
            _directions(vectors[:1], vectors[1:2])[0]
        best = int(np.argmax(cosine))
        others = [c for c, h in zip(cosine.tolist(), heads, strict=True) if h != heads[best]]
        if cosine[best] >= FLOOR and cosine[best] - max(others) >= MARGIN:
            found[[i for i, h in zip(group, heads, strict=True) if h == heads[best]]] = AGREEMENT
        return found

    def _name(self, index: int) -> tuple[str, str, frozenset[str]]:
        found = self._phrases[index]
        assert found is not None
        return found

    def _siblings(self, said: str, fitting: np.ndarray) -> list[int]:
        """The tools among the CANDIDATES that fit best that are compared (see the module
        docstring), the best first; none when the best has no action phrase."""
        count = min(CANDIDATES, len(fitting))
        top = np.argpartition(-fitting, count - 1)[:count]
        top = top[np.argsort(-fitting[top], kind="stable")]
        leader = int(top[0])
        if self._phrases[leader] is None:
            return []
        objects = self._name(leader)[2] | {stem(w) for w in said.split() if w not in NO_VERB}
        server = self._tools[leader].server
        return [leader, *(
            int(i) for i in top[1:]
            if self._phrases[int(i)] is not None and self._tools[int(i)].server == server
            and fitting[int(i)] >= fitting[leader] - WITHIN and self._name(int(i))[2] & objects)]


def _directions(phrases: np.ndarray, objects: np.ndarray) -> np.ndarray:
    """What each phrase adds to its object: the difference of their unit vectors, unit
    length."""
    found = phrases - objects
    norms: np.ndarray = np.maximum(np.linalg.norm(found, axis=1, keepdims=True), 1e-9)
    return np.asarray(found / norms)
