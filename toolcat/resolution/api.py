"""The api strategy's selector call: the only network request toolcat makes, and
only because the profile names the endpoint.

POST `{"pattern", "top_k", "always_keep", "tools": [{name, description, parameters}]}` as
JSON; the answer must be `{"selected_names": [...]}`. Any failure (no endpoint, an HTTP error,
a timeout, an answer that is not that JSON, or a selection that names none of the deferred
tools) is reported as a reason to fail open, never raised.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.model import Tool
from toolcat.resolution.profile import ApiSettings

MAX_ANSWER_BYTES = 10_000_000
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class ApiAnswer:
    """The deferred tools the selector chose (qualified names), or why it failed (fail open).

    `ignored` holds selected names that are not deferred tools.
    """

    selected: tuple[str, ...] = ()
    failure: str | None = None
    ignored: tuple[str, ...] = ()


def request_body(pattern: str, top_k: int, always_keep: Sequence[str],
                 tools: Sequence[Tool]) -> dict[str, Any]:
    return {
        "pattern": pattern,
        "top_k": top_k,
        "always_keep": list(always_keep),
        "tools": [tool.definition() for tool in tools],
    }


def select(settings: ApiSettings, *, pattern: str, top_k: int, always_keep: Sequence[str],
           tools: Sequence[Tool]) -> ApiAnswer:
    """Ask the selector which of the deferred `tools` match `pattern`."""
    if not settings.endpoint:
        return ApiAnswer(failure="no endpoint is configured (gateway.api.endpoint)")
    data = json.dumps(request_body(pattern, top_k, always_keep, tools), allow_nan=False).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = expand_env(settings.api_key) if settings.api_key else ""
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(settings.endpoint, data=data, headers=headers,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=settings.timeout) as response:
            raw = response.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as exc:
        return ApiAnswer(failure=f"the endpoint answered HTTP {exc.code} {exc.reason}")
    except TimeoutError:
        return ApiAnswer(failure=f"no answer within {settings.timeout:g} s (timeout)")
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError):
            return ApiAnswer(failure=f"no answer within {settings.timeout:g} s (timeout)")
        return ApiAnswer(failure=f"the endpoint cannot be reached: {reason}")
    except OSError as exc:
        return ApiAnswer(failure=f"the request failed: {exc}")
    if len(raw) > MAX_ANSWER_BYTES:
        return ApiAnswer(failure="the answer is larger than 10 MB")
    return interpret(raw, tools)


def interpret(raw: bytes, tools: Sequence[Tool]) -> ApiAnswer:
    """Map an answer's selected_names back to the deferred tools."""
    try:
        answer = json.loads(raw)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested past the decoder
        return ApiAnswer(failure="the answer is not JSON")
    names = answer.get("selected_names") if isinstance(answer, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return ApiAnswer(failure="the answer has no selected_names list of strings")
    known: dict[str, str] = {}
    for tool in tools:
        known.setdefault(tool.name, tool.qualified_name)
        known.setdefault(tool.qualified_name, tool.qualified_name)
    selected = tuple(dict.fromkeys(known[n] for n in names if n in known))
    ignored = tuple(n for n in names if n not in known)
    if not selected:
        what = "an empty selection" if not names else "only names that are not deferred tools"
        return ApiAnswer(failure=f"the answer holds {what}", ignored=ignored)
    return ApiAnswer(selected=selected, ignored=ignored)


def expand_env(text: str) -> str:
    """`${NAME}` replaced by the environment variable NAME (empty when unset)."""
    return _ENV.sub(lambda m: os.environ.get(m.group(1), ""), text)
