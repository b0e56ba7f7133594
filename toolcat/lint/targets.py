"""What each provider target accepts, rejects or silently drops in a tool's schema.

This is data, kept in one table so that a limit that moves (and several did in 2025-2026) is a
one-line change with its source next to it. Facts come from
`../shared/reference/provider-formats.md` (§0, §8, §11), which cites the SDK files and pages
they were read from; `[inference]` marks a conclusion drawn there rather than read in a
source. Tool-name patterns and request caps live in each provider's `Limits`
(`toolcat/providers/<name>.py`) and are read from there.

A target is what you ship to: `openai` is Chat Completions as you would normally call it (strict
rules apply to tools marked `strict: true`); `openai-strict` is the same with every tool sent
strict, and is left out of `all`. What a provider drops from a schema (Gemini's `parameters`
subset, the Ollama server's structs) is described once, by the provider's `schema_changes`,
which both `render --provider` and TC402 use, so lint and render agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolcat.errors import UsageError
from toolcat.providers import PROVIDERS
from toolcat.providers.base import Limits, SchemaChange

TABLE_VERSION = "2026-08-21"  # the newest source date in provider-formats.md

STRICT_FORMATS_OPENAI = frozenset({"date-time", "time", "date", "duration", "email", "hostname",
                                   "ipv4", "ipv6", "uuid"})
STRICT_FORMATS_ANTHROPIC = STRICT_FORMATS_OPENAI | {"uri"}


@dataclass(frozen=True)
class StrictRules:
    """The schema subset a provider compiles when a tool is sent with `strict: true`."""

    label: str
    rejected: Mapping[str, str]  # keyword -> source of the fact
    formats: frozenset[str]  # the only `format` values accepted
    closed_objects: bool  # every object must say additionalProperties: false
    all_required: bool = False  # every property must be listed in `required`
    root_any_of: bool = True  # whether the root may be an anyOf
    recursion: bool = True  # whether a schema may refer to itself
    ref_siblings: bool = True  # whether `$ref` may have sibling keywords
    max_min_items: int | None = None  # largest `minItems` accepted
    max_depth: int | None = None
    max_properties: int | None = None
    max_enum_values: int | None = None
    # budgets per request, summed over all strict tools
    max_strict_tools: int | None = None
    max_optional_params: int | None = None
    max_union_params: int | None = None
    source: str = ""


OPENAI_STRICT = StrictRules(
    label="OpenAI strict mode",
    rejected=dict.fromkeys(
        ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else"),
        "not supported in strict mode [OpenAI Structured Outputs guide, 'Supported schemas']"),
    formats=STRICT_FORMATS_OPENAI,
    closed_objects=True,
    all_required=True,
    root_any_of=False,
    ref_siblings=False,
    max_depth=10,
    max_properties=5000,
    max_enum_values=1000,
    source="OpenAI Structured Outputs guide, 'Supported schemas'; openai-python "
           "lib/_pydantic.py _ensure_strict_json_schema (provider-formats.md §8.1)",
)

_ANTHROPIC_UNSUPPORTED = "unsupported by strict tool use [Anthropic structured outputs, JSON " \
                         "Schema limitations, via third-party summaries; provider-formats.md §8.2]"
ANTHROPIC_STRICT = StrictRules(
    label="Anthropic strict tool use",
    rejected={
        **dict.fromkeys(("minimum", "maximum", "multipleOf", "minLength", "maxLength",
                         "maxItems"), _ANTHROPIC_UNSUPPORTED),
        **dict.fromkeys(("exclusiveMinimum", "exclusiveMaximum"),
                        "[inference] the SDK's transform moves it out of the schema into the "
                        "description"),
    },
    formats=STRICT_FORMATS_ANTHROPIC,
    closed_objects=True,
    recursion=False,
    max_min_items=1,
    max_strict_tools=20,
    max_optional_params=24,
    max_union_params=16,
    source="platform.claude.com structured outputs; anthropic-sdk-python "
           "lib/_parse/_transform.py (provider-formats.md §8.2)",
)

_BEDROCK_UNSUPPORTED = "not supported for strict tools [AWS Bedrock User Guide, 'Get " \
                       "validated JSON results from models'; provider-formats.md §8.3]"
BEDROCK_STRICT = StrictRules(
    label="Bedrock strict tools",
    rejected=dict.fromkeys(("minimum", "maximum", "multipleOf", "minLength", "maxLength"),
                           _BEDROCK_UNSUPPORTED),
    formats=STRICT_FORMATS_ANTHROPIC,
    closed_objects=True,
    recursion=False,
    max_min_items=1,
    source="AWS Bedrock User Guide, structured output (provider-formats.md §8.3)",
)

@dataclass(frozen=True)
class Target:
    """One provider a catalog ships to, and what its API does with a tool definition."""

    name: str
    label: str
    provider: str  # PROVIDERS key whose Limits give the name pattern and the request cap
    strict: StrictRules | None = None  # rules for tools sent with strict: true
    always_strict: bool = False  # every tool is sent strict
    in_all: bool = True  # part of `--target all`
    property_name_pattern: str | None = None
    description_max: int | None = None  # beyond this many characters: a note
    max_tools: int | None = None  # overrides the provider's Limits.max_tools
    max_tools_note: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def limits(self) -> Limits:
        return PROVIDERS[self.provider].limits

    @property
    def schema_changes(self) -> Callable[[Any], list[SchemaChange]] | None:
        """What the provider's API does to a schema (render's notes come from the same)."""
        return PROVIDERS[self.provider].schema_changes

    @property
    def tool_cap(self) -> int | None:
        return self.max_tools if self.max_tools is not None else self.limits.max_tools

    def strict_rules(self, tool_strict: bool | None) -> StrictRules | None:
        """The strict rules that apply to a tool with this `strict` flag, if any."""
        if self.strict is None:
            return None
        return self.strict if self.always_strict or tool_strict is True else None


TARGETS: dict[str, Target] = {
    target.name: target
    for target in (
        Target(
            name="openai", label="OpenAI Chat Completions", provider="openai",
            strict=OPENAI_STRICT, description_max=1024,
            max_tools_note="documented 2024-03 to 2025-08; API error 'maximum length 128' "
                           "seen mid-2025",
        ),
        Target(
            name="openai-strict", label="OpenAI Chat Completions, every tool strict",
            provider="openai", strict=OPENAI_STRICT, always_strict=True, description_max=1024,
            in_all=False,
        ),
        Target(name="anthropic", label="Anthropic Messages", provider="anthropic",
               strict=ANTHROPIC_STRICT),
        Target(
            name="gemini", label="Google Gemini", provider="gemini",
            property_name_pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$",
            max_tools_note="Gemini API docstring; Vertex AI documents 128",
        ),
        Target(name="bedrock", label="AWS Bedrock Converse", provider="bedrock",
               strict=BEDROCK_STRICT),
        Target(
            name="ollama", label="Ollama /api/chat", provider="ollama",
            notes=("the ollama Python client drops more (nested properties, anyOf) before "
                   "sending; post the JSON over HTTP",),
        ),
        Target(name="mistral", label="Mistral API", provider="mistral"),
    )
}


def get_targets(names: list[str] | tuple[str, ...]) -> tuple[Target, ...]:
    """Targets by name, in the order given, without repeats. `all` means every provider as it
    is ordinarily called: `openai-strict` (every tool strict, which ordinary tools fail) only
    counts when named."""
    chosen: dict[str, Target] = {}
    for name in names:
        if name == "all":
            chosen.update((n, t) for n, t in TARGETS.items() if t.in_all)
        elif name in TARGETS:
            chosen[name] = TARGETS[name]
        else:
            raise UsageError(f"unknown target '{name}'; known: {', '.join(TARGETS)}, all")
    return tuple(chosen.values())
