"""How check-call shows one checked call, with or without --instantiate: where it stands,
its name and id, its status, then each error."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from toolcat.wording import escaped

if TYPE_CHECKING:
    from toolcat.calls.check import CallError
    from toolcat.model import ToolCall


def print_call(source: str, call: ToolCall, status: str, errors: Iterable[CallError]) -> None:
    """`status` is rich markup of ours; what a model wrote is shown escaped
    (toolcat.wording.escaped), as a file's names are."""
    from rich.markup import escape

    from toolcat.cli.output import console

    where = f"{source}:{call.line}:{call.column}" if call.line else source
    label = escape(escaped(call.name or "(unnamed call)")) + \
        (f" ({escape(escaped(call.id))})" if call.id else "")
    console.print(f"[dim]{escape(escaped(where))}[/]  [bold]{label}[/]  {status}",
                  soft_wrap=True)
    for error in errors:
        # a schema's (or a Python class's) violation says where in the arguments it is
        at = f"{error.pointer or '/'}: " if error.code.endswith("-violation") else ""
        console.print(f"    {escape(escaped(at + error.message))}  [dim]{error.code}[/]",
                      soft_wrap=True)
