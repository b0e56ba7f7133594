"""The values of the lint room: what a rule is, what it yields, what the engine reports."""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

import orjson

from toolcat.lint.walk import Node, walk
from toolcat.model import Catalog, SourceRef, Tool
from toolcat.providers.names import NameMap, NameRule, PrefixPolicy, name_map

if TYPE_CHECKING:
    from toolcat.lint.targets import Target

T = TypeVar("T")
Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
Scope = Literal["tool", "catalog"]

FAMILIES: dict[str, str] = {
    "TC1": "schema",
    "TC2": "naming",
    "TC3": "descriptions",
    "TC4": "provider compatibility",
    "TC5": "catalog",
    "TC6": "security",
}


@dataclass(frozen=True)
class Problem:
    """What a rule yields: a message and where it is; the engine adds everything else.

    The place is, from most to least precise: `where` (a position known already), `schema` (a
    JSON pointer inside the tool's parameters; `key=True` points at the key rather than its
    value), `field` (a key of the tool entry such as "name"), else the tool entry itself.
    """

    message: str
    tool: Tool | None = None  # catalog rules say which tool; tool rules leave it to the engine
    schema: str | None = None
    field: str | None = None
    key: bool = False
    where: SourceRef | None = None
    related: tuple[SourceRef, ...] = ()
    target: str | None = None
    server: str | None = None  # a finding about a server, which it can silence
    evidence: str | None = None  # the text it is about; a baseline accepts this text only


@dataclass
class Context:
    """What a rule may read besides its tool: the catalog, rule options, chosen targets."""

    catalog: Catalog
    options: Mapping[str, Any] = field(default_factory=dict)
    targets: tuple[Target, ...] = ()
    prefix: PrefixPolicy = "collisions"  # which names render sends with their server
    _nodes: dict[str | bytes, list[Node]] = field(default_factory=dict, repr=False)
    _entries: dict[tuple[str, str], Tool] | None = field(default=None, repr=False)
    _tokens: dict[int, int] = field(default_factory=dict, repr=False)
    _memo: dict[tuple[str, int], Any] = field(default_factory=dict, repr=False)
    _wire: dict[NameRule, NameMap] = field(default_factory=dict, repr=False)
    _schema_keys: dict[int, str | bytes] | None = field(default=None, repr=False)

    def memo(self, kind: str, tool: Tool, compute: Callable[[], T]) -> T:
        """`compute()` once per tool and kind, shared by the rules that need it."""
        key = (kind, id(tool))
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])  # stored by compute() for this kind

    def shared(self, kind: str, compute: Callable[[], T]) -> T:
        """`compute()` once per lint run, for what a rule learns from the whole catalog."""
        key = (kind, 0)
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def schema_key(self, tool: Tool) -> str | bytes:
        """What tells the tool's parameters from every other schema of the catalog: equal
        keys, equal schemas (`schema_key`). Every catalog tool's is taken at the first call,
        in one pass (the per-schema rules and the rules reading `nodes` ask for each tool's
        four times and more: a memo entry each time cost twice the key itself)."""
        keys = self._schema_keys
        if keys is None:
            tools = self.catalog.tools
            keys = self._schema_keys = dict(zip(
                map(id, tools), map(schema_key, [t.parameters for t in tools]), strict=True))
        key = keys.get(id(tool))
        return schema_key(tool.parameters) if key is None else key  # None: not the catalog's

    def nodes(self, tool: Tool) -> list[Node]:
        """Every subschema of the tool's parameters, walked once per distinct schema and
        shared by all rules: tools with equal schemas get the same nodes, so a rule reads
        what a node holds, never which object it is."""
        key = self.schema_key(tool)
        found = self._nodes.get(key)
        if found is None:
            found = self._nodes[key] = walk(tool.parameters)
        return found

    def tokens(self, tool: Tool) -> int:
        """Exact tokens of the tool's definition in the `token_encoding` option's encoding:
        every catalog tool's counted at the first call, or read where a command over the same
        catalog kept them (`toolcat.catalog.kept.TOKENS`, as resolve does)."""
        from toolcat.providers.tokens import (
            DEFAULT_ENCODING,
            definition_tokens,
            definitions_tokens,
        )

        encoding = self.options.get("token_encoding", DEFAULT_ENCODING)
        if not self._tokens and self.catalog.tools:
            from toolcat.catalog.kept import TOKENS, catalog_numbers, token_part

            tools = self.catalog.tools
            counts = catalog_numbers(TOKENS, self.catalog, lambda: definitions_tokens(
                tools, encoding, [self.schema_key(tool) for tool in tools]),
                token_part(encoding))
            self._tokens.update(zip(map(id, tools), counts, strict=True))
        key = id(tool)
        if key not in self._tokens:
            self._tokens[key] = definition_tokens(tool, encoding)
        return self._tokens[key]

    def counted(self) -> bool:
        """Whether the tokens of every catalog tool are known already (`tokens`), so that
        reading them costs less than the size that would spare counting them."""
        return bool(self._tokens)

    def wire_names(self, rule: NameRule) -> NameMap:
        """The names render gives the catalog's tools under a provider's name rule."""
        if rule not in self._wire:
            self._wire[rule] = name_map(self.catalog.tools, rule, self.prefix)
        return self._wire[rule]

    def tool_at(self, where: SourceRef | None) -> Tool | None:
        """The tool whose entry holds the position `where` (by file and JSON pointer)."""
        if where is None:
            return None
        if self._entries is None:
            self._entries = {(t.origin.file, t.origin.pointer): t
                             for t in self.catalog.tools if t.origin is not None}
        pointer = where.pointer
        while True:
            tool = self._entries.get((where.file, pointer))
            if tool is not None or not pointer:
                return tool
            pointer = pointer.rsplit("/", 1)[0]


# what orjson writes only for JSON's own types: datetimes, dataclasses and subclasses of
# str, int, dict and list raise instead (then `repr` tells them apart)
_EXACT = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | \
    orjson.OPT_PASSTHROUGH_SUBCLASS


def schema_key(schema: Any) -> str | bytes:
    """A key equal for equal schemas only, telling 1 from 1.0, "1" and True: orjson's text
    (a third of `repr`'s time), else `repr` where orjson's could hide a difference (a key
    that is not a string, an integer past 64 bits, NaN and the infinities written `null`).
    A tuple reads as a list here: no reader of a catalog file makes one."""
    try:
        text = orjson.dumps(schema, option=_EXACT)
    except TypeError:
        return repr(schema)
    return repr(schema) if b"null" in text else text


ToolCheck = Callable[[Tool, Context], Iterator[Problem]]
CatalogCheck = Callable[[Catalog, Context], Iterator[Problem]]


@dataclass(frozen=True)
class Rule:
    """A lint rule: a stable id, its documentation, and the generator that checks."""

    id: str
    name: str
    severity: Severity
    scope: Scope
    check: Callable[..., Iterator[Problem]] = field(repr=False)
    bad: str = field(repr=False)
    good: str = field(repr=False)
    options: Mapping[str, Any] = field(default_factory=dict)
    needs_target: bool = False
    # the `lint:` settings its examples are linted with (targets, options)
    example_settings: Mapping[str, Any] = field(default_factory=dict)
    # a tool rule whose problems follow from the tool's parameters and the options alone:
    # the engine checks each distinct schema once and gives its problems to every tool with it
    per_schema: bool = False

    @property
    def summary(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "").split("\n", 1)[0]

    @property
    def explanation(self) -> str:
        """The docstring after the summary, each paragraph on one line."""
        parts = inspect.cleandoc(self.check.__doc__ or "").split("\n", 1)
        body = parts[1].strip() if len(parts) > 1 else ""
        return "\n\n".join(" ".join(p.split()) for p in body.split("\n\n"))

    @property
    def family(self) -> str:
        return FAMILIES.get(self.id[:3], "other")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "severity": self.severity,
                "family": self.family, "scope": self.scope, "summary": self.summary,
                "explanation": self.explanation, "options": dict(self.options),
                "needs_target": self.needs_target, "example_settings":
                dict(self.example_settings), "bad": self.bad, "good": self.good}


def split_example(example: str) -> tuple[str, str]:
    """The bad and the good catalog of a rule's example, written once as a diff.

    Every line has a two-character gutter: `- ` for a line only the bad catalog has, `+ ` for
    one only the good catalog has, two spaces for a line both share. The example is written
    once and each half is derived, so the two cannot drift apart.
    """
    bad: list[str] = []
    good: list[str] = []
    for number, line in enumerate(inspect.cleandoc(example).split("\n"), 1):
        mark, text = line[:1], line[2:]
        if mark not in ("-", "+", " ", "") or line[1:2] not in (" ", ""):
            raise ValueError(f"example line {number} has no '- ', '+ ' or '  ' gutter: {line!r}")
        if mark != "+":
            bad.append(text)
        if mark != "-":
            good.append(text)
    return (inspect.cleandoc("\n" + "\n".join(bad)) + "\n",
            inspect.cleandoc("\n" + "\n".join(good)) + "\n")


def _examples(example: str | None, bad: str | None, good: str | None) -> tuple[str, str]:
    if example is not None and bad is None and good is None:
        return split_example(example)
    if example is None and bad is not None and good is not None:
        return inspect.cleandoc(bad) + "\n", inspect.cleandoc(good) + "\n"
    raise TypeError("a rule has either `example` or both `bad` and `good`")


def _rule(scope: Scope, id: str, name: str, severity: Severity, *, example: str | None,
          bad: str | None, good: str | None, options: Mapping[str, Any] | None,
          needs_target: bool, example_settings: Mapping[str, Any] | None,
          per_schema: bool = False) -> Callable[[Callable[..., Iterator[Problem]]], Rule]:
    bad_text, good_text = _examples(example, bad, good)

    def wrap(check: Callable[..., Iterator[Problem]]) -> Rule:
        return Rule(id, name, severity, scope, check, bad_text, good_text, dict(options or {}),
                    needs_target, dict(example_settings or {}), per_schema)
    return wrap


def tool_rule(id: str, name: str, severity: Severity, *, example: str | None = None,
              bad: str | None = None, good: str | None = None,
              options: Mapping[str, Any] | None = None, needs_target: bool = False,
              example_settings: Mapping[str, Any] | None = None,
              per_schema: bool = False) -> Callable[[ToolCheck], Rule]:
    """Declare a rule that checks one tool at a time. Its docstring documents it: the first
    line is the summary, the rest the explanation. `example` is the bad and the good catalog
    written once as a diff (`split_example`); `bad` and `good` are for the rare rule whose two
    catalogs share nothing. The examples are linted with `example_settings` (a `lint:`
    mapping) by the tests and shown in docs/lint-rules.md. `per_schema`: the rule reads only
    the tool's parameters (and the options) and yields problems placed by `schema` pointer,
    so the engine runs it once per distinct schema of the catalog."""
    return _rule("tool", id, name, severity, example=example, bad=bad, good=good,
                 options=options, needs_target=needs_target, example_settings=example_settings,
                 per_schema=per_schema)


def catalog_rule(id: str, name: str, severity: Severity, *, example: str | None = None,
                 bad: str | None = None, good: str | None = None,
                 options: Mapping[str, Any] | None = None, needs_target: bool = False,
                 example_settings: Mapping[str, Any] | None = None
                 ) -> Callable[[CatalogCheck], Rule]:
    """Declare a rule that runs once over the whole catalog (like `tool_rule` otherwise)."""
    return _rule("catalog", id, name, severity, example=example, bad=bad, good=good,
                 options=options, needs_target=needs_target, example_settings=example_settings)


@dataclass(frozen=True)
class Finding:
    """One problem found: the rule, the severity in force, the message and the place."""

    rule: str
    name: str
    severity: Severity
    message: str
    tool: str | None = None  # the tool's identity in the catalog
    where: SourceRef | None = None
    related: tuple[SourceRef, ...] = ()
    target: str | None = None
    server: str | None = None  # the tool's server (or the server the finding is about)
    tool_name: str | None = None
    fingerprint: str = ""  # rule + the text it is about: stable across moves and re-imports

    def sort_key(self) -> tuple[str, int, int, str, str]:
        where = self.where or SourceRef("")
        return (where.file, where.line, where.column, self.rule, self.message)

    def to_json(self) -> dict[str, Any]:
        where = self.where or SourceRef("")
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "tool": self.tool,
            "target": self.target,
            "file": where.file or None,
            "line": where.line or None,
            "column": where.column or None,
            "pointer": where.pointer if self.where else None,
            "related": [r.to_json() for r in self.related],
            "fingerprint": self.fingerprint,
        }


@dataclass(frozen=True)
class LintReport:
    """The findings of one lint run, sorted by file and position, and what was checked."""

    findings: tuple[Finding, ...]
    sources: tuple[str, ...] = ()
    tools: int = 0
    rules: tuple[str, ...] = ()  # ids of the rules that ran
    targets: tuple[str, ...] = ()
    baseline: str | None = None  # the baseline file applied, if any
    accepted: int = 0  # findings the baseline accepted (left out of `findings`)
    stale: int = 0  # baseline entries that matched nothing: their text changed or is gone

    def counts(self) -> dict[str, int]:
        counted = Counter(f.severity for f in self.findings)
        return {severity: counted.get(severity, 0) for severity in SEVERITIES}

    def failed(self, *, strict: bool = False) -> bool:
        """Whether the run should fail: an error remains (with `strict`, a warning too)."""
        failing = ("error", "warning") if strict else ("error",)
        return any(f.severity in failing for f in self.findings)

    def with_findings(self, findings: tuple[Finding, ...] | list[Finding]) -> LintReport:
        """This report plus more findings (from another check), kept in order."""
        merged = sorted((*self.findings, *findings), key=Finding.sort_key)
        return replace(self, findings=tuple(merged))

    def to_json(self, *, strict: bool = False) -> dict[str, Any]:
        return {
            "status": "fail" if self.failed(strict=strict) else "ok",
            "sources": list(self.sources),
            "tools": self.tools,
            "targets": list(self.targets),
            "rules": list(self.rules),
            "counts": self.counts(),
            "findings": [f.to_json() for f in self.findings],
            "baseline": {"file": self.baseline, "accepted": self.accepted,
                         "stale": self.stale} if self.baseline else None,
        }
