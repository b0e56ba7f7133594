"""Whether a server that ended before listing its tools died trying to reach a service, for the
error message. Many servers call their vendor's API at start (to check a key, to log, to fetch
a schema); without a network, or with a wrong address in their settings, they die with a
traceback whose cause is one line among many, and often after another fault the message names
first (mcp-tinybird 1.0.3: an SDK mismatch, then a lookup of api.tinybird.co). The wordings are
those of the runtimes and HTTP libraries servers are written with: Python's socket errors as
urllib3, requests, httpx and aiohttp put them, Node's `getaddrinfo ENOTFOUND`/`connect
ECONNREFUSED`, Go's `dial tcp`.
"""

from __future__ import annotations

import re

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


def network_hint(stderr: str) -> str:
    """`; ...` naming the host a server could not reach and what to do, or "" when its stderr
    shows no failed lookup or refused connection."""
    text = stderr[:MAX_TEXT]
    if _UNRESOLVED_HOST.search(text) or _UNRESOLVED.search(text):
        return (f"; it could not look up {_named(_UNRESOLVED_HOST, text, 'a host')} (no "
                "network here, or a wrong address in its settings): a server that calls its "
                "service at start needs to reach it")
    if _REFUSED_HOST.search(text) or _REFUSED.search(text):
        return (f"; {_named(_REFUSED_HOST, text, 'a service')} refused its connection (nothing "
                "listens there): start the service it needs, or give it the right address")
    return ""


def _named(pattern: re.Pattern[str], text: str, otherwise: str) -> str:
    """The host (and port) the first match of `pattern` names, quoted, or `otherwise`."""
    found = pattern.search(text)
    if found is None:
        return otherwise
    host, *rest = [group for group in found.groups() if group]
    return f"'{host}{''.join(':' + port for port in rest)}'"
