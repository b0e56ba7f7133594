"""Render: system prompts in every format, provider request payloads, and token costs."""

from toolcat.render.costs import Method, TokenCount, method_for
from toolcat.render.formats import FORMATS, TEXT_PARSERS, get_format
from toolcat.render.prompt import Section, build_prompt, tool_search_section
from toolcat.render.render import (
    REQUEST_PROVIDERS,
    Rendered,
    RenderInput,
    from_resolution,
    render,
    request_provider,
    self_contained,
)

__all__ = [
    "FORMATS",
    "REQUEST_PROVIDERS",
    "TEXT_PARSERS",
    "Method",
    "RenderInput",
    "Rendered",
    "Section",
    "TokenCount",
    "build_prompt",
    "from_resolution",
    "get_format",
    "method_for",
    "render",
    "request_provider",
    "self_contained",
    "tool_search_section",
]
