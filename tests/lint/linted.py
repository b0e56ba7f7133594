"""Tools the lint tests write, and what `lint --select TC6` finds in a catalog of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings
from toolcat.model import Catalog

SECURITY = LintSettings(select=("TC6",))


def tool(name: str, description: str, **properties: Any) -> dict[str, Any]:
    """An MCP tool; each property a description (a string) or a whole schema (a dict)."""
    fields = {key: value if isinstance(value, dict) else {"type": "string", "description": value}
              for key, value in properties.items()}
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": fields or {
                "query": {"type": "string", "description": "What to look for."}}}}


def catalog_of(tmp_path: Path, *tools: dict[str, Any]) -> Catalog:
    """The catalog of `tools`, written to a file and loaded as `lint` loads it."""
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": list(tools)}, ensure_ascii=False))
    return load_catalog(path, lenient=True)


def poisoning(tmp_path: Path, *tools: dict[str, Any]) -> list[Any]:
    """The TC601 and TC606 findings on the catalog of `tools`."""
    return [f for f in lint_catalog(catalog_of(tmp_path, *tools), SECURITY).findings
            if f.rule in ("TC601", "TC606")]


def severities(tmp_path: Path, *tools: dict[str, Any], of: str | None = None) -> list[str]:
    """The severities of TC601 and TC606 on the catalog of `tools` (on the tool `of` only)."""
    return [f.severity for f in poisoning(tmp_path, *tools) if of is None or f.tool == of]
