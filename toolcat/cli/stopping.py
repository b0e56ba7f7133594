"""Ctrl-C for the commands that run until it (`toolcat gateway`, `toolcat serve`): SIGINT ends
them at any moment of their start or their service, with exit 0 and no traceback.

A process started in the background by a script or a test runner (`cmd &` without job
control) inherits SIGINT ignored, and Python keeps ignoring it: the gateway's whole start
(loading its model) and the moment between its address printed and uvicorn's handler set let
SIGINT pass, and it went on listening for ever (docs/gateway.md). uvicorn handles SIGINT while
it serves whatever was inherited, so the start now does too: Python's own handler, which
asyncio's runner then replaces with the one that cancels its task, as in a terminal.

A KeyboardInterrupt raised inside code that eval() or exec() ran from a string (dataclasses
and namedtuple make their methods so) makes CPython kill itself with SIGINT once it has
finalized, even when the exception was caught (exit -2 for a Ctrl-C that ended serve
cleanly); after an interrupt, toolcat.cli.app.leave therefore exits without finalizing.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

interrupted = False  # a Ctrl-C ended an until_interrupted block


@contextlib.contextmanager
def until_interrupted() -> Iterator[None]:
    """The block runs until Ctrl-C: SIGINT raises KeyboardInterrupt in it, which ends it and
    is swallowed here, even where SIGINT was inherited ignored; the handler before is put
    back afterwards."""
    global interrupted
    if threading.current_thread() is not threading.main_thread():  # no signal comes here
        with contextlib.suppress(KeyboardInterrupt):
            yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
