"""Whether a Node.js MCP server that ended before listing its tools needs a newer Node.js than
the one that ran it, for the error message: a user reading `TypeError: Cannot read properties
of undefined (reading 'bind')` cannot tell that the Node version is the cause.

The package's `engines.node` range is read from its installed package.json where toolcat can
find it without running anything: the script's package for `node path/to/script.js`, and for
`npx PACKAGE` the package in node_modules of the working folder, or in the folder the
server's own stack trace names (npx's cache). When the range is not satisfied the message says
so; else the same is asked of the packages it depends on, as Node would find them installed
(undici, which a server's fetch may come from, asks for a newer Node than the server itself).
A server that bundles its dependencies into one file has no package.json of theirs: for a
`TypeError: ... NAME is not a function` there, the file the crash happened in is read for
where it takes NAME from, and when that is a Node module (`{ NAME } = require("node:MOD")`),
the Node that ran it is asked whether it has it (`node -e`, a fixed script given the two
names). Else a SyntaxError or TypeError from Node's own modules on stderr says that the Node
version may be the cause, and which one runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolcat.mcp.servers import ServerSpec

NODE_COMMANDS = frozenset({"node", "nodejs", "npx"})
MAX_PACKAGE_JSON = 1 << 20  # bytes of a package.json read; a larger one is not read
MAX_RANGE = 200  # characters of an engines.node range read; a longer one is not judged
VERSION_WAIT = 5.0  # seconds `node --version` gets
# npm's package names (validate-npm-package-name, case folded): never a path
_NAME = re.compile(r"(@[a-z0-9][\w.~-]{0,100}/)?[a-z0-9~][\w.~-]{0,213}", re.IGNORECASE)
# node's options that take a value, and those that run code given on the command line
_NODE_VALUED = frozenset({"-r", "--require", "--import", "--loader",
                          "--experimental-loader", "-C", "--conditions", "--env-file"})
_NODE_INLINE = frozenset({"-e", "--eval", "-p", "--print", "-"})
# npx's options that take a value (the package to run comes after them)
_NPX_VALUED = frozenset({"-p", "--package", "-c", "--call", "--cache", "--registry",
                         "--userconfig", "-w", "--workspace"})
_VERSION = re.compile(r"\d{1,9}\.\d{1,9}\.\d{1,9}[\w.+-]{0,60}")
MAX_LINE = 2_000  # characters of a stderr line looked at; a longer one is passed over
# dependency names looked up (each a few stat calls) for their engines.node: past it, the rest
# of a hostile or huge tree is not judged
MAX_LOOKUPS = 5_000
MAX_DEPENDENCIES = 1_000  # names read of one package.json's dependencies
SHOWN = 3  # more dependencies that need a newer Node, named after the first
# bytes of a crashed script read for where it takes a name from (a bundled server such as
# @dynatrace-oss/dynatrace-mcp-server 2.1.2 is one file of 5 MB)
MAX_SOURCE = 32 << 20
WINDOW = 400  # characters either side of a name looked at for the import that gives it
MAX_PLACES = 200  # places of the name looked at in that script
# the TypeError of a function or class a Node version does not have, and its name
_NOT_A_FUNCTION = re.compile(r"TypeError: (?:[\w$.]{0,300}\.)?([A-Za-z_$][\w$]{0,100}) "
                             r"is not a (?:function|constructor)")
_FRAME = re.compile(r"\(?(?:file://)?(/[^():]{1,1000}\.[cm]?js):\d+:\d+\)?$")
_MODULE = r"[\"'](?:node:)?([a-z_]{1,30}(?:/[a-z_]{1,30})?)[\"']"
_HAS = ('const [m, n] = process.argv.slice(1); let t; try { t = typeof require("node:" + m)[n]; '
        '} catch { t = "error"; } process.stdout.write(t);')
_BUNDLED = re.compile(r"^// node_modules/((?:@[\w.~-]{1,100}/)?[\w.~-]{1,214})/", re.MULTILINE)


@dataclass(frozen=True)
class Package:
    """An installed package: its name and version as its package.json says, and the Node.js
    range its `engines.node` asks for (empty when it asks for none)."""

    name: str
    version: str
    needs: str
    folder: Path | None = None  # where it is installed
    dependencies: tuple[str, ...] = ()  # the names of `dependencies`, `optionalDependencies`

    @property
    def named(self) -> str:
        return f"{self.name} {self.version}".strip()


def node_hint(spec: ServerSpec, stderr: str) -> str:
    """What the message of a Node.js server that ended before listing its tools adds about
    the Node version (`; @acme/server 1.2.0 needs Node >=22, this machine has v20.19.0`), or
    "" when the command is not node or npx, or nothing points at the Node version."""
    if spec.transport != "stdio" or _base(spec.command) not in NODE_COMMANDS:
        return ""
    running = node_version(spec)
    if running is None:
        return ""
    package = installed_package(spec, stderr)
    if package is not None and package.needs and not satisfies(running, package.needs):
        return (f"; {package.named} needs Node {package.needs} "
                f"(its package.json's engines.node), this machine has {running}")
    newer = needing_newer(package, running, stderr) if package is not None else []
    if package is not None and newer:
        first, *more = newer
        also = "" if not more else (
            f"; so do {len(more)} more of its dependencies: "
            + ", ".join(p.named for p in more[:SHOWN]) + (", ..." if len(more) > SHOWN else ""))
        return (f"; {first.named}, a dependency of {package.named}, needs Node {first.needs} "
                f"(its package.json's engines.node), this machine has {running}{also}")
    missing = missing_node_api(spec, stderr)
    if missing is not None:
        module, name, bundled = missing
        where = f" (in its bundled {bundled})" if bundled else ""
        return (f"; it calls {name} from node:{module}{where}, which Node {running} does not "
                "have: it needs a newer Node.js")
    if from_node_itself(stderr):
        return (f"; the Node.js version may be the cause (a SyntaxError or TypeError from "
                f"Node's own modules): this machine has Node {running}")
    return ""


def needing_newer(package: Package, running: str, stderr: str = "") -> list[Package]:
    """The installed dependencies of `package`, its dependencies' own included, whose
    `engines.node` Node `running` does not satisfy: each found where Node would find it
    (`dependency_folder`), read once, after at most MAX_LOOKUPS names looked up; those the
    server's stack trace names first, then nearest first."""
    if package.folder is None:
        return []
    seen = {package.folder.resolve()}
    queue = deque([package])
    found: list[Package] = []
    looked = 0
    while queue and looked < MAX_LOOKUPS:
        parent = queue.popleft()
        assert parent.folder is not None
        for name in parent.dependencies[:MAX_LOOKUPS - looked]:
            looked += 1
            folder = dependency_folder(parent.folder, name)
            if folder is None or folder.resolve() in seen:
                continue
            seen.add(folder.resolve())
            dependency = _read(folder / "package.json")
            if dependency is None:
                continue
            if dependency.needs and not satisfies(running, dependency.needs):
                found.append(dependency)
            queue.append(dependency)
    lines = [line for line in stderr.splitlines() if len(line) <= MAX_LINE]
    return sorted(found, key=lambda p: not any(f"/node_modules/{p.name}/" in line
                                               for line in lines))


def dependency_folder(folder: Path, name: str) -> Path | None:
    """Where Node finds package `name` required from the package in `folder`: the first
    `node_modules/NAME` in `folder` or a folder above it (none inside a node_modules folder
    itself), or None."""
    if not _NAME.fullmatch(name):
        return None
    for place in (folder, *folder.parents):
        if place.name == "node_modules":
            continue
        candidate = place / "node_modules" / name
        if (candidate / "package.json").is_file():
            return candidate
    return None


def missing_node_api(spec: ServerSpec, stderr: str) -> tuple[str, str, str] | None:
    """(module, name, bundled package or "") when stderr's `TypeError: ... NAME is not a
    function` happened in a script that takes NAME from a Node module the Node that ran the
    server lacks it in (see the module's text), else None."""
    lines = [line.strip() for line in stderr.splitlines() if len(line) <= MAX_LINE]
    for index, line in enumerate(lines):
        error = _NOT_A_FUNCTION.match(line)
        if error is None:
            continue
        frame = next((f for f in lines[index + 1:index + 3] if f.startswith("at ")), "")
        place = _FRAME.search(frame)
        if place is None:
            return None
        name = error.group(1)
        found = _taken_from(Path(place.group(1)), name)
        if found is None or _has(spec, *found[:1], name) != "undefined":
            return None
        return found[0], name, found[1]
    return None


def _taken_from(script: Path, name: str) -> tuple[str, str] | None:
    """The Node module `script` takes `name` from, and the bundled package whose code does
    (esbuild's `// node_modules/NAME/...` comment above it, or "")."""
    try:
        if script.suffix not in (".js", ".cjs", ".mjs") or not script.is_file() \
                or script.stat().st_size > MAX_SOURCE:
            return None
        text = script.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    word = re.escape(name)
    given = [re.compile(r"\{[^{}]*\b" + word + r"\b[^{}]*\}\s*=\s*require\(\s*" + _MODULE),
             re.compile(r"import\s*\{[^{}]*\b" + word + r"\b[^{}]*\}\s*from\s*" + _MODULE),
             re.compile(r"require\(\s*" + _MODULE + r"\s*\)\." + word + r"\b")]
    for count, at in enumerate(re.finditer(r"(?<![\w$])" + word + r"(?![\w$])", text)):
        if count >= MAX_PLACES:
            break
        window = text[max(0, at.start() - WINDOW):at.end() + WINDOW]
        for pattern in given:
            taken = pattern.search(window)
            if taken is not None:
                headings = list(_BUNDLED.finditer(text, max(0, at.start() - (1 << 20)),
                                                  at.start()))
                return taken.group(1), headings[-1].group(1) if headings else ""
    return None


def _has(spec: ServerSpec, module: str, name: str) -> str:
    """`typeof require("node:MODULE")[NAME]` in the Node that runs the server ("error" when
    it has no such module, "" when it cannot be asked)."""
    said = _node_says(spec, "-e", _HAS, module, name)
    return "" if said is None else said


def satisfies(version: str, needs: str) -> bool:
    """Whether Node `version` (`v20.19.0`) is in npm's range `needs`; a range too long or not
    npm's grammar counts as satisfied (nothing is claimed from it)."""
    import nodesemver

    if len(needs) > MAX_RANGE:
        return True
    try:
        nodesemver.make_range(needs, loose=True)
        return bool(nodesemver.satisfies(version.lstrip("v"), needs, loose=True))
    except (ValueError, TypeError):
        return True


def node_version(spec: ServerSpec) -> str | None:
    """The version of the Node.js that runs the server (`v20.19.0`): `node --version` of the
    command when it is node itself, else of the `node` on the server's PATH."""
    version = _node_says(spec, "--version")
    return version if version is not None and re.fullmatch(r"v\d+\.\d+\.\d+\S*",
                                                             version) else None


def _node_says(spec: ServerSpec, *args: str) -> str | None:
    """What `node ARGS` prints, run as the server's Node (the command when it is node
    itself, else the `node` on the server's PATH), or None when it cannot be run or fails."""
    env: Mapping[str, str] = {**os.environ, **spec.env}
    node = (spec.command if _base(spec.command) in {"node", "nodejs"}
            else shutil.which("node", path=env.get("PATH")))
    if node is None:
        return None
    try:
        done = subprocess.run([node, *args], capture_output=True, text=True,
                              timeout=VERSION_WAIT, env=dict(env), cwd=spec.cwd, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def installed_package(spec: ServerSpec, stderr: str) -> Package | None:
    """The package the server runs, as installed (see the module's text), or None."""
    folder = Path(spec.cwd) if spec.cwd else Path.cwd()
    if _base(spec.command) == "npx":
        name = npx_package(spec.args)
        if name is None:
            return None
        places = [folder / "node_modules" / name,
                  *(Path(found) for found in _named_in(stderr, name))]
        for place in places:
            package = _read(place / "package.json")
            if package is not None:
                return package
        return None
    script = node_script(spec.args)
    if script is None or not (folder / script).is_file():
        return None
    start = (folder / script).resolve().parent  # a bin link: the package it links into
    for place in (start, *start.parents):
        if (place / "package.json").is_file():
            return _read(place / "package.json")
    return None


def node_script(args: Sequence[str]) -> str | None:
    """The script `node ARGS` runs, or None when it runs code given inline."""
    rest = iter(args)
    for arg in rest:
        if arg in _NODE_INLINE or arg.split("=", 1)[0] in _NODE_INLINE:
            return None
        if arg in _NODE_VALUED:
            next(rest, None)
        elif arg == "--":
            return next(rest, None)
        elif not arg.startswith("-"):
            return arg
    return None


def npx_package(args: Sequence[str]) -> str | None:
    """The name of the package `npx ARGS` runs (`@scope/name` of `@scope/name@1.2`), or None."""
    given: str | None = None
    rest = iter(args)
    for arg in rest:
        if arg == "--":
            given = next(rest, None)
            break
        if arg in ("-p", "--package"):
            given = next(rest, None)
            break
        if arg.startswith("--package="):
            given = arg.split("=", 1)[1]
            break
        if arg in _NPX_VALUED:
            next(rest, None)
        elif not arg.startswith("-"):
            given = arg
            break
    if not given:
        return None
    at = given.find("@", 1)
    name = given[:at] if at > 0 else given
    return name if _NAME.fullmatch(name) else None


def from_node_itself(stderr: str) -> bool:
    """Whether `stderr` shows a SyntaxError or TypeError from Node's own modules: one that
    names a `node:` module (`The requested module 'node:module' does not provide an export
    named 'enableCompileCache'`), or a TypeError thrown inside one (its first stack frame is
    `node:...`), but not `fetch failed`, a network failure."""
    lines = [line.strip() for line in stderr.splitlines() if len(line) <= MAX_LINE]
    for index, line in enumerate(lines):
        kind = line.split(":", 1)[0].split(" ", 1)[0]
        # undici, Node's fetch, throws every network failure as `TypeError: fetch failed`
        if kind not in ("SyntaxError", "TypeError") or line == "TypeError: fetch failed":
            continue
        if "'node:" in line:
            return True
        frame = next((f for f in lines[index + 1:index + 3] if f.startswith("at ")), "")
        if kind == "TypeError" and ("(node:" in frame or frame.startswith("at node:")):
            return True
    return False


def _named_in(stderr: str, name: str) -> list[str]:
    """The folders of package `name` that the server's stack trace names
    (`/home/u/.npm/_npx/3f2e/node_modules/@scope/name/dist/index.js:12`), each once."""
    marker = f"/node_modules/{name}/"
    found: dict[str, None] = {}
    for line in stderr.splitlines():
        at = line.find(marker)
        if at < 0 or len(line) > MAX_LINE:
            continue
        start = max(line.rfind(stop, 0, at) for stop in " ('\"") + 1
        path = line[start:at + len(marker) - 1].removeprefix("file://")
        if path.startswith("/"):
            found[path] = None
    return list(found)


def _read(path: Path) -> Package | None:
    """The package a package.json describes, or None when it cannot be read as one."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_PACKAGE_JSON:
            return None
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    engines = data.get("engines")
    needs = engines.get("node") if isinstance(engines, dict) else None
    name, version = data.get("name"), data.get("version")
    dependencies: dict[str, None] = {}
    for key in ("dependencies", "optionalDependencies"):
        listed = data.get(key)
        if isinstance(listed, dict):
            dependencies.update((d, None) for d in list(listed)[:MAX_DEPENDENCIES]
                                if _NAME.fullmatch(d))
    # what a message quotes: a name npm would accept, a version and range of printable text
    return Package(name=name if isinstance(name, str) and _NAME.fullmatch(name)
                   else "the package",
                   version=version if isinstance(version, str) and _VERSION.fullmatch(version)
                   else "",
                   needs=needs.strip() if isinstance(needs, str) and needs.isprintable()
                   else "",
                   folder=path.parent, dependencies=tuple(dependencies)[:MAX_DEPENDENCIES])


def _base(command: str) -> str:
    return Path(command).name.lower()
