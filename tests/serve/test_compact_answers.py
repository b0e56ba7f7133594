"""`serve --answers compact`: search_tools answers in markdown, each found tool a heading with
its description and one line per argument, in fewer tokens than the JSON answer, and enough
to call the tool through call_tool. Through the SDK's client over stdio, with a real
upstream."""

from __future__ import annotations

import json

import anyio
import pytest

from tests.serve.conftest import served, text
from toolcat.providers.tokens import count_tokens

pytestmark = pytest.mark.mcp


def test_call_mode_answers_in_markdown_a_model_can_call_from(time_catalog, fast_profile):
    answers: dict[str, str] = {}

    async def session(form: str) -> None:
        async with served("-c", str(time_catalog), "-p", str(fast_profile), "--mode", "call",
                          "--answers", form) as client:
            found = await client.call_tool("search_tools", {"query": "current time"})
            assert not found.is_error, text(found)
            answers[form] = text(found)
            if form == "compact":
                assert found.structured_content is None  # one form only, not both
                result = await client.call_tool("call_tool", {
                    "name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}})
                assert not result.is_error, text(result)

    for form in ("json", "compact"):
        anyio.run(session, form)
    compact = answers["compact"]
    assert json.loads(answers["json"])["tools"][0]["name"] == "get_current_time"
    assert "## get_current_time (read-only, idempotent, closed world)" in compact
    assert "- `timezone` (string, required): " in compact
    assert "as its Arguments list them" in compact and "inputSchema" not in compact
    assert count_tokens(compact) < 0.8 * count_tokens(answers["json"])


def test_an_unknown_answer_form_is_a_usage_error(run):
    result = run("serve", "--answers", "yaml")
    assert result.exit_code == 2
    assert "unknown --answers 'yaml'; known: json, compact" in result.stderr
