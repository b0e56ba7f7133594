"""Native tool calling: no text in the system prompt; every tool goes in the request's tools
array and the calls come back in the provider's own shape (see toolcat.providers)."""

from __future__ import annotations

from collections.abc import Sequence

from toolcat.model import Tool
from toolcat.render.formats.contract import PromptFormat


def instructions(prompt_tools: Sequence[Tool],
                 payload_tools: Sequence[Tool]) -> tuple[str, list[str]]:
    return "", []


FORMAT = PromptFormat(
    name="native",
    label="native tool calling (tools in the request payload)",
    instructions=instructions,
    in_payload=lambda tool: True,
)
