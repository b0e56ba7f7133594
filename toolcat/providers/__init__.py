"""Wire formats, one module each. PROVIDERS maps the name a user types to its Provider.

Imports only rooms below it (source); see docs/architecture.md.
"""

from __future__ import annotations

from toolcat.errors import UsageError
from toolcat.providers import (
    anthropic,
    bedrock,
    capability,
    gemini,
    mcp,
    mistral,
    ollama,
    openai,
    openai_responses,
    toolcat,
)
from toolcat.providers.base import Provider

PROVIDERS: dict[str, Provider] = {
    module.PROVIDER.name: module.PROVIDER
    for module in (toolcat, capability, openai, openai_responses, anthropic, mcp, gemini,
                   ollama, bedrock, mistral)
}


def get_provider(name: str) -> Provider:
    try:
        return PROVIDERS[name]
    except KeyError:
        raise UsageError(
            f"unknown shape '{name}'; known: {', '.join(PROVIDERS)}"
        ) from None
