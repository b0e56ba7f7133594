"""The review of a set of requests: each request resolved and rendered under each profile by
the rooms that do it for `resolve` and `render`, kept as a record, and compared with a
baseline when there is one. Records are made one at a time (a generator), so memory does not
grow with the number of requests beyond the small records themselves."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from toolcat.errors import ToolcatError
from toolcat.model import Catalog, Tool
from toolcat.pin.lock import Pin
from toolcat.render.renderer import from_resolution, render, self_contained
from toolcat.resolution import Profile, Resolution, Resolver
from toolcat.review.compare import (
    Definitions,
    Fate,
    RequestChange,
    compare,
    compare_with_lock,
)
from toolcat.review.record import Record, build_record
from toolcat.review.requests import Request, folder_names

if TYPE_CHECKING:
    from toolcat.providers.names import PrefixPolicy
    from toolcat.search.device import Progress
    from toolcat.search.tuning import Tuning


@dataclass(frozen=True)
class Setup:
    """What every request is rendered with: the catalog, the profiles (each with the tuning
    its scorer applies, if any), the providers whose payloads to write."""

    catalog: Catalog
    profiles: tuple[tuple[Profile, Tuning | None], ...]
    providers: tuple[str, ...] = ()
    prefix: PrefixPolicy = "collisions"
    # told how a semantic scorer's encoding of the catalog goes (Resolver's `progress`)
    progress: Progress | None = None


@dataclass(frozen=True)
class Entry:
    """One request under one profile: its record, the visible tools' definitions (made
    self-contained) and, with a baseline, what changed."""

    record: Record
    tools: tuple[Tool, ...]
    changes: tuple[RequestChange, ...] = ()  # one per baseline

    @property
    def change(self) -> RequestChange | None:
        return self.changes[0] if self.changes else None


def profile_folders(profiles: Sequence[Profile]) -> list[str]:
    """A folder name per profile, distinct even when two profiles share a name."""
    keys = [p.name if [q.name for q in profiles].count(p.name) == 1 else f"{p.name}.{i + 1}"
            for i, p in enumerate(profiles)]
    names = folder_names(keys)
    return [names[key] for key in keys]


def record_folders(requests: Sequence[Request], profiles: Sequence[Profile]) -> list[str]:
    """`request/profile` for every request and profile, in that order."""
    by_id = folder_names(r.id for r in requests)
    per_profile = profile_folders(profiles)
    return [f"{by_id[r.id]}/{p}" for r in requests for p in per_profile]


class Evaluator:
    """Resolves and renders requests against one catalog; a resolver per profile, built once."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._resolvers: dict[int, Resolver] = {}
        self._tools: dict[str, Tool] | None = None

    def evaluate(self, request: Request, index: int, folder: str) -> tuple[Record, Resolution]:
        profile, tuning = self.setup.profiles[index]
        resolver = self._resolvers.get(index)
        if resolver is None:
            resolver = self._resolvers[index] = Resolver(self.setup.catalog, profile,
                                                         tuning=tuning,
                                                         progress=self.setup.progress)
        resolution = resolver.resolve(request.text)
        inp = from_resolution(resolution, self.setup.catalog.documents,
                              prefix=self.setup.prefix)
        rendered = [render(inp, provider) for provider in self.setup.providers or (None,)]
        return (build_record(request, folder, resolution, rendered, resolver.ranking_model),
                resolution)

    def definitions(self, resolution: Resolution) -> Definitions:
        """Tool definitions by qualified name, self-contained: the catalog's, and the built-in
        and gateway tools this resolution shows."""
        if self._tools is None:
            self._tools = {t.qualified_name: t for t in self.setup.catalog.tools}
        tools = self._tools
        shown = {t.qualified_name: t for t in resolution.visible}
        documents = self.setup.catalog.documents

        def lookup(key: str) -> Tool | None:
            tool = tools.get(key) or shown.get(key)
            return None if tool is None else self_contained(tool, documents)

        return lookup


def fate(resolution: Resolution) -> Fate:
    """Where each tool ended in `resolution`: `status [rule] — reason`, or "not in the
    catalog"; the verdicts are indexed on the first question only."""
    index: dict[str, str] = {}

    def lookup(key: str) -> str | None:
        if not index:
            index.update((v.tool.qualified_name, f"{v.status} [{v.rule}] — {v.reason}")
                         for v in resolution.verdicts)
        return index.get(key, "not in the catalog")

    return lookup


class Baseline(Protocol):
    """What a request is compared with."""

    label: str

    def compare(self, request: Request, index: int, record: Record, fate: Fate,
                definitions: Definitions) -> RequestChange: ...


class CatalogBaseline:
    """Another catalog, rendered the same way as the new one."""

    def __init__(self, setup: Setup, label: str) -> None:
        self.label = label
        self._evaluator = Evaluator(setup)

    def compare(self, request: Request, index: int, record: Record, fate_now: Fate,
                definitions: Definitions) -> RequestChange:
        old, resolution = self._evaluator.evaluate(request, index, record.folder)
        return compare(record, old, new_fate=fate_now, old_fate=fate(resolution),
                       new_tools=definitions,
                       old_tools=self._evaluator.definitions(resolution))


class LockBaseline:
    """A lock file: the pinned hashes of the definitions."""

    def __init__(self, pins: Mapping[str, Pin], label: str) -> None:
        self.label = label
        self._pins = pins

    def compare(self, request: Request, index: int, record: Record, fate_now: Fate,
                definitions: Definitions) -> RequestChange:
        return compare_with_lock(record, self._pins, definitions)


class FolderBaseline:
    """An earlier review folder: its records, and the definitions of its tools.yaml."""

    def __init__(self, root: Path, folders: frozenset[str], tools: Mapping[str, Tool],
                 label: str, *, lenient: bool = False) -> None:
        self.label = label
        self._root = root
        self._folders = folders
        self._tools = tools
        self._lenient = lenient  # --check: a damaged committed record differs, not an error

    def compare(self, request: Request, index: int, record: Record, fate_now: Fate,
                definitions: Definitions) -> RequestChange:
        from toolcat.review.files import read_record

        old = None
        if record.folder in self._folders:
            try:
                old = read_record(self._root, record.folder)
            except ToolcatError:
                if not self._lenient:
                    raise
        if old is None:
            return compare(record, None, new_fate=fate_now, old_fate=lambda _: None,
                           new_tools=definitions, old_tools=self._tools.get)
        return compare(record, old, new_fate=fate_now, old_fate=old.placement,
                       new_tools=definitions, old_tools=self._tools.get)


def review(setup: Setup, requests: Sequence[Request],
           baselines: Sequence[Baseline] = ()) -> Iterator[Entry]:
    """Every request under every profile, in order, with its comparison to each baseline."""
    evaluator = Evaluator(setup)
    folders = iter(record_folders(requests, [p for p, _ in setup.profiles]))
    for request in requests:
        for index in range(len(setup.profiles)):
            record, resolution = evaluator.evaluate(request, index, next(folders))
            definitions = evaluator.definitions(resolution)
            now = fate(resolution)
            changes = tuple(b.compare(request, index, record, now, definitions)
                            for b in baselines)
            tools = tuple(t for t in (definitions(p.tool) for p in record.visible)
                          if t is not None)
            yield Entry(record, tools, changes)
