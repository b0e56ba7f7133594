"""serve's search scorer at run time: words at once, hybrid once its semantic stage is ready,
and then only the request itself is encoded; a real MCP client sees the note."""

from __future__ import annotations

import json

import anyio
import pytest

from tests.conftest import CATALOGS
from tests.serve.conftest import environment, served, text
from toolcat.catalog.load import load_catalog
from toolcat.search.embeddings import load_embedder
from toolcat.serve.gate import Gate

pytestmark = pytest.mark.semantic
QUERY = "weather forecast for Lisbon next days"  # no pattern match: the scorer ranks


def test_the_search_answers_by_words_and_says_so_until_the_semantic_stage_is_ready(
        shared_cache, monkeypatch):
    gate = Gate(load_catalog(CATALOGS))
    assert gate.scorer_name == "hybrid"
    before = gate.search(QUERY)
    assert before.method == "hybrid (lexical stage)"
    assert before.response["note"].startswith("Ranked by words only: the semantic stage is")
    # the embedder's encode, whichever backend this process chose (torch, or the ONNX export
    # when an earlier test of the process loaded that first)
    embedder = load_embedder()
    encoded: list[list[str]] = []
    real = embedder.encode
    monkeypatch.setattr(embedder, "encode",
                        lambda texts, *a, **kw: encoded.append(list(texts)) or real(texts, *a,
                                                                                    **kw))
    gate.complete()
    encoded.clear()  # readying the stage encodes one warm-up text
    after = gate.search(QUERY)
    assert after.method == "hybrid" and "note" not in after.response
    assert "weather" in after.found[0]
    # the catalog's embeddings were stored: only the request, without the name of the
    # server it names (toolcat.search.hybrid.ServerNames)
    assert encoded == [[QUERY.replace("weather ", "")]]


def test_an_mcp_client_gets_the_note_then_hybrid_answers(tmp_path, embedding_cache):
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps(
        [{"name": f"topic_{i}", "description": f"Notes about topic {i}."} for i in range(30)] +
        [{"name": "ledger_post", "description": "Post an entry to the accounting ledger."},
         {"name": "forecast", "description": "Tomorrow's weather: rain, wind, temperature."}]))
    env = environment(TOOLCAT_CACHE_DIR=str(embedding_cache))

    async def session() -> list[dict]:
        answers = []
        async with served("-c", str(catalog), env=env) as client:
            answers.append(json.loads(text(await client.call_tool(
                "search_tools", {"query": "post an entry to the ledger"}))))
            for _ in range(240):  # until the semantic stage is ready (model load)
                found = json.loads(text(await client.call_tool(
                    "search_tools", {"query": "will it rain tomorrow"})))
                if "note" not in found:
                    answers.append(found)
                    break
                await anyio.sleep(0.5)
        return answers

    first, ready = anyio.run(session)
    assert first["tools"][0]["name"] == "ledger_post", first
    assert "Ranked by words only" in first.get("note", ""), first
    assert ready["tools"][0]["name"] == "forecast"


def test_a_one_shot_client_of_an_indexed_catalog_gets_the_warm_ranking_first(
        shared_cache, tmp_path):
    # every MCP Inspector CLI call is a new serve process that asks once: with the
    # catalog's embeddings stored (`toolcat index`), its first search waits for the semantic
    # stage (the stored vectors and the query encoder) instead of answering by words alone
    import subprocess
    import sys

    from tests.conftest import REPO

    query = "list the files in a folder"
    indexed = subprocess.run([sys.executable, "-m", "toolcat", "index", "-c", str(CATALOGS)],
                             env=environment(TOOLCAT_CACHE_DIR=str(shared_cache)), cwd=REPO,
                             capture_output=True, text=True, check=False)
    assert indexed.returncode == 0, indexed.stderr
    warm = Gate(load_catalog(CATALOGS))
    warm.complete()
    expected = warm.search(query).response
    assert "note" not in expected

    async def first_answer() -> dict:
        async with served("-c", str(CATALOGS),
                          env=environment(TOOLCAT_CACHE_DIR=str(shared_cache))) as client:
            return json.loads(text(await client.call_tool("search_tools", {"query": query})))

    for _ in range(2):  # two one-shot sessions, each a fresh process
        answer = anyio.run(first_answer)
        assert "note" not in answer, answer
        assert [t["name"] for t in answer["tools"]] == [t["name"] for t in expected["tools"]]


def test_an_indexed_catalog_with_recorded_prompts_is_stored_as_serve_searches_it(
        shared_cache, tmp_path, run):
    # serve adds get_prompt for a server's recorded prompts (toolcat.serve.virtual): the
    # catalog it searches is not the file's, and `toolcat index` stores that one too, or a
    # one-shot client's first search would answer by words alone
    from toolcat.search.index import prefetch_encoder
    from toolcat.serve.virtual import with_virtual_tools

    source = tmp_path / "files.yaml"
    source.write_text(
        "servers:\n"
        "  - name: files\n"
        "    mcp: {command: files-server, prompts: [summarize-folder]}\n"
        "tools:\n"
        "  - {name: list_files, server: files, description: List the files in a folder.}\n"
        "  - {name: read_file, server: files, description: Read a text file.}\n")
    served = with_virtual_tools(load_catalog(source))
    assert "get_prompt" in [t.name for t in served.tools]
    assert not prefetch_encoder(None, served)
    result = run("index", "-c", str(source))
    assert result.exit_code == 0, result.stderr
    assert prefetch_encoder(None, load_catalog(source))
    assert prefetch_encoder(None, served)
