"""Wire formats, one module each. PROVIDERS maps the name a user types to its Provider.

A provider module holds every fact about its format: reading and writing tools, requests and
the calls in a response, limits, what its API does to a schema, its lint targets and how its
tokens are counted. Lint, render, tokens and check-call ask this registry and name no provider
(catalog/detect.py still knows the containers Bedrock and Gemini wrap tools in); adding one is a
module and an entry below (docs/adding-a-provider.md). The order below is the order names are
listed in, and wins ties when shapes are detected.

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
from toolcat.providers.contract import Provider

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
