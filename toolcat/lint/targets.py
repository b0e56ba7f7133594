"""What each provider target accepts, rejects or silently drops in a tool's schema.

This is data, kept in one table so that a limit that moves (and several did in 2025-2026) is a
one-line change with its source next to it. Facts come from
`../shared/reference/provider-formats.md` (§0, §8, §11), which cites the SDK files and pages
they were read from; `[inference]` marks a conclusion drawn there rather than read in a
source. Tool-name patterns and request caps live in each provider's `Limits`
(`toolcat/providers/<name>.py`) and are read from there.

A target is what you ship to: `openai` is Chat Completions as you would normally call it (strict
rules apply to tools marked `strict: true`); `openai-strict` is the same with every tool sent
strict. `gemini` checks the schema toolcat writes, `parametersJsonSchema`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from toolcat.errors import UsageError
from toolcat.providers import PROVIDERS
from toolcat.providers.base import Limits

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

# Gemini honours these keywords of `parametersJsonSchema` (the docstring of the sibling field
# responseJsonSchema, applied here as provider-formats.md §8.4 suggests [inference]); others are
# dropped without an error. `$schema` and `$comment` are harmless and not reported.
GEMINI_KEPT = frozenset({"$id", "$defs", "$ref", "$anchor", "type", "format", "title",
                         "description", "enum", "items", "prefixItems", "minItems", "maxItems",
                         "minimum", "maximum", "anyOf", "oneOf", "properties",
                         "additionalProperties", "required", "propertyOrdering", "$schema",
                         "$comment"})

# ollama-python validates dict tools into pydantic models that keep only these keys
# (ollama/_types.py Tool.Function.Parameters and its Property; provider-formats.md §5).
OLLAMA_ROOT_KEPT = frozenset({"type", "$defs", "items", "required", "properties"})
OLLAMA_PROPERTY_KEPT = frozenset({"type", "items", "description", "enum"})


@dataclass(frozen=True)
class Target:
    """One provider a catalog ships to, and what its API does with a tool definition."""

    name: str
    label: str
    provider: str  # PROVIDERS key whose Limits give the name pattern and the request cap
    strict: StrictRules | None = None  # rules for tools sent with strict: true
    always_strict: bool = False  # every tool is sent strict
    kept: frozenset[str] | None = None  # keywords it honours; others are dropped
    kept_root: frozenset[str] | None = None  # at the root, when it differs from `kept`
    property_name_pattern: str | None = None
    description_max: int | None = None  # beyond this many characters: a note
    max_tools: int | None = None  # overrides the provider's Limits.max_tools
    max_tools_note: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def limits(self) -> Limits:
        return PROVIDERS[self.provider].limits

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
        ),
        Target(name="anthropic", label="Anthropic Messages", provider="anthropic",
               strict=ANTHROPIC_STRICT),
        Target(
            name="gemini", label="Google Gemini (parametersJsonSchema)", provider="gemini",
            kept=GEMINI_KEPT, property_name_pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$",
            max_tools_note="Gemini API docstring; Vertex AI documents 128",
        ),
        Target(name="bedrock", label="AWS Bedrock Converse", provider="bedrock",
               strict=BEDROCK_STRICT),
        Target(
            name="ollama", label="Ollama via ollama-python", provider="ollama",
            kept=OLLAMA_PROPERTY_KEPT, kept_root=OLLAMA_ROOT_KEPT,
            notes=("raw HTTP requests to /api/chat keep every keyword",),
        ),
        Target(name="mistral", label="Mistral API", provider="mistral"),
    )
}


def get_targets(names: list[str] | tuple[str, ...]) -> tuple[Target, ...]:
    """Targets by name (`all` means every one), in the order given, without repeats."""
    chosen: dict[str, Target] = {}
    for name in names:
        if name == "all":
            chosen.update(TARGETS)
        elif name in TARGETS:
            chosen[name] = TARGETS[name]
        else:
            raise UsageError(f"unknown target '{name}'; known: {', '.join(TARGETS)}, all")
    return tuple(chosen.values())
