"""`toolcat search` and `toolcat pick` as a user runs them."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA
from tests.terminal import on_terminal
from toolcat.search import SCORERS


def rows(output):
    """The cells of each row of a rich table, by line."""
    return [[c.strip() for c in line.split("│")[1:-1]] for line in output.splitlines()
            if line.startswith("│") and line.split("│")[1].strip()]


def test_search_finds_a_misspelt_tool_by_fuzzy_fallback(run):
    result = run("search", "wether")
    assert result.exit_code == 0
    assert "5 found (fuzzy)" in result.stderr
    assert result.stdout.splitlines()[0].split("\t")[:4] == ["1", "get_weather", "weather",
                                                             "0.61"]


def test_search_into_a_pipe_writes_plain_lines_and_a_table_on_a_terminal(run):
    lines = run("search", "send msg", "--scorer", "bm25").stdout.splitlines()
    assert lines and all(len(line.split("\t")) == 5 for line in lines)
    assert not any(c in "".join(lines) for c in "┏┃│└")
    shown = on_terminal("search", "send msg", "--scorer", "bm25", columns=100)
    assert "┃ name" in shown and "found (bm25)" in shown


def test_list_on_a_narrow_terminal_keeps_whole_words(run):
    catalog = str(DATA / "real" / "docker_mcp_catalog.yaml")
    shown = on_terminal("list", "-c", catalog, columns=60)
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in shown.splitlines()
             if line.startswith("│")]
    assert [row[-1] for row in cells] == ["yes", "unknown", "unknown", "yes"]  # no "(de… fal…"
    assert all("…" not in cell for row in cells for cell in row)
    wide = on_terminal("list", "-c", catalog, columns=140)
    assert "unknown (safety not stated: no annotations)" in wide


def test_search_json_has_seed_001s_response_shape(run):
    data = json.loads(run("search", "weather", "--json").stdout)
    assert sorted(data) == ["found", "message", "note", "scorer", "tools"]
    assert data["found"] == 5 and data["scorer"] == "regex"
    assert sorted(data["tools"][0]) == ["description", "name", "reason", "safety", "score",
                                        "server"]
    assert data["tools"][0]["name"] == "get_weather"


def test_search_with_a_named_scorer_and_a_limit(run):
    data = json.loads(run("search", "send msg", "--scorer", "bm25", "--limit", "2",
                          "--json").stdout)
    assert (data["scorer"], data["found"]) == ("bm25", 2)
    assert {t["name"] for t in data["tools"]} == {"send_email", "send_message"}


def test_search_with_an_invalid_pattern_is_seed_001s_error(run):
    result = run("search", "missing (", "-c", "demo")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "invalid regex pattern: missing ), unterminated subpattern" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_search_that_finds_nothing_says_so_and_succeeds(run):
    result = run("search", "xyzzy")
    assert (result.exit_code, result.stdout) == (0, "No tools found matching the pattern\n")


def test_an_unknown_scorer_is_refused_with_the_known_names(run):
    result = run("search", "weather", "-c", "demo", "--scorer", "nope")
    assert result.exit_code == 2
    assert result.stderr.startswith("toolcat: error: unknown scorer 'nope'; known: " +
                                    ", ".join(SCORERS))


def test_model_applies_to_semantic_scorers_only(run):
    result = run("search", "weather", "--scorer", "bm25", "--model", "x")
    assert result.exit_code == 2
    assert "--model applies to the semantic, hybrid and cascade scorers only" in result.stderr


def test_pick_explains_each_pick_and_where_it_is_defined(run):
    result = run("pick", "open a pull request for my branch", "--scorer", "bm25",
                 "--max-candidates", "5", "--explain")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ("picked 3 of 62 tools with bm25 (10 unsafe left out; 2 more over the "
                        "floor fit far worse: left out by the cut):")
    assert lines[1].split() == ["1.", "github:create_pull_request", "0.74"]
    assert lines[2].startswith("   why: BM25F matched open")
    assert lines[3].startswith("   from: ") and "github.yaml:" in lines[3]
    # of the demo's ten unsafe tools, only the one that would have been picked is named
    assert lines[-1] == ("left out as unsafe, though it would have fitted: github:delete_branch "
                         "(1 of the 10 unsafe tools; --allow-unsafe to consider them)")
    assert "calendar:delete_event" not in result.stdout


def test_pick_json_has_the_documented_shape(run):
    data = json.loads(run("pick", "send msg", "--scorer", "fuzzy", "--json").stdout)
    assert sorted(data) == ["allow_unsafe", "best_unsafe", "considered", "cut_off",
                            "excluded_unsafe", "fits", "max_candidates", "message",
                            "min_score", "notice", "past_fit", "picks", "query", "scorer",
                            "timed_out", "unsafe_fits"]
    assert sorted(data["picks"][0]) == ["name", "provenance", "qualified_name", "rank",
                                        "reason", "safe", "safety", "safety_reason", "score",
                                        "server"]
    assert data["picks"][0]["name"] == "send_message"
    assert sorted(data["picks"][0]["provenance"]) == ["details", "origin", "scorer"]


def test_pick_with_no_fitting_tool_succeeds_with_an_explicit_result(run):
    result = run("pick", "bake a chocolate cake", "--scorer", "bm25")
    assert result.exit_code == 0
    assert result.stdout.startswith("no tool fits: none scored at least 0.05 with bm25")
    data = json.loads(run("pick", "bake a chocolate cake", "--scorer", "bm25",
                          "--json").stdout)
    assert (data["fits"], data["picks"]) == (False, [])
    # no unsafe tool would have been picked: none is named, and the line says so
    assert result.stdout.splitlines()[1:] == [
        "none of the 10 unsafe tools left out would have been picked"]
    assert (len(data["excluded_unsafe"]), data["unsafe_fits"]) == (10, [])


def test_pick_names_the_unsafe_tools_that_fit_where_no_safe_one_does(run):
    data = json.loads(run("pick", "drop the users table", "--scorer", "bm25",
                          "--json").stdout)
    assert (data["picks"], data["best_unsafe"]["name"]) == ([], "drop_table")
    assert data["unsafe_fits"] == ["database:drop_table"]


@pytest.mark.slow
def test_pick_turned_away_names_no_unsafe_tool(run, shared_cache):
    """A request the zero-shot abstention turns away fits no tool, unsafe ones included."""
    result = run("pick", "-c", "demo", "hello")
    assert "nearer to requests no tool fits" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        "none of the 10 unsafe tools left out would have been picked")
    data = json.loads(run("pick", "-c", "demo", "hello", "--json").stdout)
    assert (data["fits"], data["unsafe_fits"], len(data["excluded_unsafe"])) == (False, [], 10)


def test_pick_that_runs_out_of_time_falls_back_to_registration_order(run, tmp_path):
    tools = [{"name": f"tool_{i}", "description": f"Does thing number {i} for a user.",
              "parameters": {"type": "object", "properties": {}}} for i in range(3000)]
    big = tmp_path / "big.json"
    big.write_text(json.dumps(tools), encoding="utf-8")
    data = json.loads(run("pick", "thing number 7", "-c", str(big), "--scorer", "bm25",
                          "--timeout-ms", "1", "--json").stdout)
    assert data["timed_out"]
    assert [p["name"] for p in data["picks"]] == ["tool_0", "tool_1", "tool_2"]
    assert "did not finish in 1 ms" in data["message"]


def test_pick_refuses_a_timeout_of_zero(run):
    result = run("pick", "send msg", "--timeout-ms", "0")
    assert result.exit_code == 2


@pytest.mark.semantic
def test_pick_an_unsafe_tool_with_the_semantic_scorer(run, shared_cache):
    data = json.loads(run("pick", "drop the users table", "--allow-unsafe", "--scorer",
                          "semantic", "--min-score", "0.2", "--json").stdout)
    assert data["picks"][0]["qualified_name"] == "database:drop_table"
    assert all(p["score"] >= 0.2 for p in data["picks"])


@pytest.mark.semantic
def test_pick_says_the_best_fit_was_left_out_as_unsafe_instead_of_offering_others(
        run, shared_cache):
    # the README's own example: create_table was offered for "drop the users table"
    result = run("pick", "drop the users table")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"no safe tool fits: the best fit, database:drop_table "
        f"({result.stdout.split('(')[1].split(')')[0]}), is marked unsafe (safe: false) and "
        "was left out; allow "
        "unsafe tools (--allow-unsafe, allow_unsafe=True) to pick it"]
    data = json.loads(run("pick", "drop the users table", "--json").stdout)
    assert (data["fits"], data["picks"]) == (False, [])
    assert data["best_unsafe"]["qualified_name"] == "database:drop_table"
    assert "--allow-unsafe" in data["message"]


@pytest.mark.semantic
def test_pick_uses_hybrid_by_default(run, shared_cache):
    data = json.loads(run("pick", "open a pull request for my branch", "--json").stdout)
    assert data["scorer"] == "hybrid"
    assert data["picks"][0]["name"] == "create_pull_request"
