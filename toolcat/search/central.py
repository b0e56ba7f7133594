"""A request that only names a server asks for that server's central tools.

"asana", "shortcut", "kubernetes": a user who types a server's name alone wants what that
server is for, the plain create, get, list and search of its main object, not the tools whose
text repeats the name most (`asana_get_tags_for_task`, `get_monday_knowledge`) nor those the
name's everyday meaning is nearest to ("monday": calendar tools). Embedded alone, the name says
nothing about which of the server's tools those are. The mean of the server's tool vectors
does: most of a server's tools act on its main object, so the tools nearest their mean are the
ones about that object and little else (`stories-get-by-id`, `asana_get_task`, `get_logs`).

For such a request, the tools of the server it names get their cosine to that mean instead of
the request's. A name counts here even when it is also a word of the trade that other servers'
tools use ("monday" in a calendar's description): with no other word in the request, the
server is what it names.

The mean alone leans towards the server's commonest action: on a server where most tools
create or update things (Freshdesk: `create_ticket_field`, `create_contact_field`, ...), the
tools nearest the mean are those, and a user who names the service wants to see what is in it
first. So a server's name alone is read as an order to look: where the server names its tools
by action (`toolcat.search.actions.named`), the tools whose verb reads, lists or searches
get LOOK nats, as if the request had said "show".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, groups_of, named

LOOK = AGREEMENT  # what "show" would have earned a tool that reads, lists or searches
LOOKING = frozenset(("read", "list", "search"))  # the action groups of looking


class Centres:
    """Each server's tools and the normalised mean of their vectors, computed when first
    asked for."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        self._members: dict[str, np.ndarray] | None = None
        self._found: dict[str, np.ndarray] = {}  # server -> its tools' cosines to their mean
        self._looking: np.ndarray | None = None  # whether each tool's name verb looks

    def members(self, server: str) -> np.ndarray:
        """The indices of `server`'s tools."""
        if self._members is None:
            members: dict[str, list[int]] = {}
            for i, tool in enumerate(self._tools):
                if tool.server:
                    members.setdefault(tool.server, []).append(i)
            self._members = {s: np.array(found, dtype=np.int64)
                             for s, found in members.items()}
        return self._members.get(server, np.zeros(0, dtype=np.int64))

    def cosines(self, server: str, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The indices of `server`'s tools and each one's cosine to the mean of their
        `vectors` (rows of unit length, one per tool of the catalog)."""
        members_of = self.members(server)
        found = self._found.get(server)
        if found is None:
            own = np.asarray(vectors[members_of], dtype=np.float64)
            mean = own.sum(axis=0) if len(own) else np.zeros(vectors.shape[1])
            norm = float(np.linalg.norm(mean))
            found = own @ (mean / norm) if norm > 0 else np.zeros(len(own))
            self._found[server] = found
        return members_of, found

    def apply(self, servers: set[str], cosine: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        """`cosine` (one request's row) with the tools of `servers` given their cosine to
        their server's mean instead."""
        found = cosine.copy()
        for server in servers:
            members, near = self.cosines(server, vectors)
            found[members] = near
        return found

    def look(self, servers: set[str]) -> np.ndarray:
        """LOOK for each tool of `servers` whose name's verb reads, lists or searches (see
        the module docstring), else 0."""
        found = np.zeros(len(self._tools))
        if not servers:
            return found
        if self._looking is None:
            self._looking = np.array(
                [action is not None and bool(groups_of(action[0]) & LOOKING)
                 for action in named(self._tools)], dtype=bool)
        for server in servers:
            members = self.members(server)
            found[members[self._looking[members]]] = LOOK
        return found
