"""A noun said as a request's verb: "snapshot ct 201 before I upgrade it", "email ops@acme.io
that the window moved".

English makes verbs of nouns, and such a verb asks to make one of the noun or to send it: to
snapshot a container is to create a snapshot of it, to email someone is to send an e-mail, to
attach a file is to add an attachment. The action table does not hold these words, and the
model maps them to the catalog's verb nearest to the noun, or to none: "snapshot ct 201" put
`rollback_container_snapshot` before `create_container_snapshot`, where every sibling shares the
object. Where the request's verb (its first word that stands as an order's verb, one the table
lacks: `toolcat.search.verbs.spoken`) has the stem of the object of tool names
(`toolcat.search.number.name_object`: `create_vm_snapshot` -> snapshot, `send-email` -> email,
`create_workitem_attachment` -> attachment), the tools whose name's verb creates or sends
(the table's create and send groups, on a server that names its tools by action,
`toolcat.search.actions.named`) get the table's nat, and that is the request's action. A verb
followed by "a" or "an" makes that object, not one of its own noun: "file a GitLab issue" is
no file to create (on the dev half it lifted `create_or_update_file`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, groups_of, named
from toolcat.search.number import name_object
from toolcat.search.orders import verbs
from toolcat.search.text import stem
from toolcat.search.verbs import spoken

MAKING = frozenset(("create", "send"))  # the groups whose verbs make or send their object


class Denominal:
    """AGREEMENT for the tools that create or send what the request's verb names as a noun
    (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._size = len(tools)
        makers: dict[str, list[int]] = {}  # the stem of a name's object -> tools making it
        for i, (tool, action) in enumerate(zip(tools, named(tools), strict=True)):
            if action is None or not groups_of(action[0]) & MAKING:
                continue
            found = name_object(tool.name)
            if found is not None:
                makers.setdefault(stem(found), []).append(i)
        self._makers = {key: np.array(found, dtype=np.int64) for key, found in makers.items()}

    def noun(self, request: str) -> str | None:
        """The request's verb, when it is a noun some tools' names create or send."""
        verb = spoken(request) if self._makers else None
        if verb is None or " " in verb or stem(verb) not in self._makers:
            return None
        said = next((v for v in verbs(request) if v.word == verb), None)
        return None if said is None or said.rest[:1] in (("a",), ("an",)) else verb

    def evidence(self, request: str) -> np.ndarray:
        """AGREEMENT for the tools whose name creates or sends what the request's verb names
        (see the module docstring); else 0."""
        found = np.zeros(self._size)
        verb = self.noun(request)
        if verb is not None:
            found[self._makers[stem(verb)]] = AGREEMENT
        return found
