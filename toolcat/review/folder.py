"""The review folder: its manifest, and writing into it without losing anything of the user's.

`toolcat-review.yaml` marks a folder review wrote: the inputs it was made from (paths relative
to the folder, so `--check` works from any working directory and in CI), its records, and
every file review wrote there. Review writes into a folder that does not exist, is empty, or
has that manifest; it writes only the files it owns, each atomically, never through a symbolic
link or outside the folder, and removes only files an earlier review listed as its own.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from toolcat.errors import ConfigError, UsageError
from toolcat.model import SourceRef
from toolcat.review.files import dump_yaml
from toolcat.source.cache import write_atomically
from toolcat.source.files import parse_file


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()  # what a new file gets; read once, at import
MANIFEST = "toolcat-review.yaml"
FORMAT = 1
TOOLS = "tools.yaml"
PAGE = "index.html"
CHANGES = "changes.md"
INPUT_KEYS = ("catalogs", "shape", "queries", "topics", "profiles", "providers", "baseline",
              "allow_unsafe")


@dataclass(frozen=True)
class Manifest:
    """What a review folder holds. `inputs` are as the command took them (relative paths made
    relative to the folder); `records` are `request/profile` folders; `files` every file
    review wrote, relative to the folder."""

    inputs: Mapping[str, Any] = field(default_factory=dict)
    records: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    def text(self) -> str:
        return dump_yaml({"toolcat_review": FORMAT, "inputs": dict(self.inputs),
                          "records": list(self.records), "files": list(self.files)})


def read_manifest(root: Path) -> Manifest:
    """The manifest of a review folder.

    Raises:
        ConfigError: there is none, or it is not one review wrote.
    """
    path = root / MANIFEST
    if not path.is_file():
        raise ConfigError(f"{root} is not a review folder (no {MANIFEST})",
                          where=SourceRef(str(root)))
    parsed = parse_file(path)
    data = parsed.data

    def fail(message: str, pointer: str = "") -> ConfigError:
        line, column = parsed.index.locate(pointer)
        return ConfigError(message, where=SourceRef(str(path), line, column, pointer))

    if not isinstance(data, dict) or data.get("toolcat_review") != FORMAT:
        raise fail(f"not a review manifest of format {FORMAT} (toolcat_review: {FORMAT})")
    inputs = data.get("inputs") or {}
    if not isinstance(inputs, dict) or set(inputs) - set(INPUT_KEYS):
        raise fail(f"'inputs' holds only {', '.join(INPUT_KEYS)}", "/inputs")
    out: list[tuple[str, ...]] = []
    for key in ("records", "files"):
        items = data.get(key) or []
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise fail(f"'{key}' is a list of relative paths", f"/{key}")
        for i, item in enumerate(items):
            if not safe_relative(item):
                raise fail(f"'{item}' is not a path inside the folder", f"/{key}/{i}")
        out.append(tuple(items))
    return Manifest(inputs, out[0], out[1])


def safe_relative(name: str) -> bool:
    """Whether `name` is a plain relative path inside a folder: no `..`, not absolute."""
    path = PurePosixPath(name)
    return (bool(name) and not path.is_absolute() and ".." not in path.parts
            and "\\" not in name and path.parts[:1] != ("",))


def previous(root: Path) -> Manifest | None:
    """The manifest of the review already in `root`, None when there is nothing there.

    Raises:
        UsageError: `root` is a file, or a folder with files that no review wrote.
    """
    if not root.exists() and not root.is_symlink():
        return None
    if root.is_symlink() or not root.is_dir():
        raise UsageError(f"cannot write the review into {root}: it is not a folder")
    if not (root / MANIFEST).exists():
        if any(root.iterdir()):
            raise UsageError(f"{root} is not empty and is not a review folder (no {MANIFEST}); "
                             "refusing to write into it: give a new or empty folder")
        return None
    return read_manifest(root)


class Writer:
    """Writes the files of a review into `root`; `finish` removes what the earlier review owned
    and this one did not write, then writes the manifest."""

    def __init__(self, root: Path, before: Manifest | None) -> None:
        self.root = root
        self.before = before
        self.owned = frozenset(before.files) if before else frozenset()
        self.written: list[str] = []

    def check(self, names: Iterable[str]) -> None:
        """Refuse, before any work, to write over a file that is the user's, not review's.

        Raises:
            UsageError: a path is taken by something review does not own.
        """
        for name in names:
            self._target(name)

    def write(self, name: str, text: str) -> None:
        target = self._target(name)
        data = text.encode()
        try:
            write_atomically(target, lambda handle: handle.write(data))
            target.chmod(_FILE_MODE)  # a temporary file's 0600 would hide it from the team
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
        self.written.append(name)

    def finish(self, manifest: Manifest) -> list[str]:
        """Remove the earlier review's files this one did not write (its requests that are
        gone), and the folders they leave empty; write the manifest. Returns what was removed.
        """
        keep = set(self.written)
        removed = []
        for name in sorted(self.owned - keep):
            path = self.root / name
            try:
                if stat.S_ISREG(path.lstat().st_mode):
                    path.unlink()
                    removed.append(name)
            except FileNotFoundError:
                continue
            for parent in PurePosixPath(name).parents:
                if str(parent) == ".":
                    break
                try:
                    (self.root / parent).rmdir()  # only when empty: a user's file stays
                except OSError:
                    break
        self.write(MANIFEST, manifest.text())
        return removed

    def _target(self, name: str) -> Path:
        if not safe_relative(name):
            raise UsageError(f"refusing to write '{name}' outside the review folder")
        target = self.root / name
        for parent in [*reversed(PurePosixPath(name).parents)][1:]:
            if (self.root / parent).is_symlink():
                raise UsageError(f"refusing to write through the symbolic link "
                                 f"{self.root / parent}")
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise UsageError(f"refusing to write {target}: it is not a regular file")
        if target.exists() and name not in self.owned and name != MANIFEST:
            raise UsageError(f"refusing to overwrite {target}: the review folder did not "
                             "write it")
        return target


def relative_input(value: str, root: Path) -> str:
    """An input path as the manifest keeps it: relative to the review folder when it names a
    file; as given otherwise (`demo`, a bundled profile's name, `-`)."""
    path = Path(value)
    if value == "-" or not path.exists():
        return value
    return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()


def absolute_input(value: str, root: Path) -> str:
    """A manifest's input path as a path the command can open from the working folder."""
    path = root / value
    if value == "-" or Path(value).is_absolute() or not path.exists():
        return value
    return str(path)
