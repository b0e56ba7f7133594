"""A request CLD2 is sure is in another language than English has that language's stop words
(stopwords-iso's of three letters or fewer: le, un, du, est, el, на) weighed by what they tell
apart among the tools written in that language (toolcat.search.bm25): in a catalog of English
tools "le" is rare, so it lifted the French tool whose text repeats it most."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from toolcat.catalog.load import load_catalog
from toolcat.search import bm25, build_scorer, rank
from toolcat.search.text import stop_words

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
# BoondManager's tools are described in French, GitHub's and QuickBooks' in English (fresh10)
SERVERS = {"boondmanager", "github", "quickbooks"}
# not a request of the half: written for this test
DELETE = "supprime le candidat 2231, il est en double"

pytestmark = pytest.mark.skipif(not (DATA / "fresh10-catalog.json").exists(),
                                reason="the real-server set is absent")


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    whole = json.loads((DATA / "fresh10-catalog.json").read_text())
    path = tmp_path_factory.mktemp("stop-words") / "three-servers.json"
    path.write_text(json.dumps({"tools": [t for t in whole["tools"]
                                          if t.get("server") in SERVERS]}))
    return path


def scores(catalog: Path, query: str) -> dict[str, float]:
    tools = list(load_catalog(catalog).tools)
    return {s.tool.name: s.score for s in rank(build_scorer("bm25", tools), query, limit=None)}


def test_the_lists_keep_the_short_function_words_of_a_language() -> None:
    french = stop_words("fr")
    assert {"le", "un", "du", "est", "il", "en"} <= french
    assert not {"depuis", "plus", "supprime", "candidat"} & french  # words a request means
    assert {"el", "en", "hoy"} <= stop_words("es")  # in base letters: "está" is "esta"
    assert "на" in stop_words("ru")
    assert stop_words("en") == frozenset()  # English has STOPWORDS
    assert stop_words("") == stop_words("xx") == frozenset()


def test_a_french_requests_stop_words_do_not_lift_the_tool_that_repeats_them(
        catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = scores(catalog, DELETE)
    assert max(found, key=found.__getitem__) == "boond_candidates_delete"
    # boond_documents_create's description is full of "le", "un", "du": at their idf in the
    # whole catalog (rare: most tools are English) they lifted it near the first
    monkeypatch.setattr(bm25, "stop_words", lambda code: frozenset())
    before = scores(catalog, DELETE)
    assert before["boond_documents_create"] > found["boond_documents_create"]
    lead = found["boond_candidates_delete"] - found["boond_documents_create"]
    assert lead > 0.05
    assert lead > 2 * (before["boond_candidates_delete"] - before["boond_documents_create"])


def test_an_english_request_scores_as_without_the_stop_words(
        catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    query = "delete candidate 2231, it is a duplicate in boond"
    with_them = scores(catalog, query)
    monkeypatch.setattr(bm25, "stop_words", lambda code: frozenset())
    without = scores(catalog, query)
    assert list(with_them) == list(without)
    assert np.allclose(list(with_them.values()), list(without.values()))


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_explain_says_which_stop_words_were_weighed(run, catalog: Path) -> None:
    result = run("search", DELETE, "-c", str(catalog), "--scorer", "hybrid", "--limit", "1",
                 "--json")
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)["tools"][0]
    assert first["name"] == "boond_candidates_delete"
    assert "French stop words weighed among its tools in French: le, il, est, en" \
        in first["reason"]
