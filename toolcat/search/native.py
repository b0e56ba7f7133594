"""Work inside torch, onnxruntime or tokenizers that the process's exit must not cut short.

serve readies its semantic stage on a daemon thread, which may still be loading the model,
building an onnxruntime session or encoding when the session ends. Python then finalizes:
the libraries' C++ objects are destroyed under the thread still using them, and a daemon
thread that takes the GIL back is ended by pthread_exit, whose forced unwinding through C++
frames calls std::terminate. The process aborted ("terminate called without an active
exception", exit 134) instead of exiting 0.

So each call into those libraries is a `section`. The command line, when a command ends
while a section is under way (`busy`), leaves at once without finalizing (os._exit, after
flushing its output): nothing of toolcat's needs finalizing, and every cache entry is
written to a temporary file and renamed, so one cut short is never read. A program using
the Python API finalizes as usual: at exit it first waits for the sections under way (at
most EXIT_WAIT seconds), and a thread that starts one after that waits for ever (a thread
blocked on a lock never takes the GIL back, and finalizing leaves it be).
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Iterator

_state = threading.Condition()
_running = 0
_closing = False
_depth = threading.local()  # sections this thread is inside: an inner one never waits
# seconds the exit waits at most: a section is one load, export or batch, seconds long; the
# bound keeps a section that never ends from holding the process for ever
EXIT_WAIT = 120.0


@contextlib.contextmanager
def section() -> Iterator[None]:
    """A call into a native library that the exit must not cut short."""
    global _running
    depth = getattr(_depth, "value", 0)
    _last_at_exit()
    with _state:
        while _closing and depth == 0:  # the process is leaving: no new section starts
            _state.wait()
        _running += 1
    _depth.value = depth + 1
    try:
        yield
    finally:
        _depth.value = depth
        with _state:
            _running -= 1
            _state.notify_all()
        _last_at_exit()


def busy() -> bool:
    """Whether a thread is inside a section now."""
    with _state:
        return _running > 0


def _last_at_exit() -> None:
    """Register the wait at exit (again): the last registered runs first, so it runs before
    the exit handlers of the libraries a section imported."""
    atexit.unregister(_wait_for_sections)
    atexit.register(_wait_for_sections)


def _wait_for_sections() -> None:
    global _closing
    with _state:
        _closing = True
        _state.wait_for(lambda: _running == 0, timeout=EXIT_WAIT)
