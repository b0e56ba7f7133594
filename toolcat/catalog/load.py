"""Load catalog files and directories into one Catalog."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import Any

from toolcat.catalog import remembered
from toolcat.catalog.detect import choose_shape, find_tools, skipped_issues
from toolcat.catalog.openapi import WrittenPositions, is_openapi3
from toolcat.catalog.swagger import is_swagger2
from toolcat.catalog.swagger import written_at as swagger_written_at
from toolcat.define.reader import is_python_source, load_python
from toolcat.errors import CatalogError
from toolcat.model import Catalog, LoadIssue, Server, Source, SourceRef, Tool
from toolcat.providers.reading import Fields, ReadContext
from toolcat.providers.types import JSON_TYPES, TypeNames
from toolcat.source.checked import bytes_digest
from toolcat.source.files import (
    CATALOG_SUFFIXES,
    ParsedFile,
    decode_text,
    parse_file,
    read_bytes,
)
from toolcat.source.positions import JsonIndex, LaterIndex, PositionIndex, unescape
from toolcat.source.refs import RefChecker, base_uri_for, iter_refs, uri_path

IGNORED_FILES = frozenset({"toolcat.yaml", "toolcat.yml", "toolcat.lock"})


def expand_sources(sources: Iterable[str | Path]) -> list[Path]:
    """Files as given; a directory means every catalog file directly inside it.

    A `.py` file or a Python module name is passed through as it is (see `load_catalog`).
    """
    paths: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir()
                if p.is_file() and p.suffix.lower() in CATALOG_SUFFIXES
                and p.name not in IGNORED_FILES
            )
            if not found:
                raise CatalogError("directory holds no .yaml, .yml or .json files",
                                   where=SourceRef(str(path)))
            paths.extend(found)
        else:
            paths.append(path)
    return paths


def load_catalog(
    sources: str | Path | Sequence[str | Path],
    *,
    shape: str | None = None,
    lenient: bool = False,
    default_source: Source = "custom",
    ref_roots: Sequence[str | Path] = (),
) -> Catalog:
    """Load and merge catalog files and Python modules.

    A `.py` file, or a dotted module name that is not a file (`my_agent.tools`), is imported
    and its `@toolcat.tool` definitions join the catalog (see toolcat.define.reader).

    `shape` forces one shape for every file instead of detecting it. With `lenient`, problems
    that still leave a usable catalog (a duplicated name, a bad `$ref`) are kept in
    `Catalog.issues` for lint to report; otherwise the first one raises a CatalogError.
    A file `$ref` may reach only the folder tree of its catalog file and the `ref_roots`
    (toolcat.yaml's `refs: {roots: [...]}`); see toolcat.source.refs.

    Raises:
        CatalogError: a file is missing, malformed, of no known shape, or (unless lenient)
            inconsistent.
    """
    if isinstance(sources, (str, Path)):
        sources = [sources]
    loader = _Loader(shape=shape, default_source=default_source,
                     ref_roots=tuple(Path(root).resolve() for root in ref_roots))
    with _collector_paused():
        for path in expand_sources(sources):
            if is_python_source(path):
                loader.merge(load_python(path))
            else:
                loader.add_file(path)
        return loader.finish(lenient=lenient)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Reading makes millions of objects and no reference cycles: the cycle collector would
    walk them all again and again (it took 40% of loading 43,000 tools)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Loader:
    def __init__(self, *, shape: str | None, default_source: Source,
                 ref_roots: tuple[Path, ...] = ()) -> None:
        self.shape = shape
        self.default_source = default_source
        self.tools: list[Tool] = []
        self.servers: dict[str, Server] = {}
        self.sources: list[str] = []
        self.issues: list[LoadIssue] = []
        self.positions: dict[str, PositionIndex] = {}
        self.digests: dict[str, str] = {}
        self.refs = RefChecker(roots=ref_roots)

    def add_file(self, path: Path) -> None:
        """Read one catalog file, or recall what reading it gave (catalog.remembered)."""
        raw = read_bytes(path)
        shown = str(path)
        # the digest of the text, taken from the bytes: a remembered file is never decoded
        # unless a position in it is asked for
        digest = self.digests[shown] = bytes_digest(raw)
        entry = remembered.key(raw, digest, shown, self.shape, self.default_source)
        if entry is None:
            self.add(parse_file(path, decode_text(raw, shown), digest))
            return
        text: list[str] = []

        def decoded() -> str:
            if not text:
                text.append(decode_text(raw, shown))
            return text[0]

        # made when a tool's line is first asked for, by then from what `found` says
        index = LaterIndex(lambda: JsonIndex(decoded(), found.offsets)
                           if found and found.strict_json
                           else parse_file(path, decoded(), digest).index)
        found = remembered.recall(entry, shown, raw, index.locate)
        if found is not None and self._recalled(found, shown):
            # an OpenAPI tool's text is found in the document only when asked for
            self.positions[shown] = WrittenPositions(
                index, cache(lambda: parse_file(path, decoded(), digest).data))
            return
        tools, issues = len(self.tools), len(self.issues)
        checked = set(self.refs.checked)
        self.refs.reached.clear()
        parsed = parse_file(path, decoded(), digest)
        declared = self.add(parsed)
        reached = None
        if self.refs.reached:
            reached = self._reached(shown, checked)
            if reached is None:
                return
        remembered.remember(entry, shown, lambda: remembered.FileRead(
            tuple(self.tools[tools:]), tuple(declared), tuple(self.issues[issues:]),
            strict_json=parsed.type_names is not None, reached=reached),
            parsed.index.offset if isinstance(parsed.index, JsonIndex) else None)

    def _recalled(self, found: remembered.FileRead, shown: str) -> bool:
        """Take what reading `shown` gave, unless the files its `$ref`s reached changed."""
        reached = found.reached
        if reached is not None:
            if not remembered.still_holds(reached, base_uri_for(shown), self.refs.roots,
                                          self.refs.checked):
                return False
            for uri, _, _, loaded in reached.files:
                if loaded and uri not in self.refs.documents:
                    path = uri_path(uri)
                    try:
                        if path is None:
                            return False
                        self.refs.documents[uri] = parse_file(path).data
                    except CatalogError:  # changed since it was looked at: read the file
                        return False
            self.refs.checked.update(reached.checked)
        self.sources.append(shown)
        self.tools += found.tools
        self.issues += found.issues
        for server in found.servers:
            self.servers.setdefault(server.name, server)
        return True

    def _reached(self, shown: str, checked_before: set[str]) -> remembered.Reached | None:
        """What the `$ref`s of the file just read reached in other files, or None when it
        cannot be remembered: a file it reached had its references checked already in this
        load, so this file's reading left their problems out."""
        if checked_before.intersection(self.refs.reached):
            return None
        files = []
        for uri in sorted(self.refs.reached):
            real, digest = remembered.snapshot(uri)
            files.append((uri, real, digest, uri in self.refs.documents))
        return remembered.Reached(
            base_uri_for(shown), tuple(str(r) for r in self.refs.roots), tuple(files),
            tuple(sorted(self.refs.checked - checked_before)))

    def add(self, parsed: ParsedFile) -> list[Server]:
        """Read the tools of a parsed file; the servers it declares."""
        file = parsed.path
        self.sources.append(file)
        found = find_tools(parsed.data, file, parsed.index)
        self.positions[file] = parsed.index
        if isinstance(parsed.data, dict) and is_openapi3(parsed.data):
            self.positions[file] = WrittenPositions(parsed.index, lambda: parsed.data)
        elif isinstance(parsed.data, dict) and is_swagger2(parsed.data):
            self.positions[file] = WrittenPositions(parsed.index, lambda: parsed.data,
                                                    swagger_written_at)
        provider = choose_shape(found, self.shape)
        declared = [self._server(item, pointer, parsed) for item, pointer in found.servers]
        default_server = (found.server_name or (declared[0].name if len(declared) == 1 else "")
                          or Path(file).stem)
        self.issues += skipped_issues(found, file, parsed.index)
        base_uri = base_uri_for(file)
        typed = TypeNames()
        foreign = parsed.type_names is None or not parsed.type_names <= JSON_TYPES
        source = self.default_source if found.source is None else found.source
        for item, pointer in found.items:
            server = found.item_servers.get(pointer, default_server) if found.item_servers \
                else default_server
            # a file without foreign type names has nothing mapped: no count per tool
            ctx = ReadContext(file, pointer, parsed.index, server, source,
                              foreign_types=True, examples=parsed.has_examples) if foreign \
                else ReadContext(file, pointer, parsed.index, server, source, _NONE_MAPPED,
                                 foreign_types=False, examples=parsed.has_examples)
            if not isinstance(item, dict):
                raise ctx.fail("each tool must be a mapping with at least a name")
            tool = provider.read_tool(item, ctx)
            self.tools.append(tool)
            if ctx.mapped_types:  # the schema as written, to point at its first mapped type
                typed.add(tool, ctx, _written_schema(item, tool, pointer))
            if not parsed.has_refs:
                continue
            schema = _own_part(tool.parameters) if found.shared else tool.parameters
            self._check_refs(schema, base_uri, tool.schema_pointer or "", parsed)
        if found.shared and parsed.has_refs:
            # the component schemas the tools share, checked once, found where they are written
            self._check_refs({"$defs": found.shared}, base_uri, "", parsed,
                             moved=("/$defs", "/components/schemas"))
        self.issues += typed.issues()
        return declared

    def _check_refs(self, schema: Any, base_uri: str, at: str, parsed: ParsedFile,
                    moved: tuple[str, str] = ("", "")) -> None:
        for problem in self.refs.check(schema, base_uri):
            pointer = at + moved[1] + problem.pointer.removeprefix(moved[0])
            line, column = parsed.index.locate(f"{pointer}/$ref#key")  # the `$ref` itself
            where = SourceRef(parsed.path, line, column, pointer)
            self.issues.append(LoadIssue(problem.code, problem.message, where))

    def merge(self, part: Catalog) -> None:
        """Add the tools of a catalog read elsewhere (a Python module)."""
        self.tools += part.tools
        self.sources += part.sources
        self.issues += part.issues
        self.positions.update(part.positions)
        self.digests.update(part.digests)
        self.refs.documents.update(part.documents)
        for server in part.servers:
            self.servers.setdefault(server.name, server)

    def _server(self, item: Any, pointer: str, parsed: ParsedFile) -> Server:
        ctx = ReadContext(parsed.path, pointer, parsed.index)
        if not isinstance(item, dict):
            raise ctx.fail("each server must be a mapping with a name")
        fields = Fields(item, ctx)
        name = fields.text("name")
        if not name:
            raise ctx.fail("server has no name")
        server = Server(
            name=name,
            description=fields.text("description"),
            enabled=bool(fields.flag("enabled", True)),
            origin=ctx.ref(),
            extra=fields.rest({"name", "description", "enabled"}),
        )
        self.servers.setdefault(name, server)
        return server

    def finish(self, *, lenient: bool) -> Catalog:
        self.issues += _duplicates(self.tools)
        errors = [issue for issue in self.issues if issue.severity == "error"]
        if errors and not lenient:
            first = errors[0]
            raise CatalogError(first.message, where=first.where)
        implied = [server for server in dict.fromkeys(map(_SERVER_OF, self.tools))
                   if server and server not in self.servers]  # in order, each once
        self.servers.update(zip(implied, Server.named(implied), strict=True))
        return Catalog(
            tools=tuple(self.tools),
            servers=tuple(self.servers.values()),
            sources=tuple(self.sources),
            issues=tuple(self.issues),
            documents=dict(self.refs.documents),
            positions=dict(self.positions),
            digests=dict(self.digests),
        )


_SERVER_OF = attrgetter("server")
_NONE_MAPPED: Counter[str] = Counter()  # read only: ReadContext maps nothing without foreign_types
_KEY_OF = attrgetter("server", "name")


def _duplicates(tools: list[Tool]) -> list[LoadIssue]:
    if len(set(map(_KEY_OF, tools))) == len(tools):  # the usual case, without a Python loop
        return []
    first: dict[tuple[str, str], Tool] = {}
    issues = []
    for tool in tools:
        key = (tool.server, tool.name)
        if key in first:
            issues.append(LoadIssue(
                "duplicate-name",
                f"tool '{tool.name}' is defined twice on server '{tool.server}': "
                f"here and at {first[key].origin}",
                tool.origin,
            ))
        else:
            first[key] = tool
    return issues


def _own_part(schema: Any) -> Any:
    """An OpenAPI tool's schema without the shared component schemas of its `$defs` (checked
    once for all tools), each one it names left as an empty stand-in so its references resolve."""
    if not isinstance(schema, dict) or not isinstance(schema.get("$defs"), dict):
        return schema
    own = {k: v for k, v in schema.items() if k != "$defs"}
    named = {ref.removeprefix("#/$defs/") for ref, _ in iter_refs(own)}
    own["$defs"] = {k: {} for k in sorted(named) if k in schema["$defs"]}
    return own


def _written_schema(item: Any, tool: Tool, pointer: str) -> Any:
    """The parameters schema as the entry `item` (at `pointer`) has it."""
    if tool.schema_pointer is None or not tool.schema_pointer.startswith(pointer):
        return None
    node: Any = item
    for token in tool.schema_pointer[len(pointer):].split("/")[1:]:
        if not isinstance(node, dict):
            return None
        node = node.get(unescape(token))
    return node
