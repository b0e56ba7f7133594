"""What a provider declares about itself as a `lint --target`: its strict-mode schema subset
and the limits its API enforces beyond the tool-name rule and the request cap (`Limits`).

Each provider module states these facts next to its wire format, with the source each was read
from: `../shared/reference/provider-formats.md` (§0, §8, §11) cites the SDK files and pages;
`[inference]` marks a conclusion drawn there rather than read in a source. The lint room turns
them into checks (toolcat/lint/targets.py, the TC4xx rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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


@dataclass(frozen=True)
class LintTarget:
    """One way of calling a provider that a catalog can be linted against.

    `name` is what `--target` takes. A provider may declare several (`openai` as usually
    called, `openai-strict` with every tool strict); `in_all` false leaves one out of
    `--target all`. The tool-name rule and the request cap come from the provider's `Limits`;
    `max_tools` overrides that cap for this target only.
    """

    name: str
    label: str
    strict: StrictRules | None = None  # rules for tools sent with strict: true
    always_strict: bool = False  # every tool is sent strict
    in_all: bool = True  # part of `--target all`
    property_name_pattern: str | None = None  # parameter names must match it
    description_max: int | None = None  # beyond this many characters: a note
    max_tools: int | None = None  # overrides the provider's Limits.max_tools
    max_tools_note: str = ""  # where the cap comes from, shown with TC403
    # the provider rejects a deferred tool (`defer_loading: true`) that has this key; the
    # text says where that was read (TC407)
    deferred_without: tuple[str, str] | None = None
    notes: tuple[str, ...] = ()

    def strict_rules(self, tool_strict: bool | None) -> StrictRules | None:
        """The strict rules that apply to a tool with this `strict` flag, if any."""
        if self.strict is None:
            return None
        return self.strict if self.always_strict or tool_strict is True else None
