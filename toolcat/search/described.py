"""A request's verb that a tool's own text uses for its action, while its name says another.

Names say an action in the API's words; users say it in their trade's. "buy 10 shares of AAPL
at market" and "sell half my TSLA" need Alpaca's `place_stock_order`, whose `side` argument is
`"buy" or "sell"`. The action table does not hold such a verb, and the catalog's verb the
embedding puts nearest it is often another tool's (`toolcat.search.verbs`). Here the tool's own
text says which verbs its action covers, read where its words stand as verbs
(`stated_verbs`):

- the word its description opens with, before a determiner ("Places an order", not "Top
  consumers");
- a word after "to" before a determiner ("Use this to open a specific app"), or two joined by
  "or" or "and" ("an order to buy or sell");
- the values of an argument that are a choice between words (an enum, or a description that
  is only quoted words: `"buy" or "sell"`): what the tool does, said by the caller.

When the request's verb (its first word that stands as an order's verb, one the table lacks:
`toolcat.search.verbs.spoken`; or its first word where only a number after it kept it from
reading as one, "buy 10 shares": `toolcat.search.orders.numbered`) has the stem of a verb a
tool's text states, and the tool's name says another verb (the word it acts with, on a server
that names its tools by action: `toolcat.search.verbs.heads`), the request's verb is read as
that name's verb: the tool gets what BM25F gives its name's verb (`place` 2.9 nats for
`place_stock_order` among fresh12's 785 tools), the least among the tools of its server it
lifts (a rarer name verb earns no more than a common one: "refund" stated by `create_adjustment`
and `revise_transaction`) and the table's AGREEMENT at least, and that is the request's action:
the catalog's nearest verb no longer counts. Left alone: a server one of whose names says the
verb itself (`accept-calendar-event`: its siblings' "tentatively accept" or "accept or decline"
are not theirs to take), and a verb that more than MAX_SHARE of a server's tools state, which
tells none of them apart (a server whose descriptions all open "Access the ..."). Only required
arguments are read for choices: an optional one filters or sets (`visibility`: "private" or
"public"), a required one says what the call does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.orders import NO_VERB, numbered
from toolcat.search.text import STOPWORDS, stem
from toolcat.search.verbs import heads, spoken

MAX_CHARS = 2000  # of a description read: linear time on hostile catalogs
MAX_VALUES = 8  # values of an argument's choice read as verbs; longer lists are kinds, not acts
MAX_SHARE = 0.25  # of a server's tools stating a verb, beyond which it tells none apart

# a word stands as a verb before a determiner: "Places an order", "to open a specific app"
# ("Top consumers", "Log aktivitas" open with nouns); or as one of two after "to": "to buy or
# sell"
_DETERMINER = r"(?:a|an|the|one|all|any|every|each|your|its|their|this|that|these|those)\b"
_OPENING = re.compile(r"\s*([a-z]{3,}) " + _DETERMINER)
_TO_OBJECT = re.compile(r"(\S{0,60}) to ([a-z]{3,}) " + _DETERMINER, re.IGNORECASE)
_TO_PAIR = re.compile(r"(\S{0,60}) to ([a-z]{3,}),? (?:or|and) ([a-z]{3,})\b", re.IGNORECASE)
# words after "to" that count things, not act: "to one or more recipients"
_QUANTITIES = frozenset("one two three more less many few other others both either".split())
_IDENTIFIER = re.compile(r"[_\-]\w|[a-z][A-Z]")  # another tool's name before "to"
_QUOTED = re.compile(r"""["'`]([A-Za-z]{3,})["'`]""")
_JOINS = re.compile(r"""^[\s,.;:/|]*(?:(?:or|and)[\s,.;:/|]*)*$""")


def stated_verbs(tool: Tool) -> set[str]:
    """The stems of the verbs `tool`'s own text uses for its action (see the module
    docstring), lower case."""
    found: set[str] = set()
    text = tool.description[:MAX_CHARS]
    lowered = text.lower()
    opening = _OPENING.match(lowered)
    if opening is not None:
        found.add(opening.group(1))
    for match in (*_TO_OBJECT.finditer(text), *_TO_PAIR.finditer(text)):
        if not _IDENTIFIER.search(match.group(1)):  # "use reply_to_email to answer a message"
            found.update(word.lower() for word in match.groups()[1:])
    found.update(_choices(tool.parameters))
    return {stem(word) for word in found
            if word.isalpha() and word not in NO_VERB and word not in STOPWORDS
            and word not in _QUANTITIES}


def _choices(parameters: object) -> Iterator[str]:
    """The words an argument of `parameters` (a JSON schema) is a choice between: its enum's
    values, or the quoted words its description holds and nothing else but "or" and commas."""
    if not isinstance(parameters, Mapping):
        return
    properties = parameters.get("properties")
    if not isinstance(properties, Mapping):
        return
    required = parameters.get("required")
    needed = set(required[:200]) if isinstance(required, list) else set()
    for key, schema in list(properties.items())[:200]:
        if not isinstance(schema, Mapping) or key not in needed:
            continue
        values = schema.get("enum")
        if isinstance(values, list) and 2 <= len(values) <= MAX_VALUES and all(
                isinstance(v, str) and v.isalpha() for v in values):
            yield from (v.lower() for v in values)
            continue
        said = schema.get("description")
        if isinstance(said, str) and len(said) < 200:
            quoted = _QUOTED.findall(said)
            if 2 <= len(quoted) <= MAX_VALUES and _JOINS.match(_QUOTED.sub(" ", said)):
                yield from (v.lower() for v in quoted)


class Described:
    """Evidence for the tools whose own text uses the request's verb for their action, where
    their names say another (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool], lexical: BM25Scorer,
                 excluded: frozenset[str] = frozenset()) -> None:
        self._size = len(tools)
        self._lexical = lexical
        self._heads = heads(tools)
        self._servers = [t.server for t in tools]
        # (server, verb): a verb a name of the server says itself, where its text need not
        self._named = {(t.server, stem(h)) for t, h in zip(tools, self._heads, strict=True)
                       if h is not None}
        by_verb: dict[str, list[int]] = {}
        for i, (tool, head) in enumerate(zip(tools, self._heads, strict=True)):
            if head is not None:
                for verb in stated_verbs(tool) - {stem(head)}:
                    by_verb.setdefault(verb, []).append(i)
        size = Counter(self._servers)
        self._tools: dict[str, list[int]] = {}
        for verb, members in by_verb.items():
            per_server = Counter(self._servers[i] for i in members)
            kept = [i for i in members if (self._servers[i], verb) not in self._named
                    and per_server[self._servers[i]] <= max(1.0, MAX_SHARE
                                                           * size[self._servers[i]])]
            if kept:
                self._tools[verb] = kept
        self._excluded = excluded  # words that name a server, never a verb
        self._last: tuple[str, np.ndarray] | None = None

    def verb(self, request: str) -> str | None:
        """The request's verb, when some tools' own text states it (see the module
        docstring)."""
        if not self._tools:
            return None
        said = spoken(request)
        if said is None:
            said = numbered(request)
        if said is None or " " in said or said in self._excluded:
            return None
        return said if stem(said) in self._tools else None

    def evidence(self, request: str) -> np.ndarray:
        """For each tool whose own text states the request's verb, what BM25F gives its name's
        verb, the least among the tools of its server it lifts and AGREEMENT at least; else 0.
        Kept for the next call: explain asks once per tool."""
        last = self._last  # read once: serve's threads may replace it
        if last is not None and last[0] == request:
            return last[1].copy()
        found = np.zeros(self._size)
        verb = self.verb(request)
        if verb is not None:
            earned: dict[int, float] = {}
            rows: dict[str, np.ndarray] = {}
            for i in self._tools[stem(verb)]:
                head = self._heads[i] or ""
                if head not in rows:
                    rows[head] = self._lexical.evidence(head)[0]
                earned[i] = max(AGREEMENT, float(rows[head][i]))
            least: dict[str, float] = {}
            for i, value in earned.items():
                least[self._servers[i]] = min(value, least.get(self._servers[i], value))
            for i in earned:
                found[i] = least[self._servers[i]]
        self._last = (request, found)
        return found.copy()
