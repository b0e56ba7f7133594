"""Three-level selection of catalog tools.

Level 1: core tools (level 1, or `levels.core_tools`) are always included.
Level 2: tools with a tag among the required capabilities, after expanding the relevant skill
groups into their capabilities.
Level 3: `allowed_tools ∩ (core ∪ matched)` when a whitelist is given.
Then a simple task keeps only `simple_task_tools` (the core tools unless the profile lists
them).
"""

from __future__ import annotations

from collections.abc import Sequence

from toolcat.model import Tool, matches
from toolcat.resolution.decisions import Decision
from toolcat.resolution.profile import Levels


def is_core(tool: Tool, levels: Levels) -> bool:
    if levels.core_tools is not None:
        return any(matches(p, tool) for p in levels.core_tools)
    return tool.level == 1


def select(tools: Sequence[Tool], levels: Levels
           ) -> tuple[dict[str, tuple[str, str, str]], Decision]:
    """Each tool's (outcome, rule, reason) by key, outcome being core, matched or excluded;
    and the decision describing the capability expansion."""
    capabilities = levels.capabilities()
    wanted = set(capabilities)
    out: dict[str, tuple[str, str, str]] = {}
    for tool in tools:
        key = tool.qualified_name
        hit = [tag for tag in tool.tags if tag in wanted]
        if is_core(tool, levels):
            why = "in levels.core_tools" if levels.core_tools is not None else "level 1"
            out[key] = ("core", "level-core", f"core tool ({why})")
        elif hit:
            out[key] = ("matched", "level-capability",
                        f"tagged {', '.join(hit)} (required capabilities)")
        else:
            out[key] = ("excluded", "level-no-capability",
                        "no tag among the required capabilities" if wanted
                        else "no capabilities are required")
    if levels.allowed_tools is not None:
        for tool in tools:
            key = tool.qualified_name
            if out[key][0] != "excluded" and not any(matches(p, tool)
                                                     for p in levels.allowed_tools):
                out[key] = ("excluded", "level-whitelist", "not in levels.allowed_tools")
    if levels.complexity == "simple":
        for tool in tools:
            key = tool.qualified_name
            if out[key][0] == "excluded":
                continue
            if levels.simple_task_tools is not None:
                keep = any(matches(p, tool) for p in levels.simple_task_tools)
                what = "levels.simple_task_tools"
            else:
                keep, what = is_core(tool, levels), "the core tools (simple_task_tools unset)"
            if not keep:
                out[key] = ("excluded", "simple-task-pruned", f"a simple task keeps only {what}")
    return out, _expansion(levels, capabilities, tools)


def _expansion(levels: Levels, capabilities: tuple[str, ...], tools: Sequence[Tool]
               ) -> Decision:
    parts = []
    if levels.required_capabilities:
        parts.append("required: " + ", ".join(levels.required_capabilities))
    for group in levels.relevant_skill_groups:
        parts.append(f"skill group {group} -> {', '.join(levels.skill_groups.get(group, ()))}")
    known = {tag for tool in tools for tag in tool.tags}
    unused = [c for c in capabilities if c not in known]
    if unused:
        parts.append("no tool has " + ", ".join(unused))
    return Decision("capabilities", ", ".join(capabilities) or "none", "level-capability",
                    "; ".join(parts) or "no capabilities required and no skill groups")
