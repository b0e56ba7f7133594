"""Which lines of a failing MCP server's stderr say what went wrong, for an error message: the
first lines that state an error (`Error: Cannot find module ...`, `ValueError: ...`), else the
first that speak of one, else the first lines at all; never stack frames, a usage text's tail
or npm's pointer to its log. A structured log line (one JSON object, as Go's slog, pino or
structlog write them) is read as its level and message."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

STDERR_LINES = 3  # lines quoted from a failing server's stderr
# lines that explain nothing: stack frames, a caret under code, npm's pointer to its log
_NOISE = re.compile(r"(at |File \"|Traceback \(|\^+$|node:internal/|Node\.js v\d|"
                    r"npm (ERR!|error) (A complete log|code |path |errno |syscall )|[-=~]{3,}$|"
                    r"[{}\[\]]$)")
# the line that says what went wrong: `Error: ...`, `ValueError: ...`, `error: ...`, `fatal:`
_STATEMENT = re.compile(r"([\w.]*(error|exception)|fatal|panic)\b.{0,40}?:", re.IGNORECASE)
# pydantic's ValidationError: its count, each field's message, and the pointer to its docs
_PYDANTIC = re.compile(r"\d+ validation errors? for \S+$")
_PYDANTIC_DETAIL = re.compile(r"(.+?) \[type=\w+")
_PYDANTIC_MORE = "For further information visit"
# a terminal's colour and cursor codes, and a banner's frame and logo (box drawing and block
# elements, as FastMCP and rich draw them): neither says anything in a one-line message
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_FRAME = re.compile(r"^[\s\u2500-\u259f]+|[\s\u2500-\u259f]+$")
_FAILURE = re.compile(r"error|fatal|exception|cannot|can't|could not|failed|not set|missing|"
                      r"denied|not found|no such|invalid|required|refused|unknown|unable",
                      re.IGNORECASE)


def meaningful_lines(lines: Sequence[str], count: int = STDERR_LINES) -> list[str]:
    """The first `count` lines of `lines` that best say what went wrong (see above)."""
    kept = [_readable(plain(line)) for line in lines]
    kept = _fields_named([line for line in kept if line and not _NOISE.match(line)])
    for chosen in ([i for i, line in enumerate(kept) if _STATEMENT.match(line)],
                   [i for i, line in enumerate(kept) if _FAILURE.search(line)]):
        if chosen:
            return _with_what_follows(kept, chosen)[:count]
    return kept[:count]


def _fields_named(kept: list[str]) -> list[str]:
    """pydantic's `N validation errors for Settings` with the fields it goes on to name, one
    line: `... for Settings: client_id (Field required), email (Field required)`. A Python
    server's settings say what is missing that way, on lines no other rule would keep."""
    out: list[str] = []
    i = 0
    while i < len(kept):
        line = kept[i]
        i += 1
        if not _PYDANTIC.search(line):
            out.append(line)
            continue
        fields = []
        while i + 1 < len(kept) and (detail := _PYDANTIC_DETAIL.match(kept[i + 1])):
            fields.append(f"{kept[i]} ({detail.group(1)})")
            i += 2
            if i < len(kept) and kept[i].startswith(_PYDANTIC_MORE):
                i += 1
        out.append(f"{line}: {', '.join(fields)}" if fields else line)
    return out


def plain(line: str) -> str:
    """`line` without colour codes and without the frame drawn around it: a line that is all
    frame or logo is empty."""
    return _FRAME.sub("", _ANSI.sub("", line))


def _with_what_follows(kept: list[str], chosen: list[int]) -> list[str]:
    """The chosen lines in order, each that ends announcing more (`... Tried:`) followed by
    the line it announces, which would otherwise be left out as not an error itself."""
    indexes = set(chosen)
    indexes.update(i + 1 for i in chosen if kept[i].endswith(":") and i + 1 < len(kept))
    return [kept[i] for i in sorted(indexes)]


def _readable(line: str) -> str:
    """`line`, or for a structured log line its level and message (`ERROR: Failed to ...`,
    with its `error` field when it has one besides)."""
    if not (line.startswith("{") and line.endswith("}")):
        return line
    try:
        record = json.loads(line)
    except ValueError:
        return line
    said = record_text(record)
    return line if said is None else said


def record_text(record: object) -> str | None:
    """A structured log record's level and message (`ERROR: Failed to ...`, with its `error`
    field when it has one besides), or None when `record` is not one."""
    if not isinstance(record, dict):
        return None
    said = [record[key] for key in ("msg", "message", "error", "err")
            if isinstance(record.get(key), str) and record[key].strip()]
    if not said:
        return None
    level = record.get("level", record.get("severity"))
    text = ": ".join(dict.fromkeys(said))  # a message and its error, each once
    return f"{level.upper()}: {text}" if isinstance(level, str) else text


# a usage text, and the commands it offers: argparse's `{run,auth}` on its usage line, or the
# names under a "Commands:" heading (click and typer, commander.js, cobra's "Available
# Commands:"), each indented a little, its description after two spaces or more (a wrapped
# description's line is indented further and ends the list's reading no sooner than a blank)
_USAGE = re.compile(r"^\s*usage:", re.IGNORECASE)
_CHOICES = re.compile(r"\{([\w.-]+(?:,[\w.-]+)+)\}")
_HEADING = re.compile(r"^\s*(?:available\s+)?(?:sub)?commands\s*:\s*$", re.IGNORECASE)
_ENTRY = re.compile(r"^ {1,4}([a-z][\w.-]*)(?:\s|$)")
# the command that starts a server, as servers' command-line tools name it
STARTS = ("run", "serve", "start", "stdio", "server", "mcp")
SHOWN_COMMANDS = 12


def usage_commands(lines: Sequence[str]) -> list[str]:
    """The commands a usage text on stderr offers, or none when it is no usage text."""
    kept = [_ANSI.sub("", line) for line in lines]  # indented as written
    if not any(_USAGE.match(line) for line in kept):
        return []
    for line in kept:
        choices = _CHOICES.search(line) if _USAGE.match(line) else None
        if choices:
            return choices.group(1).split(",")
    heading = next((i for i, line in enumerate(kept) if _HEADING.match(line)), None)
    if heading is None:
        return []
    commands: list[str] = []
    for line in kept[heading + 1:]:
        entry = _ENTRY.match(line)
        if entry is None:
            if line.strip() and line.startswith(" " * 5):  # a wrapped description
                continue
            break
        commands.append(entry.group(1))
    return [name for name in commands if name != "help"]


def usage_hint(stderr: str) -> str:
    """What the message of a server that printed its usage and ended adds: the commands it
    asks for, and which goes in `args:` (`; its usage asks for a command (run, auth): 'run'
    starts the server, at the end of args:`), or "" when it printed no usage text."""
    commands = usage_commands(stderr.splitlines())
    if not commands:
        return ""
    listed = ", ".join(commands[:SHOWN_COMMANDS]) + (
        ", ..." if len(commands) > SHOWN_COMMANDS else "")
    start = next((name for name in STARTS if name in commands), None)
    if start is None:
        return f"; its usage asks for a command ({listed}): add the one that starts the server " \
               "at the end of args:"
    return f"; its usage asks for a command ({listed}): '{start}' starts the server, at the " \
           "end of args:"
