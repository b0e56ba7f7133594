"""Project configuration: `toolcat.yaml`, or `[tool.toolcat]` in pyproject.toml, found in the
current directory or its parents up to the repository root or $HOME; and the choice of
catalogs a command works on. What a configuration file may do is decided in config.trust.

    catalogs: [tools/, mcp-dump.json]   # relative to the config file
    lint: {select: [...], ignore: [...], severity: {TC204: error}, options: {...}}
    profile: profiles/agent.yaml        # the agent profile of resolve, render and tokens
    refs: {roots: [../shared-schemas]}  # folders a file `$ref` may reach besides the catalog's
    names: {prefix: collisions}         # server__tool only for shared names, or `always`
    mcp: {unannotated: unknown}         # MCP tools without safety hints: unknown, safe or unsafe
    device: auto                        # where embeddings are encoded: auto, cpu, cuda, mps
    tuning: tuning.json                 # a `toolcat tune` file the hybrid scorer applies
    openapi: {base_urls: {Pet Shop: https://staging.pets.example/v1}}   # where serve calls

Imports only rooms below it (source); see docs/architecture.md.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcat.config.paths import demo_catalog
from toolcat.config.trust import check_owned, check_reach, home, is_boundary
from toolcat.errors import ConfigError
from toolcat.model import SourceRef
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_file, read_bytes, read_text
from toolcat.source.positions import PositionIndex

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_NAMES = ("toolcat.yaml", "toolcat.yml")
ENV_CATALOG = "TOOLCAT_CATALOG"
SECTIONS = ("catalogs", "lint", "profile", "refs", "names", "mcp", "device", "tuning",
            "openapi")
# where embeddings may be encoded (`device:`, --device, $TOOLCAT_DEVICE); `cuda:1` names a GPU
DEVICES = ("auto", "cpu", "cuda", "mps")
REFS_KEYS = ("roots",)


@dataclass(frozen=True)
class Config:
    """Settings from one configuration file (or none: all defaults)."""

    path: Path | None = None
    catalogs: tuple[Path, ...] = ()
    # where each of `catalogs` is written in the file (for errors about it)
    catalog_places: tuple[SourceRef, ...] = ()
    profile: str | None = None
    tuning: Path | None = None
    ref_roots: tuple[Path, ...] = ()
    device: str | None = None
    sections: Mapping[str, Any] = field(default_factory=dict)
    index: PositionIndex | None = field(default=None, compare=False, repr=False)

    def where(self, pointer: str) -> SourceRef | None:
        """The file:line:column of the setting at `pointer` (`/lint/select/0`)."""
        if self.path is None:
            return None
        return self.reader().where(pointer)

    def reader(self) -> FieldReader:
        """A reader of this file's settings, placing each problem at its line and column."""
        return FieldReader(str(self.path or CONFIG_NAMES[0]), self.index,
                           document="the configuration")

    def section(self, name: str) -> Mapping[str, Any]:
        value = self.sections.get(name) or {}
        if not isinstance(value, dict):
            raise self.reader().error(f"/{name}", f"'{name}' must be a mapping")
        return value


def find_config(start: Path) -> Config:
    """The nearest toolcat.yaml (or pyproject.toml with [tool.toolcat]) at or above `start`,
    up to the repository root (the first folder holding `.git`) or $HOME: a file above them
    is never read.

    Raises:
        ConfigError: the file is invalid, or not to be trusted (config.trust).
    """
    start = start.absolute()
    home_folder = home()
    for folder in (start, *start.parents):
        for name in CONFIG_NAMES:
            if (folder / name).is_file():
                check_owned(folder / name, "the configuration file")
                parsed = parse_file(folder / name)
                return _from_mapping(parsed.data, folder / name, parsed.index)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            section = _pyproject_section(pyproject)
            if section is not None:
                return _from_mapping(section, pyproject)
        if is_boundary(folder, home_folder):
            break
    return Config()


def governed_tree(config_file: Path) -> Path:
    """The folder tree a configuration file governs: its repository (the nearest folder at
    or above it holding `.git`, or $HOME), else its own folder."""
    home_folder = home()
    folder = config_file.absolute().parent
    for candidate in (folder, *folder.parents):
        if is_boundary(candidate, home_folder):
            return candidate
    return folder


MAX_PYPROJECT_BYTES = 4 * 2**20  # the largest real pyproject.toml files stay under 100 KB
# where a pyproject.toml may name the toolcat table (`[tool.toolcat]`, `tool.toolcat.x =`,
# `toolcat = {...}` under [tool]); a file without it is not parsed. Errs toward a match.
_TOOLCAT_KEY = re.compile(rb"""(?:\.\s*["']?toolcat["']?\s*(?:[.\]=]|$))"""
                          rb"""|(?:^\s*["']?toolcat["']?\s*[.=])""", re.M)


def _head(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(MAX_PYPROJECT_BYTES)


_TOML_PLACE = re.compile(r" \(at line (\d+), column (\d+)\)")


def _pyproject_section(path: Path) -> dict[str, Any] | None:
    """pyproject.toml's [tool.toolcat] table, or None; checked like a toolcat.yaml when it
    has one (a stranger's pyproject.toml without one is no configuration). Its owner is
    checked before it is parsed, and its size and nesting are bounded: a file that is not
    the user's is only searched for the word `toolcat` (which, found, is refused)."""
    try:
        size = path.stat().st_size
    except OSError:
        return None
    try:
        check_owned(path, "the configuration file")
    except ConfigError:
        if size <= MAX_PYPROJECT_BYTES and _TOOLCAT_KEY.search(read_bytes(path)):
            raise
        return None  # a stranger's file that says nothing to toolcat: not parsed
    if size > MAX_PYPROJECT_BYTES:
        if _TOOLCAT_KEY.search(_head(path)) is None:
            return None
        raise ConfigError(f"larger than {MAX_PYPROJECT_BYTES // 2**20} MiB: not read as "
                          "configuration", where=SourceRef(str(path)))
    text = read_text(path)
    if _TOOLCAT_KEY.search(text.encode()) is None:  # no [tool.toolcat]: nothing to parse
        return None
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ConfigError("nested too deeply to be read", where=SourceRef(str(path))) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        place = _TOML_PLACE.search(message)
        where = SourceRef(str(path), int(place[1]), int(place[2])) if place else SourceRef(
            str(path))
        raise ConfigError(f"invalid TOML: {_TOML_PLACE.sub('', message)}", where=where) \
            from None
    tool = data.get("tool")
    section = tool.get("toolcat") if isinstance(tool, dict) else None
    if not isinstance(section, dict):
        return None
    return section


def _from_mapping(data: Any, path: Path, index: PositionIndex | None = None) -> Config:
    read = FieldReader(str(path), index, document="the configuration")
    if data is None:
        return Config(path=path)
    if not isinstance(data, dict):
        raise ConfigError("configuration must be a mapping", where=SourceRef(str(path)))
    read.known_keys("", data, SECTIONS)
    catalogs = data.get("catalogs", [])
    listed = not isinstance(catalogs, str)
    if isinstance(catalogs, str):
        catalogs = [catalogs]
    if not isinstance(catalogs, list) or not all(isinstance(c, str) for c in catalogs):
        raise read.error("/catalogs", "'catalogs' must be a path or a list of paths")
    places = tuple(read.where(f"/catalogs/{i}" if listed else "/catalogs")
                   for i in range(len(catalogs)))
    for catalog, place in zip(catalogs, places, strict=True):
        check_owned(path.parent / catalog, "the catalog", place)
    profile = data.get("profile")
    if profile is not None:
        read.text("/profile", profile, what="a profile file or the name of a bundled profile")
    if profile and ((path.parent / profile).exists() or len(Path(profile).parts) > 1
                    or Path(profile).suffix):  # a file, not a bundled profile's name
        profile = str(path.parent / Path(profile).expanduser())
        check_owned(Path(profile), "the profile", read.where("/profile"))
    tuning = data.get("tuning")
    if tuning is not None:
        read.text("/tuning", tuning, allow_empty=False,
                  what="the path of a tuning file (toolcat tune -o)")
    device = data.get("device")
    if device is not None and (not isinstance(device, str)
                               or device.strip().lower().split(":")[0] not in DEVICES):
        raise read.error("/device", f"'device' must be one of {', '.join(DEVICES)} (or cuda:N), "
                         f"not {json.dumps(device)}")
    tuning_path = path.parent / Path(tuning).expanduser() if tuning else None
    if tuning_path is not None:
        check_owned(tuning_path, "the tuning", read.where("/tuning"))
    return Config(
        path=path,
        catalogs=tuple(path.parent / c for c in catalogs),
        catalog_places=places,
        profile=profile,
        tuning=tuning_path,
        ref_roots=_ref_roots(data.get("refs"), path, read),
        device=device,
        sections={k: v for k, v in data.items()
                  if k not in ("catalogs", "profile", "refs", "tuning", "device")},
        index=index,
    )


def _ref_roots(value: Any, path: Path, read: FieldReader) -> tuple[Path, ...]:
    """`refs: {roots: [...]}`: existing folders, relative to the config file `path`, symlinks
    resolved, inside the tree it governs (config.trust.check_reach)."""
    folder = path.parent
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise read.error("/refs", "'refs' must be a mapping such as {roots: [schemas/]}")
    read.known_keys("/refs", value, REFS_KEYS)
    roots = value.get("roots", [])
    if isinstance(roots, str):
        roots = [roots]
    if not isinstance(roots, list):
        raise read.error("/refs/roots", "'refs.roots' must be a folder or a list of folders")
    out = []
    for i, root in enumerate(roots):
        place = f"/refs/roots/{i}"
        if not isinstance(root, str) or not root.strip():
            raise read.error(place, "each of 'refs.roots' must be a folder path")
        written = folder / Path(root).expanduser()
        real = written.resolve()
        if not real.is_dir():
            raise read.error(place, f"refs.roots: '{root}' is not a folder")
        check_owned(written, "the refs.roots folder", read.where(place))
        check_reach(real, governed_tree(path), "refs.roots", read.where(place))
        out.append(real)
    return tuple(out)


@dataclass(frozen=True)
class CatalogChoice:
    paths: tuple[Path, ...]
    reason: str  # option | env | config | demo


def choose_catalogs(
    explicit: Sequence[str | Path],
    *,
    config: Config,
    env: Mapping[str, str] | None = None,
) -> CatalogChoice:
    """`-c` paths, else $TOOLCAT_CATALOG, else the config's catalogs, else the bundled demo."""
    env = os.environ if env is None else env
    if explicit:
        return CatalogChoice(tuple(Path(p) for p in explicit), "option")
    if env.get(ENV_CATALOG):
        paths = [p for p in env[ENV_CATALOG].split(os.pathsep) if p]
        return CatalogChoice(tuple(Path(p) for p in paths), "env")
    if config.catalogs:
        return CatalogChoice(config.catalogs, "config")
    return CatalogChoice((demo_catalog(),), "demo")
