"""`toolcat lock` and `toolcat diff`: pin a catalog's definitions, and see what changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import CatalogOpt, JsonOpt, LockfileOpt, ShapeOpt
from toolcat.wording import plural

if TYPE_CHECKING:
    from rich.text import Text

    from toolcat.pin.diff import CatalogDiff, FieldChange

# The core is imported inside each command, so `toolcat --help` stays fast.


def lock(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    lockfile: LockfileOpt = None,
    volatile: Annotated[
        list[str] | None,
        typer.Option("--volatile", metavar="TOOLS=REGEX", help="Accept text that changes on "
                     "its own in these tools' definitions (e.g. a host's folders in a "
                     "description): TOOLS is a name or pattern (server:*), REGEX an RE2 "
                     "regular expression; its matches are locked as <volatile> (repeatable; "
                     "kept from the previous lock).", show_default=False),
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Write toolcat.lock: a content hash per tool of what the model sees, plus its server.

    `toolcat lint --locked` then fails when a tool changed, appeared or vanished since.
    """
    from toolcat.cli import build
    from toolcat.cli.output import (
        check_output,
        console,
        print_json,
        say_written,
        warn,
        write_output,
    )
    from toolcat.errors import ToolcatError, UsageError
    from toolcat.pin.lock import (
        check_volatile,
        default_lock_path,
        drift,
        dump_lock,
        lock_catalog,
        read_lock,
    )

    cfg = build.config()
    cat = build.load(catalog, shape, cfg=cfg, demo=False)
    path = lockfile or default_lock_path(cfg.path, Path.cwd())
    previous = None
    # only a regular file holds a previous lock: reading /dev/stdout or a pipe would block
    if check_output(path, protect=cat.sources) == "replace" and path.exists():
        try:
            previous = read_lock(path)
        except ToolcatError as exc:
            warn(f"replacing a lock file that could not be read: {exc}")
    changes = drift(previous, cat) if previous else []
    accepted: dict[str, tuple[str, ...]] = dict(previous.volatile) if previous else {}
    for given in volatile or ():
        tools, sep, text = given.partition("=")
        problem = check_volatile(text) if sep and tools else "give TOOLS=REGEX"
        if problem:
            raise UsageError(f"--volatile '{given}': {problem}")
        accepted[tools] = tuple(dict.fromkeys((*accepted.get(tools, ()), text)))
    write_output(path, dump_lock(lock_catalog(cat, accepted)), protect=cat.sources)
    servers = len({t.server for t in cat.tools})
    if json_:
        print_json({"lockfile": str(path), "tools": len(cat.tools), "servers": servers,
                    "replaced": previous is not None, "volatile": {
                        k: list(v) for k, v in accepted.items()},
                    "changes": [c.to_json() for c in changes]})
        return
    say_written(f"locked {plural(len(cat.tools), 'tool')} on {plural(servers, 'server')} "
                f"in {path}")
    if previous is not None:
        console.print("  no change since the previous lock" if not changes else
                      f"  {plural(len(changes), 'difference')} from the previous lock:",
                      markup=False)
    for change in changes:
        console.print(f"  {change.describe()}", markup=False)
    for tools, texts in accepted.items():
        console.print(f"  volatile in {tools}: " + ", ".join(texts), markup=False)


def diff(
    old: Annotated[Path, typer.Argument(help="The old catalog: a file or a folder.",
                                        show_default=False)],
    new: Annotated[Path, typer.Argument(help="The new catalog: a file or a folder.",
                                        show_default=False)],
    shape: ShapeOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Show what changed between two catalogs: tools added, removed and changed, the fields
    that changed, and a word diff of descriptions. Exits 1 when they differ, like diff(1)."""
    from toolcat.catalog.load import load_catalog
    from toolcat.cli.output import console, print_json, write_lines
    from toolcat.pin.diff import diff_catalogs

    before = load_catalog(old, shape=shape)
    after = load_catalog(new, shape=shape)
    result = diff_catalogs(before, after)
    if json_:
        print_json(result.to_json(str(old), str(new)))
    elif not console.is_terminal:  # a pipe or a file: plain lines, without rich per line
        write_lines(line.plain for line in diff_lines(result))
    else:
        for line in diff_lines(result):
            console.print(line, soft_wrap=True)
    if not result.same:
        raise typer.Exit(1)


def diff_lines(result: CatalogDiff) -> list[Text]:
    """The diff as text lines: `+` added, `-` removed, `~` changed with one line per field
    (and per changed node of a schema, with its old → new value); in a text, deleted words
    as [-...-] and inserted ones as {+...+}."""
    from rich.text import Text

    lines = []
    for tool in result.added:
        lines.append(Text.assemble(("+ " + tool.qualified_name, "green bold"), "  ",
                                   _short(tool.description)))
    for tool in result.removed:
        lines.append(Text.assemble(("- " + tool.qualified_name, "red bold")))
    for change in result.changed:
        lines.append(Text.assemble(("~ " + change.new.qualified_name, "yellow bold"), "  ",
                                   ", ".join(change.fields)))
        for field_change in change.changes:
            lines += _field_lines(field_change)
    lines.append(Text(f"{len(result.added)} added, {len(result.removed)} removed, "
                      f"{len(result.changed)} changed, {result.unchanged} unchanged"))
    return lines


def _field_lines(change: FieldChange) -> list[Text]:
    from rich.text import Text

    line = Text(f"    {change.field}: ", style="bold")
    if change.field == "description":
        return [Text(f"    {change.field}:", style="bold"),
                *_text_lines(change.old or "", change.new or "", "      ")]
    if change.paths and change.paths != ("",):  # "" is the whole value: shown as old → new
        out = [Text(f"    {change.field}:", style="bold")]
        for value in change.values:
            row = Text(f"      {value.path}: ")
            _append_value_change(row, value.old, value.new)
            out.append(row)
        return out
    _append_value_change(line, change.old, change.new)
    return [line]


def _append_value_change(line: Text, old: Any, new: Any) -> None:
    """`old → new`, or a word diff when both are texts (a long description in a schema)."""
    from toolcat.pin.diff import word_diff

    if isinstance(old, str) and isinstance(new, str) and max(len(old), len(new)) > 30:
        line.append('"')
        _append_words(line, tuple(word_diff(" ".join(old.split()), " ".join(new.split()))))
        line.append('"')
        return
    line.append(f"{_compact(old)} → {_compact(new)}")


def _text_lines(old: str, new: str, indent: str) -> list[Text]:
    """A text's changes line by line: each changed line once, with its words diffed and long
    runs of unchanged words cut to a few on each side; a line only one side has as `- ` or
    `+ `; unchanged lines counted, not shown. A multi-kilobyte description whose one path
    changed is one short line, not the whole text."""
    from difflib import SequenceMatcher

    from rich.text import Text

    from toolcat.pin.diff import word_diff

    a, b = old.splitlines() or [""], new.splitlines() or [""]
    out: list[Text] = []
    same = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            same += i2 - i1
            continue
        pairs = list(zip(a[i1:i2], b[j1:j2], strict=False)) if tag == "replace" else []
        for before, after in pairs:
            line = Text(f"{indent}~ ")
            _append_words(line, tuple(word_diff(before, after)), context=CONTEXT_WORDS)
            out.append(line)
        out += [Text(f"{indent}- {_short(text, 160)}", style="red")
                for text in a[i1 + len(pairs):i2]]
        out += [Text(f"{indent}+ {_short(text, 160)}", style="green")
                for text in b[j1 + len(pairs):j2]]
    if same and out:
        out.append(Text(f"{indent}({plural(same, 'unchanged line')})", style="dim"))
    return out


CONTEXT_WORDS = 6  # unchanged words shown on each side of a change in a long text


def _append_words(line: Text, words: tuple[tuple[str, str], ...],
                  context: int | None = None) -> None:
    """Words of a diff: deleted as [-...-], inserted as {+...+}; with `context`, a run of
    unchanged text longer than that many words on each side is cut to them, "…" between."""
    for index, (op, text) in enumerate(words):
        if op == "equal":
            if context is not None:
                text = _cut(text, context, first=index == 0, last=index == len(words) - 1)
            line.append(text)
        elif op == "delete":
            line.append(f"[-{text}-]", style="red strike")
        else:
            line.append(f"{{+{text}+}}", style="green")


def _cut(text: str, keep: int, *, first: bool, last: bool) -> str:
    """Unchanged text with only `keep` words next to each change: none kept before the first
    change's side that has no change (the start of the line) or after the last."""
    words = text.split(" ")
    head = [] if first else words[:keep]
    tail = [] if last else words[-keep:]
    if len(words) <= max(len(head) + len(tail) + 1, 3 * keep):  # short enough to show whole
        return text
    return " ".join(head) + (" " if head else "") + "… " + " ".join(tail) \
        if tail else " ".join(head) + " …"


def _compact(value: Any) -> str:
    from toolcat.pin.diff import ABSENT

    if value is ABSENT:
        return "(absent)"
    return _short(json.dumps(value, ensure_ascii=False, allow_nan=False), 60)


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


