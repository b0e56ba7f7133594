"""A statement in a query language pasted into a request: evidence for the tools that take one.

A request may be, or hold, a statement rather than words about one:
`rate(http_requests_total{job="api"}[5m]) over the last hour`, `SELECT count(*) FROM users on
my neon db`. Its words are identifiers (`http_requests_total`, `job`, `users`) that BM25F and
the embedding match with whatever tool shares them, while the statement's form says plainly
which tool is wanted: the one that takes a statement in that language. Here a request's
statement is recognised by its syntax (LANGUAGES: SQL, PromQL, LogQL, JQL, Cypher), and the
tools that take a statement in that language get STATED nats of evidence. A tool takes one when
a parameter's name or description names the language ("expr: The PromQL expression to
query", a parameter `sql`), or when its description names it and it has a parameter for a
statement (`query`, `statement`, `expr`): ClickHouse's `run_query(query)`, "Execute SQL
queries".

The statement's own words are left out of the request's lexical evidence
(`without_statements`): they are identifiers, values handed to the tool, and matched the tools
that share them (`list_jobs` for `{job="api"}`); the embedding still reads the whole request.

Patterns are anchored on the keywords' order and bounded in length, so a request is read in
linear time; ordinary prose does not match ("select the rows from the sheet" has no FROM
after a column list, "match the colours" no parenthesis).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from toolcat.model import Tool

STATED = 2.0  # nats for a tool that takes the request's statement's language
MAX_REQUEST = 4000  # characters of a request read for a statement (a pasted prompt: no more)

# language -> (the patterns of a statement in it, the words that name it in a tool's text)
LANGUAGES: Mapping[str, tuple[tuple[re.Pattern[str], ...], tuple[str, ...]]] = {
    "sql": ((
        # SELECT ... FROM as written in capitals, or a column list no sentence has
        re.compile(r"\bSELECT\s+(?:DISTINCT\s+)?[^\n]{1,200}?\s+FROM\s+[\w.\"`]+"),
        re.compile(r"\bselect\s+(?:distinct\s+)?(?:\*|[\w.]*\([\w.*\s,]*\)|[\w.]+\s*,)"
                   r"[^\n]{0,200}?\s+from\s+[\w.\"`]+", re.IGNORECASE),
        re.compile(r"\binsert\s+into\s+[\w.\"`]+\s*(?:\(|values\b|select\b)", re.IGNORECASE),
        re.compile(r"\bupdate\s+[\w.\"`]+\s+set\s+\w+\s*=", re.IGNORECASE),
        re.compile(r"\bdelete\s+from\s+[\w.\"`]+\s+where\b", re.IGNORECASE),
        re.compile(r"\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|VIEW)\s+[\w.\"`]+"),
    ), ("sql",)),
    "promql": ((
        re.compile(r"\b[a-zA-Z_:][\w:]*\{\s*[a-zA-Z_]\w*\s*(?:=|!=|=~|!~)\s*\"[^\"\n]{0,200}\""),
        re.compile(r"\b(?:rate|irate|increase|histogram_quantile|sum|avg|max|min|count)\s*\("
                   r"[^\n]{0,200}\[\d+[smhdwy]\]"),
    ), ("promql",)),
    "logql": ((
        re.compile(r"(?:^|\s)\{\s*[a-zA-Z_]\w*\s*(?:=|!=|=~|!~)\s*\"[^\"\n]{0,200}\"[^}\n]{0,200}\}"
                   r"\s*(?:\|=|\|~|!=|!~|\|\s*(?:json|logfmt|pattern|regexp|line_format))"),
    ), ("logql",)),
    "jql": ((
        # two conditions on Jira's fields joined by AND or OR, or one and ORDER BY
        re.compile(r"\b(?:project|assignee|reporter|status|issuetype|sprint|labels|priority)\s*"
                   r"(?:=|!=|~|\bin\b|\bnot in\b)\s*[^\n]{1,200}?\s(?:(?:AND|OR)\s+\w+\s*"
                   r"(?:=|!=|~|\bin\b|\bis\b)|ORDER\s+BY\b)", re.IGNORECASE),
    ), ("jql",)),
    "cypher": ((
        re.compile(r"\bmatch\s*\(\s*\w*\s*(?::\s*\w+)?[^)\n]{0,200}\)[^\n]{0,400}?\breturn\b",
                   re.IGNORECASE),
    ), ("cypher",)),
}
# a parameter that holds a statement, when the tool's description names the language
_STATEMENT_PARAMETERS = frozenset({"query", "statement", "statements", "expr", "expression"})


def languages(request: str) -> set[str]:
    """The query languages of the statements `request` holds (by their syntax)."""
    text = request[:MAX_REQUEST]
    return {name for name, (patterns, _) in LANGUAGES.items()
            if any(p.search(text) for p in patterns)}


def without_statements(request: str) -> str:
    """`request` without the statements it holds (each from the whitespace before it to the
    whitespace after it): their identifiers are values handed to a tool, not words about what
    is asked (`job`, `status` in a PromQL selector), as a URL's are
    (toolcat.search.text.without_values). The request itself when it holds none."""
    text = request[:MAX_REQUEST]
    spans = sorted(m.span() for patterns, _ in LANGUAGES.values() for p in patterns
                   for m in p.finditer(text))
    if not spans:
        return request
    kept, end = [], 0
    for start, stop in spans:
        start = max(text.rfind(" ", 0, start) + 1, end)
        if start > end:
            kept.append(text[end:start])
        space = text.find(" ", stop)
        end = max(end, len(text) if space < 0 else space)
    kept.append(text[end:])
    return " ".join("".join(kept).split())


class Statements:
    """Which tools of a catalog take a statement in each language (the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self.size = len(tools)
        self.takes: dict[str, np.ndarray] = {}
        for name, (_, words) in LANGUAGES.items():
            found = [i for i, tool in enumerate(tools) if _takes(tool, words)]
            if found:
                self.takes[name] = np.array(found, dtype=np.int64)

    def evidence(self, request: str) -> np.ndarray:
        """STATED nats for each tool that takes a statement in a language `request` holds
        one of (0 for the others; all 0 when the catalog has no such tool)."""
        found = np.zeros(self.size)
        if not self.takes:
            return found
        for name in languages(request):
            indices = self.takes.get(name)
            if indices is not None:
                found[indices] = STATED
        return found


def _takes(tool: Tool, words: tuple[str, ...]) -> bool:
    names = re.compile(r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])", re.IGNORECASE)
    parameters = dict(_parameters(tool.parameters))
    if any(names.search(key) or names.search(text) for key, text in parameters.items()):
        return True
    return bool(names.search(tool.description or "")) \
        and any(key.lower() in _STATEMENT_PARAMETERS for key in parameters)


def _parameters(schema: Any, depth: int = 0) -> Iterable[tuple[str, str]]:
    """(name, description) of each property of `schema`, nested objects' too (a few levels:
    `params: {sql: ...}`)."""
    if not isinstance(schema, Mapping) or depth > 3:
        return
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return
    for key, value in properties.items():
        text = value.get("description") if isinstance(value, Mapping) else None
        yield str(key), text if isinstance(text, str) else ""
        yield from _parameters(value, depth + 1)
