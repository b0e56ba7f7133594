"""Labeled query sets: read them from JSONL, YAML, JSON or TREC files, check their labels.

One query a record, `{id, query, relevant: [names], relevant_groups: [[names]], category}`.
A query needs one tool of each group: a name in `relevant` is a group of one, and any member of
a `relevant_groups` entry satisfies that group. A query with no group is one no tool fits.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolcat.errors import CatalogError, ConfigError, UsageError
from toolcat.model import Catalog, SourceRef
from toolcat.source.fields import FieldReader
from toolcat.source.files import (
    STDIN_PATH,
    parse_file,
    parse_json_lines,
    read_bytes,
    read_text,
)
from toolcat.source.positions import join

JSONL_SUFFIXES = (".jsonl", ".ndjson")
STRUCTURED_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass(frozen=True)
class LabeledQuery:
    """One request and the tools that serve it: one member of each group is needed."""

    id: str
    text: str
    groups: tuple[tuple[str, ...], ...] = ()
    category: str | None = None
    origin: SourceRef | None = None

    @property
    def relevant(self) -> tuple[str, ...]:
        """Every labeled tool name, in the order written."""
        return tuple(name for group in self.groups for name in group)

    @property
    def needs_tool(self) -> bool:
        return bool(self.groups)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "query": self.text, "relevant": list(self.relevant),
                "groups": [list(g) for g in self.groups], "category": self.category}


@dataclass(frozen=True)
class QuerySet:
    """The labeled queries of one file, in file order."""

    queries: tuple[LabeledQuery, ...]
    source: str

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[LabeledQuery]:
        return iter(self.queries)

    @property
    def has_categories(self) -> bool:
        return any(q.category is not None for q in self.queries)

    def fingerprint(self) -> str:
        """A short hash of ids, texts and labels: equal sets have equal fingerprints."""
        data = json.dumps([[q.id, q.text, q.groups] for q in self.queries],
                          separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return hashlib.sha256(data.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class UnknownLabel:
    """A label that names no tool of the catalog, and where it was written."""

    name: str
    query_id: str
    where: SourceRef | None

    def __str__(self) -> str:
        if self.where is not None and self.where.line:
            return f"{self.name} (line {self.where.line})"
        return f"{self.name} (query {self.query_id})"


def load_queries(path: str | Path, *, topics: str | Path | None = None,
                 labeled: bool = True) -> QuerySet:
    """Read a query set: JSONL, YAML or JSON by suffix, JSONL from standard input; any other
    file is TREC qrels, whose query texts come from `topics` (TSV `id<TAB>text`, or TREC
    `<top>` blocks). With `labeled=False` (requests to look at, not to score) a record may
    leave out `relevant`.

    Raises:
        ConfigError: the file is unreadable or a record is malformed (with file:line).
        UsageError: `topics` given with a non-qrels file, or missing for a qrels file.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if path == STDIN_PATH and topics is None:  # `-q -`: JSON Lines, the one shape a pipe carries
        suffix = ".jsonl"
    if path != STDIN_PATH and (path.is_dir() or not path.exists()):
        read_bytes(path)  # a folder, a missing file: said as for any file, not as qrels
    is_qrels = suffix not in JSONL_SUFFIXES + STRUCTURED_SUFFIXES
    if topics is not None and not is_qrels:
        raise UsageError(f"--topics goes with a TREC qrels file; {path} is {suffix[1:]}")
    if is_qrels:
        if topics is None:
            raise UsageError(f"{path} is read as TREC qrels, which need --topics FILE with "
                             "the query texts (query sets otherwise end in .jsonl, .yaml "
                             "or .json)")
        return _from_trec(path, Path(topics))
    records = _jsonl_records(path) if suffix in JSONL_SUFFIXES else _structured_records(path)
    return _build(records, str(path), labeled)


Record = tuple[Any, FieldReader, str]  # a record, the reader of its file, its pointer


def _jsonl_records(path: Path) -> Iterator[Record]:
    text = read_text(path)
    if not text.strip():
        return
    try:
        parsed = parse_json_lines(text, str(path))  # strict, with limits, as catalogs are read
    except CatalogError as exc:
        raise ConfigError(exc.message, where=exc.where) from None
    read = FieldReader(parsed.path, parsed.index, document="the query set")
    for i, item in enumerate(parsed.data):
        yield item, read, f"/{i}"


def _structured_records(path: Path) -> Iterator[Record]:
    if path.suffix.lower() == ".json" and looks_like_jsonl(read_text(path)):
        yield from _jsonl_records(path)
        return
    parsed = parse_file(path)
    read = FieldReader(parsed.path, parsed.index, document="the query set")
    data, pointer = parsed.data, ""
    if isinstance(data, Mapping) and "queries" in data:
        data, pointer = data["queries"], "/queries"
    if not isinstance(data, list):
        raise read.error(pointer, "a query set is a list of queries (or a mapping with "
                         "'queries:')")
    for i, item in enumerate(data):
        yield item, read, f"{pointer}/{i}"


def looks_like_jsonl(text: str) -> bool:
    """Whether a `.json` file is really JSON Lines: two lines, each an object."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines[:2])


def _build(records: Iterator[Record], source: str, labeled: bool = True) -> QuerySet:
    queries: list[LabeledQuery] = []
    seen: dict[str, SourceRef | None] = {}
    for item, read, at in records:
        query = _parse_record(item, read, at, labeled)
        if query.id in seen:
            raise read.error(join(at, "id"), f"query id '{query.id}' is used twice (first at "
                             f"{seen[query.id]})")
        seen[query.id] = query.origin
        queries.append(query)
    if not queries:
        raise ConfigError("the query set has no queries", where=SourceRef(source))
    return QuerySet(tuple(queries), source)


def _parse_record(item: Any, read: FieldReader, at: str, labeled: bool = True) -> LabeledQuery:
    """One record; a mistake is an error at the field it is in."""
    if not isinstance(item, Mapping):
        raise read.error(at, "each query must be a mapping {id, query, relevant}")
    qid = item.get("id")
    if isinstance(qid, bool) or not isinstance(qid, (str, int)) or str(qid) == "":
        raise read.error(join(at, "id") if "id" in item else at,
                         "each query needs an 'id' (a string or a number)")
    qid = str(qid)
    text = item.get("query")
    if not isinstance(text, str) or not text.strip():
        raise read.error(join(at, "query") if "query" in item else at,
                         f"query '{qid}' needs a non-empty 'query' text")
    if labeled and "relevant" not in item and "relevant_groups" not in item:
        raise read.error(at, f"query '{qid}' has no 'relevant' labels (write relevant: [] "
                         "when no tool fits)")
    groups: list[tuple[str, ...]] = [
        (name,) for name in _names(item.get("relevant") or [], qid, read, join(at, "relevant"))]
    raw_groups = item.get("relevant_groups") or []
    if not isinstance(raw_groups, list):
        raise read.error(join(at, "relevant_groups"), f"query '{qid}': 'relevant_groups' must "
                         "be a list of lists of tool names")
    for i, group in enumerate(raw_groups):
        pointer = join(at, "relevant_groups", i)
        names = _names(group, qid, read, pointer)
        if not names:
            raise read.error(pointer, f"query '{qid}': a relevant group is empty")
        groups.append(tuple(dict.fromkeys(names)))
    _check_disjoint(groups, qid, read, at)
    category = item.get("category")
    if category is not None and not isinstance(category, (str, int)):
        raise read.error(join(at, "category"), f"query '{qid}': 'category' must be a string")
    return LabeledQuery(qid, text, tuple(groups),
                        None if category is None else str(category), read.where(at))


def _names(value: Any, qid: str, read: FieldReader, pointer: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        kind = "a list of tool names" if pointer.endswith("/relevant") else \
            "a list of lists of tool names"
        key = "relevant" if pointer.endswith("/relevant") else "relevant_groups"
        raise read.error(pointer, f"query '{qid}': '{key}' must be {kind}")
    return value


def _check_disjoint(groups: Sequence[tuple[str, ...]], qid: str, read: FieldReader,
                    at: str) -> None:
    seen: set[str] = set()
    for group in groups:
        for name in group:
            if name in seen:
                raise read.error(at, f"query '{qid}': tool '{name}' is labeled twice; a tool "
                                 "belongs to one group at most")
            seen.add(name)


# --- TREC -----------------------------------------------------------------------------------

_TOP = re.compile(r"<top>(.*?)</top>", re.S | re.I)
_FIELD = re.compile(r"<(num|title)>\s*(.*?)\s*(?=<|\Z)", re.S | re.I)


def _from_trec(qrels_path: Path, topics_path: Path) -> QuerySet:
    topics = _read_topics(topics_path)
    groups: dict[str, list[str]] = {qid: [] for qid in topics}
    shown = str(qrels_path)
    for lineno, line in enumerate(read_text(qrels_path).splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        where = SourceRef(shown, lineno, 1)
        if len(fields) != 4:
            raise ConfigError("a qrels line is 'query-id iteration tool-name relevance' "
                              f"(4 fields, found {len(fields)})", where=where)
        qid, _, name, rel = fields
        try:
            relevance = int(rel)
        except ValueError:
            raise ConfigError(f"relevance '{rel}' is not a whole number", where=where) from None
        if qid not in topics:
            raise ConfigError(f"query '{qid}' is not in the topics file {topics_path}",
                              where=where)
        if relevance > 0 and name not in groups[qid]:
            groups[qid].append(name)
    queries = tuple(
        LabeledQuery(qid, text, tuple((n,) for n in groups[qid]), None, where)
        for qid, (text, where) in topics.items()
    )
    return QuerySet(queries, shown)


def _read_topics(path: Path) -> dict[str, tuple[str, SourceRef]]:
    text = read_text(path)
    shown = str(path)
    topics: dict[str, tuple[str, SourceRef]] = {}
    if "<top>" in text.lower():
        for block in _TOP.finditer(text):
            fields = {k.lower(): v for k, v in _FIELD.findall(block.group(1))}
            where = SourceRef(shown, text.count("\n", 0, block.start()) + 1, 1)
            qid = re.sub(r"^number:\s*", "", fields.get("num", ""), flags=re.I).strip()
            title = " ".join(fields.get("title", "").split())
            if not qid or not title:
                raise ConfigError("a <top> block needs <num> and <title>", where=where)
            _add_topic(topics, qid, title, where)
    else:
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = SourceRef(shown, lineno, 1)
            qid, tab, title = line.partition("\t")
            if not tab or not qid.strip() or not title.strip():
                raise ConfigError("a topics line is 'query-id<TAB>query text'", where=where)
            _add_topic(topics, qid.strip(), title.strip(), where)
    if not topics:
        raise ConfigError("the topics file has no topics", where=SourceRef(shown))
    return topics


def _add_topic(topics: dict[str, tuple[str, SourceRef]], qid: str, text: str,
               where: SourceRef) -> None:
    if qid in topics:
        raise ConfigError(f"query id '{qid}' is used twice (first at {topics[qid][1]})",
                          where=where)
    topics[qid] = (text, where)


# --- labels against a catalog ---------------------------------------------------------------

def resolve_labels(queries: QuerySet, catalog: Catalog) -> tuple[QuerySet, list[UnknownLabel]]:
    """Labels rewritten to the catalog's identities (`server:tool` only where a name is
    shared), and the labels that name no tool (kept as written: no ranking can reach them).

    Raises:
        ConfigError: a label names a tool that is on several servers (say which one).
    """
    unknown: list[UnknownLabel] = []
    resolved = []
    for query in queries:
        groups = []
        for group in query.groups:
            names = []
            for name in group:
                found = catalog.find(name)
                if len(found) > 1:
                    options = ", ".join(t.qualified_name for t in found)
                    raise ConfigError(f"query '{query.id}': label '{name}' is on several "
                                      f"servers; say which: {options}", where=query.origin)
                if found:
                    names.append(catalog.ident(found[0]))
                else:
                    names.append(name)
                    unknown.append(UnknownLabel(name, query.id, query.origin))
            groups.append(tuple(dict.fromkeys(names)))
        resolved.append(replace(query, groups=tuple(groups)))
    return QuerySet(tuple(resolved), queries.source), unknown


def unknown_labels_error(unknown: Sequence[UnknownLabel], shown: int = 8) -> ConfigError:
    """One error listing the labels that name no tool (the first ones, with their lines)."""
    names = list(dict.fromkeys(u.name for u in unknown))
    listed = ", ".join(str(u) for u in unknown[:shown])
    more = f" and {len(unknown) - shown} more" if len(unknown) > shown else ""
    return ConfigError(
        f"{len(names)} label{'s' if len(names) != 1 else ''} name no tool of the catalog: "
        f"{listed}{more}",
        where=unknown[0].where,
        hint="--allow-unknown runs anyway and counts them as misses")
