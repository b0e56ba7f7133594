"""How serve reaches the server a catalog tool comes from: the `mcp:` launch settings that
`toolcat import mcp` recorded (stdio command or HTTP URL), with their secrets put back.

`toolcat import mcp` writes launch settings with secrets redacted (`<redacted>`) and keeps
references such as `${GITHUB_TOKEN}` as they are. At serve time:

- a `${VAR}` or `$VAR` reference in an env value, a header, an argument or the URL is
  replaced by the variable of serve's own environment (an MCP client sets it in the `env` of
  toolcat's entry in its configuration);
- a redacted env variable is taken from serve's environment under the same name (a stdio
  server inherits serve's environment, as it would its client's);
- a redacted header, argument or URL part cannot be guessed: the server's entry in a client
  configuration given with `--servers FILE` (mcpServers layout) replaces the catalog's
  launch settings for that server, secrets and all.

Every secret value put back is remembered, so that messages and the session log can be
scrubbed of it (`Secrets.scrub`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl

from toolcat.mcp.secrets import REDACTED, is_secret
from toolcat.mcp.servers import ServerSpec
from toolcat.model import Catalog, Server
from toolcat.urls import split_url

DEFAULT_CALL_TIMEOUT = 60.0  # seconds an upstream tool call may take

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
MIN_SECRET = 4  # shorter values are not scrubbed: they would mangle ordinary words


class LaunchError(Exception):
    """The server of a tool cannot be reached as the catalog records it; the message names
    the setting and never its value."""


@dataclass
class Secrets:
    """Secret values handed to upstream servers, to keep out of results and logs."""

    values: set[str] = field(default_factory=set)

    def add(self, values: Iterable[str]) -> None:
        self.values.update(v for v in values if len(v) >= MIN_SECRET)

    def scrub(self, text: str) -> str:
        for value in sorted(self.values, key=len, reverse=True):
            text = text.replace(value, REDACTED)
        return text


def launch_spec(catalog: Catalog, server_name: str, *,
                overrides: Mapping[str, ServerSpec] | None = None,
                environ: Mapping[str, str] | None = None,
                secrets: Secrets | None = None) -> ServerSpec:
    """The ServerSpec to reach `server_name`: from `overrides` (a client configuration) when
    it names the server, else from the catalog's `mcp:` settings; references expanded.

    Raises:
        LaunchError: the catalog records no way to reach the server, or a secret it needs is
            redacted and not in the environment.
    """
    env = os.environ if environ is None else environ
    secrets = secrets if secrets is not None else Secrets()
    if overrides and server_name in overrides:
        spec = overrides[server_name]
        return _expanded(spec, server_name, env, secrets)
    server = catalog.server(server_name)
    settings = server.extra.get("mcp") if server is not None else None
    if not isinstance(settings, Mapping):
        raise LaunchError(f"the catalog records no MCP server to call for server "
                          f"'{server_name}' (no `mcp:` launch settings; import its tools with "
                          "`toolcat import mcp` to record them)")
    return _expanded(_recorded(server_name, settings, server), server_name, env, secrets)


def _recorded(name: str, settings: Mapping[str, Any], server: Server | None) -> ServerSpec:
    transport = settings.get("transport", "http" if "url" in settings else "stdio")
    if transport == "http":
        url = settings.get("url")
        if not isinstance(url, str) or not url:
            raise LaunchError(f"server '{name}': its `mcp:` settings have no url")
        return ServerSpec("http", name=name, url=url, headers=_strings(settings, "headers"))
    if transport != "stdio":
        raise LaunchError(f"server '{name}': unknown transport '{transport}' in its `mcp:` "
                          "settings; known: stdio, http")
    command = settings.get("command")
    if not isinstance(command, str) or not command:
        raise LaunchError(f"server '{name}': its `mcp:` settings have no command")
    args = settings.get("args") or []
    if not isinstance(args, list):
        raise LaunchError(f"server '{name}': `mcp.args` must be a list")
    cwd = settings.get("cwd")
    return ServerSpec("stdio", name=name, command=command, args=tuple(str(a) for a in args),
                      env=_strings(settings, "env"), cwd=cwd if isinstance(cwd, str) else None)


def _strings(settings: Mapping[str, Any], key: str) -> dict[str, str]:
    value = settings.get(key) or {}
    if not isinstance(value, Mapping):
        raise LaunchError(f"`mcp.{key}` must be a mapping of names to strings")
    return {str(k): str(v) for k, v in value.items()}


def _expanded(spec: ServerSpec, name: str, env: Mapping[str, str],
              secrets: Secrets) -> ServerSpec:
    """`spec` with references filled from `env`; redacted env variables from `env` too."""

    def fill(text: str, what: str) -> str:
        if REDACTED in text:
            raise LaunchError(f"server '{name}': {what} was redacted when the catalog was "
                              "written; give the server's entry with its secrets in "
                              "--servers FILE (an MCP client configuration)")

        def variable(match: re.Match[str]) -> str:
            var = match.group(1) or match.group(2)
            if var not in env:
                raise LaunchError(f"server '{name}': {what} needs the environment variable "
                                  f"{var}, which is not set")
            secrets.add([env[var]])
            return env[var]

        return _REFERENCE.sub(variable, text)

    server_env: dict[str, str] = {}
    for key, value in spec.env.items():
        if value == REDACTED:
            if key not in env:
                raise LaunchError(f"server '{name}': the environment variable {key} was "
                                  "redacted when the catalog was written; set it in toolcat "
                                  "serve's environment (the `env` of its entry in your MCP "
                                  "client's configuration)")
            secrets.add([env[key]])
            server_env[key] = env[key]
        else:
            server_env[key] = fill(value, f"env {key}")
    headers = {key: fill(value, f"header {key}") for key, value in spec.headers.items()}
    secrets.add(v for k, v in {**server_env, **headers}.items() if is_secret(k, v))
    args = tuple(fill(arg, f"argument {i + 1}") for i, arg in enumerate(spec.args))
    secrets.add(a for a in args if is_secret("", a))
    url = fill(spec.url, "the url") if spec.url else spec.url
    secrets.add(_url_secrets(url))
    return replace(spec, env=server_env, headers=headers, args=args, url=url,
                   command=fill(spec.command, "the command"))


def _url_secrets(url: str) -> list[str]:
    """The password and the secret-looking query values of a URL."""
    parts = split_url(url)
    if parts is None:
        return []
    found = [parts.password] if parts.password else []
    return found + [v for k, v in parse_qsl(parts.query) if is_secret(k, v)]
