"""`$ref` handling: check every reference of a schema, load referenced files next to the
catalog, and bundle external references into one self-contained schema.

Local references (`#/$defs/...`, `#/definitions/...`, `#anchor`) resolve inside the tool's own
schema, as JSON Schema defines. Relative file references (`common.yaml#/$defs/Address`) resolve
against the directory of the file that holds them. A reference with a URL scheme is remote and
never fetched. A chain of references that comes back to itself without reaching a schema is a
cycle; a recursive schema (a reference to an enclosing schema) is fine.

A file reference is confined: it must land, symlinks resolved, inside the folder tree of the
catalog file the tool came from, or inside one of the extra roots the project allows
(`refs: {roots: [...]}` in toolcat.yaml). Anything else is refused before the file is opened
or even looked at, so a catalog cannot copy `~/.ssh/id_rsa` or a `.env` into a payload.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from toolcat.errors import CatalogError
from toolcat.source.positions import escape, unescape
from toolcat.urls import split_url

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_MISSING = object()


def is_remote(ref: str) -> bool:
    """A reference with a URL scheme (http, https, file, urn, ...) points off this machine."""
    return bool(_SCHEME.match(ref))


def iter_refs(schema: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """Every `$ref` string in a schema, with the JSON pointer of the object holding it."""
    stack = [(schema, pointer)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield ref, at
            stack.extend((v, f"{at}/{escape(str(k))}") for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, f"{at}/{i}") for i, v in reversed(list(enumerate(node))))


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The node at a URI fragment (a JSON pointer or a `$anchor` name), or _MISSING."""
    fragment = unquote(fragment)
    if fragment and not fragment.startswith("/"):
        return _find_anchor(document, fragment)
    node = document
    for token in fragment.split("/")[1:]:
        token = unescape(token)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _MISSING
    return node


def _find_anchor(document: Any, name: str) -> Any:
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("$anchor") == name:
                return node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return _MISSING


@dataclass(frozen=True)
class RefProblem:
    code: str  # remote-ref | unresolved-ref | ref-outside | ref-cycle
    message: str
    pointer: str  # of the object holding the `$ref`, inside the checked schema


@dataclass
class RefChecker:
    """Checks references and keeps every referenced file it read, keyed by file URI.

    `roots` are folders (absolute, symlinks resolved) that file references may reach besides
    the folder tree of the catalog file holding the schema.
    """

    documents: dict[str, Any] = field(default_factory=dict)
    roots: tuple[Path, ...] = ()
    _checked: set[str] = field(default_factory=set)
    # every other file a reference led to (read, refused or missing): what a read depends on
    reached: set[str] = field(default_factory=set)

    @property
    def checked(self) -> set[str]:
        """Documents whose own references were checked already (each is checked once)."""
        return self._checked

    def check(self, schema: Any, base_uri: str, home: Path | None = None) -> list[RefProblem]:
        """Problems of every `$ref` in `schema`, read from the file at `base_uri`; `home` is
        the folder of the catalog file (the folder of `base_uri` when not given)."""
        if home is None:
            home = uri_path(base_uri)
            home = home.parent if home is not None else Path.cwd()
        problems = []
        for ref, pointer in iter_refs(schema):
            message = self._check_one(ref, schema, base_uri, home)
            if message:
                problems.append(RefProblem(message[0], message[1], pointer))
        loop = in_place_loop(schema)
        if loop is not None and not problems:
            holder = next(p for p in reversed(loop[:-1])
                          if isinstance(resolve_pointer(schema, p), dict)
                          and "$ref" in resolve_pointer(schema, p)) if len(loop) > 1 else ""
            problems.append(RefProblem(
                "ref-cycle", "$ref loop: the schema applies itself to the same value without "
                "descending into it (" + " -> ".join("#" + p for p in loop) + "), so no "
                "validator can finish", holder))
        return problems

    def _check_one(self, ref: str, root: Any, base_uri: str,
                   home: Path) -> tuple[str, str] | None:
        if is_remote(ref):
            return ("remote-ref", f"remote $ref '{ref}' is never fetched; "
                    "copy the schema next to the catalog or into $defs")
        chain = [ref]
        seen: set[tuple[str, str]] = set()
        document, doc_uri = root, base_uri
        while True:
            target_uri, fragment = urldefrag(urljoin(doc_uri, chain[-1]))
            if target_uri != doc_uri:
                self.reached.add(target_uri)
                refused = self._outside(target_uri, home)
                if refused:
                    return ("ref-outside", f"$ref '{chain[-1]}' {refused}: not read "
                            "(toolcat.yaml can allow a folder: refs: {roots: [...]})")
                try:
                    document = self._document(target_uri)
                except CatalogError as exc:
                    return ("unresolved-ref", f"$ref '{ref}' cannot be read: {exc}")
                doc_uri = target_uri
            key = (doc_uri, fragment)
            if key in seen:
                return ("ref-cycle", "$ref cycle: " + " -> ".join(chain))
            seen.add(key)
            target = resolve_pointer(document, fragment)
            if target is _MISSING:
                where = "" if chain[-1].startswith("#") else f" in {_shown(doc_uri)}"
                return ("unresolved-ref", f"$ref '{chain[-1]}' points nowhere{where}")
            if doc_uri != base_uri and doc_uri not in self._checked:
                self._checked.add(doc_uri)
                for inner in self.check(document, doc_uri, home):
                    return (inner.code, f"{inner.message} (in {_shown(doc_uri)})")
            nxt = target.get("$ref") if isinstance(target, dict) else None
            if not isinstance(nxt, str) or is_remote(nxt):
                return None
            chain.append(nxt)

    def _outside(self, uri: str, home: Path) -> str | None:
        """Why the file at `uri` may not be read, or None when it lies inside an allowed root.

        Decided on the path alone (symlinks resolved), before the file is opened."""
        path = uri_path(uri)
        if path is None:
            return "names another host"
        try:
            real = path.resolve()
        except (OSError, RuntimeError):  # a symlink loop
            return "cannot be resolved"
        if any(real.is_relative_to(folder) for folder in (home.resolve(), *self.roots)):
            return None
        return f"resolves to {real}, outside the catalog's folder {home}"

    def _document(self, uri: str) -> Any:
        from toolcat.source.files import parse_file  # YAML only when a file is referenced

        if uri not in self.documents:
            path = uri_path(uri)
            if path is None:
                raise CatalogError(f"not a local file: {uri}")
            self.documents[uri] = parse_file(path).data
        return self.documents[uri]


def uri_path(uri: str) -> Path | None:
    """The local path of a `file:` URI, or None when it names another host or scheme."""
    parts = split_url(uri)
    if parts is None or parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return Path(unquote(parts.path))


# keywords that apply their subschemas to the same value (not to a property or an item of it)
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MAPS = ("dependentSchemas", "dependencies")


def in_place_loop(schema: Any) -> list[str] | None:
    """A chain of JSON pointers through local `$ref`s and in-place applicators (allOf, anyOf,
    not, if, ...) that leads from a subschema back to itself, or None.

    Such a schema makes a validator recurse forever on any value: it never moves on to a
    property or an item. A recursive schema that descends (`properties: {child: {$ref: "#"}}`)
    is fine. Found with a depth-first search without recursion, linear in the schema."""
    if not isinstance(schema, dict) or not any(True for _ in iter_refs(schema)):
        return None
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for start, _ in _subschemas(schema):
        if start in state:
            continue
        path = [start]
        stack = [iter(_in_place(schema, start))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(_in_place(schema, nxt)))
    return None


def _subschemas(schema: Any) -> Iterator[tuple[str, Any]]:
    stack = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            yield pointer, node
            stack.extend((f"{pointer}/{escape(str(k))}", v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((f"{pointer}/{i}", v) for i, v in enumerate(node))


def _in_place(schema: Any, pointer: str) -> Iterator[str]:
    node = resolve_pointer(schema, pointer) if pointer else schema
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
        target = "/".join(escape(unescape(t)) for t in unquote(ref[1:]).split("/"))
        yield target
    for key in _IN_PLACE_LISTS:
        if isinstance(node.get(key), list):
            yield from (f"{pointer}/{key}/{i}" for i in range(len(node[key])))
    for key in _IN_PLACE_ONE:
        if isinstance(node.get(key), dict):
            yield f"{pointer}/{key}"
    for key in _IN_PLACE_MAPS:
        if isinstance(node.get(key), dict):
            yield from (f"{pointer}/{key}/{escape(str(k))}" for k in node[key])


def _shown(uri: str) -> str:
    return unquote(uri.removeprefix("file://"))


def base_uri_for(file: str) -> str:
    """The base URI that relative references in a schema read from `file` resolve against."""
    return Path(file).resolve().as_uri()


def bundle(schema: Any, base_uri: str, documents: Mapping[str, Any]) -> Any:
    """A copy of `schema` whose references into other files are moved into its `$defs`.

    Local references stay as they are. The canonical schema is never modified; when there is
    nothing to bundle, the schema itself is returned.
    """
    if not isinstance(schema, dict) or not any(
        not ref.startswith("#") and not is_remote(ref) for ref, _ in iter_refs(schema)
    ):
        return schema
    hoisted: dict[tuple[str, str], str] = {}
    defs: dict[str, Any] = {}
    pending: list[tuple[str, str, str]] = []  # (def name, file URI, fragment) to copy

    def retarget(doc_uri: str) -> Callable[[dict[str, Any], dict[str, Any]], None]:
        def fix(node: dict[str, Any], out: dict[str, Any]) -> None:
            ref = node.get("$ref")
            if isinstance(ref, str) and not is_remote(ref):
                target_uri, fragment = urldefrag(urljoin(doc_uri, ref))
                if target_uri != base_uri and target_uri in documents:
                    out["$ref"] = "#/$defs/" + escape(hoist(target_uri, fragment))
        return fix

    def hoist(uri: str, fragment: str) -> str:
        key = (uri, fragment)
        if key not in hoisted:
            stem = Path(_shown(uri)).stem
            name = stem + (fragment.replace("/", "_") if fragment else "")
            while name in defs or name in schema.get("$defs", {}):
                name += "_"
            hoisted[key] = name
            defs[name] = {}
            pending.append((name, uri, fragment))
        return hoisted[key]

    out = copy_json(schema, retarget(base_uri))
    while pending:  # a queue, not recursion: chains of references may be long
        name, uri, fragment = pending.pop()
        target = resolve_pointer(documents[uri], fragment)
        defs[name] = {} if target is _MISSING else copy_json(target, retarget(uri))
    out["$defs"] = {**out.get("$defs", {}), **defs}  # `out` is a copy already
    return out


def copy_json(value: Any, fix: Callable[[dict[str, Any], dict[str, Any]], None]) -> Any:
    """A deep copy of a JSON value, made without recursion; `fix(original, copy)` is called on
    every object once its scalar members are copied, and may change them."""
    box: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, box, 0)]
    while stack:
        item, parent, key = stack.pop()
        if isinstance(item, dict):
            out: dict[str, Any] = {}
            parent[key] = out
            for k, v in item.items():
                out[k] = v
                if isinstance(v, (dict, list)):
                    stack.append((v, out, k))
            fix(item, out)
        elif isinstance(item, list):
            parent[key] = copied = list(item)
            stack.extend((v, copied, i) for i, v in enumerate(item) if isinstance(v, (dict, list)))
        else:
            parent[key] = item
    return box[0]
