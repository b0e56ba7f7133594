"""The HTTP request of one call of an OpenAPI operation, as the document declares it.

The import recorded each operation's method, path and parameters (`openapi:` on the tool) and
the API's address and security schemes (`openapi:` on its server; toolcat.catalog.openapi).
Arguments are placed exactly there: path parameters percent-encoded into their segment, query
parameters by their style (`form`, exploded or not; `spaceDelimited`, `pipeDelimited`,
`deepObject`), header parameters and cookies in `simple` and `form` style, and `body` as
the operation's request body: JSON, or a form (`application/x-www-form-urlencoded` or
`multipart/form-data`) whose fields are the object's members, a list's items repeating the
field and an object's members named `field[member]`, as Twilio's and Stripe's APIs read them.

Credentials come only from serve's environment, never from a file: each security scheme a
call needs reads the variable `TOOLCAT_AUTH_<API>_<SCHEME>` (names upper-cased, every run of
other characters an `_`): a bearer token, an API key (header, query or cookie, where the
scheme says), `user:password` for basic, an access token for oauth2 and openIdConnect. A
credential is never sent over plain http beyond this machine.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from toolcat.catalog.openapi import FORMS
from toolcat.model import Tool
from toolcat.urls import split_url

ENV_PREFIX = "TOOLCAT_AUTH_"
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class RequestError(Exception):
    """The call cannot be sent as the document declares it; the message is for the client
    and names settings, never a credential."""


@dataclass(frozen=True)
class Request:
    """What to send: the method, the whole URL without its query, and the rest."""

    api: str
    method: str
    url: str
    operation: str  # `GET /pets/{petId}`, for messages
    params: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None  # JSON; for a form, its fields in order
    has_body: bool = False
    media: str = "application/json"  # the body's
    # how a JSON success body becomes structured content: "" not at all (no JSON response
    # schema); "object": as is, an object only (the outputSchema is an object's); "result":
    # under `result` (the outputSchema wraps a schema that is not an object's); "either":
    # an object as is, anything else under `result` (no outputSchema listed)
    structured: str = ""
    secrets: tuple[str, ...] = ()


def operation(tool: Tool) -> Mapping[str, Any] | None:
    """How to call `tool` over HTTP, when it is an imported OpenAPI operation."""
    wiring = tool.extra.get("openapi")
    if isinstance(wiring, Mapping) and isinstance(wiring.get("method"), str) \
            and isinstance(wiring.get("path"), str):
        return wiring
    return None


def env_name(api: str, scheme: str) -> str:
    """The environment variable that holds the credential of `scheme` for `api`."""
    return ENV_PREFIX + _slug(api) + "_" + _slug(scheme)


def build_request(tool: Tool, arguments: Mapping[str, Any], settings: Mapping[str, Any],
                  base_url: str | None, environ: Mapping[str, str]) -> Request:
    """The request of a call of `tool` (an OpenAPI operation) with `arguments`, checked
    against its input schema already. `settings`: its server's `openapi:`; `base_url`: the
    user's --base-url for the API, which wins over the document's.

    Raises:
        RequestError: no usable address, a credential missing, or a value that cannot go
            where the operation puts it.
    """
    wiring = operation(tool)
    assert wiring is not None
    api = tool.server or tool.name
    method = str(wiring["method"]).upper()
    described = f"{method} {wiring['path']}"
    base = _base(api, base_url or settings.get("url"))
    path = str(wiring["path"])
    if not path.startswith("/"):  # `@elsewhere/x` after the base would name another host
        raise RequestError(f"the operation's path '{path[:80]}' does not start with /, as "
                           "every OpenAPI path must; it is not called")
    params: list[tuple[str, str]] = []
    headers: dict[str, str] = {}
    cookies: list[str] = []
    for parameter in wiring.get("parameters") or ():
        if not isinstance(parameter, Mapping):
            continue
        name, place = str(parameter.get("name")), parameter.get("in")
        value = arguments.get(name)
        if value is None:
            continue
        explode = parameter.get("explode")
        style = parameter.get("style")
        if place == "path":
            path = path.replace("{" + name + "}", _segment(_simple(value, explode is True)))
        elif place == "query":
            params += _query(name, value, str(style or "form"),
                             explode if isinstance(explode, bool) else style in (None, "form"))
        elif place == "header":
            headers[name] = _header(name, _simple(value, explode is True))
        elif place == "cookie":
            cookies.append(f"{name}={quote(_simple(value, False), safe='')}")
    left = _PLACEHOLDER.search(path)
    if left is not None:
        raise RequestError(f"the path parameter '{left.group(1)}' of {described} has no "
                           "value")
    secrets = _authorize(api, settings, wiring, environ, base, params, headers, cookies)
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    url = base.rstrip("/") + path
    parts = split_url(url)
    if parts is None or parts.netloc != urlsplit(base).netloc:
        raise RequestError(f"the operation's path '{path[:80]}' would send the call away "
                           f"from the address of API '{api}'; it is not called")
    has_body = bool(wiring.get("body")) and arguments.get("body") is not None
    media = str(wiring.get("body") or "application/json")
    body = arguments.get("body") if has_body else None
    if has_body and media in FORMS:
        if not isinstance(body, Mapping):
            raise RequestError(f"the body of {described} is a form ({media}): it must be an "
                               "object whose members are its fields")
        body = form_fields(body)
    return Request(api, method, url, described, params, headers, body, has_body, media,
                   _structured(tool, wiring), secrets)


def form_fields(value: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """The fields of a form body: each member of `value` by its name (`prefix[name]` inside
    another object), a list's scalars repeating the field, a list's objects numbered
    (`items[0][price]`), and no field for a null."""
    fields: list[tuple[str, str]] = []
    for key, member in value.items():
        name = f"{prefix}[{key}]" if prefix else str(key)
        if isinstance(member, Mapping):
            fields += form_fields(member, name)
        elif isinstance(member, list):
            for i, item in enumerate(member):
                if isinstance(item, Mapping):
                    fields += form_fields(item, f"{name}[{i}]")
                elif item is not None:
                    fields.append((name, _scalar(item)))
        elif member is not None:
            fields.append((name, _scalar(member)))
    return fields


def _structured(tool: Tool, wiring: Mapping[str, Any]) -> str:
    if wiring.get("output") != "json":
        return ""
    if not isinstance(tool.extra.get("outputSchema"), Mapping):
        return "either"
    return "result" if wiring.get("wrap") == "result" else "object"


def _base(api: str, url: Any) -> str:
    hint = f"give the API's address with --base-url '{api}=https://...'"
    if not isinstance(url, str) or not url:
        raise RequestError(f"the OpenAPI document of API '{api}' names no server URL; {hint}")
    parts = split_url(url)
    if parts is None:
        raise RequestError(f"API '{api}': the server URL '{url[:80]}' is not a URL; {hint}")
    if not parts.scheme:
        raise RequestError(f"API '{api}': the document's server URL '{url}' is relative (to "
                           f"wherever the document was published); {hint}")
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise RequestError(f"API '{api}': the server URL '{url[:80]}' is not an http or https "
                           "address; toolcat calls HTTP APIs only")
    return url


def _authorize(api: str, settings: Mapping[str, Any], wiring: Mapping[str, Any],
               environ: Mapping[str, str], base: str, params: list[tuple[str, str]],
               headers: dict[str, str], cookies: list[str]) -> tuple[str, ...]:
    """Add the credentials of the first security alternative the environment satisfies;
    the secrets added (to scrub from messages)."""
    requirement = wiring.get("security", settings.get("security"))
    if not isinstance(requirement, list) or not requirement:
        return ()
    schemes = settings.get("security_schemes")
    schemes = schemes if isinstance(schemes, Mapping) else {}
    wanted: list[str] = []
    for alternative in requirement:
        if not isinstance(alternative, list):
            continue
        if not alternative:
            return ()  # `{}`: the operation may be called without credentials
        usable = all(_supported(schemes.get(s)) for s in alternative)
        missing = [env_name(api, str(s)) for s in alternative
                   if env_name(api, str(s)) not in environ]
        if usable and not missing:
            return tuple(secret for s in alternative for secret in _apply(
                api, str(s), schemes[s], environ[env_name(api, str(s))], base, params,
                headers, cookies))
        if usable and not wanted:
            wanted = missing
    if not wanted:
        raise RequestError(f"API '{api}' requires a security scheme toolcat cannot "
                           "send (it sends http bearer and basic, apiKey, oauth2 and "
                           "openIdConnect tokens)")
    raise RequestError(
        f"API '{api}' needs a credential in the environment variable "
        f"{' and '.join(wanted)}, which is not set in toolcat serve's environment (set it "
        "in the `env` of toolcat's entry in your MCP client's configuration)")


def _supported(scheme: Any) -> bool:
    if not isinstance(scheme, Mapping):
        return False
    kind = scheme.get("type")
    if kind == "http":
        return str(scheme.get("scheme", "")).lower() in ("bearer", "basic")
    if kind == "apiKey":
        return scheme.get("in") in ("header", "query", "cookie") and bool(scheme.get("name"))
    return kind in ("oauth2", "openIdConnect")


def _apply(api: str, name: str, scheme: Mapping[str, Any], value: str, base: str,
           params: list[tuple[str, str]], headers: dict[str, str],
           cookies: list[str]) -> list[str]:
    parts = urlsplit(base)
    if parts.scheme.lower() != "https" and not _loopback(parts.hostname or ""):
        raise RequestError(f"not sending the credential of API '{api}' ({env_name(api, name)})"
                           f" over plain http to {parts.hostname}: use an https address "
                           f"(--base-url '{api}=https://...')")
    kind = scheme.get("type")
    if kind == "apiKey":
        where, key = scheme.get("in"), str(scheme.get("name"))
        if where == "query":
            params.append((key, value))
        elif where == "cookie":
            cookies.append(f"{key}={quote(value, safe='')}")
        else:
            headers[key] = _header(key, value)
        return [value]
    if kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
        if ":" not in value:
            raise RequestError(f"{env_name(api, name)} must hold user:password for API "
                               f"'{api}' (http basic)")
        encoded = base64.b64encode(value.encode()).decode()
        headers["Authorization"] = f"Basic {encoded}"
        return [value, encoded]
    headers["Authorization"] = _header("Authorization", f"Bearer {value}")
    return [value]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def _simple(value: Any, explode: bool) -> str:
    """OpenAPI's `simple` style (path and header parameters)."""
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={_scalar(v)}" if explode else f"{k},{_scalar(v)}"
                        for k, v in value.items())
    return _scalar(value)


def _segment(text: str) -> str:
    """A path parameter's value as one segment: every reserved character encoded, and a
    value of dots kept from climbing the API's path."""
    encoded = quote(text, safe="")
    return encoded.replace(".", "%2E") if encoded in (".", "..") else encoded


def _query(name: str, value: Any, style: str, explode: bool) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        if style == "deepObject":
            return [(f"{name}[{k}]", _scalar(v)) for k, v in value.items()]
        if explode:
            return [(str(k), _scalar(v)) for k, v in value.items()]
        return [(name, ",".join(f"{k},{_scalar(v)}" for k, v in value.items()))]
    if isinstance(value, list):
        if explode:
            return [(name, _scalar(v)) for v in value]
        glue = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
        return [(name, glue.join(_scalar(v) for v in value))]
    return [(name, _scalar(value))]


def _header(name: str, value: str) -> str:
    """`value`, which must be printable ASCII: a line break would start another header, and
    HTTP has no agreed encoding for other characters."""
    if not all(" " <= c <= "~" or c == "\t" for c in value):
        raise RequestError(f"the value for the header {name} holds a line break, a control "
                           "character or a character outside ASCII; a header cannot carry it")
    return value


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").upper()
