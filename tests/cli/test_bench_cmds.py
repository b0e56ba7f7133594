"""`toolcat bench` as a user runs it: tables, JSON, Markdown, plots, compare and CI bars."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.bench.metrics import group_qrels, query_metrics

DEMO_QUERIES = str(CATALOGS / "demo-queries.jsonl")
# the keyword scorer is instant; these tests are about the command, not the scorer
DEMO = ("-c", "demo", "-q", DEMO_QUERIES, "-s", "keyword")
BFCL = DATA / "bench" / "bfcl_v4"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def demo_json():
    from typer.testing import CliRunner

    from toolcat.cli.app import app

    result = CliRunner().invoke(app, ["bench", *DEMO, "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_bench_on_the_demo_catalog_prints_scorers_side_by_side(run):
    result = run("bench", "-q", DEMO_QUERIES, "--scorer", "keyword,bm25")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "109 queries (6 with no fitting tool) on 72 tools"
    assert [c.strip() for c in lines[2].split("┃")[1:-1]] == ["metric", "keyword", "bm25"]
    for label in ("hit@1", "recall@10", "precision@3", "mrr", "ndcg@5",
                  "abstention_recall", "latency p95", "tokens/query @10", "filesystem"):
        assert any(line.startswith(f"│ {label} ") for line in lines), label
    assert "indexing" not in result.output  # no progress bar when stdout is not a terminal


@pytest.mark.semantic
def test_the_default_scorer_is_picks_default(run, shared_cache, tmp_path):
    from toolcat.search import default_scorer

    name, reason = default_scorer()
    subset = tmp_path / "some.jsonl"  # a neural scorer: a dozen queries keep the test quick
    subset.write_text("".join(Path(DEMO_QUERIES).read_text().splitlines(True)[::9]))
    result = run("bench", "-c", "demo", "-q", str(subset), "--json")
    data = json.loads(result.stdout)
    assert [s["name"] for s in data["scorers"]] == [name]
    assert data["scorers"][0]["metrics"]["recall@10"] > 0.5
    table = run("bench", "-c", "demo", "-q", str(subset))
    assert table.stderr.startswith(f"scorer {name}: the default scorer of pick ({reason})")


def test_scorers_and_cut_offs_are_chosen_by_options(run):
    data = json.loads(run("bench", *DEMO, "-k", "2,1",
                          "--json").stdout)
    assert data["settings"]["k"] == [1, 2]
    assert data["metrics"] == ["hit@1", "recall@1", "recall@2", "precision@1", "precision@2",
                               "mrr", "ndcg@1", "ndcg@2", "abstention_precision",
                               "abstention_recall", "false_accept"]
    assert [s["name"] for s in data["scorers"]] == ["keyword"]


def test_json_has_the_documented_shape(demo_json):
    data = demo_json
    assert sorted(data) == ["catalog", "comparison", "failures", "format", "metrics",
                            "queries", "query_set", "scorers", "settings", "status"]
    assert (data["format"], data["status"], data["failures"], data["comparison"]) == (
        "toolcat-bench/1", "ok", [], None)
    assert data["catalog"]["tools"] == 72
    assert data["query_set"]["queries"] == 109
    assert (data["query_set"]["with_tools"], data["query_set"]["without_tools"]) == (103, 6)
    scorer = data["scorers"][0]
    assert sorted(scorer) == ["categories", "cost", "metrics", "model", "name", "queries"]
    assert scorer["model"] is None  # keyword ranks with no embedding model
    assert sorted(scorer["cost"]) == ["batched", "build_s", "latency_ms", "run_s", "tokens"]
    assert sorted(scorer["cost"]["tokens"]) == ["1", "10", "3", "5"]
    first = scorer["queries"][0]
    assert sorted(first) == ["first_relevant", "id", "missed", "ranking", "ranks", "tokens"]
    assert data["queries"][0] == {"id": "q001", "query": data["queries"][0]["query"],
                                  "relevant": ["weather_forecast"],
                                  "groups": [["weather_forecast"]], "category": "weather"}


def test_the_json_rankings_are_enough_to_recompute_every_metric(demo_json):
    data = demo_json
    ks = data["settings"]["k"]
    scorer = data["scorers"][0]
    rows = []
    for label, outcome in zip(data["queries"], scorer["queries"], strict=True):
        assert label["id"] == outcome["id"]
        assert len(outcome["ranking"]) <= max(ks)
        if not label["groups"]:
            continue
        ranking = [r["name"] for r in outcome["ranking"]]
        values = query_metrics(set(group_qrels(label["groups"], ranking)), ranking, ks)
        # MRR looks past the top max(k): the rank of the first relevant tool is kept for it
        first = outcome["first_relevant"]
        values["mrr"] = 1 / first if first else 0.0
        rows.append(values)
    for name in data["metrics"][:-3]:
        mean = sum(row[name] for row in rows) / len(rows)
        assert math.isclose(mean, scorer["metrics"][name], abs_tol=1e-6), name
    # false_accept: no-tool queries whose best score reaches pick's threshold (0.05)
    tops = [outcome["ranking"][0]["score"] if outcome["ranking"] else None
            for label, outcome in zip(data["queries"], scorer["queries"], strict=True)
            if not label["groups"]]
    accepted = sum(top is not None and top >= 0.05 for top in tops) / len(tops)
    assert math.isclose(accepted, scorer["metrics"]["false_accept"], abs_tol=1e-6)


def test_markdown_prints_tables_for_a_pull_request(run):
    result = run("bench", *DEMO, "--markdown", "-k", "1,5")
    assert result.exit_code == 0
    text = result.stdout
    assert text.startswith("### toolcat bench: demo-queries.jsonl\n\n**109 queries")
    assert "| metric | keyword |\n|---|--:|\n| hit@1 | " in text
    assert "| tokens/query @5 | " in text
    assert "| none | 6 | abstain " in text


def test_misses_lists_the_queries_each_scorer_got_wrong(run, demo_json):
    missed = [q["id"] for q in demo_json["scorers"][0]["queries"] if q["missed"]]
    result = run("bench", *DEMO, "--misses", "--markdown")
    assert f"**keyword: {len(missed)} missed" in result.stdout
    rows = [line.split(" | ")[0].lstrip("| ") for line in result.stdout.splitlines()
            if line.startswith("| q")]
    assert rows == missed
    assert "| q104 | book me a flight to Paris next Friday | (no tool) | " in result.stdout


def test_a_bar_that_is_not_met_exits_1(run, demo_json):
    recall = demo_json["scorers"][0]["metrics"]["recall@5"]
    result = run("bench", *DEMO, "--fail-under", f"recall@5={recall + 0.05:.3f}",
                 "--fail-under", "mrr=0.1")
    assert result.exit_code == 1
    assert f"under the bar keyword: recall@5 = {recall:.4f}, under " in result.stdout
    data = json.loads(run("bench", *DEMO, "--json", "--fail-under",
                          f"R@5={recall + 0.05:.3f}").stdout)
    assert data["status"] == "fail"
    assert data["failures"] == [{"scorer": "keyword", "metric": "recall@5",
                                 "value": pytest.approx(recall, abs=1e-6),
                                 "bar": round(recall + 0.05, 3)}]


def test_bars_that_are_met_exit_0(run):
    result = run("bench", *DEMO, "--fail-under", "recall@5=0.1",
                 "--fail-under", "keyword:hit@1=0.05")
    assert result.exit_code == 0
    assert "all 2 bars cleared" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--fail-under", "recall@7=0.5"], "this run has no metric 'recall@7'"),
    (["--fail-under", "recall"], "--fail-under takes METRIC=VALUE"),
    (["-s", "nope"], "unknown scorer 'nope'; known: "),
    (["-k", "1,x"], "-k takes whole numbers separated by commas"),
    (["--json", "--markdown"], "--json and --markdown print different things"),
])
def test_bad_options_exit_2_with_one_line(run, args, message):
    result = run("bench", *DEMO, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("toolcat: error: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_missing_query_set_is_required(run):
    result = run("bench")
    assert result.exit_code == 2
    assert "Missing option '-q' / '--queries'" in result.stderr


def test_compare_shows_deltas_and_the_queries_that_flipped(run, tmp_path):
    old = tmp_path / "old.json"
    old.write_text(run("bench", *DEMO, "--json").stdout)
    same = json.loads(run("bench", *DEMO, "--compare", str(old), "--json").stdout)
    assert same["comparison"]["notes"] == []
    assert set(same["comparison"]["scorers"]["keyword"]["metrics"]["mrr"]) == {
        "old", "new", "delta"}
    assert same["comparison"]["scorers"]["keyword"]["metrics"]["mrr"]["delta"] == 0
    # a worse description for get_weather: queries that found it now miss it
    catalog = tmp_path / "catalog"
    shutil.copytree(CATALOGS, catalog, ignore=shutil.ignore_patterns("builtins", "examples"))
    weather = catalog / "weather.yaml"
    lines = weather.read_text().splitlines()
    start = lines.index("  - name: get_weather") + 1
    assert lines[start] == "    description: >-"
    end = start + 1
    while lines[end].startswith("      "):  # the folded description's lines
        end += 1
    weather.write_text("\n".join([*lines[:start], "    description: Returns data.",
                                  *lines[end:]]) + "\n")
    changed = run("bench", *DEMO[2:], "-c", str(catalog), "--compare", str(old),
                  "--json")
    assert changed.exit_code == 0  # comparing reports; only bars fail a run
    result = json.loads(changed.stdout)["comparison"]
    assert result["notes"] == ["the catalog changed since the earlier run"]
    keyword = result["scorers"]["keyword"]
    assert keyword["regressed"] and not keyword["improved"]
    assert keyword["metrics"]["recall@10"]["delta"] < 0
    table = run("bench", *DEMO[2:], "-c", str(catalog), "--compare", str(old))
    assert f"compared with {old}" in table.stdout
    assert f"keyword: 0 queries now found, {len(keyword['regressed'])} now missed (" in (
        table.stdout.replace("\n", " "))


def test_compare_with_a_file_that_is_no_report_exits_2(run, tmp_path):
    bogus = tmp_path / "old.json"
    bogus.write_text('{"tools": []}')
    result = run("bench", *DEMO, "--compare", str(bogus))
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: {bogus}:1:1: not a report of `toolcat bench "
                             "--json` (format toolcat-bench/1)\n")


@pytest.mark.slow
def test_plot_writes_a_png_of_recall_at_k(run, tmp_path):
    from matplotlib.image import imread
    from PIL import Image

    png = tmp_path / "recall.png"
    result = run("bench", *DEMO, "--plot", str(png))
    assert result.exit_code == 0
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    with Image.open(png) as image:
        image.verify()
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == (840, 540)
    assert imread(str(png)).shape[:2] == (540, 840)


def test_plot_never_overwrites_an_input(run):
    result = run("bench", *DEMO, "--plot", DEMO_QUERIES)
    assert result.exit_code == 2
    assert "is one of the inputs; refusing to overwrite it" in result.stderr


def test_unknown_labels_stop_the_run_unless_allowed(run, tmp_path):
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "a", "query": "is it raining?", "relevant": ["get_weather"]}\n'
                       '{"id": "b", "query": "order pizza", "relevant": ["order_pizza"]}\n')
    result = run("bench", "-c", "demo", "-s", "keyword", "-q", str(queries))
    assert result.exit_code == 2
    assert result.stderr == (
        f"toolcat: error: {queries}:2:1: 1 label name no tool of the catalog: order_pizza "
        "(line 2) (--allow-unknown runs anyway and counts them as misses)\n")
    allowed = run("bench", "-s", "keyword", "-q", str(queries), "--allow-unknown", "--json")
    assert allowed.exit_code == 0
    assert "warning: " in allowed.stderr and "order_pizza (line 2)" in allowed.stderr
    data = json.loads(allowed.stdout)
    assert data["query_set"]["unknown_labels"] == ["order_pizza"]
    assert data["scorers"][0]["queries"][1]["missed"] is True


def test_relevant_groups_count_any_member(run, tmp_path):
    queries = tmp_path / "q.yaml"
    queries.write_text("- id: g\n  query: read the contents of a file\n"
                       "  relevant_groups: [[read_file, get_file_contents, search_files]]\n")
    data = json.loads(run("bench", "-s", "keyword", "-q", str(queries), "-k", "1", "--json").stdout)
    assert data["scorers"][0]["metrics"]["recall@1"] == 1
    assert data["queries"][0]["groups"] == [["read_file", "get_file_contents", "search_files"]]


def test_trec_qrels_with_topics_run(run, tmp_path):
    qrels = tmp_path / "tools.qrels"
    qrels.write_text("t1 0 get_weather 1\nt2 0 send_email 1\n")
    topics = tmp_path / "topics.tsv"
    topics.write_text("t1\tcurrent weather conditions in Oslo\nt2\tsend an email to Ann\n"
                      "t3\tbook a flight\n")
    data = json.loads(run("bench", "-s", "keyword", "-q", str(qrels), "--topics", str(topics),
                          "--json").stdout)
    assert [q["id"] for q in data["queries"]] == ["t1", "t2", "t3"]
    assert data["query_set"]["without_tools"] == 1
    assert data["scorers"][0]["metrics"]["hit@1"] == 1


def test_a_bfcl_catalog_and_query_set_run_side_by_side(run):
    result = run("bench", "-s", "keyword", "-c", str(BFCL / "catalog.json"), "-q",
                 str(BFCL / "queries.jsonl"), "-k", "1,5", "--json")
    data = json.loads(result.stdout)
    assert (data["catalog"]["tools"], data["query_set"]["queries"]) == (300, 125)
    assert sorted(data["scorers"][0]["categories"]) == [
        "multiple", "parallel", "parallel_multiple", "simple_python"]
    assert "abstention_recall" not in data["metrics"]


def test_misses_says_no_misses_instead_of_an_empty_table(run, tmp_path):
    queries = tmp_path / "easy.jsonl"
    queries.write_text('{"id": "w", "query": "current weather in Paris", '
                       '"relevant": ["get_weather"]}\n')
    result = run("bench", "-c", "demo", "-q", str(queries), "-s", "keyword", "--misses")
    assert result.exit_code == 0, result.stderr
    assert "keyword: no misses" in result.stdout.splitlines()
    markdown = run("bench", "-c", "demo", "-q", str(queries), "-s", "keyword", "--misses",
                   "--markdown")
    assert markdown.stdout.rstrip().endswith("**keyword: no misses**")
