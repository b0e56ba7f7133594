"""Pin a catalog in `toolcat.lock`: a content hash per tool of what a model is shown (name,
description, parameters, annotations) and of the server it belongs to, so that a definition
that changes after review, silently, on a live server (a "rug pull"), is caught.

    {"version": 1,
     "tools": {"files:delete_file": {"sha256": "<64 hex>", "description": "<16 hex>",
                                     "parameters": "<16 hex>", "annotations": "<16 hex>"}}}

`sha256` covers the whole definition and decides whether a tool changed; the short per-field
hashes only tell which part did. Hashes are taken over canonical JSON (sorted keys, no spaces,
UTF-8), so reformatting a file or converting it to another shape changes nothing; any change
of text a model reads does, down to one space.

Some servers write the machine they run on into their descriptions (desktop-commander lists
the host's folders), so their definitions change without anyone changing the tool. A lock can
accept such text knowingly: `"volatile": {"desktop-commander:*": ["/Users/[^ ,]+"]}` (written
by `toolcat lock --volatile`) names, per tool pattern, regular expressions (RE2: linear time)
whose matches in the description and in every text of the parameters and annotations are
hashed as `<volatile>`. Whatever else changes still counts; removing the entry makes every
such tool count as changed again, never silently the other way.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from toolcat.errors import ConfigError
from toolcat.model import Catalog, SourceRef, Tool, matches
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_file
from toolcat.source.positions import join

LOCK_NAME = "toolcat.lock"
LOCK_VERSION = 1
PINNED_FIELDS = ("description", "parameters", "annotations")
FIELD_HASH_LENGTH = 16

Change = Literal["changed", "added", "removed"]


@dataclass(frozen=True)
class Pin:
    """The locked fingerprint of one tool; `origin` is its place in the lock file, if read."""

    key: str
    digest: str
    fields: Mapping[str, str] = field(default_factory=dict)
    origin: SourceRef | None = field(default=None, compare=False)


MASK = "<volatile>"
MAX_VOLATILE = 100  # patterns in one lock


@dataclass(frozen=True)
class Lock:
    pins: Mapping[str, Pin]
    path: str | None = None
    # tool pattern (`name`, `server:*`) -> regular expressions of text that may change
    volatile: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def masks(self, tool: Tool) -> tuple[Any, ...]:
        """The compiled volatile patterns that apply to `tool`."""
        return volatile_masks(self.volatile, tool)


def volatile_masks(volatile: Mapping[str, tuple[str, ...]], tool: Tool) -> tuple[Any, ...]:
    return tuple(_compiled(text) for pattern, texts in volatile.items()
                 if matches(pattern, tool) for text in texts)


@lru_cache(maxsize=MAX_VOLATILE)
def _compiled(text: str) -> Any:
    import re2

    return re2.compile(text)


def check_volatile(text: str) -> str | None:
    """Why `text` is not a usable volatile pattern (RE2 syntax, must not match ""), or None."""
    import re2

    try:
        compiled = re2.compile(text)
    except re2.error as exc:
        return f"not a regular expression RE2 accepts: {exc}"
    if compiled.fullmatch(""):
        return "matches the empty text, so it would mark nothing"
    return None


@dataclass(frozen=True)
class Drift:
    """A difference between the lock and the catalog: a tool that changed, appeared or vanished.
    `fields` names the changed parts; `tool` is the catalog's tool (None when it vanished);
    `locked` is the tool's entry in the lock (None when it appeared)."""

    key: str
    change: Change
    fields: tuple[str, ...] = ()
    tool: Tool | None = None
    locked: Pin | None = None

    @property
    def where(self) -> SourceRef | None:
        """The tool in the catalog, or for a vanished tool its entry in the lock file."""
        if self.tool is not None:
            return self.tool.origin
        return self.locked.origin if self.locked else None

    def describe(self) -> str:
        if self.change == "added":
            return f"tool '{self.key}' appeared since the lock"
        if self.change == "removed":
            return f"tool '{self.key}' vanished since the lock"
        parts = " and ".join(self.fields) if self.fields else "its definition"
        return f"tool '{self.key}' changed since the lock: {parts}"

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.key, "change": self.change, "fields": list(self.fields)}


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of a value: sorted keys, no whitespace, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


def pinned_definition(tool: Tool) -> dict[str, Any]:
    """What the lock hashes: the server and the model-facing definition."""
    return {"server": tool.server, "name": tool.name, "description": tool.description,
            "parameters": tool.parameters, "annotations": tool.annotations}


def pin(tool: Tool, masks: tuple[Any, ...] = ()) -> Pin:
    """The fingerprint of one tool; with `masks` (Lock.masks), the text they match is
    hashed as `<volatile>`."""
    definition = pinned_definition(tool)
    if masks:
        definition = {k: v if k in ("server", "name") else _masked(v, masks)
                      for k, v in definition.items()}
    fields = {name: hashlib.sha256(canonical(definition[name])).hexdigest()[:FIELD_HASH_LENGTH]
              for name in PINNED_FIELDS}
    return Pin(tool.qualified_name, hashlib.sha256(canonical(definition)).hexdigest(), fields)


def _masked(value: Any, masks: tuple[Any, ...]) -> Any:
    """`value` with the volatile text of every string in it replaced by MASK."""
    if isinstance(value, str):
        for mask in masks:
            value = mask.sub(MASK, value)
        return value
    if isinstance(value, Mapping):
        return {k: _masked(v, masks) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v, masks) for v in value]
    return value


def lock_catalog(catalog: Catalog | Iterable[Tool],
                 volatile: Mapping[str, tuple[str, ...]] | None = None) -> Lock:
    """The lock of every tool of a catalog, accepting the `volatile` text (see above)."""
    volatile = dict(volatile or {})
    pins = (pin(tool, volatile_masks(volatile, tool)) for tool in catalog)
    return Lock({p.key: p for p in sorted(pins, key=lambda p: p.key)}, volatile=volatile)


def dump_lock(lock: Lock) -> str:
    """The text of a lock file: JSON, one tool per block, sorted, stable across runs."""
    tools = {key: {"sha256": p.digest, **p.fields} for key, p in sorted(lock.pins.items())}
    head: dict[str, Any] = {"version": LOCK_VERSION}
    if lock.volatile:
        head["volatile"] = {k: list(v) for k, v in lock.volatile.items()}
    return json.dumps({**head, "tools": tools}, indent=2,
                      ensure_ascii=False, allow_nan=False) + "\n"


def read_lock(path: Path) -> Lock:
    """Read a lock file.

    Raises:
        ConfigError: there is no lock file there, or it is not one toolcat wrote.
        CatalogError: the file is not valid JSON.
    """
    if not path.exists():
        raise ConfigError("no lock file here; run `toolcat lock` first",
                          where=SourceRef(str(path)))
    parsed = parse_file(path)
    read = FieldReader(str(path), parsed.index, document="the lock file")
    data = parsed.data
    if not isinstance(data, dict) or not isinstance(data.get("tools"), dict):
        raise read.error("", "not a toolcat lock file: expected {\"version\": 1, \"tools\": {...}}")
    if data.get("version") != LOCK_VERSION:
        raise read.error("/version", f"lock file version {data.get('version')!r} is not "
                         f"{LOCK_VERSION}; run `toolcat lock` again with this toolcat")
    pins: dict[str, Pin] = {}
    for key, entry in data["tools"].items():
        pointer = join("/tools", key)
        read.fields(pointer, entry, {"sha256": str}, ("sha256",), f"entry '{key}' has no sha256")
        fields = {name: str(entry[name]) for name in PINNED_FIELDS if name in entry}
        pins[key] = Pin(key, entry["sha256"], fields, read.where(pointer, key=True))
    return Lock(pins, str(path), _read_volatile(data.get("volatile", {}), read))


def _read_volatile(value: Any, read: FieldReader) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict) or not all(
            isinstance(v, list) and all(isinstance(t, str) for t in v) for v in value.values()):
        raise read.error("/volatile", "'volatile' must map tool patterns to lists of regular "
                         "expressions")
    if sum(map(len, value.values())) > MAX_VOLATILE:
        raise read.error("/volatile", f"more than {MAX_VOLATILE} volatile patterns")
    for pattern, texts in value.items():
        for i, text in enumerate(texts):
            problem = check_volatile(text)
            if problem:
                raise read.error(join("/volatile", pattern, str(i)), problem)
    return {str(k): tuple(v) for k, v in value.items()}


def drift(lock: Lock, catalog: Catalog | Iterable[Tool]) -> list[Drift]:
    """Every tool that changed, appeared or vanished since the lock: changed and appeared in
    catalog order, then vanished in lock order."""
    found: list[Drift] = []
    present: set[str] = set()
    for tool in catalog:
        now = pin(tool, lock.masks(tool)) if lock.volatile else pin(tool)
        present.add(now.key)
        locked = lock.pins.get(now.key)
        if locked is None:
            found.append(Drift(now.key, "added", tool=tool))
        elif locked.digest != now.digest:
            fields = tuple(name for name in PINNED_FIELDS
                           if locked.fields.get(name) != now.fields[name])
            found.append(Drift(now.key, "changed", fields, tool, locked))
    found += [Drift(key, "removed", locked=p) for key, p in lock.pins.items()
              if key not in present]
    return found


def default_lock_path(config_path: Path | None, cwd: Path) -> Path:
    """`toolcat.lock` next to the configuration file, else in the current folder."""
    return (config_path.parent if config_path else cwd) / LOCK_NAME
