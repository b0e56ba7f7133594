"""The typer application and the one place where errors become messages and exit codes."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from toolcat import __version__
from toolcat.cli.startup import defer_slow_imports
from toolcat.errors import ToolcatError

defer_slow_imports()  # before a command imports jsonschema


class ToolcatGroup(TyperGroup):
    """Maps every ToolcatError to one line on stderr and its exit code (2: could not run)."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToolcatError as exc:
            if show_traceback(ctx):
                raise
            message = " ".join(str(exc).split("\n"))
            typer.echo(f"toolcat: error: {message}", err=True)
            raise typer.Exit(exc.exit_code) from None


def show_traceback(ctx: typer.Context) -> bool:
    return bool((ctx.obj or {}).get("traceback")) or os.environ.get("TOOLCAT_TRACEBACK") == "1"


app = typer.Typer(
    cls=ToolcatGroup,
    name="toolcat",
    help="A workbench for catalogs of LLM tools: list, lint, search, pick, resolve, render, "
    "and benchmark tool selection.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion and --show-completion for bash, zsh, fish
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"toolcat {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    traceback: Annotated[
        bool, typer.Option("--traceback", help="Show the Python traceback of an error.")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
) -> None:
    ctx.obj = {"traceback": traceback}


def _register() -> None:
    from toolcat.cli import (
        bench_cmds,
        catalog_cmds,
        lint_cmds,
        lock_cmds,
        mcp_cmds,
        render_cmds,
        resolve_cmds,
        search_cmds,
        serve_cmds,
    )

    app.command("list")(catalog_cmds.list_tools)
    app.command("show")(catalog_cmds.show)
    app.command("stats")(catalog_cmds.stats)
    app.command("convert")(catalog_cmds.convert)
    app.command("lint")(lint_cmds.lint)
    app.command("rules")(lint_cmds.rules)
    app.add_typer(mcp_cmds.import_app)
    app.command("lock")(lock_cmds.lock)
    app.command("diff")(lock_cmds.diff)
    app.command("search")(search_cmds.search)
    app.command("pick")(search_cmds.pick)
    app.command("resolve")(resolve_cmds.resolve)
    app.command("render")(render_cmds.render)
    app.command("tokens")(render_cmds.tokens)
    app.command("check-call")(render_cmds.check_call)
    app.command("bench")(bench_cmds.bench)
    app.command("serve")(serve_cmds.serve)


_register()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
