"""How to reach an MCP server: a command to start (stdio) or a URL (streamable HTTP), from the
command line or from a client configuration file in the common `mcpServers` layout.

    {"mcpServers": {
        "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"],
                       "env": {"LOG_LEVEL": "info"}},
        "remote": {"type": "http", "url": "https://example.com/mcp",
                   "headers": {"Authorization": "Bearer ..."}}}}

Claude Desktop, Claude Code (`.mcp.json`), Cursor, Windsurf, Cline and Gemini CLI use
`mcpServers`; VS Code's `mcp.json` uses `servers` and Zed's `settings.json`
`context_servers` with the same entries (Zed's older `"command": {path, args, env}` too);
Gemini CLI's `httpUrl` and Windsurf's `serverUrl` are streamable HTTP URLs. All are read. The
variables editors expand are expanded the same way before a server starts: VS Code's and
Cursor's `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}`,
`${pathSeparator}` and Claude Code's `${NAME}` / `${NAME:-default}`; what the catalog records
of how a server was reached keeps the text as written, so no expanded secret is copied.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from toolcat.errors import ConfigError, UsageError
from toolcat.mcp.secrets import redact_args, redact_mapping, redact_url
from toolcat.model import SourceRef
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_file
from toolcat.source.positions import join
from toolcat.urls import split_url

Transport = Literal["stdio", "http"]
STDIO_TYPES = frozenset({"stdio", "local"})
HTTP_TYPES = frozenset({"http", "streamable-http", "streamableHttp", "streamable_http",
                        "remote"})
# Zed keeps its servers in settings.json's `context_servers`
CONFIG_KEYS = ("mcpServers", "servers", "context_servers")


@dataclass(frozen=True)
class ServerSpec:
    """One server to import. `name` is the name it gets in the catalog; empty means the name
    the server reports about itself."""

    transport: Transport
    name: str = ""
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    origin: SourceRef | None = None
    written: Mapping[str, Any] | None = None  # launch() as written, before variables expanded

    @property
    def label(self) -> str:
        """How to name the server in messages before it has told its own name (secrets
        redacted, as in `launch`)."""
        if self.name:
            return self.name
        if self.transport == "http":
            return redact_url(self.url)
        return " ".join([self.command, *redact_args(self.args)])

    def launch(self) -> dict[str, Any]:
        """How the server was reached, as written into the catalog: secrets redacted."""
        if self.written is not None:
            return dict(self.written)
        if self.transport == "http":
            out: dict[str, Any] = {"transport": "http", "url": redact_url(self.url)}
            if self.headers:
                out["headers"] = redact_mapping(self.headers)
            return out
        out = {"transport": "stdio", "command": self.command, "args": redact_args(self.args)}
        if self.env:
            out["env"] = redact_mapping(self.env)
        if self.cwd:
            out["cwd"] = self.cwd
        return out

    def command_line(self) -> str:
        """The shell command line that starts a stdio server as toolcat starts it (its `env`
        settings given by `env`, in its `cwd`), secrets redacted as in the catalog
        (`launch`): what a user can run to see for themselves why it fails."""
        settings = [f"{name}={value}" for name, value in redact_mapping(self.env).items()]
        line = shlex.join([*(["env", *settings] if settings else []), self.command,
                           *redact_args(self.args)])
        return f"cd {shlex.quote(self.cwd)} && {line}" if self.cwd else line


def stdio_spec(argv: list[str], *, name: str = "") -> ServerSpec:
    """A server started by the command line `argv`."""
    return ServerSpec("stdio", name=name, command=argv[0], args=tuple(argv[1:]))


def http_spec(url: str, *, name: str = "", headers: Mapping[str, str] | None = None
              ) -> ServerSpec:
    """A server reached over streamable HTTP at `url`."""
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"'{url}' is not an http:// or https:// URL")
    return ServerSpec("http", name=name, url=url, headers=dict(headers or {}))


def read_client_config(path: Path, *, broken: list[tuple[str, ConfigError]] | None = None
                       ) -> list[ServerSpec]:
    """Every enabled server of a client configuration file, in file order. With `broken`, a
    malformed entry is added there (its name and the error) and the others are still read, as
    one broken server does not stop the others.

    Raises:
        CatalogError: the file is missing or not valid JSON/YAML.
        ConfigError: it has no `mcpServers` (`servers`, `context_servers`) mapping, or (without
            `broken`) an entry is malformed.
    """
    parsed = parse_file(path)
    where = FieldReader(parsed.path, parsed.index, document="the client configuration").where

    data = parsed.data
    key = next((k for k in CONFIG_KEYS if isinstance(data, dict) and k in data), None)
    if key is None:
        raise ConfigError("no 'mcpServers' (or 'servers', 'context_servers') mapping: not an "
                          "MCP client configuration", where=where(""))
    entries = data[key]
    if not isinstance(entries, dict):
        raise ConfigError(f"'{key}' must be a mapping of server names to settings",
                          where=where(join("", key)))
    specs = []
    for name, entry in entries.items():
        pointer = join("", key, name)
        try:
            if not isinstance(entry, dict):
                raise ConfigError(f"server '{name}' must be a mapping", where=where(pointer))
            if entry.get("disabled") is True or entry.get("enabled") is False:
                continue
            spec = _entry_spec(name, entry, pointer, where)
            specs.append(_expanded(spec, _variables(parsed.path), where(pointer)))
        except ConfigError as exc:
            if broken is None:
                raise
            broken.append((str(name), exc))
    return specs


# ${name} and ${name:arg}: VS Code / Cursor variables, Claude Code's ${NAME} and ${NAME:-default}
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*|/)(?::(-?)([^}]*))?\}")


def _variables(config: str) -> dict[str, str]:
    """The editor variables of a configuration file: the workspace is the folder holding
    `.vscode/` (or `.cursor/`, ...) when the file sits in one, else the file's folder."""
    folder = Path(config).resolve().parent
    if folder.name.startswith(".") and folder.name not in (".", ".."):
        folder = folder.parent
    return {"workspaceFolder": str(folder), "workspaceFolderBasename": folder.name,
            "userHome": str(Path.home()), "pathSeparator": os.sep, "/": os.sep}


def expand(text: str, variables: Mapping[str, str]) -> str:
    """`text` with the editor variables replaced; an unknown one (`${input:token}`, an unset
    `${NAME}` without a default) is left as written."""
    def one(match: re.Match[str]) -> str:
        name, dash, arg = match.group(1), match.group(2), match.group(3)
        if arg is None and name in variables:
            return variables[name]
        if name == "env" and arg is not None and not dash:
            return os.environ.get(arg, "")  # as VS Code: an unset variable is empty
        if arg is None or dash:
            value = os.environ.get(name)
            if value is not None and (value or not dash):
                return value
            if dash:
                return arg or ""
        return match.group()
    return _VARIABLE.sub(one, text) if "${" in text else text


def _expanded(spec: ServerSpec, variables: Mapping[str, str], where: SourceRef) -> ServerSpec:
    def x(text: str) -> str:
        return expand(text, variables)

    done = replace(spec, command=x(spec.command), args=tuple(map(x, spec.args)),
                   env={k: x(v) for k, v in spec.env.items()},
                   cwd=x(spec.cwd) if spec.cwd else None, url=x(spec.url),
                   headers={k: x(v) for k, v in spec.headers.items()}, written=spec.launch())
    if done.cwd and not Path(done.cwd).is_dir():
        shown = done.cwd if done.cwd == spec.cwd else f"{spec.cwd}, that is {done.cwd}"
        raise ConfigError(f"server '{spec.name}': its working folder 'cwd' ({shown}) does not "
                          "exist", where=where)
    return done


def _entry_spec(name: str, entry: dict[str, Any], pointer: str,
                where: Callable[[str], SourceRef]) -> ServerSpec:
    kind = entry.get("type", entry.get("transport"))
    for spelling in ("httpUrl", "serverUrl"):  # Gemini CLI's and Windsurf's streamable HTTP
        if kind is None and "url" not in entry and isinstance(entry.get(spelling), str):
            entry = {**entry, "url": entry[spelling]}
            kind = "http"
    if isinstance(entry.get("command"), dict):  # Zed's older {"command": {path, args, env}}
        entry = {**entry, **{k: v for k, v in entry["command"].items()
                             if k in ("args", "env")}, "command": entry["command"].get("path")}
    if entry.get("source") == "extension":
        raise ConfigError(f"server '{name}' is a Zed extension: its command is the extension's "
                          "own, not in this file; add it as a custom server to import it",
                          where=where(pointer))
    if kind is None:
        kind = "http" if "url" in entry and "command" not in entry else "stdio"
    if kind == "sse":
        raise ConfigError(f"server '{name}' uses the old SSE transport, which toolcat does not "
                          "import; use its streamable HTTP endpoint",
                          where=where(join(pointer, "type")))
    if kind in HTTP_TYPES:
        url = entry.get("url")
        if not isinstance(url, str) or not url:
            raise ConfigError(f"server '{name}' has no 'url'", where=where(pointer))
        headers = _strings(entry.get("headers"), f"server '{name}': 'headers'",
                           where(join(pointer, "headers")))
        return ServerSpec("http", name=name, url=url, headers=headers, origin=where(pointer))
    if kind not in STDIO_TYPES:
        raise ConfigError(f"server '{name}' has an unknown type '{kind}'; known: stdio, "
                          "http, streamable-http", where=where(join(pointer, "type")))
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ConfigError(f"server '{name}' has neither a 'command' nor a 'url'",
                          where=where(pointer))
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, (str, int, float)) for a in args):
        raise ConfigError(f"server '{name}': 'args' must be a list of strings",
                          where=where(join(pointer, "args")))
    env = _strings(entry.get("env"), f"server '{name}': 'env'", where(join(pointer, "env")))
    cwd = entry.get("cwd")
    return ServerSpec("stdio", name=name, command=command, args=tuple(str(a) for a in args),
                      env=env, cwd=cwd if isinstance(cwd, str) else None,
                      origin=where(pointer))


def _strings(value: Any, what: str, where: SourceRef) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
            isinstance(v, (str, int, float, bool)) for v in value.values()):
        raise ConfigError(f"{what} must be a mapping of names to strings", where=where)
    return {str(k): v if isinstance(v, str) else json.dumps(v, allow_nan=False)
            for k, v in value.items()}
