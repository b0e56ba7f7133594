"""The requests a review renders: from any query file bench reads, or the example requests
written on the catalog's tools; and the folder each request's files go in."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from toolcat.bench.queries import load_queries
from toolcat.errors import UsageError
from toolcat.model import Catalog, SourceRef

FOLDER_LENGTH = 60  # characters of a request id kept in its folder name
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Request:
    """One user request to review: its id (from the query file), its text, where it was read."""

    id: str
    text: str
    origin: SourceRef | None = None


def from_query_file(path: Path, topics: Path | None = None) -> tuple[Request, ...]:
    """The queries of a file bench reads (JSONL, YAML, JSON, TREC qrels with `topics`).

    Raises:
        ConfigError: the file is unreadable or a record is malformed (with file:line).
    """
    return tuple(Request(q.id, q.text, q.origin) for q in load_queries(path, topics=topics,
                                                                      labeled=False))


def from_examples(catalog: Catalog) -> tuple[Request, ...]:
    """The `example_requests` of the catalog's tools, ids `tool.1`, `tool.2`, ...

    Raises:
        UsageError: no tool has example requests.
    """
    found = tuple(Request(f"{catalog.ident(tool)}.{n}", text, tool.origin)
                  for tool in catalog.tools
                  for n, text in enumerate(tool.example_requests, 1))
    if not found:
        raise UsageError("no requests: give -q FILE (any query file bench reads); the "
                         "catalog's tools have no example_requests")
    return found


def folder_name(key: str) -> str:
    """A folder name for an id or a profile name: letters, digits, `.`, `_` and `-` only, never
    `.` or `..`; a name that had to change (or is long) ends with a short hash of the original,
    so two ids never share a folder."""
    kept = _UNSAFE.sub("-", key).strip(".-")[:FOLDER_LENGTH].strip(".-")
    if kept == key and kept:
        return kept
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    return f"{kept}-{digest}" if kept else f"request-{digest}"


def folder_names(keys: Iterable[str]) -> dict[str, str]:
    """A distinct folder per key (case-insensitive file systems included), in key order."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for key in keys:
        name = folder_name(key)
        if name.lower() in taken:  # `Q1` and `q1` on a case-insensitive disk
            name = f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"
        taken.add(name.lower())
        out[key] = name
    return out
