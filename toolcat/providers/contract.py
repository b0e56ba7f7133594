"""What every wire format module provides (`Provider`), its documented limits (`Limits`), and
what its API does to a schema (`SchemaChange`).

A provider module knows its format both ways: it reads tool definitions from it (`read_tool`,
with providers.reading), writes a tool in it (`write_tool`, with providers.writing), wraps
written tools into the format's container (`wrap`), and states which canonical fields it can
carry, so conversions know what survives a round trip. The model APIs among them also build a
whole request (`request`: system prompt, user message, tools) and read the tool calls out of a
response (`parse_calls`, with providers.replies).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from toolcat.model import Server, Tool, ToolCall
from toolcat.providers.names import NameRule
from toolcat.providers.reading import ReadContext
from toolcat.providers.targets import LintTarget
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import RequestInput, Written


@dataclass(frozen=True)
class Limits:
    """Documented limits of a provider (see ../shared/reference/provider-formats.md)."""

    names: NameRule = field(default_factory=NameRule)  # `^[a-zA-Z0-9_-]{1,64}$` by default
    # what parameter (property) names may be; None: any. Lint (TC406) and render both ask it
    property_names: NameRule | None = None
    max_tools: int | None = None
    description_required: bool = False
    parameters_required: bool = False
    notes: tuple[str, ...] = ()

    @property
    def name_pattern(self) -> str:
        return self.names.pattern

    def name_ok(self, name: str) -> bool:
        return self.names.accepts(name)

    def rejected_properties(self, schema: Json) -> list[str]:
        """The property names anywhere in `schema` this provider refuses, in document order,
        each once."""
        rule = self.property_names
        if rule is None:
            return []
        found: dict[str, None] = {}
        stack = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(reversed(node))
            elif isinstance(node, dict):
                for key, value in node.items():
                    if key == "properties" and isinstance(value, dict):
                        found.update((name, None) for name in value if not rule.accepts(name))
                    if key not in ("enum", "const", "default", "examples", "example") \
                            and isinstance(value, (dict, list)):
                        stack.append(value)
        return list(found)


@dataclass(frozen=True)
class SchemaChange:
    """What a provider does to one keyword of a schema: drops it (the constraint is lost) or
    says it another way (`dropped` false). `pointer` is the keyword's place in the canonical
    schema."""

    pointer: str
    keyword: str
    message: str
    dropped: bool = True


# Annotations for people, not constraints: a provider that drops them loses nothing a model
# needs (pydantic writes a `title` on every property), so they are never reported.
UNREPORTED_KEYWORDS = frozenset({"title", "$schema", "$comment", "$id", "$anchor"})


@dataclass(frozen=True)
class Provider:
    """One wire format. `claims` scores how much an item looks like this format (0 = not);
    it may look only at the item's keys, the types of their values and the value of `type`
    (detection asks once for all items alike in these, see toolcat.catalog.detect).

    `request` and `parse_calls` exist for the model APIs only (not for catalog shapes such as
    mcp, toolcat or capability): `request` builds a whole request body with its notes, and
    `parse_calls` reads the tool calls of a response (raising ResponseError when the response
    is not of this format).

    `lint_targets` are the ways of calling it that `lint --target` checks a catalog against
    (none for catalog shapes), and `tokens` how its requests are priced.
    """

    name: str
    label: str
    carries: frozenset[str]
    claims: Callable[[Mapping[str, Json]], int]
    read_tool: Callable[[Mapping[str, Json], ReadContext], Tool]
    write_tool: Callable[[Tool], Written]
    wrap: Callable[[list[dict[str, Json]], Sequence[Server]], Json]
    limits: Limits = field(default_factory=Limits)
    yaml_native: bool = False
    request: Callable[[RequestInput], Written] | None = None
    parse_calls: Callable[[Json], list[ToolCall]] | None = None
    request_tool: Callable[[Tool], Written] | None = None  # when it differs from write_tool
    # what the provider's API does to a schema it is sent (None: keeps all of it); render's
    # notes and lint's TC402 both come from here
    schema_changes: Callable[[Json], list[SchemaChange]] | None = None
    defers: bool = False  # requests carry deferred tools (marked defer_loading)
    # the provider's own tool search variants a profile may name (provider_search), and
    # whether tool_choice can allow a subset of the tools array (`allowed_tools`)
    native_search: tuple[str, ...] = ()
    client_variants: tuple[str, ...] = ()  # of those, the variants whose search the client runs
    allowed_tools: bool = False
    # a search the client runs can load deferred tools by naming them (Anthropic's
    # tool_reference blocks), so they need not be written into the tools array
    references: bool = False
    # what the model sees of a tools-array item before a search loads it (None: nothing);
    # None here: every item as it is written
    upfront: Callable[[dict[str, Json]], dict[str, Json] | None] | None = None
    # what a search the client runs answers with to load deferred tools: given a call id and
    # the loaded tools' items as the request wrote them (each with the namespace item that
    # held it, or None), the item appended to the conversation
    loaded: Callable[[str, list[tuple[dict[str, Json] | None, dict[str, Json]]]], Json] | None \
        = None
    lint_targets: tuple[LintTarget, ...] = ()
    tokens: TokenRule = field(default_factory=TokenRule)

    def tool_for_request(self, tool: Tool) -> Written:
        """One tool as this provider's requests carry it."""
        return (self.request_tool or self.write_tool)(tool)
