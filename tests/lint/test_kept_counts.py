"""lint's token budgets read every tool's count where a command over the same catalog kept
it (resolve, serve, an earlier lint: `toolcat.catalog.kept.TOKENS`); read or
counted, the findings are the same."""

from __future__ import annotations

import toolcat.providers.tokens as tokens_module
from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings
from toolcat.resolution.resolver import Resolver

BUDGETS = LintSettings(select=("TC503", "TC504"),
                       options={"max_tool_tokens": 60, "max_catalog_tokens": 600})


def findings(report):
    return [(f.rule, f.tool, f.message) for f in report.findings]


def test_the_token_budgets_read_the_counts_a_resolution_kept(monkeypatch):
    Resolver(load_catalog(CATALOGS)).resolve("")  # keeps every tool's count
    counted = findings(lint_catalog(load_catalog(CATALOGS), BUDGETS))
    assert {rule for rule, _, _ in counted} == {"TC503", "TC504"}

    def no_counting(*args, **kwargs):
        raise AssertionError("counted again")

    monkeypatch.setattr(tokens_module, "definition_tokens", no_counting)
    assert findings(lint_catalog(load_catalog(CATALOGS), BUDGETS)) == counted

