"""Number agreement: "open merge requests" asks for many, `get_change_request` gives one.

Siblings of a large vendor server often share every word but their action and the number of
what they act on: `get_change_request` and `list_change_requests`, `quality_gate` and
`quality_gates`, `get_my_cards` and `assign_member_to_card`. BM25F matches
stems, so "requests" counts for both; the embedding of a long request hardly moves with one
letter. A request that names the object of a tool's name only in the plural ("open merge
requests", "did the checks pass") asks for many: a tool whose name acts on one of them loses
NUMBER nats, and one whose name acts on many of them (in the plural, or a name that lists or
searches: `getBibleVersionList`) gains NUMBER nats. A singular says little:
"find the dashboard about kafka" is for `search_dashboards`, a search that returns many to
find one. So a request in the singular lowers only the names that say the object in the
plural without listing or searching (`get_users` for "which user am I logged in as",
`get_all_services` for "error logs from the payments service"), by SINGULAR nats; a request
that says both numbers ("the airport among the German airports") moves nothing; and one that
names one thing by its identifier ("roll droplet 4411 back", "merge MR !42", "issue #12")
takes NUMBER nats from every name acting on many.

A name's object is the last word of its name before a preposition that is neither a stop word
nor a verb of the action table (`list_change_requests` -> requests, `add_project_to_task` ->
project, `metrics` -> metrics), as `toolcat.search.focus` reads it but kept as written. A word
is plural when it ends in -s after a letter that is not s, u or i (`requests`, `rules`, not
`status`, `class`, `analysis`) and drops to the same stem without it (`issues` -> `issu` as
`issue`). Words that are one form in both numbers (`data`, `info`) say nothing; the words of
the values a request names (`notes.txt`) are not read (`toolcat.search.text.without_values`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolcat.model import Tool
from toolcat.search.actions import asked, groups_of, named
from toolcat.search.focus import NAME_PREPOSITIONS, VERBS
from toolcat.search.text import STOPWORDS, stem, without_values, words

if TYPE_CHECKING:
    import numpy as np

# One nat, what the action agreement gives (toolcat.search.actions.AGREEMENT): 0.5 and 1.5
# measured in docs/ranking.md.
NUMBER = 1.0
# Half a nat: a name in the plural may still return the one a request asks for (`airports_get`
# with an ICAO code); at a whole nat ToolAlpaca's hit@1 fell 0.737 -> 0.727 (docs/ranking.md).
SINGULAR = 0.5

_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# a word followed by an identifier: "droplet 4411", "MR !42", "issue #12", "story sc-1234"
# (not a quantity: "log 3h", "resize to 4GB", "at 3pm")
_BY_ID = re.compile(r"\b([A-Za-z]{2,})\s+[#!]?(?![0-9]+[A-Za-z]{1,3}\b)(?=[\w-]*\d)[\w-]+")
_MANY = frozenset(("list", "search"))  # a name that lists or searches acts on many
# the action table's groups that look: a request that asks for another action ("kill all the
# queued jobs", "move all its guests") is not asking for a list of them
_LOOKING = frozenset(("read", "list", "search"))
_VERB_STEMS = frozenset(stem(verb) for verb in VERBS)


def plural(word: str) -> bool:
    """Whether the lower-case `word` is an English plural in -s or -es (see the module
    docstring)."""
    if len(word) < 4 or word[-1] != "s" or word[-2] in "siu":
        return False
    base = stem(word)
    return stem(word[:-1]) == base or (word.endswith("es") and stem(word[:-2]) == base)


def name_object(name: str) -> str | None:
    """The word a tool's name acts on, as written, lower case (see the module docstring)."""
    found: list[str] = [w.lower() for w in _NAME_WORD.findall(name, 0, 200)]
    for k, word in enumerate(found[1:], 1):
        if word in NAME_PREPOSITIONS:
            found = found[:k]
            break
    for word in reversed(found):
        if len(word) > 1 and word not in STOPWORDS and word not in VERBS \
                and stem(word) not in _VERB_STEMS:
            return word
    return None


class Number:
    """NUMBER evidence for or against each tool whose name's object the request names (see
    the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        import numpy as np

        self._size = len(tools)
        by_stem: dict[str, tuple[list[int], list[int]]] = {}  # stem -> (singular, plural)
        bare: dict[str, list[int]] = {}  # stem -> the names in the plural that do not list
        listing: dict[str, list[int]] = {}  # stem -> names of many whose verb only looks
        actions = named(tools)
        for i, tool in enumerate(tools):
            found = name_object(tool.name)
            if found is not None:
                said = {w.lower() for w in _NAME_WORD.findall(tool.name, 0, 200)}
                many = plural(found) or bool(_MANY & said)
                by_stem.setdefault(stem(found), ([], []))[many].append(i)
                if plural(found) and not _MANY & said:
                    bare.setdefault(stem(found), []).append(i)
                action = actions[i]
                if many and action is not None and groups_of(action[0]) <= _LOOKING:
                    listing.setdefault(stem(found), []).append(i)
        self._objects = {key: (np.array(one, dtype=np.int64), np.array(many, dtype=np.int64))
                         for key, (one, many) in by_stem.items()}
        self._plural = {key: np.array(found, dtype=np.int64) for key, found in bare.items()}
        self._listing = {key: np.array(found, dtype=np.int64) for key, found in listing.items()}

    def evidence(self, request: str) -> np.ndarray:
        """For each tool whose name's object the request says only in the plural: +NUMBER when
        the name acts on many (but for a name whose verb only reads, lists or searches, when
        the request asks for an action of the table that does not look), -NUMBER when it acts on
        one. When the request says it only in
        the singular: -NUMBER when the name acts on many and the request names the object by
        an identifier, else -SINGULAR when the name says it in the plural and does not list or
        search. Otherwise 0."""
        import numpy as np

        found = np.zeros(self._size)
        said: dict[str, set[bool]] = {}
        for word in words(without_values(request[:4000])):
            key = stem(word)
            if key in self._objects:
                said.setdefault(key, set()).add(plural(word))
        named = {stem(m.group(1).lower()) for m in _BY_ID.finditer(request[:4000])}
        action = asked(request)
        acting = bool(action) and not action & _LOOKING
        for key, numbers in said.items():
            one, many = self._objects[key]
            if False not in numbers:
                found[many] += NUMBER
                found[one] -= NUMBER
                if acting and key in self._listing:  # looking at them is not what it asks
                    found[self._listing[key]] -= NUMBER
            elif key in named and True not in numbers:  # one, named by its identifier
                found[many] -= NUMBER
            elif True not in numbers and key in self._plural:
                found[self._plural[key]] -= SINGULAR
        return found
