"""The cache: what toolcat can rebuild from the catalog (search indexes, embeddings, what
reading a large file gave, the verdicts of large files already checked), kept between runs in
`cache_dir()`. A cache can only make a command faster, never change what it reports, even
when someone else wrote the folder:

- Every entry is sealed: an HMAC-SHA256 of its bytes and of its place in the cache, under a
  key only this user can read (`cache_key()`, kept outside the cache folder). An entry whose
  seal does not verify (planted, copied under another name, damaged) is never parsed.
- The cache folder is used only when it and the subfolder read are owned by this user and
  writable by nobody else, as ssh treats `~/.ssh`; otherwise toolcat warns once and runs
  without the cache.
- Reading an entry is bounded before it starts: only a regular file, no larger than the
  limit its reader gives, is read, and entries are plain formats that cannot express a bomb
  (JSON, numpy arrays without pickles).
- A large entry (MAP_FROM bytes or more) that this user owns and no one else may write is
  mapped into memory rather than copied: its seal is checked over the mapped bytes, and
  numpy arrays are read as views of them (`numpy_arrays`), so 66 MB of tool vectors cost
  one pass of the seal instead of the seal and two copies. Only this user can change such
  a file after its seal was checked, and this user can forge a seal anyway (the key is
  theirs); toolcat itself never rewrites an entry in place (`write_atomically`), so a
  mapped entry stays as it was checked.
- Only files named as toolcat names its entries are ever deleted (`prune`).

Every entry that cannot be used gives one warning line and is rebuilt (`recall`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import io
import logging
import mmap
import os
import re
import secrets
import stat
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

if TYPE_CHECKING:
    import numpy as np

CACHE_ENV = "TOOLCAT_CACHE_DIR"
MAGIC = b"toolcat\x01"  # an entry: MAGIC, its 32-byte seal, then the payload
_SEAL = len(MAGIC) + 32
MAP_FROM = 1 << 20  # bytes: a larger entry is mapped, not copied (POSIX only: Windows
# cannot replace or remove a file while it is mapped)
DATA_ALIGN = 64  # bytes: where the numbers of each array of an entry start in its file
KEY_BYTES = 32
# the names toolcat gives its entries: a hex key, then "-" and a part name, or an extension
ENTRY_NAME = re.compile(r"[0-9a-f]{16,64}(-[A-Za-z0-9][A-Za-z0-9._-]*|\.json|\.npz|\.npy)")
# what `write_atomically` leaves when its process is killed mid-write (mkstemp's names)
LEFTOVER_NAME = re.compile(rf"\.(?:{ENTRY_NAME.pattern})\.[A-Za-z0-9_]+\.tmp")
LEFTOVER_AGE = 3600.0  # seconds: older than any write, so no live writer's file is taken
log = logging.getLogger("toolcat")
T = TypeVar("T")
_warned: set[str] = set()
_keys: dict[Path, bytes | None] = {}


class CacheDamage(ValueError):
    """An entry that cannot be used: foreign, tampered with, damaged or too large."""


def cache_dir() -> Path:
    """Where toolcat keeps what it can rebuild (search indexes, embeddings):
    `$TOOLCAT_CACHE_DIR`, else `~/.cache/toolcat`."""
    return _absolute(CACHE_ENV, "~/.cache/toolcat") or Path.home() / ".cache" / "toolcat"


def key_path() -> Path:
    """The per-user key that seals cache entries: `$XDG_CONFIG_HOME/toolcat/cache.key`, else
    `~/.config/toolcat/cache.key` (outside the cache folder, so writing the cache is not
    enough to forge an entry)."""
    config = _absolute("XDG_CONFIG_HOME", "~/.config") or Path.home() / ".config"
    return config / "toolcat" / "cache.key"


def _absolute(variable: str, default: str) -> Path | None:
    """The folder an environment variable names, when it is absolute. A relative one would
    be resolved in whatever folder a command runs, where a repository could ship the key
    and forged entries: it is ignored, as the XDG specification says, with a warning."""
    value = os.environ.get(variable)
    if not value:
        return None
    if not Path(value).is_absolute():
        warn_once(variable, f"ignoring ${variable}={value}: a relative folder would be read "
                  f"in every folder toolcat runs in; give an absolute one ({default} is "
                  "used)")
        return None
    return Path(value)


def warn_once(topic: str, message: str) -> None:
    """One warning line on the `toolcat` logger, once per process for each `topic`."""
    if topic not in _warned:
        _warned.add(topic)
        log.warning("warning: %s", message)


def untrusted(folder: Path) -> str | None:
    """Why `folder` may not hold toolcat's cache (owned by another user, writable by group
    or others), or None when it may (or does not exist yet)."""
    if not hasattr(os, "geteuid"):  # no POSIX owners: the seal alone protects
        return None
    try:
        info = folder.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be inspected ({exc.strerror})"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.geteuid():
        return f"is owned by another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        who = "group and others" if info.st_mode & stat.S_IWOTH and \
            info.st_mode & stat.S_IWGRP else "others" if info.st_mode & stat.S_IWOTH else "group"
        return f"is writable by {who} (chmod go-w {folder})"
    return None


def usable(place: Path) -> bool:
    """Whether toolcat may keep entries in the folder `place`: the cache folder and every
    folder from it down to `place` are trusted (`untrusted`), and a key exists to seal
    entries. A folder that is not trusted gives one warning and the command runs without
    the cache; a home that cannot be written only costs the time the cache saves, quietly."""
    root = cache_dir()
    chain = [root]
    with contextlib.suppress(ValueError):
        for part in place.relative_to(root).parts:
            chain.append(chain[-1] / part)
    if chain[-1] != place:
        chain.append(place)
    for step in chain:
        reason = untrusted(step)
        if reason:
            warn_once(f"folder {step}", f"the cache folder {step} {reason}; toolcat runs "
                      "without its cache")
            return False
    return cache_key() is not None


def _relative(path: Path) -> bytes:
    """The place an entry is sealed for (relative to the cache folder): an entry copied
    under another key or into another kind of entry does not verify."""
    try:
        place = path.relative_to(cache_dir()).as_posix()
    except ValueError:
        place = path.as_posix()
    return place.encode("utf-8", "surrogateescape")


def _seal(key: bytes, path: Path, payload: bytes | memoryview) -> bytes:
    mac = hmac.new(key, b"toolcat cache 1\0" + _relative(path) + b"\0", hashlib.sha256)
    mac.update(payload)
    return mac.digest()


def record_sealer(path: Path) -> Callable[[bytes | memoryview], bytes] | None:
    """The seal of one record of the file at `path`, for a file read a record at a time
    (the embedding cache): an HMAC-SHA256 of the record and of the file's place in the
    cache, under this user's key, kept apart from whole entries' seals. None without a key.
    A record copied into another file, or a whole entry passed for a record, does not
    verify."""
    key = cache_key()
    if key is None:
        return None
    start = hmac.new(key, b"toolcat cache record 1\0" + _relative(path) + b"\0",
                     hashlib.sha256)

    def seal(record: bytes | memoryview) -> bytes:
        mac = start.copy()
        mac.update(record)
        return mac.digest()

    return seal


def read_entry(path: Path, limit: int) -> memoryview | None:
    """The payload of the entry at `path`, its seal verified; None when there is none.

    Raises:
        CacheDamage: the entry is not a regular file, is larger than `limit` bytes of
            payload, or its seal does not verify (foreign, tampered with, damaged).
    """
    if not usable(path.parent):
        return None
    key = cache_key()
    if key is None:
        return None
    try:
        handle = open_regular(path)
    except FileNotFoundError:
        return None
    with handle:
        fd = handle.fileno()
        info = os.fstat(fd)
        if info.st_size > limit + _SEAL:
            raise CacheDamage(f"{info.st_size} bytes, more than an entry of this kind holds")
        # writable either way, as numpy arrays read from a payload must be for torch
        data: bytearray | mmap.mmap
        if info.st_size >= MAP_FROM and _only_mine(info):
            try:  # private: writing into an array read from it never reaches the file
                data = mmap.mmap(fd, 0, access=mmap.ACCESS_COPY)
            except (OSError, ValueError) as exc:  # emptied since it was looked at
                raise CacheDamage(f"cannot be mapped ({exc})") from None
        else:  # one byte more than it held: a file that grew since is seen to be larger
            data = bytearray(info.st_size + 1)
            del data[handle.readinto(data):]
    if len(data) > limit + _SEAL:
        raise CacheDamage("larger than an entry of this kind holds")
    if len(data) < _SEAL or data[:len(MAGIC)] != MAGIC:
        raise CacheDamage("not an entry toolcat wrote")
    payload = memoryview(data)[_SEAL:]
    if not hmac.compare_digest(data[len(MAGIC):_SEAL], _seal(key, path, payload)):
        raise CacheDamage("its seal does not match this user's cache key")
    return payload


def open_regular(path: Path) -> io.BufferedReader:
    """The file at `path` opened for reading, when it is a regular file (not a symbolic
    link, a FIFO, a device): checked on the file opened, so nothing can swap it between the
    check and the read.

    Raises:
        FileNotFoundError: there is no file at `path`.
        CacheDamage: it is no regular file, or cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        if exc.errno == errno.ELOOP:
            raise CacheDamage("a symbolic link, not an entry toolcat wrote") from None
        raise CacheDamage(exc.strerror or type(exc).__name__) from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise CacheDamage("not a regular file")
    return handle


def _only_mine(info: os.stat_result) -> bool:
    """Whether a file may be mapped rather than copied: on POSIX, owned by this user and
    writable by no one else, so no one but this user can change it once its seal is
    checked."""
    return os.name == "posix" and info.st_uid == os.geteuid() and \
        not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def recall(path: Path, limit: int, parse: Callable[[memoryview], T], what: str) -> T | None:
    """`parse(payload)` of the entry at `path` (see `read_entry`), or None when there is no
    usable entry. An entry that cannot be used (its seal, its size, or `parse` raising) is
    removed, with one warning line naming it (`what` it is): its value is rebuilt and
    stored again."""
    return recall_entry(path, limit, parse, what)[0]


def recall_entry(path: Path, limit: int, parse: Callable[[memoryview], T], what: str
                 ) -> tuple[T | None, bool]:
    """As `recall`, and whether the entry was there but could not be used."""
    try:
        payload = read_entry(path, limit)
        if payload is None:
            return None, False
        value = parse(payload)
    except FileNotFoundError:  # removed meanwhile by another process (a merge, a prune)
        return None, False
    # An entry passed its seal, so only a bug or a change of format could make it fail to
    # parse; whatever it is, the cache is not worth a failed command.
    except Exception as exc:
        discard(path, what, exc)
        return None, True
    mark_used(path)
    return value, False


def discard(path: Path, what: str, exc: BaseException) -> None:
    """Warn (one line) that the entry at `path` cannot be used, and remove it."""
    text = str(exc).strip()
    reason = text.splitlines()[0] if text else type(exc).__name__
    log.warning("warning: the %s %s cannot be used (%s); rebuilding it", what, path, reason)
    if ENTRY_NAME.fullmatch(path.name):
        with contextlib.suppress(OSError):
            path.unlink()


def sealed(path: Path, payload: bytes | memoryview) -> bytes | None:
    """The bytes of an entry holding `payload` at `path`; None without a key."""
    key = cache_key()
    if key is None:
        return None
    return MAGIC + _seal(key, path, payload) + payload


def cache_key() -> bytes | None:
    """This user's cache key, created on first use (see `key_path`); None when it cannot be
    kept safely (then the cache is not used)."""
    path = key_path()
    if path not in _keys:
        _keys[path] = _load_key(path)
    return _keys[path]


def _load_key(path: Path) -> bytes | None:
    home = path.parent
    try:
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    reason = untrusted(home)
    if reason:
        warn_once(f"key {home}", f"the folder of the cache key {home} {reason}; toolcat "
                  "runs without its cache")
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    for _ in range(3):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            if _create_key(path):
                continue  # read back whichever key won a race with another process
            return None
        except OSError:
            problem: str | None = "cannot be read"
        else:
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                key = handle.read(KEY_BYTES + 1) if stat.S_ISREG(info.st_mode) else b""
            problem = _key_problem(info, key)
            if problem is None:
                return key
        warn_once(f"key {path}", f"the cache key {path} {problem}; a new one replaces it "
                  "(cached entries are rebuilt)")
        if not _create_key(path, replace=True):
            return None
    return None


def _key_problem(info: os.stat_result, key: bytes) -> str | None:
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if hasattr(os, "geteuid"):
        if info.st_uid != os.geteuid():
            return f"is owned by another user (uid {info.st_uid})"
        if info.st_mode & 0o077:
            return f"may be read or written by others (mode {stat.S_IMODE(info.st_mode):o})"
    if len(key) != KEY_BYTES:
        return "is damaged"
    return None


def _create_key(path: Path, replace: bool = False) -> bool:
    """Write a new random key to `path`, readable by this user only, atomically: a reader
    never sees part of one, and of two processes creating it at once one key wins."""
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".cache.key.", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:  # mkstemp makes it 0600
            handle.write(secrets.token_bytes(KEY_BYTES))
        if replace:
            Path(temp).replace(path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(temp, path)  # fails when another process made one first
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            Path(temp).unlink()
    return True


def write_atomically(target: Path, write: Callable[[BinaryIO], object], *,
                     mode: int | None = None) -> None:
    """Write `target` through `write(file)` so that a reader sees the old file or the whole
    new one, never a part: a temporary file beside it, then one rename. A failed write
    leaves no temporary file behind. `mode`: the file's permission bits (else a temporary
    file's 0600).

    Raises:
        OSError: the folder cannot be written.
    """
    make_folder(target.parent)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        if mode is not None:
            Path(temp).chmod(mode)
        Path(temp).replace(target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def new_file_mode() -> int:
    """The permission bits a new file gets under this process's umask (0666 less it)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def make_folder(place: Path) -> None:
    """Create `place` and the folders above it that are missing, each readable and writable
    by this user only (`mkdir -p` would give the parents the umask's mode).

    Raises:
        OSError: a folder cannot be created.
    """
    missing = []
    while not place.is_dir():
        missing.append(place)
        if place.parent == place:
            break
        place = place.parent
    for step in reversed(missing):
        step.mkdir(mode=0o700, exist_ok=True)


def mark_used(path: Path) -> None:
    """Record that a cache file was just read, for `prune` (its modification time)."""
    with contextlib.suppress(OSError):
        os.utime(path)


def store(path: Path, write: Callable[[BinaryIO], object], keep: int) -> None:
    """Write a sealed cache entry atomically (what `write(file)` writes is its payload) and
    keep its folder to the `keep` entries used last; a cache that cannot be written, or
    whose folder is not trusted, is no error."""
    if not usable(path.parent):
        return
    buffer = io.BytesIO()
    write(buffer)
    entry = sealed(path, buffer.getbuffer())
    if entry is None:
        return
    with contextlib.suppress(OSError):
        write_atomically(path, lambda handle: handle.write(entry))
        prune(path.parent, keep)


def prune(folder: Path, keep: int) -> None:
    """Remove the files of all but the `keep` entries used most recently. An entry is the
    files whose names share what comes before the first `-` (a catalog's key and its parts);
    its last use is the newest modification time among them (a reader marks a use by touching
    the file it read). Only files named as toolcat names its entries are considered: nothing
    else in the folder is ever removed, besides the temporary files of writes killed midway
    an hour ago or more."""
    try:
        names = list(folder.iterdir())
        files = [f for f in names
                 if ENTRY_NAME.fullmatch(f.name) and f.is_file() and not f.is_symlink()]
        _remove_leftovers(f for f in names if LEFTOVER_NAME.fullmatch(f.name))
        last_used: dict[str, float] = {}
        for file in files:
            key = file.name.split("-", 1)[0]
            last_used[key] = max(last_used.get(key, 0.0), file.stat().st_mtime)
    except OSError:  # another process pruning or writing: leave it to the next write
        return
    stale = set(sorted(last_used, key=last_used.__getitem__, reverse=True)[keep:])
    for file in files:
        if file.name.split("-", 1)[0] in stale:
            file.unlink(missing_ok=True)


def _remove_leftovers(temporaries: Iterable[Path]) -> None:
    too_old = time.time() - LEFTOVER_AGE
    for file in temporaries:
        with contextlib.suppress(OSError):
            info = file.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_mtime < too_old:
                file.unlink()


def numpy_file(payload: memoryview, limit: int) -> BinaryIO:
    """An .npy or .npz payload as a file for `numpy.load(..., allow_pickle=False)`. The
    members of an .npz must be stored uncompressed and within `limit` bytes: a compressed
    member's size on disk does not bound what it unpacks to.

    Raises:
        CacheDamage: (or a zipfile error) an .npz member is compressed or too large.
    """
    file = io.BytesIO(payload)
    if bytes(payload[:4]) == b"PK\x03\x04":
        with zipfile.ZipFile(file) as archive:
            for info in archive.infolist():
                if info.compress_type != zipfile.ZIP_STORED or info.file_size > limit:
                    raise CacheDamage(f"member {info.filename} is compressed or too large")
        file.seek(0)
    return file


def mapped(array: np.ndarray) -> bool:
    """Whether `array` is a view of an entry `read_entry` mapped (not of a copy)."""
    owner: object = array
    while owner is not None and not isinstance(owner, memoryview):
        owner = getattr(owner, "base", None)
    return isinstance(owner, memoryview) and isinstance(owner.obj, mmap.mmap)


def save_arrays(handle: BinaryIO, arrays: list[np.ndarray]) -> None:
    """Write `arrays` as .npy records one after the other (what `numpy_arrays` reads; one
    array is an .npy file), each header padded so that the array's numbers start a multiple
    of DATA_ALIGN bytes into the entry's file: read in place from a mapped entry, they are
    then aligned as an array numpy allocates."""
    import numpy as np

    at = _SEAL  # where the payload starts in the entry's file
    for array in arrays:
        array = np.ascontiguousarray(array)
        fields = np.lib.format.header_data_from_array_1_0(array)
        text = "{" + "".join(f"{k!r}: {v!r}, " for k, v in sorted(fields.items())) + "}"
        size = len(text) + 1  # then a newline
        size += -(at + 10 + size) % DATA_ALIGN  # magic and version (8), length (2)
        head = np.lib.format.magic(1, 0) + size.to_bytes(2, "little") + \
            text.ljust(size - 1).encode("latin-1") + b"\n"
        handle.write(head)
        handle.write(array.data.cast("B") if array.size else b"")
        at += len(head) + array.nbytes


def numpy_arrays(payload: memoryview) -> list[np.ndarray]:
    """The arrays of an entry of .npy records (`save_arrays`; an .npy file is one record),
    as views of the payload rather than copies (aligned as `save_arrays` placed them):
    reading the 66 MB of a 43,000-tool catalog's vectors costs nothing beyond checking the
    seal. Only plain C-ordered arrays (no objects, no pickles) are read.

    Raises:
        ValueError: the payload is not such records (numpy's own header checks included).
    """
    import numpy as np

    arrays = []
    at, end = 0, len(payload)
    while at < end:
        prefix = bytes(payload[at:at + 12])
        if len(prefix) < 10 or not prefix.startswith(np.lib.format.MAGIC_PREFIX):
            raise ValueError("not a numpy array record")
        version = (prefix[6], prefix[7])
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"numpy array format {version} is not one toolcat writes")
        width = 2 if version == (1, 0) else 4
        start = at + 8 + width + int.from_bytes(prefix[8:8 + width], "little")
        if len(prefix) < 8 + width or start > end:
            raise ValueError("a numpy array header runs past the entry")
        header = io.BytesIO(payload[at:start])
        np.lib.format.read_magic(header)
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(header) \
            if version == (1, 0) else np.lib.format.read_array_header_2_0(header)
        count = 1
        for size in shape:
            count *= size
        if fortran or dtype.hasobject or start + count * dtype.itemsize > end:
            raise ValueError("a numpy array that is not a plain one of its size")
        array: np.ndarray = np.frombuffer(payload, dtype, count, start).reshape(shape)
        arrays.append(array)
        at = start + count * dtype.itemsize
    return arrays
