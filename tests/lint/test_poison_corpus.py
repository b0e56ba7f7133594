"""The labeled poisoning corpus (tests/data/poison): recall on the disguised poisonings and
false positives on the benign definitions, with the targets of docs/security.md.

The same measure over all of ../shared/benchdata is benchmarks/poison_accuracy.py.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings

CORPUS = DATA / "poison"
SECURITY = LintSettings(select=("TC6",))
REAL = sorted((CORPUS / "benign").glob("mcp-*"))


def errors_by_tool(paths: list[Path]) -> tuple[dict[str, Path], set[str]]:
    """Each tool's identity -> its file, and the identities with a security error."""
    catalog = load_catalog(paths, lenient=True)
    files = {catalog.ident(t): Path(t.origin.file) for t in catalog.tools if t.origin}
    flagged = {f.tool for f in lint_catalog(catalog, SECURITY).findings
               if f.severity == "error" and f.tool}
    return files, flagged


def test_at_least_95_percent_of_the_disguised_poisonings_are_errors():
    total = caught = 0
    missed = []
    classes = set()
    for path in sorted((CORPUS / "poisoned").iterdir()):
        classes.add(path.stem)
        files, flagged = errors_by_tool([path, *REAL] if path.stem == "lookalike" else [path])
        own = [ident for ident, file in files.items() if file.name == path.name]
        total += len(own)
        caught += len(set(own) & flagged)
        missed += [f"{path.stem}: {ident}" for ident in own if ident not in flagged]
    assert total >= 60 and {"plain", "split", "homoglyph", "fullwidth", "spacing", "base64",
                            "hex", "url", "html", "role", "fields", "lookalike"} <= classes
    assert caught / total >= 0.95, missed


def test_at_most_1_percent_of_the_benign_definitions_are_errors():
    files, flagged = errors_by_tool(sorted((CORPUS / "benign").iterdir()))
    assert len(files) >= 60
    assert len(flagged) / len(files) <= 0.01, sorted(flagged)
