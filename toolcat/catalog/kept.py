"""What commands work out from a catalog alone and keep in the cache, each kind on its own.

A catalog read from JSON or YAML files is known by its content (`catalog_key`): the SHA-256 of
the text of every file it was read from (taken as it was read, `Catalog.digests`, so a file
changed since cannot key the tools read before) and of every file a `$ref` pointed into, the
tools' names as loaded, and the versions of toolcat and of reading (`READING`). A catalog that
is not only such files (tools given in Python, a Python module) has no key: what would be kept
is made every time.

Each kind of data (serve's security verdicts and search texts, the token counts of a
resolution, ...) is a `Kind` with its own folder, `cache_dir()/kept/<kind>/`, and its own
version: bumping one kind's version makes its entries other keys and leaves every other kind
(and the search index, toolcat.search.index) as it was. Entries are sealed, bounded and
written atomically by toolcat.source.cache; one that cannot be used is made again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar
from urllib.parse import unquote

from toolcat import __version__
from toolcat.model import Catalog
from toolcat.source import cache

if TYPE_CHECKING:
    import numpy as np

# Bump when loading the same files can give other tools (a loader change that a toolcat
# release number does not mark): every kind's entries, and the index, are then other keys.
READING = 1
KEEP = 8  # catalogs whose entries each kind keeps, the most recently used
INDEXED = (".json", ".yaml", ".yml")  # the files a kept entry may be made from
T = TypeVar("T")


@dataclass(frozen=True)
class Kind:
    """One kind of data kept per catalog: its name (its folder's), the version of its format
    (bumped when what is stored or how it is made changes), the ending of its files' names,
    the bound in bytes of one entry, and how many catalogs keep one."""

    name: str
    version: int
    suffix: str
    limit: int
    keep: int = KEEP

    def path(self, key: str, part: str = "") -> Path:
        """Where the entry of the catalog (or texts) keyed `key` is; `part` tells apart the
        entries of one kind for one catalog (a token encoding). The version is in the file's
        key, so that the entries of another version are pruned like other catalogs'."""
        digest = hashlib.sha256(f"{key}\0{self.name} {self.version}\0{part}".encode())
        name = f"{digest.hexdigest()[:40]}-{self.name}{f'-{part}' if part else ''}{self.suffix}"
        return cache.cache_dir() / "kept" / self.name / name


_KEYED: dict[int, tuple[Catalog, str | None]] = {}  # the last catalogs keyed, by identity
_KEYED_KEEP = 2


def catalog_key(catalog: Catalog) -> str | None:
    """The content hash of a catalog read from files, or None when it was not (only) read
    from JSON or YAML files. Worked out once per catalog object (a command asks for it for
    its scorer and again for its token counts: each time a pass over every tool's name)."""
    known = _KEYED.get(id(catalog))
    if known is not None and known[0] is catalog:
        return known[1]
    key = _catalog_key(catalog)
    if len(_KEYED) >= _KEYED_KEEP:
        _KEYED.pop(next(iter(_KEYED)))
    _KEYED[id(catalog)] = (catalog, key)
    return key


def _catalog_key(catalog: Catalog) -> str | None:
    digest = hashlib.sha256(f"toolcat {__version__} catalog {READING}\0".encode())
    if not catalog.sources:
        return None
    for source in catalog.sources:  # the text each file was read from, hashed as it was read
        if Path(source).suffix.lower() not in INDEXED or source not in catalog.digests:
            return None
        digest.update(bytes.fromhex(catalog.digests[source]))
    for uri in sorted(catalog.documents):
        path = Path(unquote(uri.removeprefix("file://")))
        if not uri.startswith("file://") or path.suffix.lower() not in INDEXED:
            return None
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            return None
    digest.update("\0".join(t.qualified_name for t in catalog.tools).encode())
    return digest.hexdigest()[:40]


# the token counts of a catalog's definitions, and of the built-ins' (by their text), read by
# resolve and lint alike; the version changes when definition_tokens counts otherwise
TOKENS = Kind("tokens", 1, ".npy", 64 << 20)
BUILTIN_TOKENS = Kind("builtin-tokens", 1, ".npy", 1 << 20)


def token_part(encoding: str) -> str:
    """The part under which token counts in `encoding` are kept."""
    return "".join(c if c.isalnum() else "_" for c in encoding)


def kept(kind: Kind, catalog: Catalog, make: Callable[[], T],
         parse: Callable[[memoryview], T], write: Callable[[T, BinaryIO], object],
         part: str = "") -> T:
    """The `kind` entry of `catalog` as `parse(payload)` reads it, when it was kept and is
    sound; otherwise `make()`, kept (`write(value, file)`) when the catalog has a key."""
    key = catalog_key(catalog)
    if key is None:
        return make()
    return _recalled(kind, kind.path(key, part), make, parse, write)


def _recalled(kind: Kind, path: Path, make: Callable[[], T],
              parse: Callable[[memoryview], T], write: Callable[[T, BinaryIO], object]) -> T:
    found = cache.recall(path, kind.limit, parse, f"kept {kind.name}")
    if found is not None:
        return found
    made = make()
    cache.store(path, lambda handle: write(made, handle), kind.keep)
    return made


def catalog_numbers(kind: Kind, catalog: Catalog, build: Callable[[], Sequence[int]],
                    part: str = "") -> list[int]:
    """`build()`: one whole number per tool of `catalog` (token counts), kept when the
    catalog has a key, so that a later process reads them instead of computing them tool by
    tool."""
    size = len(catalog.tools)
    return kept(kind, catalog, _numbers_of(build), _numbers(size), _write_numbers, part)


def text_numbers(kind: Kind, texts: Sequence[str], build: Callable[[], Sequence[int]],
                 part: str = "") -> list[int]:
    """`build()`: one whole number per text of `texts` (the token counts of the built-in
    tools' definitions), kept under the SHA-256 of every text (and toolcat's version), so
    that a later process reads them instead of loading a tokenizer for a dozen definitions.
    A changed text is another entry."""
    digest = hashlib.sha256(f"toolcat {__version__} texts\0".encode())
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    path = kind.path(digest.hexdigest()[:40], part)
    return _recalled(kind, path, _numbers_of(build), _numbers(len(texts)), _write_numbers)


def _numbers_of(build: Callable[[], Sequence[int]]) -> Callable[[], list[int]]:
    return lambda: [int(n) for n in build()]


def _numbers(size: int) -> Callable[[memoryview], list[int]]:
    """A reader of an entry of `size` whole numbers (one .npy array of int64)."""
    def parse(payload: memoryview) -> list[int]:
        import numpy as np

        arrays: list[np.ndarray] = cache.numpy_arrays(payload)
        if len(arrays) != 1 or arrays[0].shape != (size,) or arrays[0].dtype != np.int64:
            raise ValueError(f"the kept numbers are not {size} whole numbers")
        return [int(n) for n in arrays[0].tolist()]

    return parse


def _write_numbers(numbers: list[int], handle: BinaryIO) -> None:
    import numpy as np

    cache.save_arrays(handle, [np.asarray(numbers, dtype=np.int64)])
