"""A request's job apart from what it is about (toolcat.search.topic): the topic-free view a
hybrid embeds too, and the servers a request names only as its topic. Model-free, but for the
last test, which ranks a real catalog's tools."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.embeddings import load_embedder
from toolcat.search.hybrid import HybridScorer
from toolcat.search.topic import MAX_CHARS, TOPIC_WORDS, VIEW_SHARE, view, with_view

FRESH4 = (Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
          / "fresh4-catalog.json")


def test_a_topic_runs_to_the_end_of_its_clause_or_the_next_preposition():
    assert view("find my note about the kubernetes migration") == "find my note"
    assert view("did Priya ever answer my email about the Q4 offsite?") == (
        "did Priya ever answer my email ?")
    assert view("what did people say about the outage in chat today") == (
        "what did people say in chat today")
    assert view("find the dashboard regarding kafka lag, then share it with Bob") == (
        "find the dashboard , then share it with Bob")


def test_a_labels_content_after_a_colon_is_left_out_unless_it_is_the_ask():
    assert view("bug for the Mobile project: login button does nothing on Android 14") == (
        "bug for the Mobile project")
    assert view("deep dive with sources: Azure Container Apps vs AKS. Thanks") == (
        "deep dive with sources . Thanks")
    # what follows the colon asks: a question, or an order
    assert view("on-call handoff: anything critical paging right now?") is None
    assert view("month-end close: what did the store bring in this month") is None
    assert view("one more thing: create a wiki page") is None


def test_a_request_whose_topic_is_what_it_asks_for_is_read_whole():
    assert view("tell me about the pipelines") is None
    assert view("I'm curious about the public holidays in Australia") is None
    assert view("about the pipelines") is None  # no word of content before "about"
    assert view("list the open merge requests") is None  # nothing to leave out
    assert view("x" * (MAX_CHARS + 1) + " find my note about it") is None


def test_a_long_request_is_read_in_linear_time():
    assert view("find my note about " + "the cluster " * 50_000) is None  # past the bound
    long = "find my notes and files " * 150 + "about kubernetes"
    assert len(long) < MAX_CHARS and view(long) == long[:-len(" about kubernetes")]
    # a run of punctuation is one token, inside a value unless a space follows it
    assert view("find my notes about it" + "." * 3000 + "x") == "find my notes"
    assert view("find my notes about v1.2, please") == "find my notes , please"


def test_a_tool_gains_a_share_of_its_lead_on_the_view_and_never_loses():
    whole = np.array([[0.06, 0.38, 0.2]])
    found = with_view(whole, np.array([[0.44, 0.10, -0.3]]))
    assert found[0, 0] == pytest.approx((1 - VIEW_SHARE) * 0.06 + VIEW_SHARE * 0.44)
    assert found[0, 1:].tolist() == pytest.approx([0.38, 0.2])


def test_a_server_named_only_as_the_topic_gives_no_evidence():
    tools = [Tool(name=name, description=text, server=server) for name, text, server in (
        ("search_reddit", "Search posts across subreddits", "reddit"),
        ("browse_subreddit", "Fetch the posts of a subreddit", "reddit"),
        ("get_version", "The version of the running instance", "coolify"),
        ("list_apps", "List the applications deployed", "coolify"),
        ("search_notes", "Search notes by name", "obsidian"))]
    scorer = HybridScorer.lexical_stage(BM25Scorer(tools), load_embedder(None), "words only",
                                        lambda _progress: pytest.fail("no semantic stage"))
    about, on = scorer.evidence(["what are people saying about coolify lately",
                                 "what are people saying on coolify lately"])
    # Coolify's tools: its name counts, as a server's and as a word, only where it is asked
    assert on[2] > 0 and on[3] > 0
    assert about[2] == about[3] == 0.0
    assert about[0] == on[0]


def test_the_words_said_only_in_a_topic_weigh_half():
    tools = [Tool(name="search_notes", description="Search notes by their name", server="obsidian"),
             Tool(name="aks_cluster_get", description="Get a Kubernetes cluster and its migration",
                  server="azure")]
    scorer = HybridScorer.lexical_stage(BM25Scorer(tools), load_embedder(None), "words only",
                                        lambda _progress: pytest.fail("no semantic stage"))
    about, plain = scorer.evidence(["find my note about the kubernetes migration",
                                    "find my note, the kubernetes migration"])
    assert about[1] == pytest.approx(TOPIC_WORDS * plain[1]) and about[1] > 0
    assert about[0] >= plain[0] > 0


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not FRESH4.exists(), reason="the real-server set is absent")
@pytest.mark.parametrize("model", [(), ("--model", "all-MiniLM-L6-v2")], ids=str)
def test_the_note_search_beats_the_tools_of_what_the_note_is_about(run, tmp_path, model):
    # a part of fresh4 (38 tools): Obsidian's notes and Reddit, and Azure's Kubernetes (AKS),
    # compute, Key Vault and storage tools, on which the request read whole landed
    catalog = json.loads(FRESH4.read_text(encoding="utf-8"))
    kept = [t for t in catalog["tools"] if t["server"] in ("obsidian", "reddit")
            or t["name"].startswith(("aks_", "compute_", "get_presentation", "search_gmail",
                                     "keyvault_", "storage_"))]
    part = tmp_path / "catalog.json"
    part.write_text(json.dumps({"servers": [s for s in catalog["servers"]
                                            if s["name"] in {t["server"] for t in kept}],
                                "tools": kept}), encoding="utf-8")
    result = run("pick", "find my note about the kubernetes migration", "-c", str(part),
                 "-k", "5", "--explain", "--json", *model)
    assert result.exit_code == 0, result.output
    picks = json.loads(result.output)["picks"]
    assert picks[0]["name"] == "search_notes"
    if not model:  # minilm-tools finds the note search from the whole request (cosine
        # 0.55) and the cut keeps it and read_notes alone: no Kubernetes tool is shown
        assert not [p for p in picks if p["name"].startswith("aks_")]
        return
    # the base model needs the request read without its topic to get there
    assert "read without what the request is about ('find my note')" in picks[0]["reason"]
    # the Kubernetes tools keep half of what "kubernetes" gave them, and say so
    aks = [p for p in picks if p["name"].startswith("aks_")]
    assert aks and all("said only in what the request is about weigh half" in p["reason"]
                       for p in aks)
