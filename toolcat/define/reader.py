"""Python modules as catalogs: `-c my_agent.tools` (a module name) or `-c my_agent/tools.py`.

The module is imported and every tool decorated with `@toolcat.tool` in it (and in a `catalog`
object it exports) joins the catalog. Importing a module runs its code, exactly as `import`
does. A module name is imported with the folder it is relative to (the current folder for
`-c`, the configuration file's folder for `catalogs:`) at the front of `sys.path`; a `.py` file
inside a package (folders with `__init__.py`) is imported under its package name, so its
relative imports work and `-c pkg/tools.py` and `-c pkg.tools` are the same module. What the
module prints while it is imported goes to stderr, so `--json` output stays clean.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import linecache
import re
import sys
import sysconfig
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from toolcat.errors import CatalogError, ToolcatError
from toolcat.model import SourceRef
from toolcat.source.files import CATALOG_SUFFIXES

if TYPE_CHECKING:
    from toolcat.model import Catalog

MODULE_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def is_python_source(path: Path) -> bool:
    """A `.py` file, or a dotted module name that is not an existing file or folder."""
    suffix = path.suffix.lower()
    if suffix == ".py":
        return True
    return (suffix not in CATALOG_SUFFIXES and MODULE_NAME.match(path.name) is not None
            and not path.exists())


def load_python(path: Path) -> Catalog:
    """Import the module `path` names and collect its tools.

    Raises:
        CatalogError: the module does not exist, fails to import (the message names the line
            of the module that failed; the original exception is chained), or has no tools.
        DefinitionError: a tool in it breaks the `@tool` contract.
    """
    from toolcat.define.tools import module_catalog

    if path.suffix.lower() == ".py":
        module, name = _import_file(path)
        source = str(path)
    else:
        name = path.name
        module = _import_name(name, path.parent, shown=str(path))
        source = getattr(module, "__file__", None) or str(path)
    return module_catalog(module, source, default_server=name.rpartition(".")[2])


def _import_name(name: str, root: Path, *, shown: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    return _guarded(name, root, lambda: importlib.import_module(name), shown=shown)


def _import_file(path: Path) -> tuple[ModuleType, str]:
    """The module of a `.py` file, and its natural name (dotted when inside a package)."""
    if not path.is_file():
        raise CatalogError("no such file" if not path.exists() else "is not a file",
                           where=SourceRef(str(path)))
    file = path.resolve()
    root, name = _package_root(file)
    loaded = sys.modules.get(name)
    if loaded is not None and _file_of(loaded) == file:
        return loaded, name
    if "." in name:
        module = _guarded(name, root, lambda: importlib.import_module(name), shown=str(path))
        if _file_of(module) != file:
            raise CatalogError(
                f"cannot import as {name}: a module of that name is already imported from "
                f"{_file_of(module)}", where=SourceRef(str(path)))
        return module, name
    module_name = name if _free(name, file) else _private_name(name, file)
    return _guarded(name, root, lambda: _exec_file(module_name, file), shown=str(path)), name


def _package_root(file: Path) -> tuple[Path, str]:
    """The folder to import from and the dotted name: packages are walked up to their top."""
    parts = [] if file.stem == "__init__" else [file.stem]
    folder = file.parent
    while (folder / "__init__.py").is_file() and MODULE_NAME.match(folder.name):
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts) or file.parent.name


def _free(name: str, file: Path) -> bool:
    """No other module is imported, or importable, under `name` (so `random.py` does not
    shadow the standard library for the rest of the process)."""
    if name in sys.modules:
        return False
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return True
    return spec is None or (spec.origin is not None and Path(spec.origin).resolve() == file)


def _private_name(name: str, file: Path) -> str:
    return f"_toolcat_{name}_{hashlib.sha1(str(file).encode()).hexdigest()[:10]}"


def _exec_file(module_name: str, file: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def _file_of(module: ModuleType) -> Path | None:
    file = getattr(module, "__file__", None)
    return Path(file).resolve() if file else None


@contextlib.contextmanager
def _on_path(root: Path) -> Iterator[None]:
    entry = str(root.resolve())
    added = entry not in sys.path
    if added:
        sys.path.insert(0, entry)
    try:
        yield
    finally:
        if added and entry in sys.path:
            sys.path.remove(entry)


def _guarded(name: str, root: Path, load: Callable[[], ModuleType], *, shown: str) -> ModuleType:
    """Run an import of user code; every way it can fail becomes one CatalogError."""
    try:
        with _on_path(root), contextlib.redirect_stdout(sys.stderr):
            return load()
    except ToolcatError:
        raise  # a DefinitionError names its decorator already
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise CatalogError(f"no file, folder or Python module named '{shown}'",
                               where=None) from exc
        raise _import_failed(name, exc) from exc
    except SyntaxError as exc:
        where = SourceRef(exc.filename or shown, exc.lineno or 0, exc.offset or 0)
        raise CatalogError(f"cannot import {name}: invalid Python: {exc.msg}",
                           where=where) from exc
    # Importing runs arbitrary code: anything it raises, even SystemExit, is its failure.
    except (Exception, SystemExit) as exc:
        raise _import_failed(name, exc) from exc


def _library(file: str) -> bool:
    """Code that is not the user's: toolcat, the standard library, installed packages."""
    return file.startswith("<") or str(Path(file).resolve()).startswith(_library_paths())


@functools.cache
def _library_paths() -> tuple[str, ...]:
    paths = {str(Path(p).resolve()) for key in ("stdlib", "platstdlib", "purelib", "platlib")
             if (p := sysconfig.get_paths().get(key))}
    return (*paths, str(Path(__file__).resolve().parents[1]))


def _import_failed(name: str, exc: BaseException) -> CatalogError:
    """`cannot import NAME: Type: message`, at the innermost line of the user's own code."""
    own = [f for f in traceback.extract_tb(exc.__traceback__) if not _library(f.filename)]
    frame = own[-1] if own else None
    where = None
    if frame is not None and frame.lineno:
        colno = getattr(frame, "colno", None)
        if colno is None:
            text = linecache.getline(frame.filename, frame.lineno)
            colno = len(text) - len(text.lstrip())
        where = SourceRef(frame.filename, frame.lineno, colno + 1)
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return CatalogError(f"cannot import {name}: {detail}", where=where)
