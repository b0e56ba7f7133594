"""The review folder: its manifest, and writing into it without losing anything of the user's.

`toolcat-review.yaml` marks a folder review wrote: the inputs it was made from (paths relative
to the folder, so `--check` works from any working directory and in CI), its records, and
every file review wrote there. Review writes into a folder that does not exist, is empty, or
has that manifest; it writes only the files it owns, each atomically, never through a symbolic
link or outside the folder, and removes only files an earlier review listed as its own.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from toolcat.errors import ConfigError, UsageError
from toolcat.model import SourceRef
from toolcat.review.files import DECISIONS, PROMPT, TRACE, dump_yaml
from toolcat.source.cache import new_file_mode, write_atomically
from toolcat.source.files import parse_file

_FILE_MODE = new_file_mode()  # what a new file gets; read once, at import
MANIFEST = "toolcat-review.yaml"
FORMAT = 1
TOOLS = "tools.yaml"
PAGE = "index.html"
CHANGES = "changes.md"
# the files review writes in a record's folder: only these are ever removed (a manifest is
# committed, so a pull request can list the user's own files in it)
RECORD_FILE = re.compile(rf"(?:{re.escape(PROMPT)}|{re.escape(DECISIONS)}|{re.escape(TRACE)}"
                         r"|payload\.[A-Za-z0-9_-]+\.json)")
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
            # a temporary file's 0600 would hide it from the team
            write_atomically(target, lambda handle: handle.write(data), mode=_FILE_MODE)
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
            if not self._wrote(name):
                continue
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

    def _wrote(self, name: str) -> bool:
        """Whether `name`, listed as the earlier review's, is a file review writes, reached
        through no symbolic link: a record's file inside a record folder it listed, or one
        of the folder's own files. Anything else the manifest lists is left alone."""
        parts = PurePosixPath(name).parts
        if not safe_relative(name):
            return False
        if len(parts) == 1:
            return name in (TOOLS, PAGE, CHANGES)
        folder = "/".join(parts[:-1])
        if len(parts) != 3 or RECORD_FILE.fullmatch(parts[-1]) is None or (
                self.before is not None and folder not in self.before.records):
            return False
        here = self.root
        for part in parts[:-1]:
            here = here / part
            try:
                if not stat.S_ISDIR(here.lstat().st_mode):  # a link, or not a folder
                    return False
            except OSError:
                return False
        return True

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


PATH_INPUTS = ("catalogs", "profiles", "queries", "topics", "baseline")
RUNNABLE_INPUTS = ("catalogs", "baseline")  # inputs that could name Python to import


def manifest_inputs(root: Path, manifest: Manifest, bundled_profiles: Iterable[str] = (),
                    env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The inputs of a committed review folder, as paths the command can open, held as data:
    a pull request may change the manifest, and `--check` runs in CI. Every path must stay
    inside the folder's repository (the nearest folder above holding `.git`, else the review
    folder itself), and none may name Python to import (a `.py` file or a module name),
    unless $TOOLCAT_TRUST trusts its folder; `demo` and a bundled profile's name pass.

    Raises:
        ConfigError: naming the manifest's line of the input that may not be used.
    """
    from toolcat.config import governed_tree
    from toolcat.config.trust import is_inside, trusted_folders
    from toolcat.define.reader import is_python_source

    manifest_file = root / MANIFEST
    tree = governed_tree(manifest_file).resolve()
    trusted = trusted_folders(env)
    names = {"catalogs": ("demo",), "profiles": tuple(bundled_profiles)}
    out: dict[str, Any] = {}
    for key, value in manifest.inputs.items():
        if key not in PATH_INPUTS or value is None:
            out[key] = value
            continue
        listed = isinstance(value, list)
        items = value if listed else [value]
        if not all(isinstance(v, str) for v in items) or (listed and key not in (
                "catalogs", "profiles")):
            what = "paths" if key in ("catalogs", "profiles") else "a path"
            raise _input_error(manifest_file, f"/inputs/{key}", f"'{key}' holds {what}")
        opened = []
        for i, item in enumerate(items):
            pointer = f"/inputs/{key}/{i}" if listed else f"/inputs/{key}"
            if item in names.get(key, ()) and (key == "profiles" or not (root / item).exists()):
                opened.append(item)
                continue
            path = Path(absolute_input(item, root))
            if not path.is_absolute():
                path = root / item  # not there: it still names a place, held to the rule
            if not is_inside(path, (tree, *trusted)):
                raise _input_error(manifest_file, pointer, (
                    f"{key}: '{item}' is outside {tree}, the repository of the review "
                    "folder; a review folder is data and names only files inside it (give "
                    f"the input on the command line to use it, or trust its folder with "
                    f"$TOOLCAT_TRUST)"))
            if key in RUNNABLE_INPUTS and is_python_source(path) \
                    and not is_inside(path, trusted):
                raise _input_error(manifest_file, pointer, (
                    f"{key}: '{item}' names Python, which would be imported and run; a "
                    "review folder is data and names no code (give it with -c on the "
                    "command line, or trust its folder with $TOOLCAT_TRUST)"))
            opened.append(str(path))
        out[key] = opened if listed else opened[0]
    return out


def _input_error(manifest_file: Path, pointer: str, message: str) -> ConfigError:
    parsed = parse_file(manifest_file)
    line, column = parsed.index.locate(pointer)
    return ConfigError(message, where=SourceRef(str(manifest_file), line, column, pointer))


def absolute_input(value: str, root: Path) -> str:
    """A manifest's input path as a path the command can open from the working folder."""
    path = root / value
    if value == "-" or Path(value).is_absolute() or not path.exists():
        return value
    return str(path)
