"""Requests whose object is of a kind of service no tool of the catalog is about: "unlock the
car", "book train tickets to Paris" against tools for project boards, e-mail and builds. Their
action may be a word the catalog has ("unlock", "book") and their whole text lies as near to
some tool as a short request the catalog serves, but what they act on ("car", "train
tickets") is in no tool's text, and read alone it lies nearer to a kind of service (cars and
vehicles, events and tickets) than to any tool of the catalog, a kind none of its tools is
near.

The words read are those no tool's text or server has (`subject_words`, from
`toolcat.search.unmentioned.read_words`: not the first word, the action; not the values the
request hands over; not its topic, `toolcat.search.topic.view`: "search for repos about pizza
recipes" asks a search to be handed pizza recipes), whatever their frequency: "car" and
"train" are everyday words, which `unmentioned` does not read. Only a request that says no
word a tool has besides its action is read: one that does ("run an aggregation on the movies
collection" over MongoDB's `aggregate`, whose parameter is `collection`; "group the
restaurants collection by borough") asks a tool to act on the catalog's things, and its other
words say which ones or what to hand over, values, not a kind of service. Nor are the words
it writes as names (`toolcat.search.named`: "tickets to Paris", "project Apollo",
"old_invoices", "a folder called taxes"). They are embedded together as one text and compared
with the off-catalog model's kinds of service and with what the catalog covers
(`toolcat.search.abstain.CatalogKinds`, computed once per catalog). The request is turned away
when its best tool's hybrid evidence is under FLOOR nats, it is short (abstain.SHORT_WORDS
words or fewer), those words lie more than GAP nearer to their nearest kind than to every tool,
and they lie more than MARGIN nearer to that kind than the catalog's tools nearest to it, or
to the whole request's nearest kind, lie to theirs (`CatalogKinds.strength`): no tool of the
catalog is as much of that kind as what the request acts on. A tool that lies near a kind
in passing (some tool of a catalog of developer tools nearest to flights at 0.41) no longer
keeps "find a flight to Tokyo in March" (its word 0.51 near flights), as abstain15's
absolute bar (no tool at 0.20 or more) did. The whole request's kind keeps what a tool acts
on: "add the flight to Lisbon to my calendar" reads "flight" (flights), but the request as a
whole lies nearest to calendars, which the catalog's tools are as near as the word is to
flights. A question is not read
(`asks_a_question`): what it asks about is what a tool looks up ("how did the Greens vote on
the nature restoration law?" over a parliament's votes: "law" lies in legal, a kind no tool is
near), the way a topic is.

FLOOR, GAP and MARGIN were chosen on the development halves and public sets, and measured
once on halves the choice never looked at (docs/search.md, abstain15 and abstain17). The
rule runs after the shipped abstention and the word rules (toolcat.search.unmentioned,
toolcat.search.services), on what they let through; it costs one embedding of a few words,
only for a short request with a weak fit that names words no tool has.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from toolcat.search.abstain import CatalogKinds, OffCatalog, without_quotes
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.named import named_words
from toolcat.search.topic import view
from toolcat.search.unmentioned import read_words

FLOOR = 6.0  # nats of hybrid evidence under which the words no tool has are read
GAP = 0.20  # how much nearer those words lie to their kind than to every tool of the catalog
MARGIN = 0.10  # how much nearer those words lie to their kind than the catalog's tools of that
# kind, and of the whole request's kind, lie to theirs (CatalogKinds.strength)
MOST_WORDS = 8  # words no tool has embedded together, at most
# the words that open a question: what it asks about is a topic a tool looks up ("how did the
# Greens vote on the nature restoration law?"), not the kind of service it asks for
WH = frozenset("what which who whom whose when where why how".split())
_FIRST = re.compile(r"[A-Za-z]+")


def asks_a_question(request: str) -> bool:
    """Whether `request` is a question: it ends with a question mark or opens with a
    wh-word ("what's", "how")."""
    first = _FIRST.match(request.lstrip())
    return request.rstrip().endswith("?") or (first is not None and first[0].lower() in WH)


def subject_words(request: str, lexical: BM25Scorer) -> list[str]:
    """The words of `request` read for its kind of service (at most MOST_WORDS): those no tool
    of the catalog `lexical` indexes has, of its view without its topic, not written as names
    (`toolcat.search.named`); none when it says a word some tool has besides its action (a
    request about the catalog's things: its other words name which ones or what to hand
    over, "the movies collection", "by borough")."""
    text = view(request) or request
    read = read_words(text, lexical, without_quotes)
    if any(stated for _, stated in read):
        return []
    named = named_words(without_quotes(text))
    return [word for word, _ in read if word.lower() not in named][:MOST_WORDS]


def uncovered_kind(model: OffCatalog, kinds: CatalogKinds, request: np.ndarray,
                   words: np.ndarray, tools: np.ndarray) -> str | None:
    """The kind of service that `words` (the unit vector of a request's words no tool has)
    lie nearest to, when they lie more than GAP nearer to it than to every tool (`tools`:
    their unit vectors, one a row), and more than MARGIN nearer to it than the catalog's
    tools of that kind lie, and of the kind the whole request (`request`, its unit vector) lies
    nearest to: the words are more of that kind than anything the catalog has; else None."""
    if words.shape[0] != model.kind_vectors.shape[1] or not len(tools):
        return None
    near = model.kind_vectors @ words
    kind = int(near.argmax())
    whole = int((model.kind_vectors @ request).argmax())
    if float(near[kind]) - max(kinds.strength[kind], kinds.strength[whole]) <= MARGIN \
            or float(near[kind]) - float((tools @ words).max()) <= GAP:
        return None
    return model.kinds[kind]


def why_uncovered(words: Sequence[str], kind: str, nearest: str) -> str:
    """Why a request whose words no tool has (`words`) are of `kind`, a kind of service no
    tool is about, is turned away."""
    named = ", ".join(f"'{w}'" for w in words[:3])
    return (f"nothing in this catalog mentions {named}, nearest to {kind}, a kind of "
            f"service no tool here is about (nearest: {nearest})")
