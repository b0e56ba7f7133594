"""Options shared by several commands, so they read the same everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolcat.providers import PROVIDERS

CatalogOpt = Annotated[
    list[str] | None,
    typer.Option(
        "-c", "--catalog",
        help="Catalog file or directory (repeatable); 'demo' is the bundled demo catalog, '-' "
        "standard input. "
        "Default: $TOOLCAT_CATALOG, the catalogs of toolcat.yaml, else the demo (said on "
        "stderr; lint and lock need a catalog).",
        show_default=False,
    ),
]
ShapeOpt = Annotated[
    str | None,
    typer.Option("--shape", help=f"Force the shape of catalog files: {', '.join(PROVIDERS)}.",
                 show_default=False),
]
JsonOpt = Annotated[bool, typer.Option(
    "--json", help="Print JSON (a stable shape, documented in docs/).")]
OutputOpt = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="Write to this file instead of stdout (- is stdout).",
                 show_default=False),
]
LockfileOpt = Annotated[
    Path | None,
    typer.Option("--lockfile", help="The lock file (default: toolcat.lock next to toolcat.yaml, "
                 "else in the current folder).", show_default=False),
]
ProfileOpt = Annotated[
    str | None,
    typer.Option("--profile", "-p",
                 help="Agent profile (YAML/JSON), or the name of a bundled profile such as "
                 "small-model. Default: profile: of toolcat.yaml, else a large model with "
                 "native tool calling.",
                 show_default=False),
]
AllowUnsafeOpt = Annotated[
    bool,
    typer.Option("--allow-unsafe", help="Allow tools marked unsafe (safe: false, or an MCP "
                 "tool that may be destructive), as a profile's allow_unsafe: true does; they "
                 "are left out by default."),
]
TuningOpt = Annotated[
    Path | None,
    typer.Option("--tuning", help="A tuning file from `toolcat tune -o`: the hybrid and "
                 "cascade scorers add what it learned from past requests. Default: tuning: "
                 "of toolcat.yaml.",
                 show_default=False),
]
