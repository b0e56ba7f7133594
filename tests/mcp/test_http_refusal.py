"""An HTTP server that refuses the import (a token it does not accept) is quoted: its status
and what its body says, not the MCP SDK's stand-in "Server returned an error response"."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.mcp.conftest import refusing_server

pytest.importorskip("mcp")
pytestmark = pytest.mark.mcp


@pytest.fixture
def refusing_url() -> Iterator[str]:
    with refusing_server() as url:
        yield url


def test_a_refused_token_is_quoted_with_the_status_and_the_body(run, refusing_url, tmp_path):
    config = tmp_path / "servers.json"
    config.write_text(json.dumps({"mcpServers": {"crm": {
        "url": refusing_url, "headers": {"Authorization": "Bearer not-a-real-token"}}}}))
    result = run("import", "mcp", "--timeout", "20", "--config", str(config))
    assert result.exit_code == 2
    assert result.stderr == (
        f"toolcat: error: MCP server at {refusing_url} refused the connection: HTTP 401 "
        'Unauthorized: {"detail": "Invalid or disabled token"} (the headers of its entry: a '
        "token or key it does not accept)\n")
    assert "not-a-real-token" not in result.stderr


def test_a_server_error_says_its_status_without_blaming_the_headers(run, refusing_url):
    result = run("import", "mcp", "--timeout", "20", "--url", refusing_url)
    assert result.exit_code == 2
    assert "refused the connection: HTTP 500 Internal Server Error" in result.stderr
    assert "token" in result.stderr and "headers of its entry" not in result.stderr
