"""Findings accepted on review, kept outside the catalog they are about.

A baseline is a YAML file the project keeps next to toolcat.yaml (`toolcat lint
--write-baseline FILE` writes it, `--baseline FILE` or `lint: baseline:` reads it). Each
entry is keyed by rule, server, tool and a fingerprint of the text the finding is about, not
by file position: re-importing a server or moving a tool keeps it accepted, while a change of
the text makes the finding come back. This is how a project accepts a security finding,
since a catalog cannot silence security rules on itself.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from toolcat.errors import CatalogError, ConfigError
from toolcat.lint.findings import Finding, LintReport
from toolcat.source.fields import FieldReader
from toolcat.source.files import parse_file

VERSION = 1
HEADER = """\
# toolcat lint baseline: findings accepted on review (toolcat lint --write-baseline).
# An entry matches by rule, server, tool and a fingerprint of the text the finding is about;
# when that text changes, the finding is reported again. `message` is for the reader only.
"""

Key = tuple[str, str, str, str]


def fingerprint(rule: str, text: str) -> str:
    """A short, stable hash of what a finding is about."""
    return hashlib.sha256(f"{rule}\0{text}".encode()).hexdigest()[:16]


def key_of(finding: Finding) -> Key:
    return (finding.rule, finding.server or "", finding.tool_name or "", finding.fingerprint)


@dataclass(frozen=True)
class Baseline:
    """The accepted findings of one file, as a multiset of keys."""

    path: str
    keys: Counter[Key]


def load_baseline(path: Path | str) -> Baseline:
    """Read a baseline file.

    Raises:
        ConfigError: the file is missing, unreadable or not valid YAML (at file:line:col), is
            not a baseline, or an entry lacks its fields.
    """
    try:  # bounded, strict YAML with positions, like a catalog
        parsed = parse_file(Path(path))
    except CatalogError as exc:
        raise ConfigError(f"cannot read the baseline: {exc.message}", where=exc.where) from None
    read = FieldReader(parsed.path, parsed.index, document="the baseline")
    data = parsed.data
    if not isinstance(data, dict) or data.get("version") != VERSION \
            or not isinstance(data.get("accepted", []), list):
        raise ConfigError(f"not a toolcat baseline (expected `version: {VERSION}` and an "
                          "`accepted` list)", where=read.where())
    keys: Counter[Key] = Counter()
    fields = ("rule", "server", "tool", "fingerprint")
    for number, entry in enumerate(data.get("accepted") or [], 1):
        read.fields(f"/accepted/{number - 1}", entry, dict.fromkeys(fields, str),
                    ("rule", "fingerprint"), f"accepted entry {number} needs `rule` and "
                    "`fingerprint` (and `server`, `tool`) as text")
        keys[tuple(entry.get(f, "") for f in fields)] += 1
    return Baseline(str(path), keys)


def apply_baseline(report: LintReport, baseline: Baseline) -> LintReport:
    """The report without the findings the baseline accepts, counting them and the entries
    that matched nothing."""
    left = Counter(baseline.keys)
    kept = []
    for finding in report.findings:
        key = key_of(finding)
        if left[key] > 0:
            left[key] -= 1
        else:
            kept.append(finding)
    accepted = len(report.findings) - len(kept)
    return replace(report, findings=tuple(kept), baseline=baseline.path, accepted=accepted,
                   stale=sum(left.values()))


def dump_baseline(report: LintReport) -> str:
    """Every finding of `report` as an accepted entry (sorted, so diffs stay small)."""
    entries = sorted(
        ({"rule": f.rule, "server": f.server or "", "tool": f.tool_name or "",
          "fingerprint": f.fingerprint, "message": f.message} for f in report.findings),
        key=lambda e: (e["rule"], e["server"], e["tool"], e["fingerprint"]))
    body = yaml.safe_dump({"version": VERSION, "accepted": entries}, sort_keys=False,
                          allow_unicode=True, width=100)
    return HEADER + body
