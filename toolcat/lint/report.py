"""Reporters: a LintReport as plain text, JSON, SARIF 2.1.0 or GitHub Actions annotations.

Each builds a string and prints nothing. REPORTERS maps the `--format` name to the function;
the CLI only chooses where the string goes (on a terminal it lays the text report out as a
coloured table with the same rows).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson

from toolcat import __version__
from toolcat.lint.findings import Finding, LintReport, Rule
from toolcat.lint.rules import RULES
from toolcat.model import SourceRef
from toolcat.wording import plural

SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def shown_path(file: str, root: Path | None = None) -> str:
    """A file as a path relative to `root` (the current folder) when it is inside it."""
    root = root or Path.cwd()
    path = Path(file)
    if path.is_absolute():
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return path.as_posix()
    return path.as_posix()


def summary(report: LintReport) -> str:
    """`2 errors, 1 warning, 0 info in 72 tools from 8 files`."""
    counts = report.counts()
    parts = [plural(counts["error"], "error"), plural(counts["warning"], "warning"),
             f"{counts['info']} info"]
    return f"{', '.join(parts)} in {plural(report.tools, 'tool')} from " \
           f"{plural(len(report.sources), 'file')}"


def by_file(report: LintReport) -> dict[str, list[Finding]]:
    """The findings grouped by the file they are in ('' for the catalog as a whole)."""
    groups: dict[str, list[Finding]] = {}
    for finding in report.findings:
        file = finding.where.file if finding.where and finding.where.file else ""
        groups.setdefault(file, []).append(finding)
    return groups


def file_heading(file: str) -> str:
    return shown_path(file) if file else "(catalog)"


def text_row(finding: Finding) -> tuple[str, str, str, str]:
    """(line:column, severity, rule id, `tool: message [target]  rule-name`)."""
    where = finding.where
    message = f"{finding.tool}: {finding.message}" if finding.tool else finding.message
    if finding.target:
        message += f" [{finding.target}]"
    return (f"{where.line}:{where.column}" if where and where.line else "",
            finding.severity, finding.rule, f"{message}  {finding.name}")


def text_rows(findings: list[Finding]) -> str:
    """The rows of one file's findings as aligned plain lines."""
    rows = [text_row(finding) for finding in findings]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "".join(f"{a:>{widths[0]}}  {b:<{widths[1]}}  {c:<{widths[2]}}  {d}\n"
                   for a, b, c, d in rows)


def to_text(report: LintReport, *, strict: bool = False) -> str:
    """Findings grouped by file, one aligned line each, then the summary."""
    del strict  # the summary counts every severity; --strict decides only the exit code
    parts = [f"{file_heading(file)}\n{text_rows(findings)}\n"
             for file, findings in by_file(report).items()]
    parts.append(summary(report) + "\n")
    if report.baseline:
        parts.append(f"{report.accepted} accepted in the baseline {report.baseline}\n")
    return "".join(parts)


def to_json(report: LintReport, *, strict: bool = False) -> str:
    return indented_json(report.to_json(strict=strict)) + "\n"


def indented_json(value: Any) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, written by orjson: the same text
    (a report holds strings, integers, booleans and nulls, no floats) several times faster,
    since the standard library's indenting encoder is pure Python. What orjson refuses (a
    lone surrogate from a hostile file, an integer past 64 bits) the standard library
    writes."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)


def to_sarif(report: LintReport, *, strict: bool = False) -> str:
    """SARIF 2.1.0: one run, every rule in the driver, one result per finding."""
    del strict  # SARIF carries levels; whether they fail the build is the CI's choice
    ids = list(RULES)
    rules = [_sarif_rule(RULES[rule_id]) for rule_id in ids]
    results = [_sarif_result(finding, ids.index(finding.rule)) for finding in report.findings]
    sarif = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "toolcat",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    help_text = (f"{rule.explanation}\n\nBad:\n{rule.bad}\nGood:\n{rule.good}")
    help_markdown = (f"{rule.explanation}\n\nBad:\n\n```yaml\n{rule.bad}```\n\n"
                     f"Good:\n\n```yaml\n{rule.good}```\n")
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation or rule.summary},
        "help": {"text": help_text, "markdown": help_markdown},
        "defaultConfiguration": {"level": SARIF_LEVELS[rule.severity]},
        "properties": {"tags": [rule.family]},
    }


def _location(where: SourceRef) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(where.file)}}
    if where.line:
        physical["region"] = {"startLine": where.line, "startColumn": max(where.column, 1)}
    return {"physicalLocation": physical}


def _uri(file: str) -> str:
    shown = shown_path(file)
    if Path(shown).is_absolute():
        return Path(shown).as_uri()
    return quote(shown)


def _sarif_result(finding: Finding, index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": index,
        "level": SARIF_LEVELS[finding.severity],
        "message": {"text": _text(finding)},
        "partialFingerprints": {"toolcatFinding/v1": _fingerprint(finding)},
    }
    if finding.where is not None and finding.where.file:
        location = _location(finding.where)
        if finding.tool:
            location["logicalLocations"] = [{"name": finding.tool, "kind": "function"}]
        result["locations"] = [location]
    if finding.related:
        result["relatedLocations"] = [
            {"id": i, **_location(ref), "message": {"text": "also here"}}
            for i, ref in enumerate(finding.related) if ref.file]
    return result


def _fingerprint(finding: Finding) -> str:
    """Stable across line moves: the rule, file, tool, JSON pointer, target and message."""
    where = finding.where or SourceRef("")
    key = "\0".join((finding.rule, shown_path(where.file) if where.file else "",
                     finding.tool or "", where.pointer, finding.target or "", finding.message))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _text(finding: Finding) -> str:
    parts = [finding.tool + ": " if finding.tool else "", finding.message]
    if finding.target:
        parts.append(f" [target {finding.target}]")
    return "".join(parts)


def to_github(report: LintReport, *, strict: bool = False) -> str:
    """GitHub Actions workflow commands: `::error file=...,line=...,col=...,title=...::msg`."""
    del strict
    lines = []
    for finding in report.findings:
        properties = []
        if finding.where is not None and finding.where.file:
            properties.append(f"file={_property(shown_path(finding.where.file))}")
            if finding.where.line:
                properties += [f"line={finding.where.line}", f"col={finding.where.column}"]
        properties.append(f"title={_property(f'{finding.rule} {finding.name}')}")
        lines.append(f"::{GITHUB_LEVELS[finding.severity]} {','.join(properties)}::"
                     f"{_data(_text(finding))}")
    return "".join(line + "\n" for line in lines)


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


REPORTERS: dict[str, Callable[..., str]] = {
    "text": to_text,
    "json": to_json,
    "sarif": to_sarif,
    "github": to_github,
}
