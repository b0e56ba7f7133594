"""Tuning with the real MiniLM model: zero-shot exactly unchanged without usage, usage that
teaches a catalog its users' words, honest cross-validation, and the warnings a user needs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.search.cascade import CascadeScorer
from toolcat.search.hybrid import HybridScorer
from toolcat.search.tuning import TunedScorer, Tuning, Weights
from toolcat.tune import prepare_material, read_sources
from toolcat.tune.evaluation import folds
from toolcat.tune.learn import learn
from toolcat.tune.material import tool_usages

pytestmark = [pytest.mark.semantic, pytest.mark.slow]
NAME = "hybrid+tuning"

DEMO_QUERIES = CATALOGS / "demo-queries.jsonl"
# six tools whose descriptions say nothing a user would ask for, and what users ask them
JOBS = {
    "job_a": ("bake", ["sourdough bread", "a birthday cake", "croissants", "rye loaves",
                       "banana bread", "cinnamon rolls", "a lemon tart", "bagels",
                       "pizza dough", "muffins", "baguettes", "apple pie"]),
    "job_b": ("water", ["the tomato plants", "the lawn", "the roses", "the herb garden",
                        "the orchids", "the hedges", "the seedlings", "the cactus",
                        "the fern", "the vegetable beds", "the lilies", "the apple tree"]),
    "job_c": ("tune", ["the guitar", "the piano", "the violin", "the cello", "the ukulele",
                       "the harp", "the mandolin", "the banjo", "the bass guitar",
                       "the drums", "the viola", "the harpsichord"]),
    "job_d": ("vacuum", ["the living room", "the stairs", "the car seats", "the rug",
                         "the bedroom carpet", "the hallway", "the sofa", "the office",
                         "the kids' room", "the attic", "the basement", "the porch"]),
    "job_e": ("feed", ["the cat", "the goldfish", "the parrot", "the dog", "the hamster",
                       "the rabbit", "the chickens", "the turtle", "the horse", "the ducks",
                       "the guinea pig", "the lizard"]),
    "job_f": ("polish", ["the silver spoons", "my shoes", "the brass door knob",
                         "the car", "the trophy", "the wooden table", "the mirror",
                         "the candlesticks", "the watch", "the boots", "the kettle",
                         "the faucet"]),
}


def write_jobs(catalog: Path, log: Path) -> tuple[Path, Path]:
    """`catalog`: the opaque JOBS tools; `log`: a call log of what users asked them (the last
    request of each tool is kept out of the log, for pick to be asked)."""
    catalog.write_text("tools:\n" + "".join(
        f"- {{name: {name}, description: Runs scheduled operation {name[-1].upper()} of the "
        "household controller.}\n" for name in JOBS), encoding="utf-8")
    log.write_text("".join(
        json.dumps({"query": f"please {verb} {thing}", "called": [name]}) + "\n"
        for name, (verb, things) in JOBS.items() for thing in things[:-1]), encoding="utf-8")
    return catalog, log


@pytest.fixture
def opaque(tmp_path: Path, shared_cache: Path) -> tuple[Path, Path]:
    """A catalog of opaque tools and a call log of what users asked them."""
    return write_jobs(tmp_path / "jobs.yaml", tmp_path / "calls.jsonl")


def test_without_usage_the_tuned_scorer_is_the_hybrid_exactly(shared_cache):
    demo = load_catalog(CATALOGS)
    hybrid = HybridScorer(demo.tools)
    tuned = TunedScorer(hybrid, Tuning(hybrid.semantic.embedder.ident, Weights(), {}))
    texts = [json.loads(line)["query"] for line in DEMO_QUERIES.read_text().splitlines()]
    for text in texts[:20]:
        assert np.array_equal(tuned.scores(text), hybrid.scores(text))
    assert np.array_equal(np.array(tuned.scores_many(texts)), np.array(hybrid.scores_many(texts)))


def test_the_tuned_scorer_gives_the_scores_tune_chose_its_weights_by(shared_cache):
    """What `tune` measures is what a tuning file delivers: Tool2Vec's mixed vectors and the
    additive usage, within the bound, score every request as the held-out checks did."""
    from dataclasses import replace

    from toolcat.search.hybrid import midpoint_of, squash
    from toolcat.search.tuning import build_matched
    from toolcat.tune.file import dumps, from_json
    from toolcat.tune.held import Held
    from toolcat.tune.material import matched_for

    demo = load_catalog(CATALOGS)
    material = prepare_material(demo, read_sources(demo, [DEMO_QUERIES]))
    train = material.measured[::2]
    weights = Weights(16.0, 16.0, 0.5, 0.5, 1.0, 0.75)
    indices, usages = tool_usages(material, train)
    tuning = Tuning(material.model, weights,
                    {demo.tools[i].qualified_name: u for i, u in zip(indices.tolist(), usages,
                                                                    strict=True)})
    tuned = TunedScorer(HybridScorer(demo.tools, semantic_weight=16.0), tuning)
    held = material.measured[1::2]
    midpoint = midpoint_of(material.model)  # the embedding model's (toolcat.search.calibration)
    expected = squash(Held(material, matched_for(material, train), held).evidence(weights),
                      midpoint)
    found = np.array([tuned.scores(material.requests[i].text) for i in held])
    assert np.allclose(found, expected, atol=1e-5)
    mixed_only = Held(material, matched_for(material, train), held)
    assert not np.allclose(mixed_only.evidence(weights),
                           mixed_only.evidence(Weights(16.0, 16.0, 0.5, 0.5, 1.0)))
    # the calibration and the penalty of declined tools, through the file, score alike too:
    # each request as if the zero-shot top 3 were shown
    top = np.argsort(-material.base, axis=1)[:, :3]
    material = replace(material, requests=tuple(
        replace(r, declined=tuple(t for t in top[i].tolist() if t not in r.tools))
        for i, r in enumerate(material.requests)))
    weights = Weights(16.0, 16.0, 0.5, 0.5, 1.0, calibration=1.0, negative_weight=32.0)
    indices, usages = tool_usages(material, train)
    usages = [replace(u, bias=(-1.0, 1.5)[j % 2]) for j, u in enumerate(usages)]
    assert sum(u.declined > 0 for u in usages) >= 3
    text = dumps(Tuning(material.model, weights, {demo.tools[i].qualified_name: u for i, u
                                                  in zip(indices.tolist(), usages, strict=True)}))
    tuning = from_json(json.loads(text), "tuning.json")
    tuned = TunedScorer(HybridScorer(demo.tools, semantic_weight=16.0), tuning)
    both = Held(material, build_matched(material.size, indices, usages), held)
    found = np.array([tuned.scores(material.requests[i].text) for i in held])
    assert np.allclose(found, squash(both.evidence(weights), midpoint), atol=1e-5)
    plain = squash(both.evidence(Weights(16.0, 16.0, 0.5, 0.5, 1.0)), midpoint)
    for changed in (Weights(16.0, 16.0, 0.5, 0.5, 1.0, calibration=1.0),
                    Weights(16.0, 16.0, 0.5, 0.5, 1.0, negative_weight=32.0)):
        assert not np.allclose(squash(both.evidence(changed), midpoint), plain)


def test_usage_teaches_opaque_tools_their_users_words(run, opaque, tmp_path):
    catalog, log = opaque
    tuning = tmp_path / "tuning.json"
    result = run("tune", "-c", str(catalog), "-q", str(log), "--cv", "3", "-o", str(tuning),
                 "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    cv = report["cross_validation"]
    assert cv["requests"] == 66 and cv["k"] == 3
    assert cv["after"]["ndcg@10"] > cv["before"]["ndcg@10"] + 0.2
    assert report["tuning"]["tools_with_usage"] == 6
    assert report["tuning"]["weights"]["usage_weight"] > 0
    # these tools' own text matches no request: the bound keeps some of them under pick's
    # default threshold (docs/tune.md, "What a tuning can never do"), so every tool is asked
    for name, (verb, things) in JOBS.items():
        request = f"could you {verb} {things[-1]} now"  # never in the log
        before = json.loads(run("pick", "-c", str(catalog), request, "--json",
                                "--min-score", "0").stdout)
        after = json.loads(run("pick", "-c", str(catalog), request, "--json",
                               "--tuning", str(tuning), "--min-score", "0").stdout)
        assert after["scorer"] == NAME
        assert after["picks"][0]["name"] == name, (request, after["picks"])
        assert after["picks"][0]["score"] > (before["picks"] or [{"score": 0}])[0]["score"]
    labeled = tmp_path / "labeled.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    fresh = [{"query": f"could you {verb} {things[-1]} now", "called": [name]}
             for name, (verb, things) in JOBS.items()]
    labeled.write_text("".join(json.dumps({"id": i, "query": r["query"],
                                           "relevant": r["called"]}) + "\n"
                               for i, r in enumerate(records + fresh)), encoding="utf-8")
    bench = run("bench", "-c", str(catalog), "-q", str(labeled), "--tuning", str(tuning),
                "--json")
    assert bench.exit_code == 0, bench.output
    assert (f"66 queries of 72 in {labeled} were used to make the tuning {tuning}: the "
            f"{NAME} figures are optimistic") in " ".join(bench.stderr.split())
    runs = {r["name"]: r["metrics"] for r in json.loads(bench.stdout)["scorers"]}
    assert runs[NAME]["ndcg@10"] > runs["hybrid"]["ndcg@10"] + 0.3


def test_a_changed_tool_falls_back_to_zero_shot_with_a_warning(run, opaque, tmp_path):
    catalog, log = opaque
    tuning = tmp_path / "tuning.json"
    assert run("tune", "-c", str(catalog), "-q", str(log), "-o", str(tuning)).exit_code == 0
    text = catalog.read_text()
    catalog.write_text(text.replace("operation A of", "operation A (v2) of"), encoding="utf-8")
    result = run("pick", "-c", str(catalog), "please bake a pound cake", "--json",
                 "--tuning", str(tuning))
    assert result.exit_code == 0
    assert "1 tool changed since the tuning was made; it is scored zero-shot" in \
        " ".join(result.stderr.split())
    picks = json.loads(result.stdout)["picks"]
    assert all(p["provenance"]["details"]["usage_evidence"] == 0 for p in picks
               if p["name"] == "job_a")
    other = tmp_path / "other.yaml"
    other.write_text("tools:\n- {name: unrelated, description: Something else.}\n",
                     encoding="utf-8")
    result = run("pick", "-c", str(other), "please bake a pound cake", "--tuning", str(tuning))
    assert result.exit_code == 0
    said = " ".join(result.stderr.split())
    assert "6 tools of the tuning are not in this catalog" in said
    assert "was made for another catalog" in said


def test_the_tuning_is_used_by_resolve_render_and_toolcat_yaml(run, opaque, tmp_path,
                                                               isolated):
    catalog, log = opaque
    assert run("tune", "-c", str(catalog), "-q", str(log), "-o",
               str(isolated / "tuning.json")).exit_code == 0
    (isolated / "toolcat.yaml").write_text(f"catalogs: [{catalog}]\ntuning: tuning.json\n",
                                           encoding="utf-8")
    resolved = json.loads(run("resolve", "please water the bonsai", "--json").stdout)
    assert resolved["scorer"] == NAME
    rendered = run("render", "please water the bonsai", "--json")
    assert rendered.exit_code == 0, rendered.output
    picked = json.loads(run("pick", "please water the bonsai", "--json").stdout)
    assert picked["scorer"] == NAME and picked["picks"][0]["name"] == "job_b"
    searched = json.loads(run("search", "water the bonsai", "--scorer", "hybrid",
                              "--json").stdout)
    assert searched["scorer"] == NAME and searched["tools"][0]["name"] == "job_b"


def test_cross_validation_never_scores_a_request_it_learned_from(shared_cache, tmp_path):
    demo = load_catalog(CATALOGS)
    doubled = tmp_path / "queries.jsonl"
    lines = DEMO_QUERIES.read_text().splitlines()
    copies = [json.dumps({**json.loads(line), "id": json.loads(line)["id"] + "-again",
                          "query": json.loads(line)["query"].upper() + "  "})
              for line in lines]
    doubled.write_text("\n".join(lines + copies) + "\n", encoding="utf-8")
    material = prepare_material(demo, read_sources(demo, [doubled]))
    parts = folds(material, 5)
    where = {i: n for n, part in enumerate(parts) for i in part}
    for i, digest in enumerate(material.digests):
        twin = material.digests.index(digest)
        assert where[i] == where[twin]  # a request and its copy share a fold
    assert sorted(where) == list(range(len(material.digests)))


def test_zero_shot_weights_are_kept_when_the_checks_find_no_gain(shared_cache):
    demo = load_catalog(CATALOGS)
    material = prepare_material(demo, read_sources(demo, [DEMO_QUERIES]))
    tuning = learn(material)
    assert tuning.report["checked"] is True
    if tuning.report["fallback"]:
        assert tuning.weights == Weights()
    indices, usages = tool_usages(material, list(range(len(material.requests))))
    assert len(tuning.tools) == len(usages) == len(indices)


def test_the_zero_shot_figures_of_tune_are_the_figures_of_bench(shared_cache):
    from toolcat.bench.queries import load_queries, resolve_labels
    from toolcat.bench.runner import run_bench
    from toolcat.tune.held import ranking_metrics

    demo = load_catalog(CATALOGS)
    material = prepare_material(demo, read_sources(demo, [DEMO_QUERIES]))
    scored = ranking_metrics(material.base, [r.groups for r in material.requests],
                             material.priority)
    labeled, _ = resolve_labels(load_queries(DEMO_QUERIES), demo)
    report = run_bench(demo, labeled, ["hybrid"], ks=(5, 10))
    metrics = report.scorers[0].metrics
    assert scored.mean[0] == pytest.approx(metrics["ndcg@10"], abs=1e-9)
    assert scored.mean[1] == pytest.approx(metrics["recall@5"], abs=1e-9)


def test_weights_that_raise_every_score_raise_the_threshold_with_them(shared_cache):
    """A semantic weight of 20 lifts small talk over pick's 0.05 (metatool: 98% -> 100% of
    chit-chat shown a tool); the fitted threshold is carried to the tuned scores, so the
    tuning lets through no more of the requests no tool fits than zero-shot does at 0.05."""
    from toolcat.search.hybrid import midpoint_of, squash
    from toolcat.search.pick import MIN_SCORE
    from toolcat.tune.held import Held
    from toolcat.tune.material import matched_for
    from toolcat.tune.threshold import carried, fit_threshold

    demo = load_catalog(CATALOGS)
    material = prepare_material(demo, read_sources(demo, [DEMO_QUERIES]))
    train = material.measured
    loud = Weights(20.0)
    none = Held(material, matched_for(material, train), material.chitchat)
    midpoint = midpoint_of(material.model)
    before = squash(none.evidence(Weights()), midpoint).max(axis=1)
    after = squash(none.evidence(loud), midpoint).max(axis=1)
    assert np.mean(after >= MIN_SCORE) > np.mean(before >= MIN_SCORE)  # what went wrong
    assert carried(before, after) > MIN_SCORE
    threshold = fit_threshold(material, train, loud)
    assert threshold is not None and threshold >= carried(before, after) - 1e-4
    assert np.mean(after >= threshold) <= np.mean(before >= MIN_SCORE)


def test_example_requests_written_on_tools_are_learned_from(run, tmp_path, shared_cache):
    catalog = tmp_path / "jobs.yaml"
    catalog.write_text("tools:\n" + "".join(
        f"- name: {name}\n  description: Runs scheduled operation {name[-1].upper()} of the "
        "household controller.\n  example_requests: "
        + json.dumps([f"please {verb} {thing}" for thing in things[:-1]]) + "\n"
        for name, (verb, things) in JOBS.items()), encoding="utf-8")
    tuning = tmp_path / "tuning.json"
    result = run("tune", "-c", str(catalog), "-o", str(tuning), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["tuning"]
    assert (report["requests"], report["examples"]) == (0, 66)
    assert report["weights"]["usage_weight"] > 0
    picked = json.loads(run("pick", "-c", str(catalog), "could you feed the lizard now",
                            "--tuning", str(tuning), "--json").stdout)
    assert picked["picks"][0]["name"] == "job_e"


def test_without_usage_the_tuned_cascade_is_the_cascade_exactly(shared_cache):
    demo = load_catalog(CATALOGS)
    cascade = CascadeScorer(demo.tools)
    tuned = TunedScorer(cascade, Tuning(cascade.embedder.ident, Weights(), {}))
    texts = [json.loads(line)["query"] for line in DEMO_QUERIES.read_text().splitlines()]
    for text in texts[:20]:
        assert np.array_equal(tuned.scores(text), cascade.scores(text))
    assert np.array_equal(np.array(tuned.scores_many(texts)),
                          np.array(cascade.scores_many(texts)))


def test_the_cascade_of_large_catalogs_is_tuned_too(run, opaque, tmp_path):
    """Past 10,000 tools pick's default is the cascade, whose first pass is BM25F: opaque
    tools share no word with their users' requests and are never its candidates, unless
    their usage makes them."""
    catalog, log = opaque
    tuning = tmp_path / "tuning.json"
    assert run("tune", "-c", str(catalog), "-q", str(log), "-o", str(tuning)).exit_code == 0
    for name, (verb, things) in JOBS.items():
        request = f"could you {verb} {things[-1]} now"
        before = json.loads(run("pick", "-c", str(catalog), request, "--scorer", "cascade",
                                "--json").stdout)
        assert before["picks"] == []  # no word in common: no candidate at all
        after = run("pick", "-c", str(catalog), request, "--scorer", "cascade", "--json",
                    "--tuning", str(tuning), "--explain", "--min-score", "0")
        assert after.exit_code == 0, after.output
        found = json.loads(after.stdout)
        assert found["scorer"] == "cascade+tuning"
        assert found["picks"][0]["name"] == name, (request, found["picks"])
        assert found["picks"][0]["provenance"]["details"]["usage_evidence"] > 0
    labeled = tmp_path / "labeled.jsonl"
    labeled.write_text("".join(
        json.dumps({"id": name, "query": f"could you {verb} {things[-1]} now",
                    "relevant": [name]}) + "\n" for name, (verb, things) in JOBS.items()))
    bench = run("bench", "-c", str(catalog), "-q", str(labeled), "--scorer", "cascade",
                "--tuning", str(tuning), "--json")
    runs = {r["name"]: r["metrics"] for r in json.loads(bench.stdout)["scorers"]}
    assert set(runs) == {"cascade", "cascade+tuning"}
    assert runs["cascade+tuning"]["ndcg@10"] > runs["cascade"]["ndcg@10"] + 0.5


def test_serve_searches_with_the_tuning(run, opaque, tmp_path):
    """`toolcat serve --tuning` (or toolcat.yaml's tuning): the gateway's search_tools ranks
    with the tuned scorer, so a request worded like past ones finds its opaque tool."""
    from toolcat.serve.gate import Gate
    from toolcat.tune.file import load_tuning

    catalog, log = opaque
    tuning = tmp_path / "tuning.json"
    assert run("tune", "-c", str(catalog), "-q", str(log), "-o", str(tuning)).exit_code == 0
    assert "--tuning" in run("serve", "--help").stdout
    jobs = load_catalog(catalog)
    gates = Gate(jobs), Gate(jobs, tuning=load_tuning(tuning))
    for gate in gates:  # what serve's thread does: ready the semantic stage (words until then)
        gate.complete()
    plain, tuned = (gate.search("could you feed the lizard now") for gate in gates)
    assert tuned.method == "hybrid+tuning"
    assert tuned.found[0] == "job_e"
    assert plain.found[:1] != ("job_e",)


def test_pick_in_python_takes_the_tunings_fitted_threshold(shared_cache):
    """toolcat.pick applies the threshold a tuning fitted, as the CLI does, when the tuning
    applies to its scorer; an explicit min_score wins."""
    from toolcat.search.pick import MIN_SCORE, pick

    demo = load_catalog(CATALOGS)
    fitted = Tuning(HybridScorer(demo.tools).semantic.embedder.ident, Weights(), {},
                    min_score=0.3)
    query = "what's the weather in Tokyo"
    assert pick(query, demo, tuning=fitted).to_json()["min_score"] == 0.3
    assert pick(query, demo, tuning=fitted, min_score=0.1).to_json()["min_score"] == 0.1
    zero_shot = pick(query, demo, tuning=fitted, scorer="bm25").to_json()
    assert zero_shot["min_score"] == MIN_SCORE and zero_shot["scorer"] == "bm25"


def test_a_tuned_query_is_encoded_once(shared_cache, monkeypatch):
    """The hybrid encodes the query, the usage evidence needs its vector too, and explaining
    the picks asks for both again: one encoding serves them all."""
    from toolcat.search.tuning import ToolUsage, tool_key

    demo = load_catalog(CATALOGS)
    hybrid = HybridScorer(demo.tools)
    embedder = hybrid.semantic.embedder
    tool = demo.tools[0]
    usage = ToolUsage(tool_key(tool), 3, embedder.encode(["check the weather"])[0], {})
    tuned = TunedScorer(hybrid, Tuning(embedder.ident, Weights(usage_weight=6.0),
                                       {tool.qualified_name: usage}))
    encoded: list[list[str]] = []
    real = embedder.encode  # the embedder's: its ONNX export or its torch model
    monkeypatch.setattr(embedder, "encode",
                        lambda texts, *a, **kw: encoded.append(list(texts)) or real(texts, *a,
                                                                                    **kw))
    query = "is it going to be sunny in Oslo"
    scores = tuned.scores(query)
    for index in np.argsort(-scores)[:3]:
        tuned.explain(query, int(index))
    assert encoded == [[query]]
