"""Writing a review folder, and checking a committed one against a fresh render."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcat.catalog.convert import convert, to_text
from toolcat.errors import ToolcatError
from toolcat.model import Tool
from toolcat.review.compare import RequestChange
from toolcat.review.files import DECISIONS, PROMPT, TRACE, payload_name, record_files
from toolcat.review.folder import (
    CHANGES,
    MANIFEST,
    PAGE,
    TOOLS,
    Manifest,
    Writer,
    previous,
    read_manifest,
)
from toolcat.review.page import page_html
from toolcat.review.record import Record
from toolcat.review.requests import Request
from toolcat.review.run import Baseline, FolderBaseline, Setup, record_folders, review
from toolcat.review.summary import changes_markdown
from toolcat.source.files import read_text


@dataclass(frozen=True)
class Written:
    """What a review wrote: its records with their comparison, the files removed because
    their request is gone."""

    entries: tuple[tuple[Record, RequestChange | None], ...]
    files: tuple[str, ...]
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stale:
    """A record whose files differ from the committed ones: which files, and what changed
    (the committed folder as the baseline)."""

    record: Record | None
    folder: str
    files: tuple[str, ...]
    change: RequestChange | None = None


@dataclass(frozen=True)
class Checked:
    """The result of `review --check`: every record that differs, the folder-level files that
    differ, the records of the committed folder that are no longer made."""

    records: int
    stale: tuple[Stale, ...] = ()
    files: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.stale or self.files or self.gone)


def tools_text(tools: Mapping[str, Tool]) -> str:
    """tools.yaml: the definitions of every tool shown for some request, in toolcat's own
    format, sorted; a later review reads them back as its baseline's definitions."""
    ordered = [tools[key] for key in sorted(tools)]
    return to_text(convert(ordered, "toolcat").payload, as_yaml=True)


def read_tools(root: Path) -> dict[str, Tool]:
    """The definitions a review folder's tools.yaml holds, by qualified name."""
    from toolcat.catalog.load import load_catalog

    path = root / TOOLS
    if not path.is_file():
        return {}
    return {t.qualified_name: t for t in load_catalog(path).tools}


def folder_baseline(root: Path, label: str | None = None, *,
                    lenient: bool = False) -> FolderBaseline:
    """An earlier review folder as a baseline; `lenient` (for --check) takes a damaged or
    missing record as one that differs.

    Raises:
        ConfigError: it has no manifest, or one review did not write.
    """
    manifest = read_manifest(root)
    return FolderBaseline(root, frozenset(manifest.records), read_tools(root),
                          label or str(root), lenient=lenient)


def planned_files(requests: Sequence[Request], setup: Setup, compared: bool) -> list[str]:
    """Every file a review of `requests` will write (changes.md only with a baseline)."""
    names = [PROMPT, DECISIONS, TRACE, *(payload_name(p) for p in setup.providers)]
    folders = record_folders(requests, [p for p, _ in setup.profiles])
    return [f"{folder}/{name}" for folder in folders for name in names] + [
        TOOLS, PAGE, *([CHANGES] if compared else [])]


def write_review(root: Path, setup: Setup, requests: Sequence[Request],
                 baseline: Baseline | None, inputs: Mapping[str, Any]) -> Written:
    """Render every request and write the review folder `root`.

    Raises:
        UsageError: `root` holds files review did not write, or cannot be written.
    """
    writer = Writer(root, previous(root))
    # before any work: nothing of the user's is in the way
    writer.check(planned_files(requests, setup, baseline is not None))
    entries: list[tuple[Record, RequestChange | None]] = []
    tools: dict[str, Tool] = {}
    for entry in review(setup, requests, [baseline] if baseline else []):
        record = entry.record
        for name, text in record_files(record).items():
            writer.write(f"{record.folder}/{name}", text)
        tools.update((t.qualified_name, t) for t in entry.tools)
        entries.append(_slim(record, entry.change))
    for name, text in _folder_files(entries, tools, baseline).items():
        writer.write(name, text)
    files = tuple(writer.written)
    removed = writer.finish(Manifest(inputs, tuple(r.folder for r, _ in entries), files))
    return Written(tuple(entries), files, tuple(removed))


def check_review(root: Path, setup: Setup, requests: Sequence[Request],
                 baseline: Baseline | None, inputs: Mapping[str, Any]) -> Checked:
    """Render every request again and compare each file with the committed folder `root`.

    Raises:
        ConfigError: `root` is not a review folder.
    """
    committed = folder_baseline(root, lenient=True)
    manifest = read_manifest(root)
    owned = set(manifest.files)
    stale: list[Stale] = []
    entries: list[tuple[Record, RequestChange | None]] = []
    tools: dict[str, Tool] = {}
    files: list[str] = []
    baselines = [committed, *([baseline] if baseline else [])]
    for entry in review(setup, requests, baselines):
        record = entry.record
        differ = []
        for name, text in record_files(record).items():
            path = f"{record.folder}/{name}"
            files.append(path)
            if _on_disk(root, path, owned) != text:
                differ.append(name)
        if differ:
            stale.append(Stale(record, record.folder, tuple(differ), entry.changes[0]))
        tools.update((t.qualified_name, t) for t in entry.tools)
        entries.append(_slim(record, entry.changes[1] if baseline else None))
    folder_level = []
    for name, text in _folder_files(entries, tools, baseline).items():
        files.append(name)
        if _on_disk(root, name, owned) != text:
            folder_level.append(name)
    made = {r.folder for r, _ in entries}
    gone = tuple(f for f in manifest.records if f not in made)
    expected = Manifest(inputs, tuple(r.folder for r, _ in entries), tuple(files))
    if _on_disk(root, MANIFEST, {MANIFEST}) != expected.text() and not gone:
        folder_level.append(MANIFEST)
    return Checked(len(entries), tuple(stale), tuple(folder_level), gone)


def _slim(record: Record, change: RequestChange | None) -> tuple[Record, RequestChange | None]:
    """The record as the page and changes.md need it: without the payloads, which can be
    large (every deferred definition) and are only in their files."""
    from dataclasses import replace

    return replace(record, payloads={}), change


def _folder_files(entries: Sequence[tuple[Record, RequestChange | None]],
                  tools: Mapping[str, Tool], baseline: Baseline | None) -> dict[str, str]:
    files = {TOOLS: tools_text(tools)}
    if baseline is not None:
        files[CHANGES] = changes_markdown(
            [(r, c) for r, c in entries if c is not None], baseline.label)
    files[PAGE] = page_html(entries, baseline.label if baseline else None)
    return files


def _on_disk(root: Path, name: str, owned: set[str] | frozenset[str]) -> str | None:
    path = root / name
    if name not in owned or not path.is_file() or path.is_symlink():
        return None
    try:
        return read_text(path)
    except (OSError, ToolcatError):  # an unreadable committed file simply differs
        return None

