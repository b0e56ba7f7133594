"""`toolcat gateway` on the command line: its refusals, and a real process in front of a
local upstream."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import anthropic
import pytest

from tests.gateway.conftest import anthropic_text, start_upstream, tools_60


@pytest.mark.parametrize(("args", "message"), [
    (["--upstream", "ftp://example.com"], "is not an http(s) URL"),
    (["--upstream", "http://127.0.0.1:9", "--host", "0.0.0.0"], "give a token"),
    (["--upstream", "http://127.0.0.1:9", "--token", "short"], "at least 16"),
    (["--upstream", "http://127.0.0.1:9", "-p", "small-model"], "has no gateway: section"),
    (["--upstream", "http://127.0.0.1:9", "--timeout", "0"], "positive number"),
])
def test_what_the_gateway_refuses_to_start_with(run, args, message):
    result = run("gateway", *args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.slow  # starts the gateway as a process
def test_the_command_runs_a_gateway_an_sdk_can_use(tmp_path):
    upstream, http = start_upstream(lambda path, body: (200, anthropic_text("Sunny.")))
    log = tmp_path / "gateway.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "toolcat", "gateway", "--upstream", upstream.url, "--port", "0",
         "--scorer", "bm25", "--log", str(log)],
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert url, line
        client = anthropic.Anthropic(base_url=url.group(0), api_key="k", max_retries=0)
        # the socket listens before the line is printed: the request waits for uvicorn
        reply = client.messages.create(model="claude-x", max_tokens=10, tools=tools_60(),
                                       messages=[{"role": "user", "content": "weather?"}])
        assert reply.content[0].text == "Sunny."
        sent = [tool["name"] for tool in upstream.bodies()[0]["tools"]]
        # the cut keeps the weather tools and leaves the 55 others (the profile allows 25)
        assert sent and len(sent) <= 25 and all("weather" in name for name in sent)
        assert '"tools_in": 60' in log.read_text()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(10)
        assert process.stderr is not None
        process.stderr.close()
        http.shutdown()
        http.server_close()
