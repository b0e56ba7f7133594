"""Printing and writing: the only module that touches stdout, stderr and output files."""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleDimensions
from rich.segment import Segment

from toolcat.errors import UsageError
from toolcat.wording import escaped, json_escaped, printable

# Lines meant for a file or a pipe are never wrapped: `show > file` keeps the YAML valid and
# `lint | grep` sees one finding per line.
UNWRAPPED = 1_000_000


class PipeAwareConsole(Console):
    """A rich Console that wraps at the terminal's width only when it writes to a terminal.

    rich asks stdin, stdout and stderr for a terminal size, so `toolcat show > file` typed in
    an 80-column terminal would be cut at 80 columns; and without any terminal it wraps at 80.
    """

    @property
    def size(self) -> ConsoleDimensions:
        if self._width is None and not self.is_terminal:
            return ConsoleDimensions(UNWRAPPED, super().size.height)
        return super().size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size

    def on_broken_pipe(self) -> None:
        """rich exits 1 here, which toolcat uses for "found problems"; the reader going away
        is handled once for every way of printing, in toolcat.cli.app."""
        self.quiet = True
        raise BrokenPipeError

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        """Everything printed, tables and highlighted text included, with the characters a
        terminal would act on or hide escaped (toolcat.wording.escaped): a catalog's names and
        descriptions are a stranger's text. rich's own styles and controls are added after."""
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in buffer)


console = PipeAwareConsole(highlight=False, soft_wrap=False)
err_console = PipeAwareConsole(stderr=True, highlight=False)


def print_json(data: Any) -> None:
    """JSON on stdout, unstyled, for scripts. Characters a terminal would act on or hide, and
    lone surrogates (a refused value can hold one, decoded from a `\\ud800` escape), are written
    as JSON escapes, which any output can encode and any JSON reader reads back as they were."""
    print(json_escaped(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)))


def print_code(text: str, language: str) -> None:
    """Source text (YAML, JSON): highlighted on a terminal, byte for byte into a file or pipe."""
    if not console.is_terminal:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
        return
    from rich.syntax import Syntax

    console.print(Syntax(text.rstrip("\n"), language, theme="ansi_dark",
                         background_color="default", word_wrap=True))


def warn(message: str) -> None:
    from rich.markup import escape

    # the message holds names from files ('[a]' in a tool name is no style)
    err_console.print(f"[yellow]warning:[/] {escape(printable(message))}", markup=True,
                      highlight=False,
                      soft_wrap=True)


def note(message: str) -> None:
    err_console.print(printable(message), markup=False, highlight=False, soft_wrap=True)


# Paths that name an open stream of this process rather than a file: written in place, never
# replaced (a rename there would turn /dev/stdout into a stray file, or fail on a pipe). `-` is
# standard output, as it is standard input where a command reads a file.
_STREAMS = {"-": 1, "/dev/stdout": 1, "/dev/stderr": 2, "/proc/self/fd/1": 1, "/proc/self/fd/2": 2,
            "/dev/fd/1": 1, "/dev/fd/2": 2}


_stdout_taken = False  # the last write_output went to stdout: messages must keep out of it


def command_starts() -> None:
    """Each command starts with stdout its own: a process that runs several (the Python API,
    a test's runner) must not keep the last one's `-o /dev/stdout` and send this one's account
    of a file written to stderr."""
    global _stdout_taken
    _stdout_taken = False


def say_written(message: str) -> None:
    """The one-line account of a file written with -o: on stdout, unless the file was stdout
    itself (`-o /dev/stdout`), where it would corrupt what was written; then on stderr."""
    if _stdout_taken:
        note(message)
    else:
        console.print(message, markup=False, highlight=False, soft_wrap=True)


def check_output(path: Path, *, protect: Iterable[str | Path] = ()) -> str:
    """How `path` will be written, checked before any work is done: "stream" (stdout or
    stderr), "in-place" (a character device such as /dev/null, or a named pipe), or "replace"
    (a regular file, new or existing, replaced atomically).

    Raises:
        UsageError: `path` is one of the inputs, a folder, a socket or another kind of file
            that cannot hold the output, or its folder does not exist.
    """
    if str(path) in _STREAMS:
        return "stream"
    target = path.resolve()  # through symlinks: a link to a file is written through
    if any(Path(p).resolve() == target for p in protect):
        raise UsageError(f"{path} is one of the inputs; refusing to overwrite it")
    try:
        mode = path.stat().st_mode  # through /dev/fd/N too, which resolve() cannot name
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    if mode is None:
        if not target.parent.is_dir():
            link = f" (a symbolic link to {target})" if path.is_symlink() else ""
            raise UsageError(f"cannot write {path}{link}: folder {target.parent} does not exist")
        return "replace"
    if stat.S_ISREG(mode):
        return "replace"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "in-place"
    kind = "a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode) else (
        "a block device" if stat.S_ISBLK(mode) else "not a regular file")
    raise UsageError(f"cannot write {path}: it is {kind}; give a file name, a named pipe, "
                     "/dev/null or /dev/stdout")


def write_output(path: Path, text: str | bytes, *, protect: Iterable[str | Path] = ()) -> None:
    """Write `text` to `path` without destroying what was there.

    A regular file (or a symlink to one) is replaced atomically, keeping its mode: a failed or
    interrupted write leaves the old file as it was. stdout, stderr, devices such as /dev/null
    and named pipes are written in place, never replaced. Anything else is refused, as are the
    `protect` paths (the command's own inputs).

    Raises:
        UsageError: `path` cannot be written (see check_output), or the write failed.
    """
    global _stdout_taken
    how = check_output(path, protect=protect)
    _stdout_taken = how == "stream" and _STREAMS[str(path)] == 1
    data = text.encode() if isinstance(text, str) else text
    try:
        if how == "stream":
            _write_stream(_STREAMS[str(path)], data)
        elif how == "in-place":
            with path.open("wb") as handle:
                handle.write(data)
        else:
            _replace(path.resolve(), data)
    except BrokenPipeError:
        if how == "stream":  # `-o /dev/stdout | head`: ends as every print does (cli.app)
            raise
        raise UsageError(f"cannot write {path}: the reader closed the pipe") from None
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_stream(fd: int, data: bytes) -> None:
    stream = sys.stdout if fd == 1 else sys.stderr
    stream.flush()
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream (a test runner's capture)
        stream.write(data.decode())
    else:
        # a pipe takes what fits and the write returns a short count when its reader has gone
        # (`| head -1`), without an error: write the rest, which raises BrokenPipeError then
        view = memoryview(data)
        while view:
            written = buffer.write(view) or 0
            if not written:  # a blocking stream writes something or fails
                raise BrokenPipeError
            view = view[written:]
    stream.flush()


def _replace(target: Path, data: bytes) -> None:
    """`target` replaced by `data` atomically, keeping its mode (a new file: the umask's)."""
    from toolcat.source.cache import new_file_mode, write_atomically

    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = new_file_mode()
    write_atomically(target, lambda handle: handle.write(data), mode=mode)


def write_lines(lines: Iterable[str]) -> None:
    """Plain lines on stdout, written in blocks: a pipe gets them as they are made. Tabs
    separate fields; anything else a terminal would act on or hide is escaped, a line end
    within a field too (one record a line)."""
    block: list[str] = []
    for line in lines:
        block.append(escaped(line, "\t"))
        if len(block) == 1000:
            sys.stdout.write("\n".join(block) + "\n")
            block.clear()
    if block:
        sys.stdout.write("\n".join(block) + "\n")
    sys.stdout.flush()
