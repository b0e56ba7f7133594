"""`toolcat tune` and `bench --tuning` through the CLI on a real labeled set: part of
metatool (tools asked the same things in other words, the traffic Tool2Vec is for), tuned on
one half of the requests by id, measured on the other, with small talk and BFCL's
irrelevance requests beside them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import BENCHDATA, REPO

DATA = REPO / "tests" / "data" / "tune"

pytestmark = [pytest.mark.semantic, pytest.mark.slow,
              pytest.mark.skipif(not (BENCHDATA / "metatool").is_dir(),
                                 reason="shared/benchdata is not beside the repo")]


def metatool_part(folder: Path, tools: int = 12, each: int = 10) -> tuple[Path, Path, Path]:
    """A catalog of metatool's most asked tools and their requests, split in halves by id.
    10 requests a tool, not 40: both tests below fail where they did with 40 (the tuning's
    false accepts, 0.192 against 0.20; the same ProductSearch request), every assertion
    before that holds, and the module costs 28.5 s of CPU, not 45.9."""
    catalog = json.loads((BENCHDATA / "metatool" / "catalog.json").read_text())
    rows = [json.loads(line) for line in
            (BENCHDATA / "metatool" / "queries.jsonl").read_text().splitlines()]
    counts = Counter(name for row in rows for name in row["relevant"])
    kept = {name for name, _ in counts.most_common(tools)}
    seen: Counter[str] = Counter()
    part = []
    for row in rows:
        if row["relevant"] and set(row["relevant"]) <= kept \
                and seen[row["relevant"][0]] < each:
            seen[row["relevant"][0]] += 1
            part.append({"id": row["id"], "query": row["query"], "relevant": row["relevant"]})
    (folder / "tools.json").write_text(json.dumps(
        [t for t in catalog if t["name"] in kept]), encoding="utf-8")
    train, test = folder / "train.jsonl", folder / "test.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for n, r in enumerate(part) if n % 2 == 0),
                     encoding="utf-8")
    off = (DATA / "bfcl_irrelevance.jsonl").read_text().splitlines()[:200]
    test.write_text("".join(json.dumps(r) + "\n" for n, r in enumerate(part) if n % 2 == 1)
                    + (DATA / "chitchat.jsonl").read_text() + "\n".join(off) + "\n",
                    encoding="utf-8")
    return folder / "tools.json", train, test


@pytest.mark.xfail(strict=True, reason="under minilm-tools (the default since flip4) the "
                   "zero-shot abstention lets 0.08 of the 250 requests no tool fits through "
                   "(the base model: 0.26); the tuning's threshold, carried to match zero-shot "
                   "on the phrases it is fitted on, lets 0.19 through, over 0.08 + 0.05")
def test_tuning_on_one_half_of_metatool_pays_on_the_other(run, tmp_path, shared_cache):
    catalog, train, test = metatool_part(tmp_path)
    tuning = tmp_path / "tuning.json"
    made = run("tune", "-c", str(catalog), "-q", str(train), "--cv", "3", "-o", str(tuning),
               "--json")
    assert made.exit_code == 0, made.output
    report = json.loads(made.stdout)
    kinds = report["cross_validation"]["kinds"]
    assert {"recurring", "new tools", "no tool"} <= set(kinds)
    assert report["cross_validation"]["after"]["ndcg@10"] \
        >= report["cross_validation"]["before"]["ndcg@10"] - 0.005
    benched = run("bench", "-c", str(catalog), "-q", str(test), "--tuning", str(tuning),
                  "--json")
    assert benched.exit_code == 0, benched.output
    runs = {r["name"]: r for r in json.loads(benched.stdout)["scorers"]}
    zero, tuned = runs["hybrid"], runs["hybrid+tuning"]
    assert tuned["metrics"]["ndcg@10"] >= zero["metrics"]["ndcg@10"] - 0.005
    # abstention holds: about as many of the requests no tool fits get a tool as zero-shot
    # (the threshold is carried to match zero-shot on the phrases it is fitted on; these are
    # others: 0.26 -> 0.28 when written)
    assert tuned["metrics"]["false_accept"] <= zero["metrics"]["false_accept"] + 0.05
    assert tuned["kinds"]["no tool"]["queries"] == 250
    assert tuned["kinds"]["recurring"]["queries"] > 0


@pytest.mark.xfail(strict=True, reason="under minilm-tools (the default since flip4) one of "
                   "the 12 requests of the other half, 'I'm looking to buy a startup in the "
                   "tech industry ...', labeled ProductSearch, picks FinanceTool and TripTool")
def test_a_tuned_metatool_part_shows_small_talk_no_tool_and_requests_their_tools(run, tmp_path,
                                                                                shared_cache):
    """On metatool's short, casual requests no score threshold tells small talk from a
    request; the tuning's abstention does: a request nearer to requests no tool fits than to
    any tool's text or past requests."""
    catalog, train, test = metatool_part(tmp_path)
    tuning = tmp_path / "tuning.json"
    made = run("tune", "-c", str(catalog), "-q", str(train), "-o", str(tuning), "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["tuning"]["abstain"]["requests"] >= 60

    def picked(query: str, path: Path | None = tuning) -> dict:
        extra = ["--tuning", str(path)] if path is not None else []
        result = run("pick", "-c", str(catalog), query, "--json", *extra)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    older = tmp_path / "threshold-only.json"  # the same tuning as version 3 wrote it
    data = json.loads(tuning.read_text())
    del data["abstain"]
    older.write_text(json.dumps({**data, "version": 3}), encoding="utf-8")
    # "hello" now scores under the threshold with every tuning and without one (the boilerplate
    # a server repeats is no longer evidence); the unseen small talk below is what the
    # tuning's abstention turns away where the threshold does not
    for path in (older, None, tuning):
        hello = picked("hello", path)
        assert not hello["picks"] and hello["message"].startswith("no tool fits")
    # small talk it never saw, through bench: what pick would show a tool for
    benched = run("bench", "-c", str(catalog), "-q", str(DATA / "chitchat.jsonl"),
                  "--tuning", str(tuning), "--json")
    runs = {r["name"]: r["metrics"] for r in json.loads(benched.stdout)["scorers"]}
    assert runs["hybrid+tuning"]["false_accept"] == 0
    # a request of the other half for each tool still gets it
    first: dict[str, str] = {}
    for line in test.read_text().splitlines():
        row = json.loads(line)
        if row["relevant"]:
            first.setdefault(row["relevant"][0], row["query"])
    assert len(first) == 12
    for name, query in first.items():
        assert name in [p["name"] for p in picked(query)["picks"]], query
    # resolve's automatic search and serve's search_tools turn it away too
    resolved = json.loads(run("resolve", "-c", str(catalog), "hello", "--tuning", str(tuning),
                              "--json").stdout)
    assert {t["rule"] for t in resolved["deferred"]} == {"auto-search-turned-away"}
    assert [t["name"] for t in resolved["visible"]] == ["tool_search"]
    from toolcat.catalog.load import load_catalog
    from toolcat.serve.gate import Gate
    from toolcat.tune.file import load_tuning

    gate = Gate(load_catalog(catalog), tuning=load_tuning(tuning))
    gate.complete()
    assert gate.search("hello").found == ()
    assert gate.search(first["WeatherTool"]).found[:1] == ("WeatherTool",)
