"""What a tuning learns from: requests and the tools that served them.

Four sources, told apart by what a file holds:

- labeled query sets, in every format `toolcat bench` reads (`{id, query, relevant,
  relevant_groups}` as JSONL, YAML or JSON; TREC qrels with a topics file);
- call logs: JSONL of `{"query": "...", "called": ["tool", ...]}`, optionally with
  `"shown": ["tool", ...]`: the tools that were offered to the model for that request (those
  it did not call are its negatives);
- OpenAI-style chat transcripts: a conversation is a list of messages (or `{"messages":
  [...]}`); every assistant message with `tool_calls` (or the older `function_call`) is a use
  of those tools for the user message before it. A file holds one conversation, a list of
  them, or one per line (JSONL);
- example requests that the catalog's author wrote on the tools (`Tool.example_requests`).

Every request keeps its source (the file it was read from; for an example request, the catalog
file of its tool), so a tuning says where its usage came from. A catalog may come from a
stranger, so what its examples can teach is bounded: at most MAX_TOOL_EXAMPLES distinct ones a
tool, and one catalog file's examples at most as many as the requests of the user's own files,
or MAX_FILE_EXAMPLES when that is more (a catalog tuned from its own examples alone keeps them);
what is left out is said (`Usage.bounded`). Examples that the user's own requests give to
other tools are left out later, once embedded (toolcat.tune.material).

Names are matched to the catalog as bench labels are (`name` or `server:name`; a wire name
`server__tool` too). Names that are no tool of the catalog are counted and skipped: logs
outlive the tools they name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolcat.bench.queries import JSONL_SUFFIXES, load_queries, looks_like_jsonl
from toolcat.errors import CatalogError, ConfigError
from toolcat.model import Catalog, SourceRef
from toolcat.source.files import parse_json_lines, parse_text, read_text

KINDS = ("labeled", "log", "transcript", "example")
MAX_SHOWN = 1000  # tools a log line may say were offered (a prompt holds far fewer)
MAX_TOOL_EXAMPLES = 16  # example requests learned a tool (a few dozen make a whole catalog)
MAX_FILE_EXAMPLES = 128  # one catalog file's examples, when other sources hold fewer requests


@dataclass(frozen=True)
class Request:
    """One request and the catalog tools that served it (indices into `catalog.tools`), in
    groups of which one member is needed (a call log's tools are groups of one). No group: a
    labeled request that no tool fits."""

    text: str
    groups: tuple[tuple[int, ...], ...]
    kind: str
    origin: SourceRef | None = None
    declined: tuple[int, ...] = ()  # tools offered for it and not called (a log's `shown`)
    source: str = ""  # the file it was read from (an example: its tool's catalog file)

    @property
    def tools(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(i for g in self.groups for i in g))


@dataclass(frozen=True)
class Bounded:
    """Example requests of one tool left out of what a tuning learns, and why."""

    source: str  # the catalog file
    tool: str  # its qualified name
    written: int
    kept: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "tool": self.tool, "written": self.written,
                "kept": self.kept, "reason": self.reason}


@dataclass(frozen=True)
class Usage:
    """Requests read from one or more files, and the names in them that no tool has."""

    requests: tuple[Request, ...]
    unknown: Mapping[str, int]  # name -> how many times it was named
    sources: tuple[str, ...] = ()
    bounded: tuple[Bounded, ...] = ()

    def __add__(self, other: Usage) -> Usage:
        unknown = dict(self.unknown)
        for name, n in other.unknown.items():
            unknown[name] = unknown.get(name, 0) + n
        return Usage(self.requests + other.requests, unknown, self.sources + other.sources,
                     self.bounded + other.bounded)

    def count(self, kind: str) -> int:
        return sum(r.kind == kind for r in self.requests)


class _Names:
    """Tool names to catalog indices; names no tool has are counted."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.index = {t.qualified_name: i for i, t in enumerate(catalog.tools)}
        self.unknown: dict[str, int] = {}

    def find(self, name: str) -> int | None:
        found = self.catalog.find(name)
        if not found and "__" in name:  # a wire name with its server prefixed (render)
            found = self.catalog.find(name.replace("__", ":", 1))
        if len(found) != 1:  # unknown, or on several servers: no use can be told apart
            self.unknown[name] = self.unknown.get(name, 0) + 1
            return None
        return self.index[found[0].qualified_name]


def read_usage(path: str | Path, catalog: Catalog, *, topics: str | Path | None = None
               ) -> Usage:
    """The requests of one file (see the module docstring for the formats).

    Raises:
        ConfigError: the file cannot be read or a record is malformed (with file:line).
    """
    path = Path(path)
    names = _Names(catalog)
    records = _records(path) if topics is None else None
    first = _first(records) if records is not None else None
    if isinstance(first, Mapping) and "called" in first:
        requests = list(_from_log(records or [], names))
    elif isinstance(first, list) or (isinstance(first, Mapping) and "messages" in first):
        requests = list(_from_transcripts(records or [], names))
    else:
        requests = list(_from_labeled(path, catalog, names, topics))
    return Usage(tuple(replace(r, source=str(path)) for r in requests), names.unknown,
                 (str(path),))


def example_usage(catalog: Catalog, others: int = 0) -> Usage:
    """The example requests written on the catalog's tools, within the bounds (at most
    MAX_TOOL_EXAMPLES distinct ones a tool; one catalog file's at most `others`, the requests
    read from the user's files, or MAX_FILE_EXAMPLES when that is more)."""
    requests: list[Request] = []
    bounded: list[Bounded] = []
    per_file: dict[str, int] = {}
    for i, tool in enumerate(catalog.tools):
        if not tool.example_requests:
            continue
        source = tool.origin.file if tool.origin is not None else f"server {tool.server}"
        texts = list(dict.fromkeys(tool.example_requests))[:MAX_TOOL_EXAMPLES]
        reason = f"at most {MAX_TOOL_EXAMPLES} distinct example requests a tool"
        room = max(MAX_FILE_EXAMPLES, others) - per_file.get(source, 0)
        if len(texts) > room:
            texts = texts[:room]
            reason = ("one catalog file's example requests at most as many as the requests "
                      f"given with -q ({others}), or {MAX_FILE_EXAMPLES}")
        per_file[source] = per_file.get(source, 0) + len(texts)
        if len(texts) < len(tool.example_requests):
            bounded.append(Bounded(source, tool.qualified_name, len(tool.example_requests),
                                   len(texts), reason))
        requests += (Request(text, ((i,),), "example", tool.origin, source=source)
                     for text in texts)
    return Usage(tuple(requests), {}, (), tuple(bounded))


_Record = tuple[Any, SourceRef]


def _records(path: Path) -> list[_Record] | None:
    """Every top-level record of a JSON or JSONL file with its place; None for the files
    only the query-set reader reads (YAML, TREC qrels)."""
    suffix = path.suffix.lower()
    if suffix not in (*JSONL_SUFFIXES, ".json"):
        return None
    text = read_text(path)
    try:
        if suffix in JSONL_SUFFIXES or looks_like_jsonl(text):
            parsed = parse_json_lines(text, str(path))
        else:
            parsed = parse_text(text, str(path), yaml_syntax=False)
    except CatalogError as exc:
        raise ConfigError(exc.message, where=exc.where) from None
    data = parsed.data
    if isinstance(data, Mapping) and "messages" in data:
        data, pointer = [data], None
    elif isinstance(data, list) and data and isinstance(data[0], Mapping) \
            and "role" in data[0]:
        data, pointer = [data], None  # one conversation: a list of messages
    elif isinstance(data, Mapping) and isinstance(data.get("queries"), list):
        return [(data, SourceRef(parsed.path, 1, 1))]  # a query set with `queries:`
    else:
        pointer = ""
    if not isinstance(data, list):
        return [(data, SourceRef(parsed.path, 1, 1))]
    out = []
    for i, item in enumerate(data):
        line, column = parsed.index.locate(f"{pointer}/{i}") if pointer is not None else (1, 1)
        out.append((item, SourceRef(parsed.path, line, column)))
    return out


def _first(records: Sequence[_Record]) -> Any:
    return records[0][0] if records else None


def _from_labeled(path: Path, catalog: Catalog, names: _Names,
                  topics: str | Path | None) -> Iterator[Request]:
    for query in load_queries(path, topics=topics):
        groups = []
        for group in query.groups:
            found = tuple(i for i in (names.find(n) for n in group) if i is not None)
            if found:
                groups.append(found)
        if query.groups and not groups:
            continue  # every label names no tool: nothing to learn, nothing to measure
        yield Request(query.text, tuple(groups), "labeled", query.origin)


def _from_log(records: Sequence[_Record], names: _Names) -> Iterator[Request]:
    for item, where in records:
        if not isinstance(item, Mapping):
            raise ConfigError("a call log line is {\"query\": ..., \"called\": [tool names]}",
                              where=where)
        text, called = item.get("query"), item.get("called")
        if not isinstance(text, str) or not text.strip():
            raise ConfigError("a call log line needs a non-empty 'query' text", where=where)
        if not isinstance(called, list) or not all(isinstance(n, str) and n for n in called):
            raise ConfigError("'called' must be a list of tool names", where=where)
        shown = item.get("shown", [])
        if not isinstance(shown, list) or not all(isinstance(n, str) and n for n in shown):
            raise ConfigError("'shown' must be a list of tool names (the tools offered)",
                              where=where)
        if len(shown) > MAX_SHOWN:
            raise ConfigError(f"'shown' names at most {MAX_SHOWN} tools", where=where)
        found = tuple(dict.fromkeys(i for i in map(names.find, called) if i is not None))
        declined = tuple(i for i in dict.fromkeys(map(names.find, shown))
                         if i is not None and i not in found)
        if found:
            yield Request(text, tuple((i,) for i in found), "log", where, declined)


def _from_transcripts(records: Sequence[_Record], names: _Names) -> Iterator[Request]:
    for item, where in records:
        messages = item.get("messages") if isinstance(item, Mapping) else item
        if not isinstance(messages, list):
            raise ConfigError("a transcript is a list of messages or {\"messages\": [...]}",
                              where=where)
        yield from _conversation(messages, names, where)


def _conversation(messages: list[Any], names: _Names, where: SourceRef) -> Iterator[Request]:
    """Each user message and the tools the assistant called before the next one."""
    text: str | None = None
    called: list[int] = []
    for number, message in enumerate(messages, 1):
        if not isinstance(message, Mapping) or not isinstance(message.get("role"), str):
            raise ConfigError(f"message {number} of the transcript needs a 'role'",
                              where=where)
        role = message["role"]
        if role == "user":
            if text and called:
                yield Request(text, tuple((i,) for i in dict.fromkeys(called)), "transcript",
                              where)
            text, called = _content(message.get("content")), []
        elif role == "assistant" and text:
            for name in _called_names(message, number, where):
                found = names.find(name)
                if found is not None:
                    called.append(found)
    if text and called:
        yield Request(text, tuple((i,) for i in dict.fromkeys(called)), "transcript", where)


def _content(content: Any) -> str | None:
    """The text of a message: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content.strip() or None
    if isinstance(content, list):
        parts = [str(p["text"]) for p in content
                 if isinstance(p, Mapping) and isinstance(p.get("text"), str)]
        return " ".join(parts).strip() or None
    return None


def _called_names(message: Mapping[str, Any], number: int, where: SourceRef) -> list[str]:
    calls = message.get("tool_calls") or []
    legacy = message.get("function_call")
    if legacy:
        calls = [*calls, {"function": legacy}] if isinstance(calls, list) else calls
    if not isinstance(calls, list):
        raise ConfigError(f"'tool_calls' of message {number} must be a list", where=where)
    out = []
    for call in calls:
        function = call.get("function") if isinstance(call, Mapping) else None
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(name, str) or not name:
            raise ConfigError(f"a tool call of message {number} has no function name",
                              where=where)
        out.append(name)
    return out
