"""Text that Python's URL parser refuses (a defanged 'hxxp://example[.]com', an unclosed
bracket) is no URL to toolcat: never a traceback, wherever it comes from."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from toolcat.mcp.secrets import REDACTED, redact_url
from toolcat.search.values import request_values
from toolcat.urls import split_url

REFUSED = ("hxxp://example[.]com", "http://[x]/", "http://[::1", "https://a]b/c")


@given(st.text())
def test_split_url_answers_any_text(text: str) -> None:
    parts = split_url(text)
    assert parts is None or parts.geturl() is not None


def test_a_defanged_url_in_a_request_is_read_refanged_and_ranks(run) -> None:
    # the URL it stands for (toolcat.search.values); one Python refuses is still none
    assert [v.kind for v in request_values("is hxxp://login-micros0ft[.]top phishing")] == ["url"]
    assert [v.kind for v in request_values("is http://[x]/ or https://a]b/c phishing")] == []
    result = run("search", "submit hxxp://example[.]com for analysis", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)


def test_a_url_python_refuses_is_redacted_whole() -> None:
    for url in REFUSED:
        assert redact_url(url) == REDACTED
    assert redact_url("https://u:pw@example.com/x") == f"https://u:{REDACTED}@example.com/x"


def test_an_openapi_server_url_python_refuses_is_a_located_error(run, tmp_path: Path) -> None:
    document = tmp_path / "api.yaml"
    document.write_text("openapi: 3.0.0\ninfo: {title: T, version: '1'}\n"
                        "servers: [{url: 'http://[x]/v1'}]\n"
                        "paths:\n  /a:\n    get:\n      operationId: geta\n"
                        "      responses: {'200': {description: ok}}\n", encoding="utf-8")
    result = run("list", "-c", str(document))
    assert result.exit_code == 2
    assert f"{document}:3:17: the API's server URL 'http://[x]/v1' is not a URL" in result.output
