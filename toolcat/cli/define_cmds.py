"""`toolcat check-call --instantiate`: which calls would hydrate into tool instances."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolcat.wording import plural

if TYPE_CHECKING:
    from toolcat.define.instances import Hydrated, Hydration
    from toolcat.model import Catalog

# The core is imported inside each function, so `toolcat --help` stays fast.

STATUS_TEXT = {
    "instantiated": "[green]instantiated[/]",
    "unvalidated": "[yellow]instantiated without validation[/]",
    "refused": "[red]refused[/]",
    "no-class": "[cyan]valid, no Python class to instantiate[/]",
}


def check_instances(cat: Catalog, response: Path, *, provider: str | None, fmt: str | None,
                    json_: bool) -> None:
    """Parse, validate and instantiate every call of a response; exit 1 when one is refused.

    The instances are built (constructors run, so they can refuse a call) and dropped;
    `run()` is never called.
    """
    from toolcat.cli.output import print_json
    from toolcat.define.instances import hydrate_calls
    from toolcat.render.responses import read_calls

    calls = read_calls(response, provider=provider, fmt=fmt)
    result = hydrate_calls(calls, cat, source=str(response), provider=provider, fmt=fmt)
    if json_:
        print_json(result.to_json())
    else:
        _print(result)
    if not result.ok:
        raise typer.Exit(1)


def _print(result: Hydration) -> None:
    from toolcat.cli.output import console

    if not result.calls:
        console.print(f"no tool calls in {result.source}", markup=False)
        return
    for hydrated in result.calls:
        _print_call(result.source, hydrated)
    parts = [f"{result.count('instantiated')} instantiated"]
    if result.count("unvalidated"):
        parts.append(f"{result.count('unvalidated')} instantiated without validation")
    parts.append(f"{len(result.refused)} refused")
    if result.count("no-class"):
        parts.append(f"{result.count('no-class')} without a Python class")
    console.print(f"{plural(len(result.calls), 'call')}: " + ", ".join(parts), markup=False)


def _print_call(source: str, hydrated: Hydrated) -> None:
    from rich.markup import escape

    from toolcat.cli.call_lines import print_call

    status = STATUS_TEXT[hydrated.status]
    if hydrated.status == "unvalidated":
        status += f" (no_schema_mode {escape(str(hydrated.checked.no_schema_mode))})"
    if hydrated.implementation and hydrated.status != "refused":
        status += f" → {escape(hydrated.implementation)}"
    print_call(source, hydrated.checked.call, status, hydrated.errors)
