"""The capabilities.yaml style: one entry per tool, skill or code executor.

    - name: memory_recall
      type: TOOL            # TOOL | SKILL | CODE
      subtype: NATIVE
      level: 1              # 1 = core (always available), 2+ = optional
      capabilities: [memory, user_profile]
      priority: 70
      cost: {time: fast, money: free}
      constraints: {requires_network: false}
      input_schema: {type: object, properties: {...}}
      implementation: {module: tools.memory_recall, class: MemoryRecallTool}
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool
from toolcat.providers.contract import Provider
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.types import Json
from toolcat.providers.writing import Written, drop_none, own_extra

TYPES = ("TOOL", "SKILL", "CODE")
KEYS = {"name", "description", "type", "level", "capabilities", "priority", "cost",
        "constraints", "input_schema", "implementation"}


def claims(item: Mapping[str, Json]) -> int:
    if item.get("type") in TYPES:
        return 4
    return 4 if {"capabilities", "implementation", "subtype"} & item.keys() else 0


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    kind = fields.choice("type", TYPES, "TOOL") or "TOOL"
    level = fields.integer("level", 2)
    if level < 1:
        raise ctx.fail("'level' must be 1 (core) or more", "level")
    return ctx.tool(
        item, "capability", ctx.pointer_to("input_schema"),
        name=fields.name(),
        description=fields.text("description"),
        parameters=fields.schema("input_schema"),
        kind=kind.lower(),
        level=level,
        tags=fields.strings("capabilities"),
        priority=fields.integer("priority", 50),
        cost=fields.mapping("cost"),
        constraints=fields.mapping("constraints"),
        implementation=fields.mapping("implementation"),
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    return {
        **drop_none({
            "name": tool.name,
            "description": tool.description or None,
            "type": tool.kind.upper(),
            "level": tool.level,
            "capabilities": list(tool.tags) or None,
            "priority": tool.priority,
            "cost": tool.cost,
            "constraints": tool.constraints,
            "input_schema": tool.parameters,
            "implementation": tool.implementation,
        }),
        **own_extra(tool, "capability"),
    }, []


PROVIDER = Provider(
    name="capability",
    label="capabilities.yaml (capability registry)",
    carries=BASE_FIELDS | {"kind", "level", "tags", "priority", "cost", "constraints",
                           "implementation"},
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"capabilities": items},
    yaml_native=True,
)
