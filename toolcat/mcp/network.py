"""Whether a server that ended before listing its tools died trying to reach a service, for the
error message. Many servers call their vendor's API at start (to check a key, to log, to fetch
a schema); without a network, or with a wrong address in their settings, they die with a
traceback whose cause is one line among many, and often after another fault the message names
first (mcp-tinybird 1.0.3: an SDK mismatch, then a lookup of api.tinybird.co). The wordings are
those of the runtimes and HTTP libraries servers are written with: Python's socket errors as
urllib3, requests, httpx and aiohttp put them, Node's `getaddrinfo ENOTFOUND`/`connect
ECONNREFUSED`, Go's `dial tcp`. Where the runtime's message names no host (httpx's "All
connection attempts failed", Python's own socket errors), the addresses the server's own
settings give (its environment and arguments) are named instead: that is where it was told to
go.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from toolcat.mcp.secrets import is_secret, redact_url

MAX_TEXT = 1 << 18  # characters of stderr looked at
_HOST = r"[\w.-]{1,253}(?::\d{1,5})?"
_NOT_FOUND = (r"Name or service not known|Temporary failure in name resolution"
              r"|nodename nor servname provided")
# a name that does not resolve: where the message names the host, then where it does not
# (Python's own socket error comes first in a traceback, the library's naming the host after)
_UNRESOLVED_HOST = re.compile(
    rf"Failed to resolve '({_HOST})'|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ({_HOST})"
    rf"|Cannot connect to host ({_HOST}) ssl:\w{{1,20}} \[(?:{_NOT_FOUND})"
    rf"|dial tcp: lookup ({_HOST})")
_UNRESOLVED = re.compile(_NOT_FOUND)
# a connection refused, the same two ways
_REFUSED_HOST = re.compile(
    rf"connect ECONNREFUSED ({_HOST})"
    rf"|Cannot connect to host ({_HOST}) ssl:\w{{1,20}} \[Connect(?:ion refused|call failed)"
    rf"|dial tcp ({_HOST}): connect: connection refused"
    rf"|host='([\w.-]{{1,253}})', port=(\d{{1,5}})\).{{0,300}}?Connection refused")
_REFUSED = re.compile(r"\[Errno 111\] Connection refused|ConnectionRefusedError")
# a connection that failed without saying how (httpx, urllib3, Node's timeouts)
_UNREACHED = re.compile(r"All connection attempts failed|Failed to establish a new connection"
                        r"|connect ETIMEDOUT|ConnectTimeout")
# an address in a server's settings: a URL, or host:port
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]{0,20}://[^\s'\"<>]{1,300}|[\w.-]{1,253}:\d{2,5}",
                      re.IGNORECASE)
MAX_SETTINGS = 3  # addresses of the settings named


def network_hint(stderr: str, env: Mapping[str, str] | None = None,
                 args: Sequence[str] = ()) -> str:
    """`; ...` naming the host a server could not reach and what to do, or "" when its stderr
    shows no failed lookup or connection. `env` and `args`: the server's settings, where the
    address is read when the stderr names none."""
    text = stderr[:MAX_TEXT]
    settings = _settings(env or {}, args)
    if _UNRESOLVED_HOST.search(text) or _UNRESOLVED.search(text):
        return (f"; it could not look up {_named(_UNRESOLVED_HOST, text, 'a host', settings)} "
                "(no network here, or a wrong address in its settings): a server that calls "
                "its service at start needs to reach it")
    if _REFUSED_HOST.search(text) or _REFUSED.search(text):
        return (f"; {_named(_REFUSED_HOST, text, 'a service', settings)} refused its "
                "connection (nothing listens there): start the service it needs, or give it "
                "the right address")
    if _UNREACHED.search(text):
        return (f"; it could not connect to {_named(None, text, 'its service', settings)} "
                "(nothing answered there): start the service it needs, or give it the right "
                "address")
    return ""


def _named(pattern: re.Pattern[str] | None, text: str, otherwise: str, settings: str) -> str:
    """The host (and port) the first match of `pattern` names, quoted; else the addresses the
    server's settings give; else `otherwise`."""
    found = pattern.search(text) if pattern is not None else None
    if found is None:
        return settings or otherwise
    host, *rest = [group for group in found.groups() if group]
    return f"'{host}{''.join(':' + port for port in rest)}'"


def _settings(env: Mapping[str, str], args: Sequence[str]) -> str:
    """The addresses in a server's environment and arguments, as `the address its settings
    give (KIMAI_URL=http://localhost:8001)`, passwords and secret settings left out; "" when
    there are none."""
    found = [f"{name}={redact_url(match.group())}" for name, value in env.items()
             for match in [_ADDRESS.search(value[:MAX_TEXT])]
             if match and not is_secret(name, value)]
    found += [redact_url(match.group()) for arg in args
              for match in [_ADDRESS.search(arg[:MAX_TEXT])] if match]
    if not found:
        return ""
    shown = ", ".join(found[:MAX_SETTINGS])
    return f"the address{'es' if len(found) > 1 else ''} its settings give ({shown})"
