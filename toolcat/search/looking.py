"""A question that gives no order asks to look, not to change anything.

"is anyone on the SRE rotation getting buried?", "did the nightly uptime monitor pass last
night", "what's the status of ENG-412", "who changed things in the Platform workspace this
week?": a question about a state asks to see what is there. No word of it stands as an order's
verb (`toolcat.search.orders`), so the action table gives no tool its nat, and a sibling that
writes came first as often as the one that reads (`create_override_recommendation` before
`get_oncall_shift_metrics`, `runMonitor` before `getMonitor`). Here such a request takes LOOK
nats from the tools whose name's verb writes, runs, sends or stops (any action of the table
but reading, listing and searching), on servers that name their tools by action
(`toolcat.search.actions.named`). The tools that read keep their evidence, and so do the tools
whose name says no action of the table (`whoami`, `my_issues`, `git_blame`): evidence for the
readers instead put those after every reader.

A request is such a question when it opens with a question word or ends with a question mark,
and no word of it stands as an order's verb ("how do I add a label" and "can you delete it"
give one). Requests that give no order and ask nothing ("CHG0040021 is good to go for tonight",
"maria@globex.com has a new number") are statements that ask for a change: they are left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import groups_of, named
from toolcat.search.central import LOOK, LOOKING
from toolcat.search.orders import verbs
from toolcat.search.topic import QUESTIONS

MAX_CHARS = 300  # a longer text is a statement or a paste, not a question
_EDGES = "\"'`()[]{}<>*_"


def unordered(request: str) -> bool:
    """Whether `request` asks a question and no word of it stands as an order's verb (see
    the module docstring)."""
    text = request.strip()
    if not text or len(text) > MAX_CHARS or verbs(text):
        return False
    first = text.split()[0].strip(_EDGES).lower().split("'")[0]
    return first in QUESTIONS or text.endswith("?")


class Looks:
    """-LOOK for the tools whose name's verb does more than look, when the request is a
    question that gives no order (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        self._acting: np.ndarray | None = None  # whether each tool's name's verb acts

    def acting(self) -> np.ndarray:
        """Whether each tool's name says an action of the table that is not looking."""
        if self._acting is None:
            self._acting = np.array(
                [action is not None and not groups_of(action[0]) & LOOKING
                 for action in named(self._tools)], dtype=bool).reshape(len(self._tools))
        return self._acting

    def evidence(self, request: str) -> np.ndarray:
        """-LOOK for each tool whose name's verb acts, when `request` is a question that gives
        no order; else 0."""
        if not unordered(request):
            return np.zeros(len(self._tools))
        return np.where(self.acting(), -LOOK, 0.0)
