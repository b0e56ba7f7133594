"""What the gateway remembers of a conversation between requests: the tools its searches
found (shown again on every later request: `expanded`) and the definitions it deferred.

A conversation is keyed as the gateway design says, by its first user message, and here also
by the API and the client's credential (a digest), so two clients that open with the same
words never share tools. A session lives an hour from its last request; the store holds at
most MAX_SESSIONS of them and MAX_BYTES of deferred definitions in all, dropping the least
recently used first.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

TTL = 3600.0  # seconds a session lives after its last request
MAX_SESSIONS = 1000
MAX_BYTES = 64 << 20  # deferred definitions kept, all sessions together
MAX_EXPANDED = 1000  # names a session's searches may have found


def session_key(api: str, credential: str, first_user: str) -> str:
    parts = (api, hashlib.sha256(credential.encode("utf-8", "surrogatepass")).hexdigest(),
             first_user)
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Conversation:
    """One session: the names found so far, the deferred definitions by name."""

    expanded: tuple[str, ...] = ()
    deferred: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    size: int = 0  # bytes of `deferred` as JSON
    seen: float = 0.0

    def expand(self, names: Iterable[str]) -> None:
        merged = tuple(dict.fromkeys((*self.expanded, *names)))
        self.expanded = merged[-MAX_EXPANDED:]


class Sessions:
    """The bounded store of conversations (see the module docstring)."""

    def __init__(self, *, ttl: float = TTL, max_sessions: int = MAX_SESSIONS,
                 max_bytes: int = MAX_BYTES, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.ttl, self.max_sessions, self.max_bytes = ttl, max_sessions, max_bytes
        self._clock = clock
        self._store: OrderedDict[str, Conversation] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._store)

    def get(self, key: str) -> Conversation:
        """The conversation of `key` (a new one when it is unknown or expired)."""
        now = self._clock()
        self._expire(now)
        found = self._store.pop(key, None) or Conversation()
        found.seen = now
        self._store[key] = found
        self._trim()
        return found

    def defer(self, conversation: Conversation, tools: Mapping[str, Mapping[str, Any]]) -> None:
        """Keep the definitions the gateway deferred (newest wins), within the bounds."""
        self._bytes -= conversation.size
        conversation.deferred.update(tools)
        conversation.size = sum(len(json.dumps(d, default=str)) for d in
                                conversation.deferred.values())
        self._bytes += conversation.size
        self._trim()

    def _expire(self, now: float) -> None:
        while self._store:
            key, oldest = next(iter(self._store.items()))
            if now - oldest.seen <= self.ttl:
                break
            self._drop(key)

    def _trim(self) -> None:
        while len(self._store) > self.max_sessions or (
                self._bytes > self.max_bytes and len(self._store) > 1):
            self._drop(next(iter(self._store)))
        if self._bytes > self.max_bytes and self._store:  # one conversation past the bound
            only = next(iter(self._store.values()))
            self._bytes -= only.size
            only.deferred.clear()
            only.size = 0

    def _drop(self, key: str) -> None:
        self._bytes -= self._store.pop(key).size
