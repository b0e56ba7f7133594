"""What serve will not serve, and why: decided once at start for the catalog, and again for
each upstream server when it starts, from what it lists live.

At start (`withheld`):
- a tool with an error of the security rules (TC6xx: tool poisoning, hidden Unicode, a
  look-alike name, a poisoned server) is withheld, unless the user allowed it by name
  (`--allow-tool`); the lint engine is the judge, with its default settings, so that no
  configuration file or `x-toolcat-ignore` in the catalog can wave a tool through;
- with a lock file (`toolcat.lock`), a tool that changed or appeared since the lock is
  withheld, as `toolcat lint --locked` (TC604) would fail it.
The security rules' verdict on a catalog read from files is kept in the sealed cache under the
catalog's content key (which covers toolcat's version, so its rules; toolcat.catalog.kept): a
serve of a catalog seen before starts without scanning 43,000 definitions again.

When an upstream starts (`live_changes`): a catalog tool whose live definition (description,
parameters, annotations: what the lock pins) differs from the catalog's, or from the lock's,
or that the server no longer lists, is not called: the call is refused, naming the change.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from toolcat.catalog.kept import Kind, kept
from toolcat.model import Catalog, Tool
from toolcat.pin.lock import PINNED_FIELDS, Lock, Pin, drift, pin

if TYPE_CHECKING:
    from toolcat.lint.findings import Finding

SECURITY = "TC6"  # the lint rules whose errors withhold a tool
LOCKED_RULE = "TC604"  # compared with the lock here, not by the lint run


def withheld(catalog: Catalog, *, allowed: Collection[str] = (),
             lock: Lock | None = None, scanning: Callable[[], None] | None = None
             ) -> dict[str, str]:
    """{qualified name: why it is not served} for the tools of `catalog`.

    `allowed`: names or patterns (`server:tool`, `server:*`) of tools served despite their
    security findings (not despite a change since the lock). `scanning` is called before
    the security rules read the catalog (not when their verdict is kept from before)."""
    waived = {t.qualified_name for t in catalog.select(list(allowed))} if allowed else set()
    found = {key: f"{reason} (serve it anyway with --allow-tool '{key}')"
             for key, reason in security_errors(catalog, scanning).items()
             if key not in waived}
    if lock is not None:
        for change in drift(lock, catalog):
            if change.tool is not None:
                found.setdefault(change.key, f"{change.describe()} ({lock.path}); review it "
                                             "(toolcat diff) and run `toolcat lock` to accept it")
    return found


def security_errors(catalog: Catalog, scanning: Callable[[], None] | None = None
                    ) -> dict[str, str]:
    """{qualified name: the first security (TC6xx) error on it} for the tools of `catalog`,
    from the cache when the catalog was seen before (else `scanning` is called first)."""
    def scan() -> dict[str, str]:
        if scanning is not None:
            scanning()
        return _scan(catalog)

    return kept(VERDICTS, catalog, scan, _verdicts,
                lambda found, handle: handle.write(json.dumps(found).encode()))


# bytes of a kept verdict; the version changes when the security rules' verdicts could
VERDICTS = Kind("security", 1, ".json", 64 << 20)


def _verdicts(payload: memoryview) -> dict[str, str]:
    data = json.loads(bytes(payload))
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError("not a map of tool names to reasons")
    return data


def _scan(catalog: Catalog) -> dict[str, str]:
    from toolcat.lint.engine import lint_catalog
    from toolcat.lint.settings import LintSettings

    report = lint_catalog(catalog, LintSettings(select=_deciding()))
    by_server: dict[str, list[Tool]] = {}
    for tool in catalog.tools:
        by_server.setdefault(tool.server, []).append(tool)
    found: dict[str, str] = {}
    for finding in report.findings:
        if finding.severity == "error" and finding.rule.startswith(SECURITY):
            for key in _subjects(finding, catalog, by_server):
                found.setdefault(key, f"{finding.rule} {finding.name}: {finding.message}")
    return found


def _deciding() -> tuple[str, ...]:
    """The security rules whose findings are errors under the default settings, the only
    ones that withhold a tool (the lock's is compared apart): the warnings' rules (a shadowed
    name, a suspicious instruction, an unmarked destructive tool) would be run and dropped."""
    from toolcat.lint.rules import RULES

    return tuple(rule.id for rule in RULES.values() if rule.id.startswith(SECURITY)
                 and rule.severity == "error" and rule.id != LOCKED_RULE)


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
        # the lock's volatile text (a host's folders in a description) is accepted here too
        masks = lock.masks(tool) if lock is not None else ()
        current = pin(now, masks)
        fields = _changed(pin(tool, masks), current)
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
