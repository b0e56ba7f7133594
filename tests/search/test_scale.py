"""Run time at scale: a catalog's embeddings are computed once (`toolcat index`), after which
no search encodes anything but its query; before that, a large catalog is answered by words
at once, and says so; every command builds its scorer the same way (scorer_for)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.search.embeddings import load_embedder

pytestmark = pytest.mark.semantic
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def encoded(monkeypatch, embedder) -> list[list[str]]:
    """Every batch of texts the model encodes from now on: the default model's requests, and
    tools, which the base model encodes under a query-side one (Embedder.documents)."""
    seen: list[list[str]] = []
    default = load_embedder()
    # the embedders' encode, not their torch models': a process that loaded a model's ONNX
    # export first encodes with it
    for model in {id(m): m for m in (default, default.documents)}.values():
        real = model.encode
        monkeypatch.setattr(model, "encode", lambda texts, *a, real=real, **kw:
                            seen.append(list(texts)) or real(texts, *a, **kw))
    return seen


def test_after_index_pick_resolve_and_search_encode_only_their_query(run, tmp_path,
                                                                      monkeypatch, encoded):
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps(
        [{"name": f"ledger_{i}", "description": f"Post entry {i} to ledger book {i % 7}.",
          "parameters": {"type": "object", "properties": {"amount": {"type": "number"}}}}
         for i in range(60)]))
    done = run("index", "-c", str(catalog), "--json")
    report = json.loads(done.stdout)
    assert report["tools"] == 60 and report["encoded"] == 120 and report["ann"] is None
    assert sum(len(batch) for batch in encoded) == 120  # whole text and summary of each
    assert json.loads(run("index", "-c", str(catalog), "--json").stdout)["encoded"] == 0
    encoded.clear()
    query = "post entry 42 to the ledger"
    picked = json.loads(run("pick", query, "-c", str(catalog), "--json").stdout)
    assert picked["scorer"] == "hybrid" and picked["notice"] is None
    assert picked["picks"][0]["name"] == "ledger_42"
    run("search", "book entry 3", "-c", str(catalog), "--scorer", "hybrid")
    run("resolve", "ledger book for entry 5", "-c", str(catalog))
    # an order with a modifier ("to the ledger") has its head encoded too
    assert encoded == [[query], ["post entry 42"], ["book entry 3"],
                       ["ledger book for entry 5"]]


def test_a_large_catalog_not_indexed_is_answered_by_words_at_once_and_says_so(run, tmp_path,
                                                                             shared_cache,
                                                                             encoded):
    catalog = tmp_path / "large.json"
    catalog.write_text(json.dumps(
        [{"name": f"ledger_{i}", "description": f"Post entry {i} to ledger book {i % 97}."}
         for i in range(10_001)]))
    result = run("pick", "post entry 4242 to the ledger", "-c", str(catalog), "--json")
    data = json.loads(result.stdout)
    assert data["scorer"] == "hybrid" and data["picks"][0]["name"] == "ledger_4242"
    assert "not computed yet" in data["notice"] and "toolcat index" in result.stderr
    assert encoded == []  # nothing was encoded, not even the query
    small = run("pick", "drop the users table", "-c", "demo", "--json")
    assert json.loads(small.stdout)["scorer"] == "hybrid" and small.stderr == ""


def test_the_cascade_never_encodes_candidates_of_a_catalog_not_indexed(run, tmp_path,
                                                                       shared_cache, encoded):
    """It used to encode its 50 BM25F candidates at each new query (a second at 43,000
    tools on a CPU): now it answers by words, says so, and encodes nothing."""
    catalog = tmp_path / "large.json"
    catalog.write_text(json.dumps(
        [{"name": f"ledger_{i}", "description": f"Post entry {i} to ledger book {i % 97}."}
         for i in range(10_001)]))
    for query in ("post entry 4242 to the ledger", "ledger book 17 entry 17"):
        result = run("pick", query, "-c", str(catalog), "--scorer", "cascade", "--json")
        data = json.loads(result.stdout)
        assert data["picks"][0]["name"] == ("ledger_4242" if "4242" in query else "ledger_17")
        assert "not computed yet" in data["notice"] and "toolcat index" in result.stderr
    assert encoded == []


def test_index_reports_progress_in_tools_not_texts(tmp_path, monkeypatch, embedder):
    from toolcat.search.index import index_catalog

    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps(
        [{"name": f"tool_{i}", "description": f"Does thing {i}.",
          "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}
         for i in range(300)]))
    heard: list[tuple[int, int]] = []
    index_catalog(load_catalog(catalog), progress=lambda done, total: heard.append(
        (done, total)))
    assert heard[-1] == (300, 300) and {total for _, total in heard} == {300}
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)


def test_a_catalog_given_as_python_tools_cannot_be_indexed_ahead(embedder):
    from toolcat.errors import UsageError
    from toolcat.model import Catalog
    from toolcat.search.index import index_catalog

    with pytest.raises(UsageError, match="only a catalog read from JSON or YAML files"):
        index_catalog(Catalog(tools=load_catalog(CATALOGS).tools))


def test_the_nearest_neighbour_graph_finds_what_exact_search_finds(shared_cache):
    """recall@10 of the graph against the exact product, on the real embeddings of the demo
    catalog with its labeled queries (docs/scaling.md has it on the benchmark sets)."""
    from toolcat.search.ann import Nearest, load_or_build_ann
    from toolcat.search.index import scorer_for

    demo = load_catalog(CATALOGS)
    semantic = scorer_for("semantic", demo)
    vectors = semantic.vectors  # type: ignore[attr-defined]
    queries = [json.loads(line)["query"] for line in
               (REPO / "catalogs" / "demo-queries.jsonl").read_text().splitlines() if line]
    graph = load_or_build_ann(shared_cache / "ann-test-", "demo", vectors)
    assert isinstance(graph, Nearest)
    hits = total = 0
    for query in queries:
        vector = load_embedder().encode([query])[0]
        exact = set(np.argsort(-(vectors @ vector))[:10].tolist())
        near = graph.similarity(vector, vectors)
        found = set(np.argsort(-near)[:10].tolist())
        hits += len(found & exact)
        total += 10
    assert hits / total >= 0.98
    again = load_or_build_ann(shared_cache / "ann-test-", "demo", vectors)  # from its file
    assert again.index.search(vectors[0], 1)[0] == 0


def test_every_command_builds_its_scorer_one_way():
    """Only toolcat.search.index chooses between the scorer builders; every command and
    room asks it (scorer_for)."""
    calls = re.compile(r"(?<!def )\b(indexed_scorer|tuned_scorer|build_scorer)\(")
    offenders = sorted(
        path.relative_to(REPO).as_posix() for path in (REPO / "toolcat").rglob("*.py")
        if path.relative_to(REPO).as_posix() not in ("toolcat/search/index.py",
                                                     "toolcat/search/__init__.py")
        and calls.search(path.read_text()))
    assert offenders == []


def test_a_planted_nearest_neighbour_graph_is_rebuilt_with_one_warning(tmp_path, caplog):
    """The graph is a sealed cache entry like every other: a file someone else wrote in its
    place (here garbage faiss would choke on) is never handed to the library."""
    from toolcat.search import ann

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    stem = tmp_path / "0123456789abcdef-"
    first = ann.load_or_build_ann(stem, "model", vectors)
    [stored] = tmp_path.glob("*ann-*.faiss")
    stored.write_bytes(b"\x00" * 64 + stored.read_bytes()[64:])
    with caplog.at_level("WARNING", logger="toolcat"):
        again = ann.load_or_build_ann(stem, "model", vectors)
    assert [r.getMessage() for r in caplog.records if "cannot be used" in r.getMessage()]
    assert again.index.search(vectors[5], 3).tolist() == first.index.search(vectors[5], 3).tolist()
