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

Other pasted input has a kind the same way (KINDS): source code, read by its calls, gives
PASTED nats to the tools that take code (a parameter `code` or `script`, a language of code
named); a stack trace, read by its frames or its qualified exception, to the tools whose
description names stack traces or crashes. SPL is among the languages.

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
# nats for a tool that takes the code or reads the stack trace the request pastes: a request
# that is mostly code or a trace has few words of its own, and one of them that a sibling's
# name shares ("open", "test") outweighed 2
PASTED = 3.0
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
    "spl": ((
        # an index or sourcetype selected, then a pipe into one of SPL's commands
        re.compile(r"\b(?:index|sourcetype)\s*=\s*[\w*\"'.:-]+[^\n|]{0,200}\|\s*"
                   r"(?:stats|timechart|chart|table|top|rare|eval|where|rex|dedup|sort|head|tail"
                   r"|fields|transaction|lookup|eventstats|streamstats|bin|bucket)\b"),
        re.compile(r"(?:^|\s)\|\s*(?:tstats|inputlookup|makeresults|rest)\s"),
    ), ("spl", "splunk search query", "search processing language")),
}
# Input of a kind that is no query language: the tools that take it say so in other ways.
# kind -> (the patterns of it in a request, the words that name it in a tool's text)
KINDS: Mapping[str, tuple[tuple[re.Pattern[str], ...], tuple[str, ...]]] = {
    # source code: a call inside a call, a method called on a literal or a name, a lambda or
    # an arrow function; prose has a space before its parentheses
    "code": ((
        re.compile(r"\b[A-Za-z_]\w*\((?![\w$.]+\.\w+:\d)[^()\n]{0,200}\b[A-Za-z_]\w*\("
                   r"[^()\n]{0,200}\)[^()\n]{0,200}\)"),
        re.compile(r"(?:[\])\"'`]|\b[A-Za-z_]\w*)\.[A-Za-z_]\w*\((?![\w$.]+\.\w+:\d)"
                   r"[^()\n]{0,200}\)"),
        re.compile(r"\blambda\s+\w+(?:\s*,\s*\w+)*\s*:|\([\w\s,]{0,100}\)\s*=>"),
        re.compile(r"\b(?:def|function)\s+\w+\s*\([\w\s,=*]{0,200}\)\s*[:{]"),
    ), ("javascript", "typescript", "python", "ruby", "php", "perl", "groovy", "lua",
        "powershell", "snippet")),
    # a stack trace or an exception as a runtime prints it
    "trace": ((
        re.compile(r"\bat\s+[\w$]{1,80}(?:\.[\w$<>]{1,80}){1,16}\([\w$]{1,80}\.(?:java|kt|scala|groovy)"
                   r":\d+\)"),
        re.compile(r"\b(?:[a-z]\w{0,40}\.){1,8}[A-Z]\w{0,80}(?:Exception|Error)\b"),
        re.compile(r"Traceback \(most recent call last\)|\bFile \"[^\"\n]{1,300}\", line \d+"),
        re.compile(r"\bat\s+(?:[\w$.<>]+\s+)?\(?[^\s()]+\.(?:js|ts|mjs|cjs|tsx|jsx):\d+:\d+\)?"),
        re.compile(r"\b[A-Z][a-z]\w*(?:Exception|Error):\s"),
    ), ("stack trace", "stack traces", "stacktrace", "stacktraces", "traceback", "tracebacks",
        "crash", "crashes")),
}
# a parameter that holds a statement, when the tool's description names the language
_STATEMENT_PARAMETERS = frozenset({"query", "statement", "statements", "expr", "expression"})
# a parameter that holds code, when its tool or it names a language of code ("code" alone is
# a country's, a discount's or an OAuth code)
_CODE_PARAMETERS = frozenset({"code", "script", "snippet", "source_code"})


def languages(request: str) -> set[str]:
    """The query languages of the statements `request` holds, and the other kinds of pasted
    input (KINDS: source code, a stack trace) it holds, by their syntax."""
    text = request[:MAX_REQUEST]
    found = {name for name, (patterns, _) in (*LANGUAGES.items(), *KINDS.items())
             if any(p.search(text) for p in patterns)}
    if found & LANGUAGES.keys():  # `max(length(name))` in a SELECT is SQL's, not code
        found.discard("code")
    return found


def without_statements(request: str) -> str:
    """`request` without the statements it holds (each from the whitespace before it to the
    whitespace after it): their identifiers are values handed to a tool, not words about what
    is asked (`job`, `status` in a PromQL selector), as a URL's are
    (toolcat.search.text.without_values). The request itself when it holds none."""
    text = request[:MAX_REQUEST]
    spans = sorted(m.span() for patterns, _ in (*LANGUAGES.values(), *KINDS.values())
                   for p in patterns for m in p.finditer(text))
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
        for name, taker in (("code", _takes_code), ("trace", _names_traces)):
            found = [i for i, tool in enumerate(tools) if taker(tool, KINDS[name][1])]
            if found:
                self.takes[name] = np.array(found, dtype=np.int64)

    def evidence(self, request: str) -> np.ndarray:
        """STATED nats for each tool that takes a statement in a language `request` holds
        one of, PASTED for each that takes the code or reads the trace it pastes (0 for the
        others; all 0 when the catalog has no such tool)."""
        found = np.zeros(self.size)
        if not self.takes:
            return found
        for name in languages(request):
            indices = self.takes.get(name)
            if indices is not None:
                found[indices] = np.maximum(found[indices], PASTED if name in KINDS else STATED)
        return found

    def said(self, request: str, index: int) -> str:
        """What the request pastes that tool `index` takes, in words for `--explain` ("" when
        nothing)."""
        kinds = sorted(name for name in languages(request)
                       if index in self.takes.get(name, np.zeros(0, dtype=np.int64)))
        if not kinds:
            return ""
        if any(name in LANGUAGES for name in kinds):
            return "it takes a statement in the language of the one the request holds"
        return "it takes " + " and ".join(
            {"code": "code, which the request pastes",
             "trace": "what a crash leaves, which the request pastes (a stack trace)"}[name]
            for name in kinds)


def _takes(tool: Tool, words: tuple[str, ...]) -> bool:
    names = _words(words)
    parameters = dict(_parameters(tool.parameters))
    if any(names.search(key) or names.search(text) for key, text in parameters.items()):
        return True
    return bool(names.search(tool.description or "")) \
        and any(key.lower() in _STATEMENT_PARAMETERS for key in parameters)


def _takes_code(tool: Tool, words: tuple[str, ...]) -> bool:
    """A parameter for code (`code`, `script`) and a language of code named by the tool's
    description or that parameter's ("Run code snippet", "Execute JavaScript")."""
    names = _words(words)
    return any(key.lower() in _CODE_PARAMETERS
               and (names.search(text) or names.search(tool.description or ""))
               for key, text in _parameters(tool.parameters))


def _names_traces(tool: Tool, words: tuple[str, ...]) -> bool:
    """The tool's description names stack traces or crashes ("individual crashes and ANRs
    with stack traces")."""
    return bool(_words(words).search(tool.description or ""))


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])", re.IGNORECASE)


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
