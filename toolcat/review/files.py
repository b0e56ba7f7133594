"""A record as the files of its folder, and back.

    <request>/<profile>/prompt.md            the system prompt, verbatim in a fenced block
    <request>/<profile>/payload.<provider>.json   each provider's request payload
    <request>/<profile>/decisions.yaml       format, cap, scorer and its embedding model,
                                             tokens, visible tools with the rule behind
                                             each, deferred/excluded groups
    <request>/<profile>/trace.md             the decision trace, as resolve takes it

Every file is plain text in a stable order (no time, no version, no absolute path), so a
review folder committed to git diffs line by line when what a model sees changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from toolcat.errors import ConfigError
from toolcat.model import SourceRef
from toolcat.review.record import Cost, Group, Placed, Record
from toolcat.review.requests import Request
from toolcat.source.fields import FieldReader
from toolcat.source.files import ParsedFile, parse_file, read_text

PROMPT = "prompt.md"
DECISIONS = "decisions.yaml"
TRACE = "trace.md"
_FENCE = re.compile(r"^(`{3,})text$", re.M)


def payload_name(provider: str) -> str:
    return f"payload.{provider}.json"


def dump_yaml(data: Any) -> str:
    """YAML in the order given, one value per line however long (diffs stay line by line)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True,
                         width=1_000_000, default_flow_style=False))


def record_files(record: Record) -> dict[str, str]:
    """The files of a record's folder, by name, in a stable order."""
    files = {PROMPT: prompt_text(record), DECISIONS: decisions_text(record),
             TRACE: trace_text(record)}
    for provider, payload in sorted(record.payloads.items()):
        files[payload_name(provider)] = payload
    return files


def prompt_text(record: Record) -> str:
    """The system prompt verbatim, in a fence longer than any run of backticks it holds."""
    longest = max((len(m) for m in re.findall(r"`+", record.prompt)), default=0)
    fence = "`" * max(3, longest + 1)
    return (f"# System prompt: {_one_line(record.request.id)} ({_one_line(record.profile)})\n\n"
            f"{fence}text\n{record.prompt}\n{fence}\n")


def trace_text(record: Record) -> str:
    return f"# Decision trace: {_one_line(record.request.id)}\n\n{record.trace}"


def decisions_text(record: Record) -> str:
    data: dict[str, Any] = {
        "request": {"id": record.request.id, "query": record.request.text},
        "profile": record.profile,
        "format": {"name": record.format, "reason": record.format_reason},
        "cap": record.cap,
        "scorer": record.scorer,
        "embedding_model": record.embedding_model or None,
        "tokens": [{"target": c.target, "system": c.system, "tools": c.tools,
                    "overhead": c.overhead, "total": c.total, "method": c.method}
                   for c in record.costs],
        "visible": [{"name": p.name, "tool": p.tool, "rule": p.rule, "reason": p.reason,
                     "score": p.score, "tokens": p.tokens} for p in record.visible],
        "hidden": [{"status": g.status, "rule": g.rule, "via": g.via, "count": g.count,
                    "tokens": g.tokens, "tools": list(g.tools)} for g in record.groups],
        "notes": list(record.notes),
    }
    return dump_yaml(data)


def _one_line(text: str) -> str:
    """Text for a Markdown heading: one line, no HTML a viewer would run (`<img onerror>` in
    a request id)."""
    return " ".join(text.replace("&", "&amp;").replace("<", "&lt;").split())


# ---- reading a folder back (a baseline, or the committed side of --check) ---------------------


def read_record(root: Path, folder: str) -> Record:
    """The record a review folder holds in `root/folder`.

    Raises:
        ConfigError: a file is missing or is not what review writes (with file:line).
    """
    place = root / folder
    parsed = _parse(place / DECISIONS)
    data = _mapping(parsed, "")
    _mapping(parsed, "/request")
    fmt = _mapping(parsed, "/format")
    costs = tuple(Cost(_str(parsed, f"/tokens/{i}/target"), _int(parsed, f"/tokens/{i}/system"),
                       _int(parsed, f"/tokens/{i}/tools"), _int(parsed, f"/tokens/{i}/overhead"),
                       _int(parsed, f"/tokens/{i}/total"), _str(parsed, f"/tokens/{i}/method"))
                  for i in range(len(_list(parsed, "/tokens"))))
    visible = tuple(Placed(_str(parsed, f"/visible/{i}/name"), _str(parsed, f"/visible/{i}/tool"),
                           _str(parsed, f"/visible/{i}/rule"),
                           _str(parsed, f"/visible/{i}/reason"),
                           _score(parsed, f"/visible/{i}/score"),
                           _int(parsed, f"/visible/{i}/tokens"))
                    for i in range(len(_list(parsed, "/visible"))))
    groups = tuple(Group(_str(parsed, f"/hidden/{i}/status"), _str(parsed, f"/hidden/{i}/rule"),
                         _optional_str(parsed, f"/hidden/{i}/via"),
                         _int(parsed, f"/hidden/{i}/count"), _int(parsed, f"/hidden/{i}/tokens"),
                         tuple(_strings(parsed, f"/hidden/{i}/tools")))
                   for i in range(len(_list(parsed, "/hidden"))))
    payloads = {path.name[len("payload."):-len(".json")]: read_text(path)
                for path in sorted(place.glob("payload.*.json"))}
    return Record(
        request=Request(_str(parsed, "/request/id"), _str(parsed, "/request/query")),
        profile=_str(parsed, "/profile"), folder=folder,
        format=str(fmt.get("name", "")), format_reason=str(fmt.get("reason", "")),
        cap=str(data.get("cap", "")), scorer=str(data.get("scorer", "")),
        visible=visible, groups=groups, costs=costs,
        prompt=_read_prompt(place / PROMPT), payloads=payloads,
        notes=tuple(_strings(parsed, "/notes")) if "notes" in data else (),
        trace=_read_trace(place / TRACE),
        embedding_model=_optional_str(parsed, "/embedding_model") or "",
    )


def _read_prompt(path: Path) -> str:
    text = _read(path)
    match = _FENCE.search(text)
    end = text.rfind("\n" + (match.group(1) if match else "```"))
    if match is None or end < match.end():
        raise ConfigError("not a prompt file review wrote (no fenced prompt)",
                          where=SourceRef(str(path)))
    return text[match.end() + 1:end]


def _read_trace(path: Path) -> str:
    text = _read(path)
    return text.split("\n\n", 1)[1] if "\n\n" in text else text


def _read(path: Path) -> str:
    if not path.is_file():
        raise ConfigError("missing from the review folder", where=SourceRef(str(path)))
    return read_text(path)


def _parse(path: Path) -> ParsedFile:
    if not path.is_file():
        raise ConfigError("missing from the review folder", where=SourceRef(str(path)))
    return parse_file(path)


def _at(parsed: ParsedFile, pointer: str) -> Any:
    value = parsed.data
    for part in pointer.split("/")[1:]:
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def _fail(parsed: ParsedFile, pointer: str, kind: str) -> Any:
    raise FieldReader(parsed.path, parsed.index).error(
        pointer, f"{pointer or 'the file'} should be {kind} (not a folder review wrote?)")


def _mapping(parsed: ParsedFile, pointer: str) -> Mapping[str, Any]:
    value = _at(parsed, pointer)
    return value if isinstance(value, Mapping) else _fail(parsed, pointer, "a mapping")


def _list(parsed: ParsedFile, pointer: str) -> list[Any]:
    value = _at(parsed, pointer)
    return value if isinstance(value, list) else _fail(parsed, pointer, "a list")


def _str(parsed: ParsedFile, pointer: str) -> str:
    value = _at(parsed, pointer)
    return value if isinstance(value, str) else _fail(parsed, pointer, "a text")


def _optional_str(parsed: ParsedFile, pointer: str) -> str | None:
    value = _at(parsed, pointer)
    return None if value is None else _str(parsed, pointer)


def _int(parsed: ParsedFile, pointer: str) -> int:
    value = _at(parsed, pointer)
    ok = isinstance(value, int) and not isinstance(value, bool)
    return int(value) if ok else _fail(parsed, pointer, "a whole number")


def _score(parsed: ParsedFile, pointer: str) -> float | None:
    value = _at(parsed, pointer)
    if value is None:
        return None
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok else _fail(parsed, pointer, "a number")


def _strings(parsed: ParsedFile, pointer: str) -> list[str]:
    value = _list(parsed, pointer)
    return value if all(isinstance(v, str) for v in value) else _fail(
        parsed, pointer, "a list of texts")
