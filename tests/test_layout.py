"""The rooms of toolcat import one way (docs/architecture.md): every import, including those
inside functions and under TYPE_CHECKING, goes from a room to one listed before it, and no
module imports itself back through others."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "toolcat"

# bottom to top: a room may import only rooms before it in this list
ROOMS = ["model", "wording", "threads", "cjk", "languages", "urls", "errors", "source", "config",
         "providers", "calls", "pin", "define", "mcp", "catalog", "search", "resolution",
         "render", "lint", "bench", "tune", "serve", "gateway", "review", "cli", "__main__"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(module: str) -> set[str]:
    """The toolcat modules `module` imports, wherever the import statement is."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name.startswith("toolcat.") and name != module:
                found.add(name)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def room(module: str) -> str:
    return module.split(".")[1] if "." in module else "toolcat"


def test_no_module_imports_itself_back():
    graphlib.TopologicalSorter(GRAPH).prepare()  # raises CycleError naming the cycle


def test_every_room_is_in_the_documented_order():
    assert {room(m) for m in MODULES} - {"toolcat"} == set(ROOMS)
    documented = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text()
    for name in ROOMS[:-1]:
        assert f"`{name}`" in documented, f"room {name} is not in docs/architecture.md"


def test_rooms_import_only_rooms_below_them():
    upward = sorted(f"{m} -> {t}" for m, targets in GRAPH.items() for t in targets
                    if room(m) != "toolcat" and room(t) != "toolcat"
                    and ROOMS.index(room(t)) > ROOMS.index(room(m)))
    assert not upward, "imports against the direction of the rooms:\n" + "\n".join(upward)


def test_each_package_names_the_rooms_it_imports():
    """The note at the top of each package lists every room its modules import."""
    import re

    for name in ROOMS:
        init = PACKAGE / name / "__init__.py"
        if not init.exists() or name == "cli":
            continue
        listed = re.search(r"Imports only rooms below it \(([^)]*)\)", init.read_text())
        assert listed, f"toolcat/{name}/__init__.py does not say which rooms it imports"
        said = {r.strip() for r in listed.group(1).split(",")}
        used = {room(t) for m, targets in GRAPH.items() if room(m) == name for t in targets}
        used -= {name, "toolcat", "model", "errors", "wording", "threads", "urls"}
        assert used <= said, f"{name} imports {sorted(used - said)} but does not say so"
