"""The words a request hands over as names, read by how they are written, not by what they
mean: "list the services for project Apollo" names a project; "Apollo" is a value the tool is
handed, not a kind of service the request asks for. A word is such a name when it is

- written as a name: capitalised, and not the first word of the request or of a sentence
  ("for project Apollo", "tickets to Paris");
- written as an identifier: with an underscore, a dot between letters or a capital after a
  small letter ("old_invoices", "recipes.md", "myBucket");
- what follows "named", "called", "titled" or "labelled", up to NAME_WORDS words, to a stop
  word, a preposition or a clause's end ("a spreadsheet called car maintenance log").

What a request quotes is left out before (`toolcat.search.abstain.without_quotes`), and pieces
with a digit are never read by the rules that use this (`toolcat.search.unmentioned`).
"""

from __future__ import annotations

import re

from toolcat.search.focus import PREPOSITIONS
from toolcat.search.text import STOPWORDS

NAME_WORDS = 3  # words a name after "called" may have
MOST = 64  # white-space separated pieces of a request read
NAMING = frozenset("named called titled labelled labeled".split())
_EDGES = "\"'`()[]{}<>,;:!?*"
_CLAUSE_ENDS = tuple(",;:.!?")
_SENTENCE_ENDS = tuple(".!?")
_LETTERS = re.compile(r"[A-Za-z]+")
# an identifier: an underscore, a dot between letters, a capital after a small letter
_IDENTIFIER = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z]\.[A-Za-z]|[a-z][A-Z]")


def named_words(request: str) -> frozenset[str]:
    """The words of `request` (lower case) it hands over as names (see the module
    docstring)."""
    pieces = request.split()[:MOST]
    named: set[int] = set()
    after = 0  # words still to read after a naming word
    for at, piece in enumerate(pieces):
        core = piece.strip(_EDGES)
        lower = core.lower().rstrip(".")
        if lower in STOPWORDS or lower in PREPOSITIONS:
            after = 0
        elif after:
            named.add(at)
            after -= 1
        elif at and (_IDENTIFIER.search(core) or (
                core[:1].isupper() and not pieces[at - 1].endswith(_SENTENCE_ENDS))):
            named.add(at)
        if lower in NAMING:
            after = NAME_WORDS
        if piece.endswith(_CLAUSE_ENDS):
            after = 0
    return frozenset(word for at in named for word in _LETTERS.findall(pieces[at].lower()))
