"""The sessions of 2026-07-28 clients over HTTP, which the protocol no longer carries.

A 2026-07-28 request stands alone: no handshake, no session id. In add mode a client's
added tools must still outlast its add_tool request, so serve keeps one gate per client,
keyed by who sends the request (its address and credential, as toolcat.serve.http binds a
handshake-era session) and the name the client gives in its `_meta` (`clientInfo.name`).
The name only narrows the sharing: a client that borrows another's name at the same address
gets the tools it could have added itself (every gate draws from the same pool, and approval
is asked call by call), never more.

Bounded as the handshake-era sessions are: at most `limit` gates, at most `per_owner` of
them for one address and credential (its oldest is dropped first), and a gate idle for
`idle` seconds is forgotten.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from toolcat.serve.gate import Gate
from toolcat.serve.http import IDLE_SESSION, MAX_CLIENT_SESSIONS, MAX_SESSIONS

MAX_CLIENT_NAME = 200  # characters of a clientInfo.name that count


class StatelessClients:
    """`clients.gate(owner, name)`: the gate of the 2026-07-28 client `name` of `owner`."""

    def __init__(self, blank: Callable[[], Gate], *, limit: int = MAX_SESSIONS,
                 per_owner: int = MAX_CLIENT_SESSIONS, idle: float = IDLE_SESSION,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._blank = blank
        self._limit, self._per_owner, self._idle = limit, per_owner, idle
        self._clock = clock
        self._gates: OrderedDict[tuple[bytes, str], tuple[Gate, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._gates)

    def gate(self, owner: bytes, name: str) -> Gate:
        now = self._clock()
        while self._gates:  # least recently used first
            key, (_, used) = next(iter(self._gates.items()))
            if now - used < self._idle:
                break
            del self._gates[key]
        key = (owner, name[:MAX_CLIENT_NAME])
        if key in self._gates:
            gate = self._gates.pop(key)[0]
        else:
            mine = [k for k in self._gates if k[0] == owner]
            if len(mine) >= self._per_owner:
                del self._gates[mine[0]]
            if len(self._gates) >= self._limit:
                self._gates.popitem(last=False)
            gate = self._blank()
        self._gates[key] = (gate, now)
        return gate
