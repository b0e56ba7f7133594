"""A state a request filters on is not the action it asks for.

"list the closed tickets" asks for a list of tickets in a state, not to close one; "tell our
followers the shop is closed on Monday" asks to send a message. BM25F matches the participle's
stem with a name's verb (`close_ticket`, `playwright_close`), and the wrong sibling, or another
server's tool, came first. `toolcat.search.orders.states` reads the words that stand as states
(before a noun, after a determiner or a form of "be", outside an order's verb position);
`States` takes back what BM25F gave for such a word from the tools whose name's verb has its
stem, unless the request also says it as an order. The word stays evidence for every other
tool: a list tool whose description names the state ("status: open or closed") keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import name_words, verb_positions
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.orders import states, verbs
from toolcat.search.text import stem


class States:
    """The evidence BM25F gave a tool for a word the request says only as a state, taken
    back from the tools whose name acts with that word ("list the closed tickets" is not
    about `close_ticket`, "the shop is closed on Monday" not about `playwright_close`). A
    name's verb is where `toolcat.search.actions.verb_positions` finds it (`playwright_close`),
    on any server, and only a verb of its action table: a state is what such an action leaves
    ("closed", "deleted", "running"), while "the projected population" or "interest
    compounded monthly" name what `population_projections` and `compound_interest` compute."""

    def __init__(self, tools: Sequence[Tool], lexical: BM25Scorer) -> None:
        heads = name_words(tools)
        by_verb: dict[str, list[int]] = {}
        for i, (head, at) in enumerate(zip(heads, verb_positions(tools, heads), strict=True)):
            if at is not None:
                by_verb.setdefault(stem(head[at]), []).append(i)
        self._by_verb = {verb: np.array(found, dtype=np.int64)
                         for verb, found in by_verb.items()}
        self._lexical = lexical
        self._size = len(tools)

    def evidence(self, request: str) -> np.ndarray:
        """Minus BM25F's evidence for each state word of `request` (that none of its order's
        verbs says) on the tools whose name's verb has its stem, else 0."""
        found = np.zeros(self._size)
        said = states(request)
        if not said:
            return found
        ordered = {stem(verb.word) for verb in verbs(request)}
        for word in said:
            members = self._by_verb.get(stem(word))
            if members is not None and stem(word) not in ordered:
                found[members] -= self._lexical.evidence(word)[0][members]
        return found
