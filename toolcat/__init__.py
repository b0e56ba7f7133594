"""toolcat: a workbench for catalogs of LLM tools.

The public Python API. Names are imported on first use, so `import toolcat` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_API = {
    "load_catalog": "toolcat.catalog.load",
    "convert": "toolcat.catalog.convert",
    "Catalog": "toolcat.model",
    "Tool": "toolcat.model",
    "Server": "toolcat.model",
    "SourceRef": "toolcat.model",
    "ToolcatError": "toolcat.errors",
    "ToolCall": "toolcat.model",
    "CallChecker": "toolcat.calls.check",
    "CheckedCall": "toolcat.calls.check",
    "RenderInput": "toolcat.render",
    "Rendered": "toolcat.render",
    "lint_catalog": "toolcat.lint.engine",
    "LintSettings": "toolcat.lint.settings",
    "tool": "toolcat.define.tools",
    "hydrate": "toolcat.define.instances",
    "pick": "toolcat.search.pick",
    "PickResult": "toolcat.search.pick",
    "search_tools": "toolcat.search.find",
    "SearchResult": "toolcat.search.find",
    "build_scorer": "toolcat.search",
    "scorer_for": "toolcat.search.index",
    "index_catalog": "toolcat.search.index",
    "default_scorer": "toolcat.search",
    "rank": "toolcat.search",
    "SCORERS": "toolcat.search",
    "resolve": "toolcat.resolution",
    "load_profile": "toolcat.resolution",
    "Profile": "toolcat.resolution",
    "Resolution": "toolcat.resolution",
    "Resolver": "toolcat.resolution",
    "Session": "toolcat.resolution",
    "DEFAULT_PROFILE": "toolcat.resolution",
    "load_queries": "toolcat.bench",
    "run_bench": "toolcat.bench",
    "BenchReport": "toolcat.bench",
    "load_tuning": "toolcat.tune",
    "Tuning": "toolcat.search.tuning",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'toolcat' has no attribute {name!r}")
