"""What stderr shows while the embedding model loads and a catalog's tools are encoded: on a
terminal only, never with --json, and gone once the command prints its result. The core
reports through a callback (`Progress`) and never prints."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LOADING = "loading the embedding model"


class EncodingBar:
    """`with EncodingBar(shown=not json_, loads=scorer in SEMANTIC) as bar:` and `bar` as the
    scorer's `progress`: while a scorer that may load the model is built, a status line
    (`loading the embedding model ...`, with `then encoding 412 new tools (once)` when the
    core says it will encode tools its cache does not hold: it calls `progress(0, tools)`
    first), then a bar as they are encoded."""

    def __init__(self, *, shown: bool = True, loads: bool = False) -> None:
        from toolcat.cli.output import err_console

        self._shown = shown and err_console.is_terminal
        self._loads = loads
        self._status: Any = None
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> EncodingBar:
        if self._shown and self._loads:
            from toolcat.cli.output import err_console

            self._status = err_console.status(f"{LOADING} ...")
            self._status.start()
        return self

    def __call__(self, done: int, total: int) -> None:
        if not self._shown:
            return
        if done == 0 and self._progress is None:
            if self._status is not None:
                from toolcat.wording import plural

                # short enough for an 80-column terminal at 43,000 tools
                self._status.update(f"{LOADING}, then encoding {plural(total, 'new tool')} "
                                    "(once) ...")
            return
        self._stop_status()
        if self._progress is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            from toolcat.cli.output import err_console

            self._progress = Progress("encoding the tools", BarColumn(), MofNCompleteColumn(),
                                      TimeRemainingColumn(), console=err_console,
                                      transient=True)
            self._progress.start()
            self._task = self._progress.add_task("encode", total=total)
        self._progress.update(self._task, completed=done)

    def __exit__(self, *exc: object) -> None:
        self._stop_status()
        if self._progress is not None:
            self._progress.stop()

    def _stop_status(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


@contextmanager
def loading_status(*, shown: bool, loads: bool) -> Iterator[None]:
    """A status line on stderr while a command that may load the embedding model (resolve,
    render) ranks the catalog with it, on a terminal only."""
    from toolcat.cli.output import err_console

    if not (shown and loads and err_console.is_terminal):
        yield
        return
    with err_console.status(f"{LOADING} and ranking the catalog ..."):
        yield
