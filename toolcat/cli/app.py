"""The typer application and the one place where errors become messages and exit codes."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
import threading
from typing import Annotated, Any

import typer
import typer._click as click
from typer.core import TyperGroup

from toolcat import __version__
from toolcat.cli.startup import defer_slow_imports
from toolcat.errors import ToolcatError
from toolcat.wording import one_line

defer_slow_imports()  # before a command imports jsonschema

SIGPIPE_STATUS = 141  # 128 + SIGPIPE, what a shell reports for `cat big | head`
# what writing stdout raises when the disk or device fails (`toolcat list > /dev/full`)
OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG})

# Each command: the module and function that hold it, and its line in `toolcat --help`. A
# command's module is imported only when that command runs or shows its own help, so
# `toolcat --help` imports none of them and each command imports only its own.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "list": ("catalog_cmds", "list_tools", "List the tools of the catalog."),
    "show": ("catalog_cmds", "show", "Show one tool's full definition and where it is."),
    "stats": ("catalog_cmds", "stats", "Counts per server, level, kind and tag, and advice."),
    "convert": ("catalog_cmds", "convert", "Write the catalog in another shape."),
    "lint": ("lint_cmds", "lint", "Check a catalog: schemas, names, descriptions, providers."),
    "rules": ("lint_cmds", "rules", "List the lint rules, or explain one."),
    "lock": ("lock_cmds", "lock", "Pin the catalog in toolcat.lock, or check it against it."),
    "diff": ("lock_cmds", "diff", "Show what changed between two catalogs."),
    "search": ("search_cmds", "search", "Search the catalog: regex, keywords, fuzzy."),
    "pick": ("search_cmds", "pick", "Pick the few tools a model should see for a query."),
    "index": ("index_cmds", "index", "Compute a catalog's search index and embeddings once."),
    "resolve": ("resolve_cmds", "resolve", "Replay which tools the model sees under a profile."),
    "render": ("render_cmds", "render", "Render the system prompt or a provider request."),
    "tokens": ("render_cmds", "tokens", "Token cost of every tool definition."),
    "review": ("review_cmds", "review", "Export what models see per request, for review and CI."),
    "check-call": ("render_cmds", "check_call", "Validate the tool calls a model returned."),
    "bench": ("bench_cmds", "bench", "Measure tool-selection accuracy on labeled queries."),
    "tune": ("tune_cmds", "tune", "Fit selection to the queries a catalog really gets."),
    "serve": ("serve_cmds", "serve", "Serve the catalog as an MCP server."),
    "gateway": ("gateway_cmds", "gateway", "Run the context gateway in front of a provider's "
                "API."),
    "import": ("mcp_cmds", "import_app", "Import tools from elsewhere into a toolcat catalog."),
}


def load_command(name: str) -> click.Command:
    """The click command for `name`, built from its module on first use."""
    module, attr, summary = COMMANDS[name]
    found = getattr(importlib.import_module(f"toolcat.cli.{module}"), attr)
    if isinstance(found, typer.Typer):
        return typer.main.get_group(found)
    single = typer.Typer(rich_markup_mode=None, add_completion=False)
    single.command(name, short_help=summary)(found)
    return typer.main.get_command(single)


class ToolcatGroup(TyperGroup):
    """Finds commands in COMMANDS, and maps every ToolcatError to one line on stderr and its
    exit code (2: could not run)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands[cmd_name]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, _, summary) in COMMANDS.items()])

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a failed write shows here, not at interpreter exit
            return result
        except ToolcatError as exc:
            if show_traceback(ctx):
                raise
            typer.echo(f"toolcat: error: {one_line(str(exc))}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except BrokenPipeError:
            # The reader of stdout stopped (`toolcat lint | head`): end quietly, with the
            # status of a program killed by SIGPIPE, not 1, which means "found problems".
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(SIGPIPE_STATUS) from None
        except OSError as exc:
            if exc.errno not in OUTPUT_ERRORS:
                raise
            typer.echo(f"toolcat: error: cannot write the output: {exc.strerror}", err=True)
            raise typer.Exit(2) from None


def show_traceback(ctx: click.Context) -> bool:
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
    from toolcat.cli.output import command_starts

    command_starts()
    ctx.obj = {"traceback": traceback}


def main() -> None:
    for number, argument in enumerate(sys.argv[1:], 1):
        if not argument.isascii() and any("\udc80" <= c <= "\udcff" for c in argument):
            # bytes the shell passed that are not UTF-8 (Python keeps them as surrogates),
            # which no output, message or provider request could hold
            sys.stderr.write(f"toolcat: error: argument {number} is not UTF-8 text\n")
            sys.exit(2)
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        leave(130)
    except SystemExit as done:
        leave(done.code)
    leave(0)


def leave(code: int | str | None) -> None:
    """Exit with `code`; at once, without finalizing the interpreter, while a background
    thread may still run: one inside torch or onnxruntime (toolcat.search.native), or any
    daemon thread still alive (serve's gate and semantic stage, the gateway's warm-up, a
    pick left to finish, a library's own). Finalizing kills such a thread wherever it is,
    and busy() is asked only once: a thread between two sections enters the next a moment
    later, or runs native code no section counts (the gateway warm-up's token count,
    transformers' weight-loading pool); killed inside C++ or Rust, the process aborts
    (SIGABRT) instead of exiting. Nothing of toolcat's needs finalizing: the output is
    flushed here, and a cache entry is written to a temporary file and renamed, so one cut
    short is never read; toolcat's one thread that is no daemon (the query encoder's
    prefetch) only loads. After a Ctrl-C that serve or the gateway took as their stop, it
    exits so too: CPython would kill itself with SIGINT (toolcat.cli.stopping)."""
    native = sys.modules.get("toolcat.search.native")  # not imported: no section ever ran
    stopping = sys.modules.get("toolcat.cli.stopping")
    if isinstance(code, int | None) and ((native is not None and native.busy())
                                         or _daemons_alive()
                                         or (stopping is not None and stopping.interrupted)):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed or broken pipe: nothing to say
                stream.flush()
        os._exit(code or 0)
    sys.exit(code)


def _daemons_alive() -> bool:
    """Whether a daemon thread is still running, which finalizing would kill mid-way."""
    return any(thread.daemon and thread.is_alive() for thread in threading.enumerate()
               if thread is not threading.main_thread())
