"""`lint --target X` (TC402) and `render --provider X` report the same dropped keywords, since
both read the provider's one description of what it keeps (`Provider.schema_changes`)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings
from toolcat.model import Catalog
from toolcat.render import RenderInput, render

CATALOG_FILES = [CATALOGS, DATA / "providers" / "hard.yaml"]


def lint_drops(catalog: Catalog, target: str) -> dict[str, set[str]]:
    """Tool -> the keywords TC402 says the target drops."""
    report = lint_catalog(catalog, LintSettings(select=("TC402",), targets=(target,)))
    drops: dict[str, set[str]] = {}
    for finding in report.findings:
        listed = re.match(r".*? drops ((?:'[^']+', )*'[^']+') (?:at|in) ", finding.message)
        assert listed, finding.message
        drops.setdefault(finding.tool, set()).update(re.findall(r"'([^']+)'", listed.group(1)))
    return drops


def render_drops(catalog: Catalog, provider: str) -> dict[str, set[str]]:
    """Tool -> the keywords render's notes say were dropped."""
    rendered = render(RenderInput(query="q", tools=catalog.tools, universe=catalog.tools,
                                  documents=catalog.documents), provider)
    back = {wire: catalog.ident(catalog.get(qualified))
            for qualified, wire in rendered.names.items()}
    drops: dict[str, set[str]] = {}
    for note in rendered.notes:
        found = re.match(r"(\S+): (?:Gemini schema: )?(.+?) dropped", note)
        if found is None:
            continue
        keyword = found.group(2).split()[0]  # "format 'date'" -> format
        drops.setdefault(back.get(found.group(1), found.group(1)), set()).add(keyword)
    return drops


@pytest.mark.parametrize("provider", ["gemini", "ollama"])
def test_lint_and_render_report_the_same_drops(provider):
    catalog = load_catalog(CATALOG_FILES)
    linted = lint_drops(catalog, provider)
    assert linted == render_drops(catalog, provider)
    assert len(linted) > 10


def test_ollama_does_not_report_titles(tmp_path):
    path = tmp_path / "pydantic.json"
    path.write_text('{"tools": [{"name": "git_log", "inputSchema": {"type": "object", '
                    '"title": "GitLog", "properties": {"repo_path": {"type": "string", '
                    '"title": "Repo Path"}, "max_count": {"type": "integer", "title": '
                    '"Max Count", "default": 10}}, "required": ["repo_path"]}}]}')
    catalog = load_catalog(path)
    assert lint_drops(catalog, "ollama") == {"git_log": {"default"}}
    assert render_drops(catalog, "ollama") == {"git_log": {"default"}}
