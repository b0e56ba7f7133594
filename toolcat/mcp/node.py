"""Whether a Node.js MCP server that ended before listing its tools needs a newer Node.js than
the one that ran it, for the error message: a user reading `TypeError: Cannot read properties
of undefined (reading 'bind')` cannot tell that the Node version is the cause.

The package's `engines.node` range is read from its installed package.json where toolcat can
find it without running anything: the script's package for `node path/to/script.js`, and for
`npx PACKAGE` the package in node_modules of the working folder, or in the folder the
server's own stack trace names (npx's cache). When the range is not satisfied the message says
so; else a SyntaxError or TypeError from Node's own modules on stderr says that the Node
version may be the cause, and which one runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
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


@dataclass(frozen=True)
class Package:
    """An installed package: its name and version as its package.json says, and the Node.js
    range its `engines.node` asks for (empty when it asks for none)."""

    name: str
    version: str
    needs: str


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
        named = f"{package.name} {package.version}".strip()
        return (f"; {named} needs Node {package.needs} "
                f"(its package.json's engines.node), this machine has {running}")
    if from_node_itself(stderr):
        return (f"; the Node.js version may be the cause (a SyntaxError or TypeError from "
                f"Node's own modules): this machine has Node {running}")
    return ""


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
    env: Mapping[str, str] = {**os.environ, **spec.env}
    node = (spec.command if _base(spec.command) in {"node", "nodejs"}
            else shutil.which("node", path=env.get("PATH")))
    if node is None:
        return None
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True,
                              timeout=VERSION_WAIT, env=dict(env), cwd=spec.cwd, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    version = done.stdout.strip()
    return version if done.returncode == 0 and re.fullmatch(r"v\d+\.\d+\.\d+\S*",
                                                              version) else None


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
    `node:...`)."""
    lines = [line.strip() for line in stderr.splitlines() if len(line) <= MAX_LINE]
    for index, line in enumerate(lines):
        kind = line.split(":", 1)[0].split(" ", 1)[0]
        if kind not in ("SyntaxError", "TypeError"):
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
    # what a message quotes: a name npm would accept, a version and range of printable text
    return Package(name=name if isinstance(name, str) and _NAME.fullmatch(name)
                   else "the package",
                   version=version if isinstance(version, str) and _VERSION.fullmatch(version)
                   else "",
                   needs=needs.strip() if isinstance(needs, str) and needs.isprintable()
                   else "")


def _base(command: str) -> str:
    return Path(command).name.lower()
