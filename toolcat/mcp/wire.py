"""The pipes between toolcat and a stdio MCP server (an import, serve's upstreams), bounded:
what a server writes can cost toolcat only linear time and a fixed amount of memory, whatever
it writes.

- stdout (the protocol): read as bytes and split on newlines as they come, each byte looked at
  once. A message longer than `MAX_MESSAGE` bytes is not kept: the rest of its line is skipped,
  and the call it answers (its `id`, read from the message's first bytes) gets a JSON-RPC
  error saying how large it was. The SDK's own stdio client joins the pending text to every
  chunk it reads, which is quadratic in the length of one message (40 MB took 13 s).
- stderr: drained by a thread into a `StderrTail` that keeps the first and the last
  `TAIL_BYTES` (for the "its stderr says: ..." of an error message: a Node crash says what
  went wrong first, a Python traceback last); the rest is counted and dropped. When the
  server's stdout ends, its exit status is kept there too (`StderrTail.status`), so that an
  error can say "exited with status 1".

Spawning and stopping (a new process group; stdin closed, 2 s, then SIGTERM and SIGKILL to the
group) are the SDK's own, so toolcat stops a server exactly as the SDK does; and what the
server left running in its group when it exited on its own is then stopped the same way.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.lowlevel
import mcp_types as types
from mcp.client import stdio as sdk_stdio
from mcp.shared.message import SessionMessage

from toolcat.mcp.servers import ServerSpec
from toolcat.mcp.stderr import meaningful_lines

MAX_MESSAGE = 16 * 1024 * 1024  # bytes of one JSON-RPC message from an upstream
TAIL_BYTES = 64 * 1024  # bytes of an upstream's stderr kept, at each end, for error messages
EXIT_WAIT = 1.0  # seconds a server whose stdout ended gets to exit before its status is read
DRAIN_WAIT = 1.0  # seconds an ended server's stderr gets to be read to its end
# the JSON-RPC code of the error that replaces an oversized answer (not -32000: to the SDK,
# that is "connection closed")
TOO_LARGE = -32050
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')
_HEAD = 4096  # bytes of an oversized message searched for its id
NOTES = 3  # notifications of undefined methods kept for an error message


class StderrTail:
    """An upstream's stderr, drained on a thread; keeps its first and last TAIL_BYTES, and
    the server's exit status once it is known."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self._read = read
        self.writer = os.fdopen(write, "w", encoding="utf-8", errors="replace")
        self._head = bytearray()
        self._tail = bytearray()
        self._lock = threading.Lock()
        self.total = 0
        self.status: int | None = None  # the exit status (negative: the signal that ended it)
        # what the server sent on stdout as notifications MCP does not define (a `log`
        # method instead of notifications/message): the SDK drops them, and a server that
        # states its failure only there would otherwise seem to have said nothing
        self.notes: list[str] = []
        self._thread = threading.Thread(target=self._drain, name="toolcat-upstream-stderr",
                                        daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self._read, 65536):
                with self._lock:
                    self.total += len(chunk)
                    room = TAIL_BYTES - len(self._head)
                    if room > 0:
                        self._head += chunk[:room]
                        chunk = chunk[room:]
                    self._tail += chunk
                    if len(self._tail) > 2 * TAIL_BYTES:
                        del self._tail[:-TAIL_BYTES]
        os.close(self._read)

    def spawned(self) -> None:
        """The server has its own copy of the pipe: ours is closed, so that the drain ends
        when the server (and whatever inherited its stderr) is gone."""
        with contextlib.suppress(OSError):
            self.writer.close()

    def heard(self, message: Any) -> None:
        """Keeps the text of the first NOTES notifications of a method MCP does not define."""
        if not isinstance(message, types.JSONRPCNotification) or len(self.notes) >= NOTES \
                or message.method.startswith("notifications/"):
            return
        params = message.params or {}
        text = params.get("message") or params.get("data") or params.get("text") or params
        self.notes.append(f"{message.method}: {text}" if isinstance(text, str)
                          else f"{message.method}: {text!r}")

    def lines(self) -> list[str]:
        """The lines of the server's stderr kept: its first and last TAIL_BYTES."""
        with self._lock:
            head = bytes(self._head).decode("utf-8", "replace").splitlines()
            tail = bytes(self._tail[-TAIL_BYTES:]).decode("utf-8", "replace").splitlines()
        if tail and len(self._tail) > TAIL_BYTES:
            tail = tail[1:]  # cut inside a line
        return [*head, *tail]

    def said(self) -> list[str]:
        """The lines of the server's stderr that best say what went wrong
        (toolcat.mcp.stderr.meaningful_lines), read from its first and last TAIL_BYTES."""
        return meaningful_lines(self.lines())

    def drained(self) -> bool:
        """Whether the server has ended and its stderr was read to the end, waiting up to
        DRAIN_WAIT for that once it has ended (a child that keeps the pipe open leaves it
        unread: False)."""
        if self.status is None:
            return False
        self._thread.join(DRAIN_WAIT)
        return not self._thread.is_alive()

    def exit(self) -> str | None:
        """How the server ended (`exited with status 1`, `was killed by SIGKILL`), when it
        has."""
        if self.status is None:
            return None
        if self.status >= 0:
            return f"exited with status {self.status}"
        try:
            name = signal.Signals(-self.status).name
        except ValueError:
            name = f"signal {-self.status}"
        return f"was killed by {name}"


@asynccontextmanager
async def bounded_stdio(spec: ServerSpec, stderr: StderrTail) -> AsyncIterator[Any]:
    """The SDK's stdio transport for `spec`, with bounded reading (see the module's text)."""
    command = await sdk_stdio._get_executable_command(spec.command)
    # A server started from toolcat sees the environment the user's shell would give it,
    # plus the `env` of its configuration entry.
    env = {**os.environ, **spec.env}
    try:
        process = await sdk_stdio._create_platform_compatible_process(
            command=command, args=list(spec.args), env=env, errlog=stderr.writer,
            cwd=spec.cwd)
    finally:
        stderr.spawned()
    reader_in, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, writer_out = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()

    async def read_stdout() -> None:
        assert process.stdout is not None
        try:
            async with reader_in:
                try:
                    async for message in _messages(process.stdout):
                        if isinstance(message, SessionMessage):
                            stderr.heard(message.message)
                        try:
                            await reader_in.send(message)
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            return
                finally:
                    await sdk_stdio._drain_stdout(process)
                    with anyio.move_on_after(EXIT_WAIT, shield=True):
                        stderr.status = await process.wait()
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            pass  # the server went away: the session sees its read stream close

    async def write_stdin() -> None:
        assert process.stdin is not None
        try:
            async with writer_out:
                async for message in writer_out:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((text + "\n").encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await reader_in.aclose()
        finally:
            writer_done.set()

    async def shutdown() -> None:
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(0.5):
            await writer_done.wait()
        await sdk_stdio._stop_server_process(process)
        await _end_what_it_left(process)
        for stream in (read_stream, write_stream, reader_in, writer_out):
            await stream.aclose()
        await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as group:
        group.start_soon(read_stdout)
        group.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await shutdown()
            group.cancel_scope.cancel()


async def _end_what_it_left(process: Any) -> None:
    """Stops what a server started in its process group and left running when it exited on
    its own (a gateway a Node server spawned): the SDK stops the group only when the server
    itself outlives its grace period, so those children outlived every import."""
    if sys.platform == "win32":  # a Job Object there: the SDK closes it with every member
        return
    try:
        os.killpg(process.pid, 0)  # the leader's pid is the group's (a new session)
    except (ProcessLookupError, PermissionError):
        return
    await sdk_stdio._terminate_process_tree(process)


async def _messages(stdout: Any) -> AsyncIterator[SessionMessage | Exception]:
    """The messages on `stdout`, one per line; each byte is scanned once."""
    pending = bytearray()
    skipping: bytes | None = None  # the head of an oversized message being skipped
    skipped = 0
    async for chunk in stdout:
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if skipping is not None:
                skipped += len(piece)
            elif len(pending) + len(piece) > MAX_MESSAGE:
                skipping = bytes((pending + piece[:_HEAD])[:_HEAD])
                skipped = len(pending) + len(piece)
                pending.clear()
            else:
                pending += piece
            if end < 0:
                break
            if skipping is not None:
                dropped = _too_large(skipping, skipped)
                skipping, skipped = None, 0
                if dropped is not None:
                    yield dropped
            elif pending.strip():
                yield _parse(bytes(pending))
            pending.clear()
            start = end + 1


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return exc


def _too_large(head: bytes, size: int) -> SessionMessage | None:
    """The error answer that replaces a message of `size` bytes, for the request it answered
    (None when its id cannot be read: that call then runs into its timeout)."""
    found = _ID.search(head)
    if found is None:
        return None
    try:
        parsed = types.JSONRPCResponse.model_validate_json(
            b'{"jsonrpc":"2.0","id":' + found.group(1) + b',"result":{}}')
    except ValueError:
        return None
    request_id = parsed.id
    message = (f"the MCP server's answer was {size / 1e6:,.1f} MB, more than toolcat serve "
               f"relays ({MAX_MESSAGE // 2**20} MiB); it was dropped")
    return SessionMessage(types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=TOO_LARGE, message=message)))
