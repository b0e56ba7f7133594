"""The output schema a served tool lists, kept: `serve` shows the client each upstream tool's
`outputSchema`, so it answers for it. A result that is not an error must carry
`structuredContent` that validates against that schema (the MCP specification: "Servers MUST
provide structured results that conform to this schema"); the official SDK's client raises
on one that does not, so a broken result would fail the client's whole call. `serve` checks
each relayed result and answers an error result naming the upstream instead, with what the
upstream sent kept below it for the model.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from toolcat.calls.check import CallChecker
from toolcat.model import Catalog, Tool, ToolCall

MAX_CHECKERS = 1_000  # compiled output schemas kept; a session calls few distinct tools


def output_schema(tool: Tool) -> Mapping[str, Any] | None:
    schema = tool.extra.get("outputSchema")
    return schema if isinstance(schema, Mapping) else None


class OutputContracts:
    """Checks relayed results against their tools' output schemas, each compiled once (by
    check-call's checker: the same bounds on hostile schemas, the same wording)."""

    def __init__(self) -> None:
        self._checkers: dict[str, CallChecker] = {}
        self._lock = threading.Lock()

    def broken(self, tool: Tool, structured: Any, is_error: bool) -> str | None:
        """How a result (its structured content, whether it is an error) breaks the output
        schema `tool` lists, or None when it keeps it or the tool lists none."""
        schema = output_schema(tool)
        if schema is None or is_error:
            return None
        if structured is None:
            return "returned no structuredContent"
        checked = self._checker(tool, schema).check(ToolCall(tool.qualified_name, structured))
        if checked.accepted:
            return None
        error = checked.errors[0]
        where = f" at {error.pointer}" if error.pointer else ""
        return f"returned structuredContent that does not match it{where}: {error.message}"

    def _checker(self, tool: Tool, schema: Mapping[str, Any]) -> CallChecker:
        key = tool.qualified_name
        with self._lock:
            checker = self._checkers.get(key)
            if checker is None:
                if len(self._checkers) >= MAX_CHECKERS:
                    self._checkers.pop(next(iter(self._checkers)))
                checker = CallChecker(Catalog(tools=(replace(tool, parameters=dict(schema)),)))
                self._checkers[key] = checker
            return checker
