"""What serve will not serve, and why: decided once at start for the catalog, and again for
each upstream server when it starts, from what it lists live.

At start (`withheld`):
- a tool with an error of the security rules (TC6xx: tool poisoning, hidden Unicode, a
  look-alike name, a poisoned server) is withheld, unless the user allowed it by name
  (`--allow-tool`); the lint engine is the judge, with its default settings, so that no
  configuration file or `x-toolcat-ignore` in the catalog can wave a tool through;
- with a lock file (`toolcat.lock`), a tool that changed or appeared since the lock is
  withheld, as `toolcat lint --locked` (TC604) would fail it.

When an upstream starts (`live_changes`): a catalog tool whose live definition (description,
parameters, annotations: what the lock pins) differs from the catalog's, or from the lock's,
or that the server no longer lists, is not called: the call is refused, naming the change.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from toolcat.model import Catalog, Tool
from toolcat.pin.lock import PINNED_FIELDS, Lock, Pin, drift, pin

if TYPE_CHECKING:
    from toolcat.lint.findings import Finding

SECURITY = "TC6"  # the lint rules whose errors withhold a tool
LOCKED_RULE = "TC604"  # compared with the lock here, not by the lint run


def withheld(catalog: Catalog, *, allowed: Collection[str] = (),
             lock: Lock | None = None) -> dict[str, str]:
    """{qualified name: why it is not served} for the tools of `catalog`.

    `allowed`: names or patterns (`server:tool`, `server:*`) of tools served despite their
    security findings (not despite a change since the lock)."""
    from toolcat.lint.engine import lint_catalog
    from toolcat.lint.settings import LintSettings

    report = lint_catalog(catalog, LintSettings(select=(SECURITY,), ignore=(LOCKED_RULE,)))
    waived = {t.qualified_name for t in catalog.select(list(allowed))} if allowed else set()
    by_server: dict[str, list[Tool]] = {}
    for tool in catalog.tools:
        by_server.setdefault(tool.server, []).append(tool)
    found: dict[str, str] = {}
    for finding in report.findings:
        if finding.severity != "error" or not finding.rule.startswith(SECURITY):
            continue
        for key in _subjects(finding, catalog, by_server):
            if key not in waived:
                found.setdefault(key, f"{finding.rule} {finding.name}: {finding.message} "
                                      f"(serve it anyway with --allow-tool '{key}')")
    if lock is not None:
        for change in drift(lock, catalog):
            if change.tool is not None:
                found.setdefault(change.key, f"{change.describe()} ({lock.path}); review it "
                                             "(toolcat diff) and run `toolcat lock` to accept it")
    return found


def _subjects(finding: Finding, catalog: Catalog, by_server: Mapping[str, list[Tool]]
              ) -> list[str]:
    """The qualified names a finding is about: its tool, or every tool of its server."""
    if finding.tool is not None:
        found = catalog.find(finding.tool)
        if finding.server is not None:
            found = [t for t in found if t.server == finding.server] or found
        return [t.qualified_name for t in found]
    if finding.server is not None:
        return [t.qualified_name for t in by_server.get(finding.server, [])]
    return []


def live_changes(expected: Collection[Tool], live: Catalog, lock: Lock | None = None
                 ) -> dict[str, str]:
    """{tool name: why it is not called} for the tools of `expected` (one server's catalog
    tools) whose live definition differs from the catalog's or the lock's."""
    listed = {t.name: t for t in live.tools}
    found: dict[str, str] = {}
    for tool in expected:
        now = listed.get(tool.name)
        key = tool.qualified_name
        if now is None:
            found[tool.name] = f"tool '{key}' is no longer listed by its server"
            continue
        current = pin(now)
        fields = _changed(pin(tool), current)
        locked = lock.pins.get(key) if lock is not None else None
        if fields:
            found[tool.name] = (f"tool '{key}' changed on its server since the catalog was "
                                f"written: {' and '.join(fields)}; it is not served (review "
                                "it with `toolcat import mcp` and `toolcat diff`)")
        elif locked is not None and locked.digest != current.digest:
            found[tool.name] = (f"tool '{key}' changed on its server since the lock: "
                                f"{' and '.join(_changed(locked, current))}; it is not "
                                "served")
    return found


def _changed(before: Pin, after: Pin) -> list[str]:
    if before.digest == after.digest:
        return []
    fields = [name for name in PINNED_FIELDS if before.fields.get(name) != after.fields[name]]
    return fields or ["its server or name"]
