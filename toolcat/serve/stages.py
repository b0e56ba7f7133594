"""What serve is doing as it starts, and how long each step took (`toolcat serve -v`): one
line per step on stderr, `toolcat serve: made the gate ... (0.84 s; 2.31 s after start)`.

A step says what it did once it is done; a step that may take long (the security rules over
a catalog never served before) also says when it begins. Steps run on several threads (the
handshake on the event loop, the gate and the indexes on their own), so the lines say when
each ended, counted from the command's start.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Stages:
    """Says each step of serve's start; with no `say`, says nothing."""

    def __init__(self, say: Callable[[str], None] | None = None,
                 began: float | None = None) -> None:
        self._say = say
        self.began = time.perf_counter() if began is None else began  # the command's start

    def begins(self, what: str) -> None:
        """Say that a long step begins."""
        if self._say is not None:
            self._say(f"toolcat serve: {what} ... ({time.perf_counter() - self.began:.2f} s "
                      "after start)")

    def done(self, what: str, since: float | None = None) -> None:
        """Say that a step is done; `since` (a `time.perf_counter()`): when it began."""
        if self._say is None:
            return
        now = time.perf_counter()
        took = "" if since is None else f"{now - since:.2f} s; "
        self._say(f"toolcat serve: {what} ({took}{now - self.began:.2f} s after start)")


QUIET = Stages()  # says nothing
