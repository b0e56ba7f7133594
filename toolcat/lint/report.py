"""Reporters: a LintReport as JSON, SARIF 2.1.0 or GitHub Actions annotations.

Each builds a string and prints nothing; the text report (rich) lives in the CLI.
REPORTERS maps the `--format` name to the function.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from toolcat import __version__
from toolcat.lint.model import Finding, LintReport, Rule
from toolcat.lint.rules import RULES
from toolcat.model import SourceRef

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


def to_json(report: LintReport, *, strict: bool = False) -> str:
    return json.dumps(report.to_json(strict=strict), indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


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
    "json": to_json,
    "sarif": to_sarif,
    "github": to_github,
}
