"""A verb that makes its object: "file a bug", "log a call", "raise an invoice".

English has verbs whose sense, with a new object, is to make a record of that object: one files
a bug, logs a call or 2.5 hours, records a fee, raises an invoice, leaves a comment, books a
meeting, declares an incident. An API creates these (`create_issue`, `create_worklog`,
`create_disbursement`, `create-invoice`, `create_comment`, `create_calendar_appointment`,
`create_incident`), but the action table (`toolcat.search.actions`) does not hold the verbs, the
model maps them to no catalog verb or a wrong one, and BM25F reads each as a word of the
trade: "file a bug" lifted Airflow's `get_dag_source` (a DAG's file), "log a call" Datadog's
`get_logs`, "leave a note" eBay's `leave_feedback_for_buyer`.

MAKING holds such verbs, each with the dictionary's sense that makes it one (Merriam-Webster).
A request makes its object with one when its first order's verb (`toolcat.search.orders`) is
one of them and the next word is "a", "an" or "another" or a quantity ("log 2.5 hours", "record
a $145 fee"): a new thing. "leave the channel" or "file the report under Q3" say something
else. Such a request's action is create: the tools whose name's verb is the table's create
(on a server that names its tools by action, `toolcat.search.actions.named`) get the table's
AGREEMENT, and the verb is not a word of what the request is about, so BM25F reads the request
without it. A server one of whose names opens with the verb itself (`log_time`,
`leave_feedback_for_buyer`, `book_flight`) is left to it: its tools get no nat and BM25F reads
the verb for them, as it would have.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import (
    AGREEMENT,
    ASKED,
    PREFIX,
    groups_of,
    name_words,
    named,
    phrasal,
)
from toolcat.search.orders import numbered, verbs
from toolcat.search.text import stem

# verb -> the dictionary's sense (Merriam-Webster) in which, with a new object, it makes a
# record of that object: what an API's create does
MAKING: dict[str, str] = {
    "file": "1b: to initiate through proper formal procedure (file a claim, a complaint)",
    "log": "2a: to make a note or record of, to enter details of in a log",
    "record": "1a: to set down in writing, to furnish written evidence of",
    "lodge": "to lay (a complaint) before authority",
    "raise": "to bring up for consideration (raise an issue); British: to issue an invoice",
    "leave": "1b: to cause to remain as a trace (leave a message, a note)",
    "book": "to register for some future activity, to reserve (book a room, a meeting)",
    "declare": "to make known formally or officially (declare an emergency)",
}
NEW = frozenset(("a", "an", "another"))  # words that make the object a new one
CREATE = frozenset(("create",))  # the action group such a request asks for
_QUANTITY = re.compile(r"[$£€]?\d")


@functools.lru_cache(maxsize=256)
def made(request: str) -> str | None:
    """The verb of MAKING `request`'s first order opens with, when the next word makes its
    object a new one (see the module docstring); else None."""
    for verb in verbs(request):
        if phrasal(verb) or verb.word in ASKED:
            return None  # the table reads it
        following = verb.rest[0] if verb.rest else ""
        if verb.word in MAKING and (following in NEW or _QUANTITY.match(following)):
            return verb.word
        return None
    counted = numbered(request)  # "log 45 minutes": only the number kept it from a verb's place
    return counted if counted in MAKING else None


def without(request: str, verb: str) -> str:
    """`request` without the first time it says `verb` as a word."""
    return re.sub(rf"(?i)(?<![\w-]){re.escape(verb)}(?![\w-])", " ", request, count=1)


class Making:
    """AGREEMENT for the tools that create what a request makes with a verb of MAKING, and
    which tools BM25F reads its verb for (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._size = len(tools)
        servers = [t.server for t in tools]
        creating = [action is not None and bool(groups_of(action[0]) & CREATE)
                    for action in named(tools)]
        self._creating = np.array(creating, dtype=bool)
        # the stem of a MAKING verb -> the tools of the servers one of whose names opens with it
        stems = {stem(verb): verb for verb in MAKING}
        owners: dict[str, set[str | None]] = {}
        heads = name_words(tools)
        firsts = Counter((s, h[0]) for s, h in zip(servers, heads, strict=True) if h)
        for server, words in zip(servers, heads, strict=True):
            if not words or groups_of(stem(words[0])):
                continue  # no name, or one that opens with a verb of the table
            # its first word, or the one after a prefix its server's names share (`ebay_leave`)
            at = 1 if len(words) > 1 and firsts[(server, words[0])] >= PREFIX else 0
            for word in {words[0], words[at]}:
                if stem(word) in stems:
                    owners.setdefault(stems[stem(word)], set()).add(server)
        self._left: dict[str, np.ndarray] = {
            verb: np.array([s in found for s in servers], dtype=bool)
            for verb, found in owners.items()}

    def left(self, verb: str) -> np.ndarray:
        """Whether each tool is on a server one of whose names opens with `verb`."""
        found = self._left.get(verb)
        return np.zeros(self._size, dtype=bool) if found is None else found

    def embedded(self, request: str) -> str:
        """`request` as the model reads it: a verb that makes its object said as create, where
        no server of the catalog is left to the verb (the model reads one text for every tool,
        and for a tool named with the verb, `book_hotel`, the verb says what it does)."""
        verb = made(request)
        if verb is None or self.left(verb).any():
            return request
        return re.sub(rf"(?i)(?<![\w-]){re.escape(verb)}(?![\w-])", "create", request, count=1)

    def evidence(self, request: str) -> np.ndarray:
        """AGREEMENT for the tools whose name's verb creates, when `request` makes its object
        with a verb of MAKING, except on a server left to the verb; else 0."""
        found = np.zeros(self._size)
        verb = made(request)
        if verb is not None:
            found[self._creating & ~self.left(verb)] = AGREEMENT
        return found

