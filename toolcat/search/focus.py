"""What a request asks for, apart from the phrases that say where, for whom or about what.

"add an item 'Vendor onboarding' to the Procurement board" asks for an item; the board is where
it goes. Read whole, the request gave `create_board` as much evidence as `create_item`: BM25F
weighs "board" as it weighs "item", and one embedding of the whole request lands between the
two. `read` splits a request into its *head* (what it asks for) and its *modifiers*, without a
tagger, by the words that open a modifier:

- a clause runs to `,` `;` `:` `.` `?` `!` or to "and", "or", "then", "but";
- its head runs from its start to the first preposition (to, in, on, from, about, for, with,
  ...) or clause word (that, which, who, whose, when, while, because, if, ...; named, called,
  titled) that follows a word of content, and the rest of the clause is a modifier. So
  "what's in src/app.py on the main branch" keeps "what's in src/app.py" ("in" follows no
  content word), and "of" opens nothing: "the status of item 4412" is one phrase;
- a preposition right after a form of "be" is the predicate, not a modifier ("pretend the
  device is in Tokyo").

Only orders are read so, clauses that open with a verb of `toolcat.search.actions`: a
question's head is its frame ("how long does it take ..."), and a story puts what it is about
anywhere ("I'm curious about the public holidays in Australia"); other clauses are read whole.
Two things read an order's head (`toolcat.search.hybrid`, `toolcat.search.cascade`):

- the cosine: a request whose orders have modifiers is embedded whole and without them, and
  the hybrid's cosine is HEAD_SHARE of the head's and the rest of the whole request's. The
  modifiers still count through the whole request: "pods in the staging namespace" names the
  server's world;
- a tool's name: a tool whose name's object (the last word of its name before a preposition
  that is no verb, `create_board` -> board, `add_project_to_task` -> project) is a word an
  order says only in a modifier loses ASIDE nats.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import ACTIONS
from toolcat.search.text import STOPWORDS, stem

# A third of the cosine from the head: 0.2 to 0.5 measured in docs/ranking.md; more lets a
# head that leaves out what matters ("fix the typo" for "... in the message I just posted") decide.
HEAD_SHARE = 0.3
# One nat, what the action agreement gives (toolcat.search.actions.AGREEMENT): 0.5 to 1.5
# measured in docs/ranking.md.
ASIDE = 1.0
MAX_CHARS = 4000  # the part of a request read: linear time

PREPOSITIONS = frozenset((
    "to in on from about for with into onto at by across under over within inside between "
    "via through per during without near like than since until after before behind beside "
    "towards toward against among around throughout"
).split())
CLAUSE_WORDS = frozenset(
    "that which who whom whose where when while because if unless so named called titled "
    "labelled labeled".split())
OPENS = PREPOSITIONS | CLAUSE_WORDS  # a word that opens a modifier after a word of content
JOINS = frozenset("and or then but".split())  # a word that starts another clause
BE = frozenset("is are was were be been being".split())
VERBS = frozenset(verb for verbs in ACTIONS.values() for verb in verbs)
NAME_PREPOSITIONS = frozenset("to from in for by of with on into at".split())

_TOKEN = re.compile(
    r"(?P<quote>(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\")"
    r"|(?P<value>(?:[A-Za-z][\w+.-]*://|www\.)\S+|[\w.+~-]*[/@][\w./@~:=-]+"
    r"|[A-Za-z0-9][\w-]*(?:\.[\w-]+)+)"
    r"|(?P<stop>[,;:.!?]+(?=\s|$))"
    r"|(?P<word>[A-Za-z0-9]+(?:'[a-z]+)?)")
# the words a name is made of, camelCase split (`getFlightInfo`, `kubectl_get`, `HTTPGet`)
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


@dataclass(frozen=True)
class Reading:
    """A request read by `read`: its head as written (its orders without their modifiers, its
    other clauses whole; the request itself when no modifier was cut), and the stems of the
    heads and of the modifiers of its orders."""

    head: str
    asked: frozenset[str]
    aside: frozenset[str]


def read(request: str) -> Reading:
    """The head and modifiers of `request` (see the module docstring)."""
    kept: list[str] = []  # the head's tokens, as written
    asked: set[str] = set()
    modifier: set[str] = set()
    clause_head: list[str] = []
    clause_all: list[str] = []
    clause_asked: set[str] = set()
    clause_modifier: set[str] = set()
    cut = clause_cut = False
    first, content, inside, order, previous = True, 0, False, False, ""

    def close() -> bool:
        """Ends a clause; whether an order's modifier was cut from it."""
        if order:
            asked.update(clause_asked)
            modifier.update(clause_modifier)
        kept.extend(clause_head if order else clause_all)  # a question or a story: whole
        for found in (clause_head, clause_all, clause_asked, clause_modifier):
            found.clear()
        return order and clause_cut

    for match in _TOKEN.finditer(request[:MAX_CHARS]):
        token = match.group(0)
        word = (match.group("word") or "").lower().split("'")[0]
        if match.group("stop") or word in JOINS:
            cut = close() or cut
            clause_cut = False
            first, content, inside, order, previous = True, 0, False, False, ""
            kept.append(token)
            continue
        clause_all.append(token)
        if not match.group("word"):  # a quoted text or a value: part of the phrase it is in
            if not inside:
                clause_head.append(token)
                content += not first
            first = False
            continue
        if first:
            order = word in VERBS
        if word in OPENS and content and previous not in BE:
            inside = clause_cut = True
        elif inside:
            if len(word) > 1 and word not in STOPWORDS:
                clause_modifier.add(stem(word))
        else:
            clause_head.append(token)
            if len(word) > 1 and word not in STOPWORDS:
                clause_asked.add(stem(word))
                content += not first
        first, previous = False, word
    cut = close() or cut
    head = " ".join(kept)
    return Reading(head if cut and any(c.isalnum() for c in head) else request,
                   frozenset(asked), frozenset(modifier - asked))


def name_object(name: str) -> str | None:
    """The stem of what a tool's name acts on: the last of its words before a preposition that
    is neither a stop word nor a verb of ACTIONS, unless that is its first word (a prefix, or a
    name that is all object: `kubectl_get`, `whoami`); None when there is none."""
    found = [w.lower() for w in _NAME_WORD.findall(name, 0, 200)]
    for k, word in enumerate(found[1:], 1):
        if word in NAME_PREPOSITIONS:
            found = found[:k]
            break
    for k in range(len(found) - 1, 0, -1):
        word = found[k]
        if word not in STOPWORDS and word not in VERBS and stem(word) not in _VERB_STEMS:
            return stem(word)
    return None


_VERB_STEMS = frozenset(stem(verb) for verb in VERBS)


def with_head(whole: np.ndarray, head: np.ndarray) -> np.ndarray:
    """The clipped cosine of a request whose head is not all of it, from the clipped cosines
    of the whole request and of its head."""
    found: np.ndarray = ((1 - HEAD_SHARE) * np.clip(whole, 0.0, None)
                         + HEAD_SHARE * np.clip(head, 0.0, None))
    return found


class Focus:
    """ASIDE evidence taken from the tools whose name's object an order says only in a
    modifier (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        by_object: dict[str, list[int]] = {}
        for i, tool in enumerate(tools):
            found = name_object(tool.name)
            if found is not None:
                by_object.setdefault(found, []).append(i)
        self._objects = {word: np.array(members, dtype=np.int64)
                         for word, members in by_object.items()}
        self._size = len(tools)

    def evidence(self, reading: Reading) -> np.ndarray:
        """-ASIDE for every tool whose name's object is in `reading.aside`, else 0."""
        found = np.zeros(self._size)
        for word in reading.aside:
            members = self._objects.get(word)
            if members is not None:
                found[members] = -ASIDE
        return found
