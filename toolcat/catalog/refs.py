"""`$ref` handling: check every reference of a schema, load referenced files next to the
catalog, and bundle external references into one self-contained schema.

Local references (`#/$defs/...`, `#/definitions/...`, `#anchor`) resolve inside the tool's own
schema, as JSON Schema defines. Relative file references (`common.yaml#/$defs/Address`) resolve
against the directory of the file that holds them. A reference with a URL scheme is remote and
never fetched. A chain of references that comes back to itself without reaching a schema is a
cycle; a recursive schema (a reference to an enclosing schema) is fine.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from toolcat.catalog.positions import escape, unescape
from toolcat.errors import CatalogError

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
    code: str  # remote-ref | unresolved-ref | ref-cycle
    message: str
    pointer: str  # of the object holding the `$ref`, inside the checked schema


@dataclass
class RefChecker:
    """Checks references and keeps every referenced file it read, keyed by file URI."""

    documents: dict[str, Any] = field(default_factory=dict)
    _checked: set[str] = field(default_factory=set)

    def check(self, schema: Any, base_uri: str) -> list[RefProblem]:
        problems = []
        for ref, pointer in iter_refs(schema):
            message = self._check_one(ref, schema, base_uri)
            if message:
                problems.append(RefProblem(message[0], message[1], pointer))
        return problems

    def _check_one(self, ref: str, root: Any, base_uri: str) -> tuple[str, str] | None:
        if is_remote(ref):
            return ("remote-ref", f"remote $ref '{ref}' is never fetched; "
                    "copy the schema next to the catalog or into $defs")
        chain = [ref]
        seen: set[tuple[str, str]] = set()
        document, doc_uri = root, base_uri
        while True:
            target_uri, fragment = urldefrag(urljoin(doc_uri, chain[-1]))
            if target_uri != doc_uri:
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
                for inner in self.check(document, doc_uri):
                    return (inner.code, f"{inner.message} (in {_shown(doc_uri)})")
            nxt = target.get("$ref") if isinstance(target, dict) else None
            if not isinstance(nxt, str) or is_remote(nxt):
                return None
            chain.append(nxt)

    def _document(self, uri: str) -> Any:
        from toolcat.catalog.files import parse_file  # YAML only when a file is referenced

        if uri not in self.documents:
            path = Path(unquote(uri.removeprefix("file://")))
            self.documents[uri] = parse_file(path).data
        return self.documents[uri]


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

    def rewrite(node: Any, doc_uri: str, document: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(v, doc_uri, document) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: rewrite(v, doc_uri, document) for k, v in node.items()}
        ref = node.get("$ref")
        if isinstance(ref, str) and not is_remote(ref):
            target_uri, fragment = urldefrag(urljoin(doc_uri, ref))
            if target_uri != base_uri:
                out["$ref"] = "#/$defs/" + escape(hoist(target_uri, fragment))
        return out

    def hoist(uri: str, fragment: str) -> str:
        key = (uri, fragment)
        if key not in hoisted:
            stem = Path(_shown(uri)).stem
            name = stem + (fragment.replace("/", "_") if fragment else "")
            while name in defs or name in schema.get("$defs", {}):
                name += "_"
            hoisted[key] = name
            defs[name] = {}
            document = documents[uri]
            defs[name] = rewrite(resolve_pointer(document, fragment), uri, document)
        return hoisted[key]

    out = rewrite(schema, base_uri, schema)
    out["$defs"] = {**copy.deepcopy(out.get("$defs", {})), **defs}
    return out
