"""Which of a request's words stand as its verbs, without a tagger.

A word is the action a request asks for only where it stands as a verb. "how many open issues
does the project have" asks for no opening, "give jon@acme.com view access" for no view, "I need
a throwaway copy of the prod database" for no copy, "tell all our followers the shop is closed"
for no closing: there the word describes a thing ("open", "closed": a state the request filters
on) or names one ("copy", "view"). English puts an order's verb in few places, and `verbs` reads
those, clause by clause (a clause runs to punctuation or to "and", "then", "but", "or"):

- the first word of a clause, after the words a request opens with ("please", "can you",
  "let's", "go ahead and", "finally", ...) and after a wish ("I need to", "we'd like to", "I want
  you to");
- the word after "how do I", "how can we", "how to" (a question about how to do something);
- the word after "to" that follows a wish ("what's the best way to ...", "I'm trying to ...").

A word there is still no verb when it cannot be an order's base form: a value (`web-03`,
`read-only`, `maria@x.com`), a word of a question or a subject (`what`, `is`, `I`), an
adjective of time ("new", "old", "last": "new sprint for the web team"), a word
ending in "s" or "ed" or "ing" ("invoices in the storage account", "leaked credentials", a
participle), or a word followed by a form of "be", "have" or a modal ("customer says she's
waiting" is read by the word's ending; "web-2 is hung"), by "of" or by a number ("coverage of
the module", "sprint 14 is over", "top 10 slowest endpoints").

`states` finds the participles and adjectives that say which things a request is about
("closed", "open", "failed", "pending"): a word ending in "ed" or a word of STATE_WORDS that
stands before a noun or after a form of "be", outside an order's verb position
(`toolcat.search.states` reads them).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

MAX_CHARS = 2000  # the part of a request read: linear time
MAX_TOKENS = 40  # words read per clause

_CLAUSE = re.compile(r"[,;:.!?]+(?:\s+|$)|\s+(?:and|then|but|or)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_EDGES = "\"'`()[]{}<>*_"

# words a request opens with before its verb
OPENERS = frozenset(
    "please kindly just can could would will you let let's lets us go ahead and then also now "
    "ok okay so help me finally next first additionally afterwards lastly quickly maybe "
    "hey hi hello".split())
# "I need to", "we'd like to", "I want you to": a wish, then "to", then the verb
_SUBJECTS = frozenset("i we i'd we'd i'll we'll you".split())
_WISHES = frozenset(
    "want wanna need would like have try trying going able meant supposed you me us also just "
    "really".split())
# "how do I ...", "how can we ...", "how to ..."
_HOW = frozenset("do can could should would does".split())
# the words before "to" that make the word after it a verb ("the best way to", "time to")
# and a wish someone else has ("the customer wants to cancel"): a request passes it on
_BEFORE_TO = _WISHES | frozenset(
    "how way ways time trying tried able need needs wants wanted needed asks asked".split())
# words that are no verb: question words, pronouns, determiners, auxiliaries
NO_VERB = frozenset(
    "a an the this that these those my our your their his her its some any all every each no "
    "what which who whom whose when where why how whether is are was were be been being am do "
    "does did done has have had i we you he she it they them me us there here i'm it's what's "
    "there's that's who's isn't aren't wasn't don't doesn't didn't dont doesnt didnt isnt "
    "arent wasnt never of in on at for from with "
    "by to about into as if than not anything everything something nothing new old last next "
    "latest previous recent current".split())
# after a word, what makes it a subject or a noun, not an order's verb
_AFTER_NOUN = frozenset(
    "is are was were be has have had can could will would should must may might does did "
    "isn't aren't wasn't hasn't haven't won't can't doesn't didn't keeps needs wants says "
    "of".split())
# adjectives that say a state a request filters on, besides words ending in "ed"
STATE_WORDS = frozenset(
    "open active inactive pending running stale broken unread enabled disabled".split())
_BE = frozenset("is are was were be been being isn't aren't wasn't".split())


@dataclass(frozen=True)
class Verb:
    """A word standing as an order's verb: as written (lower case), the particle after it
    ("off" in "tick off", None when none) and the words of its clause after it."""

    word: str
    particle: str | None
    rest: tuple[str, ...]


def _tokens(clause: str) -> list[str]:
    """The clause's pieces split on white space, lower case, quotes and brackets stripped;
    a piece that is not one plain word (a value, `web-03`, `read-only`) is kept as it is."""
    found = []
    for piece in clause.split()[:MAX_TOKENS]:
        found.append(piece.strip(_EDGES).lower())
    return found


def _word(token: str) -> bool:
    return _WORD.fullmatch(token) is not None


@functools.lru_cache(maxsize=256)  # a request is read several times: explain, once per tool
def verbs(request: str) -> tuple[Verb, ...]:
    """The words of `request` that stand as an order's verb, in order (see the module
    docstring); the particle is any word after the verb, the caller decides which are
    particles."""
    found: list[Verb] = []
    for clause in _CLAUSE.split(request[:MAX_CHARS]):
        tokens = _tokens(clause)
        for at in _positions(tokens):
            word = tokens[at]
            rest = tuple(tokens[at + 1:])
            if _verb_like(word, rest):
                found.append(Verb(word, rest[0] if rest and _word(rest[0]) else None, rest))
    return tuple(found)


@functools.lru_cache(maxsize=256)
def numbered(request: str) -> str | None:
    """The first word of `request`'s first clause in an order's verb position when only the
    number after it keeps it from reading as one ("buy 10 shares of AAPL"), and no word of
    the request stands as an order's verb; else None. A caller reads it as a verb only where
    a tool's own text uses it as one (`toolcat.search.described`): "sprint 14" and "top 10"
    are nouns."""
    if verbs(request):
        return None
    clause = next(iter(_CLAUSE.split(request[:MAX_CHARS])), "")
    tokens = _tokens(clause)
    positions = _positions(tokens)
    if not positions:
        return None
    at = positions[0]
    word, rest = tokens[at], tokens[at + 1:]
    if rest[:1] and rest[0].isdigit() and _verb_like(word, ()):
        return word
    return None


def _positions(tokens: list[str]) -> list[int]:
    """The indices of `tokens` where an order's verb stands (see the module docstring)."""
    at = 0
    while at < len(tokens) and tokens[at] in OPENERS:
        at += 1
    if at < len(tokens) and tokens[at] in _SUBJECTS and "to" in tokens[at + 1:at + 6]:
        end = tokens.index("to", at + 1)
        if _WISHES.issuperset(tokens[at + 1:end]):
            at = end + 1
    positions = [at] if at < len(tokens) else []
    for k in range(at + 1, len(tokens) - 1):
        word = tokens[k]
        if word == "to" and tokens[k - 1] in _BEFORE_TO:
            positions.append(k + 1)
        elif word == "how" and tokens[k + 1] == "to":
            positions.append(k + 2)
        elif (word == "how" and tokens[k + 1] in _HOW and k + 3 < len(tokens)
              and tokens[k + 2] in _SUBJECTS):
            positions.append(k + 3)
    if tokens[:1] == ["how"] and len(tokens) > 1 and tokens[1] == "to":
        positions.append(2)
    if (tokens[:1] == ["how"] and len(tokens) > 3 and tokens[1] in _HOW
            and tokens[2] in _SUBJECTS):
        positions.append(3)
    return sorted(p for p in set(positions) if p < len(tokens))


def _verb_like(word: str, rest: tuple[str, ...]) -> bool:
    """Whether `word`, in a verb's position and followed by `rest`, can be an order's base
    form (see the module docstring)."""
    if not _word(word) or len(word) < 2 or word in NO_VERB:
        return False
    if word.endswith(("ed", "ing")) or (word.endswith("s") and not word.endswith(("ss", "us",
                                                                                    "is"))):
        return False
    following = rest[0] if rest else ""
    return following not in _AFTER_NOUN and not following.isdigit()


@functools.lru_cache(maxsize=256)
def states(request: str) -> frozenset[str]:
    """The words of `request` that say a state of what it is about, lower case (see the
    module docstring): "the closed tickets", "open PRs", "the shop is closed"."""
    found: set[str] = set()
    for clause in _CLAUSE.split(request[:MAX_CHARS]):
        tokens = _tokens(clause)
        ordered = set(_positions(tokens))
        for k, word in enumerate(tokens):
            if k in ordered and _verb_like(word, tuple(tokens[k + 1:])):
                continue
            if not _word(word) or not (word in STATE_WORDS or
                                       (word.endswith("ed") and len(word) > 4)):
                continue
            before = tokens[k - 1] if k else ""
            after = tokens[k + 1] if k + 1 < len(tokens) else ""
            before_noun = bool(after) and _word(after) and after not in NO_VERB
            if before in _BE or (before_noun and before not in _SUBJECTS
                                 and not before.endswith("ly")):
                found.add(word)
    return frozenset(found)

