"""The targets of `lint --target`: what each provider's API accepts, rejects or silently drops
in a tool definition.

Every fact is the provider's own, declared in its module (`toolcat/providers/<name>.py`) with
its source next to it: the ways of calling it (`Provider.lint_targets`, with the strict-mode
subset), the tool-name pattern and request cap (`Provider.limits`), and what its API drops from
a schema (`Provider.schema_changes`, which `render --provider` reports too, so lint and render
agree). This module only gathers them from the provider registry.

A target is what you ship to: `openai` is Chat Completions as you would normally call it (strict
rules apply to tools marked `strict: true`); `openai-strict` is the same with every tool sent
strict, and is left out of `all`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from toolcat.errors import UsageError
from toolcat.providers import PROVIDERS
from toolcat.providers.contract import Limits, Provider, SchemaChange
from toolcat.providers.targets import LintTarget


@dataclass(frozen=True, kw_only=True)
class Target(LintTarget):
    """One provider a catalog ships to: what it declares as this target, with its limits and
    what its API does with a schema."""

    provider: Provider

    @classmethod
    def of(cls, provider: Provider, declared: LintTarget) -> Target:
        return cls(provider=provider,
                   **{f.name: getattr(declared, f.name) for f in fields(LintTarget)})

    @property
    def limits(self) -> Limits:
        return self.provider.limits

    @property
    def schema_changes(self) -> Callable[[Any], list[SchemaChange]] | None:
        """What the provider's API does to a schema (render's notes come from the same)."""
        return self.provider.schema_changes

    @property
    def tool_cap(self) -> int | None:
        return self.max_tools if self.max_tools is not None else self.limits.max_tools


def targets() -> dict[str, Target]:
    """Every target by name, in the provider registry's order, read from it when asked, so
    that a provider registered after this module was imported is a target too."""
    return {declared.name: Target.of(provider, declared)
            for provider in PROVIDERS.values() for declared in provider.lint_targets}


def get_targets(names: list[str] | tuple[str, ...]) -> tuple[Target, ...]:
    """Targets by name, in the order given, without repeats. `all` means every provider as it
    is ordinarily called: `openai-strict` (every tool strict, which ordinary tools fail) only
    counts when named."""
    known = targets()
    chosen: dict[str, Target] = {}
    for name in names:
        if name == "all":
            chosen.update((n, t) for n, t in known.items() if t.in_all)
        elif name in known:
            chosen[name] = known[name]
        else:
            raise UsageError(f"unknown target '{name}'; known: {', '.join(known)}, all")
    return tuple(chosen.values())
