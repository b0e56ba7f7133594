"""Verbs the action table does not know, mapped to the catalog's own verbs by the embedding.

`toolcat.search.actions` gives a nat to the tools whose name's verb the request asks for, when
both verbs are in its table. Requests use many more verbs than any table holds: "tick off
'buy groceries'" for `close_tasks`, "silence web-03" for `mute_host`, "get rid of the old build"
for `mobile_uninstall_app`, "wipe everything in memcached" for `cache_flush_all`. Here the
request's verb, when the table does not know it, is compared with the verbs the catalog's names
open with, one embedding of each word or short phrase (MiniLM places "silence" next to "mute",
"wipe" next to "flush"), and the tools whose name's verb is the nearest, at a cosine of at
least NEAR, get the table's AGREEMENT.

Both sides are read narrowly, as the table reads them:

- the request's verb is the first word of its first clause that opens with one (after "please",
  "can you", "I want to", ...), with its particle ("tick off", "get rid of", "put it back"):
  an order opens with its verb. A clause that opens with a stop word or a question word ("I
  accidentally wiped the column", "what is ...") has none; one that opens with a verb of the
  table leaves the request to the table, unless a particle makes it another verb ("get rid
  of"). A server's name is not a verb ("asana").
- a catalog's verbs are the words its names open with (or the second, after a prefix three or
  more tools of a server share; where `toolcat.search.actions.verb_positions` finds a verb of
  the table, that word), on servers that name at least half of their tools by an
  action of the table (`toolcat.search.actions.named`); a verb the request says itself earns
  what BM25F gave it, as in the table.

The catalog's verbs are embedded on the first request that needs them (a few hundred words),
once per process; a request whose verb the table knows costs nothing more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import (
    ACTIONS,
    AGREEMENT,
    ASKED,
    PARTICLES,
    PREFIX,
    groups_of,
    name_words,
    named,
    phrasal,
    verb_positions,
)
from toolcat.search.focus import PREPOSITIONS
from toolcat.search.orders import verbs
from toolcat.search.text import stem

if TYPE_CHECKING:
    from toolcat.search.embeddings import Embedder

NEAR = 0.6  # the cosine a catalog verb needs with the request's (chosen on the dev half)
# A verb no catalog verb is near enough is read as the action group of the table whose verbs it
# is nearest, at CLASS_NEAR or more and CLASS_MARGIN ahead of the next group (docs/ranking.md)
CLASS_NEAR = 0.55
CLASS_MARGIN = 0.05
# the short frames a verb is embedded in, its vector their mean: one bare word is read as a
# noun as often as a verb ("file", "log")
FRAMES = ("{}", "I want to {} it", "please {} it")
# Groups a verb the table lacks is never read as: the table holds the everyday verbs of reading,
# and the verbs the frames put nearest them are as often writing ("write", "give", "take",
# "restore"); a group of one verb ("upload") has no meaning apart from its word
READING = frozenset(("read", "list"))
MAX_VERBS = 4096  # distinct catalog verbs embedded at most: bounded on hostile catalogs
MAX_KEPT = 50_000  # words' vectors kept in a process

# (model, word or phrase) -> its unit vector: catalogs' verbs and requests' verbs, encoded once
# per process (not read from the embedding cache: reading it costs more than a few hundred words
# take to encode), and shared by the scorers a process builds over one catalog (pick, serve)
_KEPT: dict[tuple[str, str], np.ndarray] = {}
# model -> the prototypes' framed vectors (`group_of`); (model, verb) -> the group it is read as
_PROTOTYPES: dict[str, np.ndarray] = {}
_GROUPS: dict[tuple[str, str], str | None] = {}

# particles that make a phrasal verb of the word before them ("tick off", "get rid of")
_PARTICLES = frozenset("off back out up down away over rid".split())
_OBJECTS = frozenset("it them this that these those everything all".split())  # "put it back"


def spoken(request: str) -> str | None:
    """The first word of `request` that stands as an order's verb (toolcat.search.orders),
    with its particle, when the action table does not know it; else None (see the module
    docstring)."""
    for verb in verbs(request):
        if phrasal(verb):  # the table reads it
            return None
        word, rest = verb.word, list(verb.rest)
        if rest[:1] and rest[0] in _OBJECTS and rest[1:2] and rest[1] in _PARTICLES:
            rest = rest[1:]
        if word in ASKED:  # the table's, unless a particle makes another verb of it
            return _phrasal(word, rest[0]) if rest[:1] and rest[0] in PARTICLES else None
        if rest[:1] and rest[0] in _PARTICLES:
            return _phrasal(word, rest[0])
        if rest[:1] and rest[0] in PREPOSITIONS:  # "bug for the Mobile project": a noun
            return None
        return word if len(word) > 2 else None
    return None


def _phrasal(verb: str, particle: str) -> str:
    return f"{verb} rid of" if particle == "rid" else f"{verb} {particle}"


def heads(tools: Sequence[Tool]) -> list[str | None]:
    """For each tool, the word its name acts with on a server that names its tools by action
    (see the module docstring), lower case; else None."""
    acting = {t.server for t, found in zip(tools, named(tools), strict=True) if found}
    words = name_words(tools)
    firsts = Counter((t.server, w[0]) for t, w in zip(tools, words, strict=True) if w)
    found: list[str | None] = []
    for tool, head, verb_at in zip(tools, words, verb_positions(tools, words), strict=True):
        if tool.server not in acting or not head:
            found.append(None)
            continue
        at = verb_at if verb_at is not None else 1 if (
            len(head) > 1 and head[0] not in ASKED
            and firsts[(tool.server, head[0])] >= PREFIX) else 0
        word = head[at]
        found.append(word if word.isalpha() and len(word) > 2 else None)
    return found


class CatalogVerbs:
    """AGREEMENT for the tools whose name's verb is nearest to a request's verb the action
    table does not know (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool], excluded: frozenset[str] = frozenset()) -> None:
        self._size = len(tools)
        members: dict[str, list[int]] = {}
        for i, head in enumerate(heads(tools)):
            if head is not None and (head in members or len(members) < MAX_VERBS):
                members.setdefault(head, []).append(i)
        self._verbs = list(members)
        self._at = {verb: k for k, verb in enumerate(self._verbs)}
        self._stems = [stem(v) for v in self._verbs]
        self._members = [np.array(found, dtype=np.int64) for found in members.values()]
        self._excluded = excluded  # words that name a server, never a verb
        # the catalog's verbs' vectors per embedding model (its identity): a scorer may be
        # asked with another model than the one it first read them with
        self._vectors: dict[str, np.ndarray] = {}
        self._last: tuple[tuple[str, str], tuple[str, str] | None] | None = None

    def asked(self, request: str) -> str | None:
        """The verb of `request` this maps, if any."""
        verb = spoken(request) if self._verbs else None
        return None if verb is None or verb.split()[0] in self._excluded else verb

    def nearest(self, verb: str, embedder: Embedder) -> tuple[str, float] | None:
        """The catalog's verb nearest to `verb` and its cosine, when it is another word."""
        mine = self._vectors.get(embedder.ident)
        if mine is None:
            mine = self._vectors[embedder.ident] = _vectors(embedder, self._verbs)
        query = _vectors(embedder, [verb])[0]
        cosine = mine @ query
        said = stem(verb) if " " not in verb else None  # BM25F counts a verb said itself
        for k in np.argsort(-cosine)[:2]:
            if self._stems[k] != said:
                return self._verbs[k], float(cosine[k])
        return None

    def mapped(self, request: str, embedder: Embedder) -> tuple[str, str] | None:
        """The request's verb and the catalog's verb it maps to, when it maps to one (kept for
        the next call: a request is read several times, `explain` once per tool)."""
        last = self._last  # read once: serve's threads may replace it
        if last is not None and last[0] == (request, embedder.ident):
            return last[1]
        verb = self.asked(request)
        near = None if verb is None else self.nearest(verb, embedder)
        found = None if verb is None or near is None or near[1] < NEAR else (verb, near[0])
        if found is not None and groups_of(stem(found[1])) & READING:
            found = None  # the table holds every reading verb: one it lacks asks for more
        self._last = ((request, embedder.ident), found)
        return found

    def classified(self, request: str, embedder: Embedder) -> tuple[str, str] | None:
        """The request's verb and the action group of the table it is read as, when no
        catalog verb is near enough (`mapped`) and one group's verbs are (see `group_of`)."""
        verb = self.asked(request)
        if verb is None or self.mapped(request, embedder) is not None:
            return None
        group = group_of(verb, embedder)
        return None if group is None else (verb, group)

    def evidence(self, request: str, embedder: Embedder) -> np.ndarray:
        """AGREEMENT for the tools whose name's verb is the one nearest to the request's, at a
        cosine of NEAR or more; else 0."""
        found = np.zeros(self._size)
        pair = self.mapped(request, embedder)
        if pair is not None:
            found[self._members[self._at[pair[1]]]] = AGREEMENT
        return found


def group_of(verb: str, embedder: Embedder) -> str | None:
    """The group of ACTIONS whose verbs are nearest to `verb` (a verb or a phrasal verb the
    table does not hold), each embedded in FRAMES: the group of the nearest of its verbs, when
    that is CLASS_NEAR or more and CLASS_MARGIN ahead of every other group's and not one of
    READING; else None. Only groups of several verbs are read."""
    key = (embedder.ident, verb)
    if key in _GROUPS:
        return _GROUPS[key]
    prototypes = [(group, word) for group, words in ACTIONS.items() if len(words) > 1
                  for word in words]
    vectors = _PROTOTYPES.get(embedder.ident)
    if vectors is None:
        vectors = _PROTOTYPES[embedder.ident] = _framed(embedder,
                                                        [word for _, word in prototypes])
    cosine = vectors @ _framed(embedder, [verb])[0]
    best: dict[str, float] = {}
    for (group, _), value in zip(prototypes, cosine.tolist(), strict=True):
        best[group] = max(best.get(group, -1.0), value)
    ranked = sorted(best.items(), key=lambda item: -item[1])
    found = None if (ranked[0][1] < CLASS_NEAR or ranked[0][1] - ranked[1][1] < CLASS_MARGIN
                     or ranked[0][0] in READING) else ranked[0][0]
    if len(_GROUPS) >= MAX_KEPT:  # bounded: requests may come from strangers
        _GROUPS.clear()
    _GROUPS[key] = found
    return found


def _framed(embedder: Embedder, words: list[str]) -> np.ndarray:
    """Unit vectors of `words`, one row each: the mean of each word's vectors in FRAMES."""
    vectors = _vectors(embedder, [frame.format(word) for frame in FRAMES for word in words])
    return _unit(vectors.reshape(len(FRAMES), len(words), -1).sum(axis=0))


def unit_vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """Unit vectors of short `texts`, one row each, kept for the process with the catalog's
    verbs (`toolcat.search.collocations` reads verb phrases through it)."""
    return _vectors(embedder, texts)


def _vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """Unit vectors of `texts`, one row each, through `_KEPT`."""
    missing = [t for t in dict.fromkeys(texts) if (embedder.ident, t) not in _KEPT]
    if missing:
        if len(_KEPT) + len(missing) > MAX_KEPT:  # bounded: requests may come from strangers
            _KEPT.clear()
            missing = list(dict.fromkeys(texts))
        for text, vector in zip(missing, _unit(embedder.encode(missing)), strict=True):
            _KEPT[(embedder.ident, text)] = vector
    found = [_KEPT.get((embedder.ident, t)) for t in texts]
    kept = [v for v in found if v is not None]
    # another thread (serve's) may have cleared the store since
    return np.stack(kept) if len(kept) == len(texts) else _unit(embedder.encode(texts))


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms: np.ndarray = np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return np.asarray(vectors / norms)
