"""Render: system prompts in every format, provider request payloads, and token costs.

Names are imported on first use, so the CLI can read the format registry for its help texts
without loading the rest.

Imports only rooms below it (resolution, calls, providers, source); see docs/architecture.md.
"""

from __future__ import annotations

import importlib
from typing import Any

_API = {
    "FORMATS": "toolcat.render.formats",
    "TEXT_PARSERS": "toolcat.render.formats",
    "get_format": "toolcat.render.formats",
    "CacheReport": "toolcat.render.cache",
    "session_cache": "toolcat.render.cache",
    "Method": "toolcat.render.costs",
    "TokenCount": "toolcat.render.costs",
    "method_for": "toolcat.render.costs",
    "Section": "toolcat.render.prompt",
    "build_prompt": "toolcat.render.prompt",
    "tool_search_section": "toolcat.render.prompt",
    "REQUEST_PROVIDERS": "toolcat.render.renderer",
    "RenderInput": "toolcat.render.renderer",
    "Rendered": "toolcat.render.renderer",
    "from_resolution": "toolcat.render.renderer",
    "render": "toolcat.render.renderer",
    "request_provider": "toolcat.render.renderer",
    "self_contained": "toolcat.render.renderer",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'toolcat.render' has no attribute {name!r}")
