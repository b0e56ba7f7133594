"""Run the rules over a catalog: the engine places each problem in the file, applies the
settings, `x-toolcat-ignore` and the baseline, and returns a sorted LintReport.

Security rules (TC6xx) are not silenced by `x-toolcat-ignore`: a catalog written by a
stranger must not be able to switch off the checks on itself. Only the project's own settings
(`lint.ignore`, `lint.severity`) and its baseline can; a file that tries gets an `info`
finding saying so."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import chain

from toolcat.errors import CatalogError
from toolcat.lint.baseline import apply_baseline, fingerprint, load_baseline
from toolcat.lint.collector import paused
from toolcat.lint.findings import Context, Finding, LintReport, Problem, Rule, Severity
from toolcat.lint.rules import RULES
from toolcat.lint.settings import LintSettings, rule_matches
from toolcat.lint.targets import get_targets
from toolcat.model import Catalog, PendingSourceRef, SourceRef, Tool, settle
from toolcat.providers.reading import IGNORE_KEY
from toolcat.source.positions import KeyLocator, PositionIndex, join

_WRAPPERS = ("function", "toolSpec")  # shapes that nest the tool's fields one level down


def lint_catalog(catalog: Catalog, settings: LintSettings | None = None) -> LintReport:
    """Check `catalog` with the rules `settings` selects (every rule by default).

    Load the catalog with `load_catalog(..., lenient=True)`, so that duplicate names and bad
    `$ref`s become findings instead of stopping the load.

    Raises:
        UsageError: the settings name an unknown rule, target or option.
    """
    settings = settings or LintSettings()
    settings.validate()
    with paused():
        return _lint(catalog, settings)


def _lint(catalog: Catalog, settings: LintSettings) -> LintReport:
    _check_ignores(catalog)
    targets = get_targets(settings.targets)
    ctx = Context(catalog, settings.all_options(), targets, settings.prefix)
    findings: list[Finding] = []
    keys: dict[int, KeyLocator] = {}
    tried: dict[object, tuple[list[Rule], Tool | None, str | None]] = {}
    ran: list[str] = []
    silencing = [(tool, tool.ignored_rules) for tool in catalog.tools]  # read once, not per rule
    for rule in settings.active_rules():
        if rule.needs_target and not targets:
            continue
        ran.append(rule.id)
        severity = settings.severity_of(rule)
        if rule.scope == "tool":
            check = _once_per_schema(rule) if rule.per_schema else rule.check
            for tool, ignored in silencing:
                if ignored and _silenced(rule, ignored):
                    if not _protected(rule):
                        continue
                    tried.setdefault(id(tool), ([], tool, None))[0].append(rule)
                for problem in check(tool, ctx):
                    findings.append(_finding(rule, severity, problem, tool, catalog, keys))
        else:
            for problem in rule.check(catalog, ctx):
                if problem.tool is not None and _silenced(rule, problem.tool.ignored_rules):
                    if not _protected(rule):
                        continue
                    entry = tried.setdefault(id(problem.tool), ([], problem.tool, None))
                    if rule not in entry[0]:
                        entry[0].append(rule)
                if problem.server and _silenced(rule, _server_ignores(catalog, problem.server)):
                    if not _protected(rule):
                        continue
                    entry = tried.setdefault(problem.server, ([], None, problem.server))
                    if rule not in entry[0]:
                        entry[0].append(rule)
                findings.append(_finding(rule, severity, problem, problem.tool, catalog,
                                        keys))
    findings += [_refused(rules, tool, server, catalog, keys)
                 for rules, tool, server in tried.values()]
    settle(chain.from_iterable((finding.where, *finding.related) for finding in findings))
    findings.sort(key=Finding.sort_key)
    report = LintReport(tuple(findings), catalog.sources, len(catalog.tools), tuple(ran),
                        tuple(t.name for t in targets))
    if settings.baseline:
        report = apply_baseline(report, load_baseline(settings.baseline))
    return report


def _once_per_schema(rule: Rule) -> Callable[[Tool, Context], Iterable[Problem]]:
    """`rule.check` run once per distinct schema of the catalog (a `per_schema` rule's
    problems depend on nothing else); catalogs repeat parameter schemas tool after tool."""
    found: dict[str | bytes, list[Problem]] = {}

    def check(tool: Tool, ctx: Context) -> list[Problem]:
        key = ctx.schema_key(tool)
        problems = found.get(key)
        if problems is None:
            problems = found[key] = list(rule.check(tool, ctx))
        return problems
    return check


PROTECTED_FAMILY = "TC6"  # security: only the project's own settings can silence these


def _protected(rule: Rule) -> bool:
    return rule.id.startswith(PROTECTED_FAMILY)


def _refused(rules: list[Rule], tool: Tool | None, server: str | None,
             catalog: Catalog, keys: dict[int, KeyLocator]) -> Finding:
    """The note, under the first of `rules`, that an `x-toolcat-ignore` in the catalog did not
    silence security rules."""
    subject = f"tool '{tool.name}'" if tool is not None else f"server '{server}'"
    named = ", ".join(f"{rule.id} ({rule.name})" for rule in rules)
    problem = Problem(f"{subject} asks to silence the security rule{'s' * (len(rules) > 1)} "
                      f"{named} with x-toolcat-ignore, which a catalog cannot do for itself; "
                      f"accept findings in toolcat.yaml (lint.ignore or lint.severity) or in a "
                      f"baseline (toolcat lint --write-baseline FILE)", tool=tool,
                      field="x-toolcat-ignore", key=True, server=server)
    entry = catalog.server(server) if tool is None and server is not None else None
    if entry is not None and entry.origin is not None:
        problem = replace(problem, where=entry.origin)
    return _finding(rules[0], "info", problem, tool, catalog, keys)


def _check_ignores(catalog: Catalog) -> None:
    """An unknown rule in `x-toolcat-ignore` is an error, as it is in toolcat.yaml."""
    owners = [(t.extra, t.origin, t.raw) for t in catalog.tools]
    owners += [(s.extra, s.origin, {IGNORE_KEY: None}) for s in catalog.servers]
    for extra, origin, raw in owners:
        value = extra.get(IGNORE_KEY)
        patterns = [value] if isinstance(value, str) else value or []
        for i, pattern in enumerate(patterns):
            if any(rule_matches(str(pattern), rule) for rule in RULES.values()):
                continue
            where = origin
            if origin is not None and origin.pointer is not None:
                nested = [w for w in _WRAPPERS if IGNORE_KEY not in raw
                          and isinstance(raw.get(w), dict) and IGNORE_KEY in raw[w]]
                item = [i] if isinstance(value, list) else []
                pointer = join(origin.pointer, *nested[:1], IGNORE_KEY, *item)
                index = catalog.positions.get(origin.file)
                where = SourceRef(origin.file, *index.locate(pointer), pointer) if index else origin
            raise CatalogError(f"unknown rule '{pattern}' in {IGNORE_KEY}; known: ALL, "
                               f"{', '.join(RULES)} (or their names, or a prefix like TC3)",
                               where=where)


def _silenced(rule: Rule, ignored: frozenset[str]) -> bool:
    return bool(ignored) and any(rule_matches(pattern, rule) for pattern in ignored)


def _server_ignores(catalog: Catalog, name: str) -> frozenset[str]:
    server = catalog.server(name)
    value = server.extra.get("x-toolcat-ignore", ()) if server else ()
    return frozenset([value] if isinstance(value, str) else map(str, value))


def _finding(rule: Rule, severity: Severity, problem: Problem, tool: Tool | None,
             catalog: Catalog, keys: dict[int, KeyLocator]) -> Finding:
    return Finding(
        rule=rule.id,
        name=rule.name,
        severity=severity,
        message=problem.message,
        tool=catalog.ident(tool) if tool is not None else None,
        where=locate(problem, tool, catalog, keys),
        related=problem.related,
        target=problem.target,
        server=tool.server if tool is not None else problem.server,
        tool_name=tool.name if tool is not None else None,
        fingerprint=fingerprint(rule.id, problem.evidence or problem.message),
    )


def locate(problem: Problem, tool: Tool | None, catalog: Catalog,
           keys: dict[int, KeyLocator] | None = None) -> SourceRef | None:
    """The most precise file position of a problem (see Problem for the order). Its line
    may be looked up only when read (`model.settle` places many at once); `keys`: see
    `_pending`."""
    keys = {} if keys is None else keys
    if problem.where is not None:
        return problem.where
    if tool is None or tool.origin is None:
        return None
    file = tool.origin.file
    if problem.schema is not None and tool.parameters is not None:
        if tool.schema_pointer is None:
            return tool.origin
        pointer = tool.schema_pointer + problem.schema
        index = catalog.positions.get(file)
        if index is None:
            return SourceRef(file, tool.origin.line, tool.origin.column, pointer)
        return _pending(file, pointer, index, problem.key, keys)
    if problem.field is not None:
        at = field_pointer(tool, problem.field)
        index = catalog.positions.get(file)
        if at is not None and index is not None:
            return _pending(file, at, index, problem.key, keys)
    return tool.origin


def _pending(file: str, pointer: str, index: PositionIndex, key: bool,
             keys: dict[int, KeyLocator]) -> SourceRef:
    """The place of `pointer` (of its key, with `key`) in `file`, looked up later: the
    engine places a run's findings together (`settle`). `keys`: the run's KeyLocator of each
    position index, one per file, so that the keys of a file are placed together too."""
    if key:
        locator = keys.get(id(index))
        if locator is None:
            locator = keys[id(index)] = KeyLocator(index)
        return PendingSourceRef(file, pointer, locator.locate)
    return PendingSourceRef(file, pointer, index.locate)


def field_pointer(tool: Tool, name: str) -> str | None:
    """The JSON pointer of a field of the tool's entry, in whatever shape it was written."""
    assert tool.origin is not None
    if name in tool.raw:
        return join(tool.origin.pointer, name)
    for wrapper in _WRAPPERS:
        inner = tool.raw.get(wrapper)
        if isinstance(inner, dict) and name in inner:
            return join(tool.origin.pointer, wrapper, name)
    return None
