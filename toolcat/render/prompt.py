"""The system prompt, built in the documented order: the base prompt, the chosen format's
instructions with the built-in tools and then the other tools (ordered by relevance, already
capped), and the tool search section when tool search mode is on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolcat.model import Tool
from toolcat.render.formats.contract import PromptFormat

TOOL_SEARCH_SECTION = """\
## Tool Search Mode

You have access to a large catalog of tools, but they are not loaded by default.
Use the search_tools function to discover tools, and then add_tool to load them.

**How to search & add:**
- Call search_tools with a regex pattern
- Review returned tools
- Call add_tool with the names of the tools you want to use
- Use the discovered tools to complete your task
{categories}
**Workflow:**
1. Understand what the user needs
2. Search for relevant tools using search_tools
3. Add the tools you need using add_tool(tool_names=["..."])
4. Use the discovered tools to complete the task"""


@dataclass(frozen=True)
class Section:
    """One part of the system prompt: `base`, `format` or `tool_search`."""

    name: str
    text: str


@dataclass(frozen=True)
class Prompt:
    text: str
    sections: tuple[Section, ...]
    prompt_tools: tuple[Tool, ...]  # described in the text
    payload_tools: tuple[Tool, ...]  # sent in the request's tools array
    notes: tuple[str, ...]


def tool_search_section(categories: Sequence[str]) -> str:
    """The system prompt section, listing the categories the model can search."""
    listed = ""
    if categories:
        listed = "\n**Available tool categories:**\n" + "".join(f"- {c}\n" for c in categories)
    return TOOL_SEARCH_SECTION.format(categories=listed)


def build_prompt(
    fmt: PromptFormat,
    *,
    base_prompt: str = "",
    builtins: Sequence[Tool] = (),
    tools: Sequence[Tool] = (),
    tool_search: bool = False,
    categories: Sequence[str] = (),
) -> Prompt:
    """The system prompt for `fmt`; the tools it does not describe go in the payload."""
    ordered = [*builtins, *tools]
    payload = tuple(t for t in ordered if fmt.in_payload(t))
    described = tuple(t for t in ordered if not fmt.in_payload(t))
    instructions, notes = fmt.instructions(described, payload)
    sections = [Section("base", base_prompt.strip()), Section("format", instructions)]
    if tool_search:
        sections.append(Section("tool_search", tool_search_section(categories)))
    kept = tuple(s for s in sections if s.text)
    return Prompt("\n\n".join(s.text for s in kept), kept, described, payload, tuple(notes))
