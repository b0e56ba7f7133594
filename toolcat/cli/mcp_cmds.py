"""`toolcat import mcp`: ask live MCP servers for their tools and write them as a catalog."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from toolcat.cli.options import JsonOpt, OutputOpt

if TYPE_CHECKING:
    from toolcat.errors import ConfigError
    from toolcat.mcp.client import Listing
    from toolcat.mcp.servers import ServerSpec
    from toolcat.model import Catalog

# The SDK and the core are imported inside the command, so `toolcat --help` stays fast.

T = TypeVar("T")

import_app = typer.Typer(
    name="import",
    help="Import tools from elsewhere into a toolcat catalog.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@import_app.command("mcp")
def import_mcp(
    command: Annotated[
        list[str] | None,
        typer.Argument(help="After --: the command that starts a stdio server, and its "
                       "arguments.", show_default=False),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option("--url", help="A streamable HTTP server's endpoint, e.g. "
                     "http://127.0.0.1:8000/mcp.", show_default=False),
    ] = None,
    header: Annotated[
        list[str] | None,
        typer.Option("--header", "-H", help="With --url: an HTTP header 'Name: value' "
                     "(repeatable).", show_default=False),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="A client configuration (mcpServers layout, e.g. "
                     "claude_desktop_config.json): import every server it lists.",
                     show_default=False),
    ] = None,
    server: Annotated[
        list[str] | None,
        typer.Option("--server", "-s", help="With --config: only these servers "
                     "(repeatable).", show_default=False),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="The server's name in the catalog (default: the name "
                     "it reports).", show_default=False),
    ] = None,
    output: OutputOpt = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds for the whole import: starting the servers, "
                     "listing their tools, stopping them and writing the catalog."),
    ] = 30.0,
    json_: JsonOpt = False,
) -> None:
    """Import the tools of live MCP servers as a toolcat catalog (YAML; JSON for -o *.json).

    toolcat import mcp -- npx -y @modelcontextprotocol/server-filesystem /tmp

    toolcat import mcp --url http://127.0.0.1:8000/mcp -o catalogs/remote.yaml

    toolcat import mcp --config claude_desktop_config.json
    """
    started = time.monotonic()  # --timeout covers everything from here, writing included
    from toolcat.catalog.convert import convert, to_text
    from toolcat.cli.output import check_output, warn, write_output
    from toolcat.errors import ServerError, ToolcatError, UsageError
    from toolcat.mcp.client import list_some_servers
    from toolcat.mcp.importer import readable_catalog
    from toolcat.wording import plural

    if timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    deadline = started + timeout
    broken: list[tuple[str, ConfigError]] = []  # malformed entries of --config
    specs = _specs(command, url, header, config, server, name, broken)
    protect = [config] if config else []
    if output is not None:
        check_output(output, protect=protect)  # before any server is started
    listings, failed_specs = list_some_servers(specs, timeout=timeout, deadline=deadline) \
        if specs else ([], [])
    count = plural(sum(len(listing.tools) for listing in listings), "tool")
    catalog, listings, refused = within(deadline, timeout,
                                        lambda: readable_catalog(listings), f"reading {count}")
    failed_specs += [(listing.spec, error) for listing, error in refused]
    failures: list[ToolcatError] = [error for _, error in broken]
    failures += [failure for _, failure in failed_specs]
    if listings and not any(listing.tools for listing in listings):
        # nothing to import: an empty catalog written with exit 0 would pass for a success
        failures += [ServerError(_lists_none(listing.name)) for listing in listings]
        listings = []
    if failures and (len(specs) + len(broken) == 1 or not listings):
        if len(failures) == 1:
            raise failures[0]
        raise ServerError(f"{len(failures)} of {len(specs) + len(broken)} servers failed: "
                          + "; ".join(str(f) for f in failures))
    as_yaml = output is None or output.suffix.lower() != ".json"
    needs_text = output is not None or not json_  # --json alone prints the catalog as JSON

    def catalog_text() -> tuple[Any, str]:
        payload = convert(catalog.tools, "toolcat", catalog.servers).payload
        return payload, to_text(payload, as_yaml=as_yaml) if needs_text else ""

    count = plural(len(catalog.tools), "tool")
    payload, text = within(deadline, timeout, catalog_text, f"writing {count}")
    for listing in listings:
        if not listing.tools:
            warn(f"MCP server '{listing.name}' lists no tools")
    if output is not None:
        write_output(output, text, protect=protect)
    failed = [{"name": name, "error": str(error)} for name, error in broken]
    failed += [{"name": spec.label, "error": str(failure)} for spec, failure in failed_specs]
    _say_imported(listings, catalog, payload, text, output, json_, failed)
    for failure in failures:
        typer.echo(f"toolcat: error: {failure}", err=True)
    if failures:
        # the servers that answered are imported; the broken ones are named, and exit 1 says
        # that the command ran and found problems
        raise typer.Exit(1)


def _lists_none(name: str) -> str:
    return (f"MCP server '{name}' lists no tools, so there is nothing to import (a server that "
            "takes its tool list from its service lists none until it reaches it: check the "
            "address and credentials in its settings)")


def _say_imported(listings: Sequence[Listing], catalog: Catalog, payload: Any,
                  text: str, output: Path | None, json_: bool,
                  failed: list[dict[str, str]]) -> None:
    """What `import mcp` prints once the catalog is made: with --json, each server's count
    and the failures (and the catalog itself when not written to a file); else the catalog
    text, or where it went, and a one-line count per server."""
    from toolcat.cli.output import note, print_json, say_written
    from toolcat.wording import plural

    summary = [{"name": listing.name, "transport": listing.spec.transport,
                "tools": len(listing.tools), "server_info": dict(listing.info)}
               for listing in listings]
    if json_:
        data = {"servers": summary, "tools": len(catalog.tools),
                "output": str(output) if output else None, "failed": failed}
        print_json(data if output else {**data, "catalog": payload})
        return
    counts = ", ".join(f"{s['tools']:,} from {s['name']}" for s in summary)
    done = f"imported {plural(len(catalog.tools), 'tool')} ({counts})"
    if output is None:
        typer.echo(text, nl=False)
        note(done)
    else:
        say_written(f"{done} to {output}")


def within(deadline: float, timeout: float, work: Callable[[], T], what: str) -> T:
    """`work()`, or an error at `deadline` if it has not finished by then: --timeout is a
    deadline for the whole command. The work runs in a daemon thread, abandoned on time-out
    (it only builds text; nothing is written until it is done)."""
    import threading

    from toolcat.errors import ToolcatError

    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # handed over to the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=run, name="toolcat-write", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()))
    if failure:
        raise failure[0]
    if not result:
        raise ToolcatError(f"--timeout {timeout:g} s ran out while {what}; nothing was "
                           "written (give a longer --timeout)")
    return result[0]


def _specs(command: list[str] | None, url: str | None, header: list[str] | None,
           config: Path | None, server: list[str] | None, name: str | None,
           broken: list[tuple[str, ConfigError]]) -> list[ServerSpec]:
    """The servers the options name; exactly one way of naming them. The malformed entries
    of a --config file are added to `broken`, to fail alone."""
    from toolcat.errors import ConfigError, UsageError
    from toolcat.mcp.servers import http_spec, read_client_config, stdio_spec
    from toolcat.model import SourceRef

    given = [flag for flag, value in (("-- COMMAND", command), ("--url", url),
                                      ("--config", config)) if value]
    if len(given) != 1:
        raise UsageError("say which server(s) to import: -- COMMAND ARGS..., --url URL or "
                         "--config FILE" + (f" (got {' and '.join(given)})" if given else ""))
    if header and not url:
        raise UsageError("--header only applies to --url")
    if server and not config:
        raise UsageError("--server only applies to --config")
    if name is not None and config:
        raise UsageError("--name does not apply to --config; servers keep their names there")
    if command:
        return [stdio_spec(command, name=name or "")]
    if url:
        return [http_spec(url, name=name or "", headers=_headers(header or []))]
    assert config is not None
    specs = read_client_config(config, broken=broken)
    if server:
        known = [spec.name for spec in specs] + [entry for entry, _ in broken]
        unknown = [s for s in server if s not in known]
        if unknown:
            raise UsageError(f"no server {', '.join(map(repr, unknown))} in {config}; "
                             f"it lists: {', '.join(known) or 'none'}")
        specs = [spec for spec in specs if spec.name in server]
        broken[:] = [(entry, error) for entry, error in broken if entry in server]
    if not specs and not broken:
        raise ConfigError("lists no enabled servers", where=SourceRef(str(config)))
    return specs


def _headers(values: list[str]) -> dict[str, str]:
    from toolcat.errors import UsageError

    headers = {}
    for value in values:
        key, sep, text = value.partition(":")
        if not sep or not key.strip():
            raise UsageError(f"--header '{value}' is not 'Name: value'")
        headers[key.strip()] = text.strip()
    return headers
