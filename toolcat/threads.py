"""Work on a thread of its own while the main thread waits for it, so that Ctrl-C raises
KeyboardInterrupt in the wait and never inside a library's code: raised where torch's or
onnxruntime's C++ had called back into Python it aborted the process (pybind11's terminate,
exit 134); raised inside pydantic-core's schema building while the MCP SDK was imported it
came out as a SchemaError (a traceback, exit 1); raised inside an import it was once
swallowed, and serve went on listening after Ctrl-C. The command line leaves at once while
such a thread still runs (toolcat.cli.app.leave).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")


def in_background(work: Callable[[], T], name: str) -> Callable[[], T]:
    """`work` started on a daemon thread now; the function returned waits for its result
    (or raises what it raised)."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # handed to whoever waits
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future.result


def waited(work: Callable[[], T], name: str) -> T:
    """`work`'s result, made on a daemon thread while this one waits."""
    return in_background(work, name)()
