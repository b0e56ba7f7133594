"""Large tool results, shortened before they go upstream, the full text kept for the model.

A tool result in the conversation longer than OUTPUT_LIMIT characters is forwarded as its
first HEAD characters and a note naming an id; the gateway then shows the model
`search_large_output` (the context offloading tool of seed 001, toolcat's built-in
definition) and answers its calls itself, in the same loop as its search tool: a page of the
full text from an offset, or the lines that match a pattern (RE2: linear time, whatever the
pattern). The id is a digest of the text, so the same history is shortened to the same
request every time (a provider's prompt cache keeps working) and the full text is never
stored beyond the request that carries it: the agent resends it with every request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from toolcat.model import Tool

TOOL = "search_large_output"
OUTPUT_LIMIT = 20_000  # characters of one tool result forwarded as they are
HEAD = 2_000  # characters kept at the start of a shortened result
READ_DEFAULT, READ_MAX = 4_000, 20_000  # characters of one page
MATCHES_DEFAULT, MATCHES_MAX = 50, 200  # lines a pattern returns
LINE_MAX = 500  # characters of one matching line shown


def read_tool() -> Tool:
    """The built-in search_large_output, as the catalog of built-ins defines it."""
    from toolcat.resolution.builtins import builtin_catalog

    found = [t for t in builtin_catalog().tools if t.name == TOOL]
    return found[0]


def output_id(text: str) -> str:
    return "out_" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def shorten(text: str, kept: dict[str, str]) -> str | None:
    """`text` shortened when it is longer than OUTPUT_LIMIT (its full text put in `kept` by
    id), else None."""
    if len(text) <= OUTPUT_LIMIT:
        return None
    key = output_id(text)
    kept[key] = text
    return (f"{text[:HEAD]}\n\n[toolcat gateway: this tool output has {len(text):,} "
            f"characters; the first {HEAD:,} are above. Read on with {TOOL}(file_id="
            f"\"{key}\", offset={HEAD}), or find lines with {TOOL}(file_id=\"{key}\", "
            "pattern=\"...\").]")


def _number(arguments: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = arguments.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return max(low, min(value, high))


def answer(kept: Mapping[str, str], arguments: Any) -> dict[str, Any]:
    """The answer to a search_large_output call over the outputs of this request."""
    from toolcat.search.regex import compile_query

    if not isinstance(arguments, Mapping) or not isinstance(arguments.get("file_id"), str):
        return {"error": f"invalid arguments for {TOOL}: 'file_id' is a required string"}
    text = kept.get(arguments["file_id"])
    if text is None:
        return {"error": f"no output '{arguments['file_id']}' in this conversation; use the "
                "file_id its shortened result names"}
    offset = _number(arguments, "offset", 0, 0, len(text))
    pattern = arguments.get("pattern")
    if pattern is None or pattern == "":
        limit = _number(arguments, "limit", READ_DEFAULT, 1, READ_MAX)
        end = min(offset + limit, len(text))
        return {"file_id": arguments["file_id"], "total": len(text), "offset": offset,
                "text": text[offset:end], "next_offset": end if end < len(text) else None}
    if not isinstance(pattern, str):
        return {"error": f"invalid arguments for {TOOL}: 'pattern' must be a string"}
    compiled, problem = compile_query(pattern)
    if compiled is None:
        return {"error": f"the pattern cannot be used: {problem}"}
    limit = _number(arguments, "limit", MATCHES_DEFAULT, 1, MATCHES_MAX)
    matches: list[dict[str, Any]] = []
    start = offset
    for line in text[offset:].splitlines(keepends=True):
        if compiled.search(line.encode("utf-8", "surrogatepass")):
            matches.append({"offset": start, "line": line.rstrip("\r\n")[:LINE_MAX]})
            if len(matches) == limit:
                break
        start += len(line)
    return {"file_id": arguments["file_id"], "total": len(text), "pattern": pattern,
            "matches": matches, "complete": len(matches) < limit}
