"""A request that asks for several things, split into its parts.

"Check the weather in Paris. Then book a table for two at eight." needs two tools, and one
embedding of the whole request lands between them: the cosine of each tool falls, and a tool
that is a little about both (a travel planner) can beat both. `parts` cuts a request into its
sentences and into clauses joined by `;`, "and then", "also" and the like, so that a scorer
can score each part and give a tool the evidence of the part that asks for it (`Parts`),
each sure part lifted towards the surest one (`lifts`).

Cutting alone costs requests that ask for one thing in several sentences ("I run a bakery.
Find me a flour supplier.") or paste a long prompt: a sentence of context pulls in a tool of
its own. So a request counts as split only when its parts ask for different things (`asks`:
at least two parts whose best tools differ, each part sure enough of its best tool), and a
tool then keeps the better of its whole-request and best-part evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# Matched on text whose runs of spaces are one space and whose lines are stripped (`parts`),
# so that no pattern backtracks over a long run of white space (time linear in the request).
# A sentence ends at `.`, `!` or `?` followed by a space and a capital, digit or quote
# ("47.7 Hz", "e.g. this" and "v1.2" stay whole), and at a line break.
_SENTENCE = re.compile(r"(?<=[.!?]) (?=[\"'(\[A-Z0-9])|\n")
# where another ask starts: `;`, or a clause or sentence that opens with a word that adds one
_NEXT = (r"and then|then|also|additionally|in addition|after that|afterwards|next|"
         r"finally|lastly|furthermore|moreover|besides|secondly|thirdly|after|once")
_ASK = re.compile(r" ?; ?|,? (?=(?:and then|and also|then also|after that|and finally) )"
                  r"|, (?=(?:then|also|finally|next) )", re.IGNORECASE)
_OPENS = re.compile(rf"(?:{_NEXT})\b", re.IGNORECASE)
MIN_WORDS = 3  # a shorter part ("Thanks.", "Then,") is too little to ask for a tool
MAX_PARTS = 6  # a request of more parts is a pasted prompt, not a list of asks: kept whole
MAX_CHARS = 4000  # longer requests are kept whole: linear time, bounded encoding
SURE = 5.0  # nats: a part counts only when its best tool has this much evidence (squash 0.5)
# a sure part's share of the gap to the surest part that it is lifted by (`lifts`): the whole
# gap (1) put a weak second ask's guesses ahead of a sure first ask's runners-up and cost
# MetaTool's multi-tool requests 0.009 nDCG@10; none (0) left the second ask's tool behind them
LIFT = 0.5


def parts(request: str) -> list[str]:
    """The parts of `request` that each ask for something, in order; one part (the request
    itself) when it has fewer than two or more than MAX_PARTS. A part starts at `;`, at
    "and then" and the like, or at a sentence that opens with a word that adds an ask
    ("Then", "Also", "Additionally", "Finally"); a sentence that does not joins the part
    before it, so the context a request gives stays with the ask it is for."""
    if len(request) > MAX_CHARS:
        return [request]
    text = "\n".join(" ".join(line.split()) for line in request.splitlines())
    found: list[str] = []
    for sentence in _SENTENCE.split(text):
        for k, piece in enumerate(_ASK.split(sentence)):
            piece = piece.strip()
            if not piece:
                continue
            if found and k == 0 and not _OPENS.match(piece):
                found[-1] = f"{found[-1]} {piece}"
            else:
                found.append(piece)
    found = [p for p in found if len(p.split()) >= MIN_WORDS]
    if not 2 <= len(found) <= MAX_PARTS:
        return [request]
    return found


@dataclass(frozen=True)
class Parts:
    """Where each tool's evidence for a request came from: the whole request, or one part.

    `evidence` is per tool; `source[i]` is -1 for the whole request, else the index into
    `texts` of the part that gave tool i its evidence, and `lift[source[i]]` the evidence
    that part was lifted by (`lifts`)."""

    texts: tuple[str, ...]
    evidence: np.ndarray
    source: np.ndarray
    lift: tuple[float, ...] = ()


def asks(part_evidence: np.ndarray) -> bool:
    """Whether parts (one row of evidence per part) ask for different things: two or more
    parts are sure of their best tool (SURE), and those best tools are not all the same."""
    best = part_evidence.max(axis=1) >= SURE
    return len(set(np.argmax(part_evidence[best], axis=1).tolist())) >= 2


def lifts(part_evidence: np.ndarray) -> np.ndarray:
    """Evidence added to each part's tools: a part sure of its best tool (SURE) is lifted
    LIFT of the way to the surest part, so the tool a second ask needs competes with the
    runners-up of the first, not behind them ("what's the weather in Paris? Then tell the
    team on Slack": the Slack part's words are rarer, and every Slack tool would outrank
    the weather tool)."""
    best = part_evidence.max(axis=1)
    return np.where(best >= SURE, LIFT * (best.max() - best), 0.0)


def by_best_part(requests: Sequence[str],
                 evidence: Callable[[Sequence[str]], np.ndarray]) -> list[Parts]:
    """Each request's evidence per tool (`evidence`: one row per text), from its best part
    where its parts ask for different things (`asks`), else from the whole request. The
    parts of every request go to `evidence` in one batch, apart from the requests: a batch
    is padded to its longest text, and a request is as long as its parts together."""
    split = [parts(r) for r in requests]
    wholes = evidence(requests)
    pieces = [p for found in split if len(found) > 1 for p in found]
    rows = evidence(pieces) if pieces else wholes[:0]
    answers, at = [], 0
    for i, found in enumerate(split):
        whole = wholes[i]
        if len(found) > 1:
            own = rows[at:at + len(found)]
            at += len(found)
            if asks(own):
                lift = lifts(own)
                lifted = own + lift[:, None]
                best = np.argmax(lifted, axis=0)
                top = lifted[best, np.arange(lifted.shape[1])]
                source = np.where(top > whole, best, -1)
                answers.append(Parts(tuple(found), np.maximum(whole, top), source,
                                     tuple(float(x) for x in lift)))
                continue
        answers.append(Parts((), whole, np.full(len(whole), -1)))
    return answers
