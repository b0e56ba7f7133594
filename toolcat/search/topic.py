"""A request's job, apart from what it is about: a second, topic-free view of it.

"find my note about the kubernetes migration" asks for a note; Kubernetes is what the note is
about, a value the note search will be handed. Embedded whole, the request lands on the tools
of a Kubernetes service (AKS, cosine 0.38) and the note search is 347th (0.06); embedded
without its topic, "find my note", the note search is first (0.44). The same holds for what a
request gives after a label and a colon ("bug for the Mobile project: login button does
nothing on Android 14", "deep dive with sources: Azure Container Apps vs AKS"): the content
that goes into an argument, not what the tool does.

`view` gives that second view: the request without

- its topic phrases: from "about", "regarding" or "concerning" after a word of content to the
  end of the clause or the next preposition ("what did people say about the outage in chat"
  -> "what did people say in chat");
- what follows a colon after a word of content, to the end of the sentence, unless it opens
  with a question word or an order's verb ("on-call handoff: anything critical paging?" asks
  what follows the colon).

A view needs MIN_CONTENT words of content before what it leaves out, so "tell me about the
pipelines" and "I'm curious about ..." are read whole: what they ask for is their topic. The
hybrid embeds the view too, and a tool whose cosine to the view is higher than to the whole
request gains VIEW_SHARE of the difference (`with_view`, `toolcat.search.hybrid`). The
words said only in the topic stay lexical evidence at TOPIC_WORDS of their weight, since a tool
named for them may still be the one asked for: BM25F's evidence is half the whole request's
and half the view's.

A server named only inside a topic or a colon's content is what the request talks about, not
where it is asked: "what are people on r/selfhosted saying about coolify" is for Reddit, so the
evidence of named servers reads the view.
"""

from __future__ import annotations

import re

import numpy as np

from toolcat.search.actions import ACTIONS
from toolcat.search.focus import PREPOSITIONS
from toolcat.search.text import STOPWORDS

MAX_CHARS = 4000  # the part of a request read: linear time, bounded encoding
# the view's share of a tool's cosine where it is higher than the whole request's: 0.6
# measured in docs/ranking.md; the whole (1.0, the better of the two) let a view that says
# only the kind of thing asked for ("find the dashboard") pick any tool of that kind
VIEW_SHARE = 0.6
# what the words said only in a topic weigh in BM25F: half (the lexical evidence is half the
# whole request's and half the view's); measured in docs/ranking.md, where all or none of it
# cost a request
TOPIC_WORDS = 0.5
MIN_CONTENT = 2  # words of content a view keeps, else the request is read whole
MARKERS = frozenset("about regarding concerning".split())  # words that open a topic
JOINS = frozenset("and or then but".split())  # a word that starts another clause
# words that open a question: after a label and a colon, what follows is the ask itself
# ("on-call handoff: anything critical paging right now?")
QUESTIONS = frozenset(
    "what which who whom whose when where why how is are was were do does did can could "
    "should would will any anything anyone has have".split())
ASKS = QUESTIONS | frozenset(verb for verbs in ACTIONS.values() for verb in verbs)

# a run of punctuation is one token, and whether a space follows it is read after the match:
# a lookahead after `[.!?]+` is tried again at every character of a long run (quadratic)
_TOKEN = re.compile(
    r"(?P<colon>:+)|(?P<end>[.!?]+|\n)|(?P<stop>[,;]+)|(?P<word>[A-Za-z0-9]+(?:'[a-z]+)?)")
_NEXT_WORD = re.compile(r"\s*([A-Za-z]+)")


def view(request: str) -> str | None:
    """`request` without its topic phrases and the content it gives after a colon (see the
    module docstring), or None when nothing was taken out or too little of content is
    left."""
    if len(request) > MAX_CHARS:
        return None
    kept: list[str] = []  # the pieces of `request` kept, as written
    at = 0  # where the piece being kept starts
    content = 0  # words of content kept
    before = -1  # words of content before the first cut (-1: nothing cut)
    clause_content = False  # whether the clause has had a word of content yet
    skipping = ""  # "topic" inside a topic phrase, "content" after a label's colon
    for match in _TOKEN.finditer(request):
        word = (match.group("word") or "").lower()
        if not word and not _spaced(request, match):
            continue  # punctuation inside a word or a value: "v1.2", "a:b", "x,y"
        if skipping == "content":
            if match.group("end"):
                at, skipping, clause_content = match.start(), "", False
            continue
        if not word or word in JOINS:
            if skipping:
                at, skipping = match.start(), ""
            if match.group("colon") and clause_content and not _asks(request, match.end()):
                kept.append(request[at:match.start()])
                skipping = "content"
                before = content if before < 0 else before
            clause_content = False
        elif skipping and word in PREPOSITIONS:  # a topic ends where a modifier starts
            at, skipping = match.start(), ""
        elif skipping:
            continue
        elif word in MARKERS and clause_content:
            kept.append(request[at:match.start()])
            skipping = "topic"
            before = content if before < 0 else before
        elif len(word) > 1 and word.split("'")[0] not in STOPWORDS:
            clause_content = True
            content += 1
    if before < MIN_CONTENT:
        return None
    if not skipping:
        kept.append(request[at:])
    return " ".join(" ".join(kept).split())


def _spaced(request: str, match: re.Match[str]) -> bool:
    """Whether the punctuation `match` found ends a phrase: a space follows it, or (but for a
    colon) the end of the request; a line break always does."""
    follows = request[match.end():match.end() + 1]
    return (match.group() == "\n" or follows.isspace()
            or (not follows and not match.group("colon")))


def _asks(request: str, at: int) -> bool:
    """Whether the text from `at` opens with a question word or an order's verb."""
    found = _NEXT_WORD.match(request, at)
    return found is not None and found.group(1).lower() in ASKS


def with_view(whole: np.ndarray, of_view: np.ndarray) -> np.ndarray:
    """The clipped cosines of a request that has a view, from the clipped cosines of the
    request and of its view: a tool gains VIEW_SHARE of the view's lead where it has one."""
    found: np.ndarray = np.maximum(whole, (1 - VIEW_SHARE) * whole
                                   + VIEW_SHARE * np.clip(of_view, 0.0, None))
    return found
