"""`-` reads standard input wherever a command reads a file a user would pipe in: catalogs
(`-c -` and lint's paths), the response of check-call and the queries of bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import CATALOGS, REPO


def toolcat(*args: str, stdin: bytes) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "toolcat", *args], input=stdin, env=env,
                          cwd=REPO, capture_output=True, check=False, timeout=120)


def test_a_catalog_piped_in_is_listed_and_linted():
    weather = (CATALOGS / "weather.yaml").read_bytes()
    listed = toolcat("list", "-c", "-", stdin=weather)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.decode().splitlines()[0].startswith("get_weather\t")
    linted = toolcat("lint", "-", stdin=weather)
    assert linted.returncode == 0
    assert "in 8 tools from 1 file" in linted.stdout.decode()


def test_a_broken_catalog_piped_in_is_placed_on_stdin():
    result = toolcat("lint", "-", stdin=b"tools:\n  - name: x\n    level: [\n")
    assert result.returncode == 2
    assert result.stderr.decode().startswith("toolcat: error: /dev/stdin:")


def test_a_response_piped_into_check_call():
    reply = {"choices": [{"message": {"tool_calls": [{"id": "1", "type": "function", "function": {
        "name": "get_weather", "arguments": json.dumps({"location": "Lisbon"})}}]}}]}
    result = toolcat("check-call", "-", "-c", "demo", "--provider", "openai", "--json",
                     stdin=json.dumps(reply).encode())
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["calls"][0]["accepted"] is True


def test_queries_piped_into_bench_are_json_lines():
    queries = b"".join((CATALOGS / "demo-queries.jsonl").read_bytes().splitlines(True)[:5])
    result = toolcat("bench", "-c", "demo", "-q", "-", "--scorer", "bm25", "--json",
                     stdin=queries)
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["queries"]) == 5
