"""What stderr shows while the embedding model loads and a catalog's tools are encoded: on a
terminal only (or as lines, where a command is asked to say what it does), never with --json,
and gone once the command prints its result. The core reports through a callback
(`Progress`) and never prints. pick, search, index, tune, resolve, render, tokens, review,
serve and gateway show this one (bench draws a bar per scorer of its own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LOADING = "loading the embedding model"


class EncodingBar:
    """`with EncodingBar(shown=not json_, loads=scorer in SEMANTIC) as bar:` and `bar` as the
    scorer's `progress`: while a scorer that may load the model is built, a status line
    (`loading the embedding model ...`, with `then encoding 412 new tools (once)` when the
    core says it will encode tools its cache does not hold: it calls `progress(0, tools)`
    first), then a bar as they are encoded, gone once they are. Another encoding in the same
    block (review's baseline catalog) gets a bar of its own.

    `say`: where stderr is no terminal, the status is said in lines through it instead
    (`toolcat serve -v`: Stages.begins, which ends each with " ..."), and no bar is drawn.
    Nothing on the screen redirects stdout: serve's stdout is the MCP protocol's."""

    def __init__(self, *, shown: bool = True, loads: bool = False,
                 say: Callable[[str], None] | None = None) -> None:
        from toolcat.cli.output import err_console

        self._terminal = shown and err_console.is_terminal
        self._say = say if shown and not self._terminal else None
        self._loads = loads
        self._live: Any = None  # the status line (a spinner) while it shows
        self._spinner: Any = None
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> EncodingBar:
        if self._loads:
            self._status(f"{LOADING} ...")
        return self

    def __call__(self, done: int, total: int) -> None:
        if not (self._terminal or self._say):
            return
        if done == 0 and self._progress is None:
            from toolcat.wording import plural

            if self._say is not None:
                self._say(f"encoding {plural(total, 'new tool')} (once)")
            elif self._live is not None:
                # short enough for an 80-column terminal at 43,000 tools
                self._status(f"{LOADING}, then encoding {plural(total, 'new tool')} "
                             "(once) ...")
            return
        if self._say is not None:
            return
        self._stop_status()
        if self._progress is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            from toolcat.cli.output import err_console

            self._progress = Progress("encoding the tools", BarColumn(), MofNCompleteColumn(),
                                      TimeRemainingColumn(), console=err_console,
                                      transient=True, redirect_stdout=False)
            self._progress.start()
            self._task = self._progress.add_task("encode", total=total)
        self._progress.update(self._task, completed=done)
        if done >= total:  # gone once done: the command has more to do than encode
            self._stop_bar()

    def __exit__(self, *exc: object) -> None:
        self._stop_status()
        self._stop_bar()

    def _stop_bar(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def _status(self, text: str) -> None:
        """Show `text` as the status line (a spinner before it), or say it."""
        if self._say is not None:  # a line that says a step begins ends in " ..." itself
            self._say(text.removesuffix(" ..."))
            return
        if not self._terminal:
            return
        from rich.live import Live
        from rich.spinner import Spinner

        from toolcat.cli.output import err_console

        if self._live is None:
            self._spinner = Spinner("dots", text=text, style="status.spinner")
            self._live = Live(self._spinner, console=err_console, transient=True,
                              refresh_per_second=12.5, redirect_stdout=False)
            self._live.start()
        else:
            self._spinner.update(text=text)

    def _stop_status(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
