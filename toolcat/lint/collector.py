"""Python's cyclic garbage collector paused while a lint runs.

Linting 43,000 tools allocates millions of short-lived containers (hits, problems, word lists,
decoded definitions) and almost no reference cycles: at 43k the collector freed a few hundred
objects in its passes over the whole heap, and those passes took a fifth of the run. Reference
counting frees everything else as before, so memory does not grow; the collector runs again
(and catches any cycle left) as soon as the lint is over.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The cyclic collector off inside the block, back to its state before after it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
