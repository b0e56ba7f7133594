"""Every lint rule, keyed by its stable id. A family is a module; a rule is one function there.

TC1xx schema, TC2xx naming, TC3xx descriptions, TC4xx provider compatibility (only with a
target), TC5xx catalog-level, TC6xx security. Ids are never reused or renumbered.
"""

from __future__ import annotations

from types import ModuleType

from toolcat.lint.findings import Rule
from toolcat.lint.rules import (
    catalog_level,
    compat,
    descriptions,
    locked,
    naming,
    safety,
    schema,
    security,
)


def _collect(*modules: ModuleType) -> dict[str, Rule]:
    found: dict[str, Rule] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Rule):
                if value.id in found:
                    raise RuntimeError(f"two rules share the id {value.id}")
                found[value.id] = value
    return dict(sorted(found.items()))


RULES: dict[str, Rule] = _collect(schema, naming, descriptions, compat, catalog_level, security,
                                  safety, locked)
