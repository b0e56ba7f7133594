"""A request that asks to undo an action, and the sibling whose name undoes it.

Vendor servers name the tool that undoes an action by its verb with a reversing prefix:
`schedule_campaign` and `unschedule_campaign`, `assign_user_to_card` and
`unassign_user_from_card`, `activate_offer` and `deactivate_offer`, `enable_job` and
`disable_job`. Users rarely type the prefixed verb; they say the undoing with the base verb or
its noun: "take it off the schedule", "stop tracking the page", "remove her from the
schedule". BM25F then matches the base verb's stem, which the base sibling's name holds as
its verb and the undoing sibling's only inside a longer word, and the embedding puts both
near: the base sibling, the opposite of what is asked, came first ("take it off the
schedule" -> `schedule_campaign` over `unschedule_campaign`).

Both sides are read narrowly:

- a tool undoes a base verb when its name's verb (its first word, or one of the MAX_PREFIX
  words after a first word PREFIX or more tools of its server share,
  `toolcat.search.actions`) is PREFIXES + a word of at least MIN_BASE letters whose stem is
  the verb of another name of the same server (`unschedule` where `schedule_campaign` is a
  sibling; `unread_items` has no `read_items` sibling, and `discounts` is no verb);
- a request asks to undo a verb when its first order's verb (`toolcat.search.orders`) is one
  of ENDING followed by that verb's -ing form ("stop tracking", "quit sharing"), or one of
  TAKING followed within a few words by "off", "out of" or "from" and the word after them
  and its determiner ("take it off the schedule", "remove Marta from the schedule", "pull
  it out of the queue"), or one of UNDOING followed by that noun and at most a determiner
  ("undo the split", "revert the merge"): the word after is the noun of the base verb, and
  counts only when a tool of the catalog undoes a verb of its stem.

Then the tools that undo it get the action table's AGREEMENT (it is the request's action, in
place of what the table or the catalog's verbs read the phrasal verb as), and a sibling
whose verb is the base, acting on the same object, goes LEAD under the best of them when it
was ahead by at most REACH (`toolcat.search.stated`'s rule between siblings): the request
names the base only to undo it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, MAX_PREFIX, PREFIX, name_words
from toolcat.search.orders import verbs
from toolcat.search.stated import LEAD, REACH
from toolcat.search.text import STOPWORDS, stem

# English's reversing prefixes of verbs (Merriam-Webster: "un-" 2, "de-" 1, "dis-" 1a: "do the
# opposite of"): unschedule, deactivate, disable
PREFIXES = ("un", "de", "dis")
MIN_BASE = 4  # letters of a base verb: "de" + "bug", "un" + "it" are no reversal
# verbs that end an ongoing action named by its -ing form: "stop tracking", "quit sharing"
ENDING = frozenset(("stop", "quit", "cease", "discontinue"))
# verbs that undo the action their object names: "undo the split", "revert the merge"
# (Merriam-Webster "undo" 2: to reverse or cancel out the effects of)
UNDOING = frozenset(("undo", "revert"))
# verbs that take a thing off something it was put on: "take it off the schedule", "remove
# Marta from the schedule", "pull it out of the queue"
TAKING = frozenset(("take", "get", "pull", "remove", "drop", "delete"))
# phrasal verbs that take a thing off another without naming the verb that put it there:
# "take Marta off the card" (Merriam-Webster "take off" 1: to remove), "get it out of the
# queue", "pull the SKU out of the promo"; "remove" and "delete" have their own action
SEPARABLE = frozenset(("take", "get", "pull"))
# a verb and its object run at most this many words before "off", "out of" or "from"
MAX_OBJECT = 4
_DETERMINERS = frozenset(
    "the a an my our your their its his her this that these those".split())
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Undoing:
    """What a request asks to undo: its words ("take it off the schedule"), and the stem of
    the base verb ("schedul") or, where it names none, the stems of what the thing is taken
    off ("take Marta off the Q1 report card": q1, report, card)."""

    said: str
    base: str | None
    off: frozenset[str] = frozenset()


def undoing(request: str, bases: frozenset[str]) -> Undoing | None:
    """What `request` asks to undo, when it is one of `bases` (stems of verbs some tool
    undoes) or, for a phrasal verb of SEPARABLE, what it takes a thing off; else None (see
    the module docstring)."""
    found = verbs(request)
    if not found:
        return None
    verb = found[0]
    rest = list(verb.rest)
    if verb.word in ENDING and verb.particle and verb.particle.endswith("ing"):
        base = stem(verb.particle)
        if base in bases:
            return Undoing(f"{verb.word} {verb.particle}", base)
        return None
    if verb.word in UNDOING:  # "undo the split": the noun right after names the base verb
        det = 1 if rest[:1] and rest[0] in _DETERMINERS else 0
        named = rest[det:det + 1]
        if named and _WORD.fullmatch(named[0]) and stem(named[0]) in bases:
            return Undoing(" ".join([verb.word, *rest[:det + 1]]), stem(named[0]))
        return None
    if verb.word not in TAKING:
        return None
    for at, word in enumerate(rest[:MAX_OBJECT + 1]):
        after = rest[at + 1:]
        if word == "out" and after[:1] == ["of"]:
            after = after[1:]
        elif word not in ("off", "from"):
            continue
        if after[:1] and after[0] in _DETERMINERS:
            after = after[1:]
        if not after[:1]:
            return None
        said = " ".join([verb.word, *rest[:len(rest) - len(after) + 1]])
        if _WORD.fullmatch(after[0]) and stem(after[0]) in bases:
            return Undoing(said, stem(after[0]))
        if verb.word not in SEPARABLE or word == "from":
            return None
        off = frozenset(stem(w) for w in after[:MAX_OBJECT] if w.isalpha()
                        and w not in STOPWORDS)
        return Undoing(" ".join([said, *after[1:MAX_OBJECT]]), None, off)
    return None


class Reversals:
    """AGREEMENT for the tools whose name undoes the verb a request asks to undo, and LEAD
    under them for their base siblings (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        heads = name_words(tools)
        firsts = Counter((t.server, h[0]) for t, h in zip(tools, heads, strict=True) if h)
        # per tool: the positions its name's verb may stand at
        places: list[list[int]] = []
        verbs_of: dict[str, set[str]] = {}  # server -> stems of words at a verb's place
        for tool, head in zip(tools, heads, strict=True):
            at = [0] if head else []
            if head and firsts[(tool.server, head[0])] >= PREFIX:
                at += list(range(1, min(len(head), MAX_PREFIX + 1)))
            places.append(at)
            verbs_of.setdefault(tool.server, set()).update(
                stem(head[k]) for k in at if head[k].isalpha())
        undoers: dict[str, list[int]] = {}  # base stem -> tools that undo it
        self._verbs: dict[int, str] = {}  # tool -> its name's undoing verb
        after: dict[int, frozenset[str]] = {}  # tool -> the words after its verb
        undone: dict[int, tuple[str, frozenset[str]]] = {}  # tool -> its base, its object
        for i, (tool, head, at) in enumerate(zip(tools, heads, places, strict=True)):
            for k in at:
                base = _base(head[k])
                if base is not None and base in verbs_of[tool.server]:
                    undoers.setdefault(base, []).append(i)
                    undone[i] = (base, _object(head, k))
                    after[i] = frozenset(stem(w) for w in head[k + 1:] if w not in STOPWORDS)
                    self._verbs[i] = head[k]
                    break
        self._undoers = {base: np.array(found, dtype=np.int64)
                         for base, found in undoers.items()}
        self.bases = frozenset(undoers)
        self._objects: dict[str, list[int]] = {}  # a word an undoing tool acts on -> tools
        self._after = after
        for i, (_, acted_on) in undone.items():
            for word in acted_on:
                self._objects.setdefault(word, []).append(i)
        # (a base sibling, the tool that undoes its verb on the same object)
        by_object: dict[tuple[str, str, frozenset[str]], list[int]] = {}
        for i, (tool, head, at) in enumerate(zip(tools, heads, places, strict=True)):
            for k in at:
                if head[k].isalpha() and stem(head[k]) in self.bases:
                    by_object.setdefault((tool.server, stem(head[k]), _object(head, k)),
                                         []).append(i)
                    break
        pairs = [(i, undoer) for undoer, (base, acted_on) in undone.items()
                 for i in by_object.get((tools[undoer].server, base, acted_on), [])]
        self._pairs = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        self._size = len(tools)

    def undoing_verb(self, index: int) -> str | None:
        """The verb of tool `index`'s name that undoes another (`unschedule`), if any."""
        return self._verbs.get(index)

    def read(self, request: str) -> Undoing | None:
        """What the request asks to undo, when a tool of the catalog undoes it."""
        if not self.bases:
            return None
        found = undoing(request, self.bases)
        return found if found is not None and self._undoing(found).size else None

    def _undoing(self, read: Undoing) -> np.ndarray:
        """The tools that undo what `read` says: its base's, or those acting on what it
        takes a thing off."""
        if read.base is not None:
            return self._undoers[read.base]
        # a tool that takes one thing off another (`unassign_user_from_card`), not one that
        # undoes what was done to the thing itself (`unarchive_card`)
        return np.array(sorted({i for word in read.off for i in self._objects.get(word, ())
                                if self._after[i] - read.off}), dtype=np.int64)

    def agreement(self, request: str) -> np.ndarray:
        """AGREEMENT for the tools that undo what the request asks to undo, else 0."""
        found = np.zeros(self._size)
        read = self.read(request)
        if read is not None:
            found[self._undoing(read)] = AGREEMENT
        return found

    def evidence(self, request: str, evidence: np.ndarray) -> np.ndarray:
        """For each base sibling acting on the object of a tool that undoes what the request
        asks to undo, ahead of it by at most REACH of `evidence`: what puts it LEAD under that
        tool; else 0."""
        found = np.zeros(self._size)
        read = self.read(request)
        if read is None or not self._pairs.size:
            return found
        pairs = self._pairs[np.isin(self._pairs[:, 1], self._undoing(read))]
        ahead = evidence[pairs[:, 0]] - evidence[pairs[:, 1]]
        over = ahead + LEAD
        give = (over > 0) & (ahead <= REACH)
        np.minimum.at(found, pairs[give, 0], -over[give])
        return found


def _base(word: str) -> str | None:
    """The stem of the verb `word` undoes by a prefix of PREFIXES, else None."""
    for prefix in PREFIXES:
        rest = word[len(prefix):]
        if word.startswith(prefix) and len(rest) >= MIN_BASE and rest.isalpha():
            return stem(rest)
    return None


def _object(head: Sequence[str], at: int) -> frozenset[str]:
    """What a name acts on: its words but the verb at `at` and stop words, stemmed."""
    return frozenset(stem(w) for k, w in enumerate(head) if k != at and w not in STOPWORDS)
