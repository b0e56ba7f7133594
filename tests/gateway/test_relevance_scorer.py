"""The running gateway's relevance strategy scores with toolcat's default scorer (hybrid),
where the seed (and resolve's replay) counts shared words: it keeps the tool a request needs
more often."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.gateway.conftest import anthropic_text
from toolcat.catalog.load import load_catalog
from toolcat.config.paths import demo_catalog
from toolcat.resolution.gateway import run_gateway
from toolcat.resolution.profile import Gateway

pytestmark = [pytest.mark.semantic, pytest.mark.slow]

QUERIES = Path(__file__).resolve().parents[2] / "catalogs" / "demo-queries.jsonl"


def test_hybrid_keeps_the_needed_tool_more_often_than_shared_words(gateway, tmp_path,
                                                                   shared_cache):
    tools = [t for t in load_catalog(demo_catalog()).tools if t.safe][:60]
    names = {t.name for t in tools}
    queries = [q for q in map(json.loads, QUERIES.read_text().splitlines())
               if set(q["relevant"]) <= names]
    profile = tmp_path / "keep-3.yaml"
    profile.write_text("name: keep-3\ngateway:\n  strategy: relevance\n  min_tools: 1\n"
                       "  max_tools: 3\n  target_ratio: 0.05\n")
    running = gateway(lambda path, body: (200, anthropic_text("ok")), profile=str(profile),
                      scorer=None)
    definitions = [{"name": t.name, "description": t.description,
                    "input_schema": t.parameters or {"type": "object"}} for t in tools]
    # the first request loads the model: a minute and more on a loaded machine
    with httpx.Client(base_url=running.url, timeout=240) as client:
        for q in queries:
            answer = client.post("/v1/messages", json={
                "model": "m", "max_tokens": 5, "tools": definitions,
                "messages": [{"role": "user", "content": q["query"]}]})
            assert answer.status_code == 200
    kept = [{t["name"] for t in body["tools"]} for body in running.upstream.bodies()]
    assert all(1 <= len(k) <= 3 for k in kept)  # the cut may keep fewer
    by_gateway = sum(set(q["relevant"]) <= k for q, k in zip(queries, kept, strict=True))
    words = Gateway(strategy="relevance", min_tools=1, max_tools=3, target_ratio=0.05)
    by_words = sum(set(q["relevant"]) <= {t.name for t in run_gateway(
        words, tools, {}, q["query"]).visible} for q in queries)
    # measured: 64 of 95, 2.65 tools kept of 3 (66 before the cut), against 48 (of 60 tools)
    assert by_gateway >= 0.65 * len(queries) and by_gateway > by_words + 10
