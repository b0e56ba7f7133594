"""Requests that name what the catalog never mentions: "get me an uber home" against tools
for GitHub, Slack and Kubernetes names a service (Uber) that no tool's name, title,
description, parameters or server has, and its best tool fits weakly. Such a request needs its
best tool to score at least FLOOR (not pick's 0.05) to be shown any: under it, it is turned
away, with the words that no tool mentions as the reason. FLOOR is evidence in nats, so it
holds whichever embedding model ranks (0.14 at the base model's midpoint, 0.09 at
minilm-tools'); the reason gives it, and the best tool's score, as the scores pick shows.

A word counts when it is of some weight: rarer in general English than RARE on the Zipf scale
of `wordfreq` (its bundled frequency lists; 4.5 is about thirty uses in a million words:
"uber", "garage", "lamp", not "book", "turn", "tomorrow"). Values the request hands over are
data, not what it asks for, and are not read: its URLs (their hosts too), paths and file names
(`without_values`), what it quotes (`without_quotes`), pieces with a digit ("Q3", "sc-1234",
"3rd"), channels and handles ("#eng", "@dana"). Nor is its first word, its action, whose
spelling a catalog may lack ("summarise" against "summarize"). Names of people are as rare as
names of services and are read: what keeps "tell Priya the build is green" is its fit, over
FLOOR.

How specific such words are (`specificity`: each weighs how much rarer it is than RARE, in
Zipf units, "datadog" 4.5, "jira" 2.4, "priya" 1.6, "slack" 0.8, "deploy" 0.6; their sum at
most MOST_SPECIFIC) was measured as a tenth feature of the off-catalog model
(train/missing_service_study.py) and is not one: the requests that need a tool name customers,
people and their own identifiers as specific as the services a request for a missing one
names (docs/search.md, abstain8).

FLOOR and RARE were chosen on real-server halves and public labeled sets, and measured on
halves the choice never looked at (docs/search.md, "Zero-shot abstention"). The rule runs
after the shipped abstention (toolcat.search.abstain), on what it lets through.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from toolcat.search.bm25 import SERVER, BM25Scorer
from toolcat.search.text import STOPWORDS, without_values, word_stems

RARE = 4.5  # Zipf frequency (log10 of uses per billion words) under which a word has weight
FLOOR = 2.75  # nats of hybrid evidence the best tool of a request naming such a word needs
SHORTEST = 3  # letters of the shortest word read ("pm", "fi" of "lo-fi" are not)
MOST_SPECIFIC = 6.0  # Zipf units the words no tool mentions weigh together, at most
MOST = 64  # white-space separated pieces of a request read
_LETTERS = re.compile(r"[A-Za-z]+")


def unmentioned(request: str, lexical: BM25Scorer,
                quoted: Callable[[str], str]) -> list[str]:
    """The words of `request` of some weight (`rare`) that no tool of the catalog `lexical`
    indexes has, in order, each once (`quoted`: the request without what it quotes)."""
    return [w for w in absent(request, lexical, quoted) if rare(w.lower())]


def absent(request: str, lexical: BM25Scorer, quoted: Callable[[str], str]) -> list[str]:
    """The words of `request` that no tool of the catalog `lexical` indexes has, whatever
    their frequency, in order, each once (what `unmentioned` reads, before `rare`)."""
    return [word for word, stated in read_words(request, lexical, quoted) if not stated]


def read_words(request: str, lexical: BM25Scorer,
               quoted: Callable[[str], str]) -> list[tuple[str, bool]]:
    """The words of `request` the word rules read, in order, each once, each with whether
    some tool of the catalog `lexical` indexes has it (`quoted`: the request without what it
    quotes)."""
    found: dict[str, tuple[str, bool]] = {}
    # the first piece is the action ("summarise https://..."): a catalog that says
    # "summarize" lacks a spelling, not a service
    for piece in quoted(request).split()[1:MOST]:
        if piece[:1] in "#@" or any(c.isdigit() for c in piece) \
                or without_values(piece) != piece:
            continue  # a channel, a handle, an identifier, a quantity, a date: a value
        for word in _LETTERS.findall(piece):
            lower = word.lower()
            if len(lower) < SHORTEST or lower in STOPWORDS or lower in found:
                continue
            stems = word_stems(lower)
            if stems:
                found[lower] = (word, any(lexical.term_id(s) is not None
                                          or lexical.term_id(SERVER + s) is not None
                                          for s in stems))
    return list(found.values())


def specificity(words: Sequence[str]) -> float:
    """How specific `words` (`unmentioned`'s) are together: the sum of how much rarer in
    general English than RARE each is, in Zipf units, at most MOST_SPECIFIC."""
    return min(MOST_SPECIFIC, sum(max(RARE - zipf(w.lower(), "en"), 0.0) for w in words))


def rare(word: str) -> bool:
    """Whether `word` (lower case) is rarer in general English than RARE."""
    return zipf(word, "en") < RARE


def zipf(word: str, language: str) -> float:
    """`wordfreq`'s Zipf frequency of `word` in `language` (its lists load on first use,
    0.3-0.6 s, once per process)."""
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, language))


def why_unmentioned(words: list[str], best: float, floor: float, nearest: str) -> str:
    """Why a request naming `words` that the catalog never mentions is turned away, its best
    tool `nearest` scoring `best`, under `floor` (FLOOR as a score)."""
    named = ", ".join(f"'{w}'" for w in words[:3])
    return (f"nothing in this catalog mentions {named}, and its best tool, {nearest}, "
            f"scores {best:.2f}, under the {floor:.2f} a request naming what the catalog "
            f"lacks needs")
