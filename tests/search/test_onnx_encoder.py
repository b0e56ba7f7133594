"""Queries encoded without torch: the ONNX export of the real MiniLM agrees with torch, is a
sealed cache entry, and a seen catalog's `toolcat resolve` never imports torch."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CATALOGS, REPO
from toolcat.search import onnx_encoder
from toolcat.search.embeddings import Embedder, EmbeddingCache, _locate
from toolcat.source import cache as cache_files

pytestmark = pytest.mark.semantic
QUERY = "open a pull request for my branch"


def fresh_embedder() -> Embedder:
    """An embedder as a new process has it (load_embedder keeps one per process)."""
    location, ident, delta = _locate(None)
    return Embedder(location, ident, delta=delta)


def export_file(embedder: Embedder) -> Path:
    return onnx_encoder.export_path(EmbeddingCache(embedder.ident).folder, embedder.ident)


def queries_of(path: Path, count: int) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["query"] for line in lines[:count]]


@pytest.fixture(scope="module")
def exported(embedder: object, user_config: Path,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder where the torch model was loaded once, and so exported itself (sealed
    with the session's key, as the tests will read it)."""
    cache = tmp_path_factory.mktemp("onnx-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache_files.CACHE_ENV, str(cache))
        patch.setenv("XDG_CONFIG_HOME", str(user_config))
        torch_side = fresh_embedder()
        torch_side.model  # noqa: B018 (loading the model exports it)
        assert export_file(torch_side).is_file()
    yield cache


@pytest.fixture
def in_cache(exported: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache_files.CACHE_ENV, str(exported))
    return exported


def same_vectors_and_top_10(queries: list[str], catalog: Path) -> None:
    """ONNX and torch give the same vector for each query, alone and in padded batches, and
    the same ten tools of `catalog`, in order."""
    from toolcat.catalog.load import load_catalog
    from toolcat.search.semantic import tool_vectors

    onnx_side = fresh_embedder()
    assert onnx_side.query_encoder is not None  # the export of the fixture is read back
    torch_side = fresh_embedder()
    torch_side.model  # noqa: B018 (torch loaded first: this embedder encodes with torch)
    assert torch_side.query_encoder is None
    # the length of a vector, as the model's files state it (read without waiting for the
    # session a prefetch builds), is what the export and torch give
    assert onnx_encoder.stated_dimension(onnx_side.location) == torch_side.dimension == \
        onnx_side.query_encoder.dimension == onnx_side.dimension == 384
    ours = np.stack([onnx_side.encode([q])[0] for q in queries])
    theirs = np.stack([torch_side.encode([q])[0] for q in queries])
    assert float(np.min(np.sum(ours * theirs, axis=1))) >= 0.9999
    batched = onnx_side.encode(queries)  # padded batches give the same vectors
    assert float(np.min(np.sum(batched * theirs, axis=1))) >= 0.9999
    vectors, _ = tool_vectors(load_catalog(catalog).tools, onnx_side)
    for query_ours, query_theirs in zip(ours, theirs, strict=True):
        top_ours = np.argsort(-(vectors @ query_ours), kind="stable")[:10]
        top_theirs = np.argsort(-(vectors @ query_theirs), kind="stable")[:10]
        assert top_ours.tolist() == top_theirs.tolist()


def test_onnx_and_torch_give_the_same_query_vectors_and_top_10_on_the_demo(in_cache):
    same_vectors_and_top_10(queries_of(CATALOGS / "demo-queries.jsonl", 109), CATALOGS)


def test_onnx_and_torch_agree_on_the_labeled_sets(in_cache, benchdata):
    # benchmarks/scale.py --rows encode compares all three sets' queries
    queries = [q for name in ("seal_tools", "bfcl_v4", "metatool")
               for q in queries_of(benchdata / name / "queries.jsonl", 60)]
    same_vectors_and_top_10(queries, benchdata / "metatool" / "catalog.json")


def test_a_batch_batched_by_length_gives_each_text_its_own_vector_in_the_order_given(
        in_cache):
    # the batch is run shortest first, in batches of 2, and must come back in the order given
    texts = ["Find flights from Lisbon to Berlin next Friday for two adults, economy class, "
             "and tell me which one leaves earliest in the morning",
             "hello",
             "open a pull request for my branch",
             "weather"]
    onnx_side = fresh_embedder()
    assert onnx_side.query_encoder is not None
    alone = np.stack([onnx_side.query_encoder.encode([t])[0] for t in texts])
    batched = onnx_side.query_encoder.encode(texts, batch_size=2)
    assert batched.shape == alone.shape
    assert float(np.min(np.sum(batched * alone, axis=1))) >= 0.99999
    assert np.argmax(batched @ alone.T, axis=1).tolist() == [0, 1, 2, 3]


def test_without_onnxruntime_torch_encodes_and_says_so_once(in_cache, monkeypatch, caplog):
    available = onnx_encoder.runtime_available
    monkeypatch.setattr(onnx_encoder, "runtime_available", lambda: False)
    cache_files._warned.discard("onnxruntime")
    fallback = fresh_embedder()
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        first = fallback.query_vector("weather in Lisbon")
        fallback.query_vector("send an email to Ana")
        fresh_embedder().query_vector("list my calendar events")
    assert fallback.query_encoder is None and fallback._model is not None
    said = [r.getMessage() for r in caplog.records if "onnxruntime" in r.getMessage()]
    assert len(said) == 1 and "torch" in said[0]
    onnx_side = fresh_embedder()
    # only the runtime comes back: undoing every patch would also undo the session's cache
    # key (XDG_CONFIG_HOME), and the export read under another key would be rebuilt
    monkeypatch.setattr(onnx_encoder, "runtime_available", available)
    assert float(first @ onnx_side.query_vector("weather in Lisbon")) >= 0.9999
    assert onnx_side.query_encoder is not None


def test_without_the_onnx_package_torch_encodes_and_says_so_once(embedder, tmp_path,
                                                                 monkeypatch, caplog):
    monkeypatch.setenv(cache_files.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setitem(sys.modules, "onnx", None)  # as good as not installed
    cache_files._warned.discard("onnx")
    first = fresh_embedder()
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        first.query_vector("weather in Lisbon")
        fresh_embedder().query_vector("list my calendar events")  # loads torch again
    said = [r.getMessage() for r in caplog.records if "onnx package" in r.getMessage()]
    assert len(said) == 1 and "every query loads torch" in said[0]
    assert not export_file(first).exists()
    assert fresh_embedder().query_encoder is None


def test_a_tampered_export_is_refused_then_exported_again(in_cache, tmp_path, monkeypatch,
                                                          caplog):
    copy = tmp_path / "cache"
    shutil.copytree(in_cache, copy)  # entries are sealed relative to the cache folder
    monkeypatch.setenv(cache_files.CACHE_ENV, str(copy))
    file = export_file(fresh_embedder())
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit of one weight
    file.write_bytes(bytes(data))
    refused = fresh_embedder()
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        assert refused.query_encoder is None
    assert any("exported query encoder" in r.getMessage() and "seal" in r.getMessage()
               for r in caplog.records)
    assert not file.exists()  # removed, not used
    refused.query_vector("weather in Lisbon")  # torch encodes, and exports again
    assert file.is_file() and file.read_bytes() != bytes(data)
    again = fresh_embedder()
    assert again.query_encoder is not None
    assert float(again.query_vector("weather in Lisbon")
                 @ refused.query_vector("weather in Lisbon")) >= 0.9999


def test_resolve_on_a_seen_catalog_never_imports_torch(in_cache, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(in_cache, cache)
    env = {**os.environ, "PYTHONPATH": str(REPO), cache_files.CACHE_ENV: str(cache)}
    indexed = subprocess.run([sys.executable, "-m", "toolcat", "index", "-c", str(CATALOGS)],
                             capture_output=True, text=True, env=env, cwd=REPO, timeout=600,
                             check=False)
    assert indexed.returncode == 0, indexed.stderr
    probe = ("import runpy, sys\n"
             "sys.argv = ['toolcat', 'resolve', sys.argv[1], '-c', sys.argv[2], '--json']\n"
             "try:\n    runpy.run_module('toolcat', run_name='__main__')\n"
             "except SystemExit as exit:\n    code = exit.code\n"
             "heavy = sorted(m for m in sys.modules\n"
             "               if m.split('.')[0] in ('torch', 'sentence_transformers'))\n"
             "print('\\nHEAVY', heavy, code, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, QUERY, str(CATALOGS)],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=300,
                          check=False)
    assert "HEAVY [] 0" in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert answer["scorer"] == "hybrid"
    visible = [tool["name"] for tool in answer["visible"]]
    assert "create_pull_request" in visible[:3]
    assert "words only" not in done.stdout and "not computed" not in done.stdout
    # the resolver starts loading the encoder on a thread: a process that leaves at once
    # waits for it rather than aborting inside onnxruntime
    leave = ("import sys\nfrom toolcat.catalog.load import load_catalog\n"
             "from toolcat.resolution.resolver import Resolver\n"
             "Resolver(load_catalog(sys.argv[1]))\nsys.exit(3)\n")
    left = subprocess.run([sys.executable, "-c", leave, str(CATALOGS)], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=300, check=False)
    assert (left.returncode, left.stderr) == (3, "")
