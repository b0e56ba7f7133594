"""call_tool tells the client it may destroy something whenever a tool it can reach was not
stated read-only or non-destructive: a client's own approval prompt depends on that hint."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.serve.conftest import served

pytestmark = pytest.mark.mcp

CATALOG = """\
tools:
  - name: read_note
    description: Read a note.
    parameters: {type: object, properties: {name: {type: string}}}
    safe: true
  - name: wipe_all
    description: Remove every note.
    parameters: {type: object, properties: {}}
"""


def call_tool_hint(catalog: Path, profile: Path) -> object:
    async def session() -> object:
        async with served("-c", str(catalog), "-p", str(profile), "--mode", "call") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            hints = tools["call_tool"].annotations
            return hints.destructive_hint if hints is not None else None

    return anyio.run(session)


def test_call_tool_is_destructive_when_it_can_reach_a_tool_nobody_said_was_safe(tmp_path):
    profile = tmp_path / "fast.yaml"
    profile.write_text("name: fast\nscorer: bm25\n")
    catalog = tmp_path / "notes.yaml"
    catalog.write_text(CATALOG)
    assert call_tool_hint(catalog, profile) is True
    catalog.write_text(CATALOG.replace("parameters: {type: object, properties: {}}\n",
                                       "parameters: {type: object, properties: {}}\n"
                                       "    safe: true\n"))
    assert call_tool_hint(catalog, profile) is False
