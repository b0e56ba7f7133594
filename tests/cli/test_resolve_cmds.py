"""`toolcat resolve` as a user runs it: the text report, --json, --steps, errors; and
`toolcat.resolve` from Python."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toolcat
from tests.conftest import CATALOGS, DATA, REPO
from toolcat.resolution import TRACE_RULES

TOOLS = str(DATA / "resolve" / "tools.yaml")
SMALL = str(DATA / "resolve" / "small.yaml")  # a small model without native tool calling
SESSIONS = CATALOGS / "sessions"


@pytest.fixture(autouse=True)
def shared_embeddings(isolated, monkeypatch, tmp_path_factory):
    """Bundled profiles use toolcat's default scorer (hybrid when the semantic extra is
    installed): one embedding cache for the module encodes the demo catalog once."""
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "embeddings"))


def test_resolve_prints_the_tools_the_format_the_tokens_and_why(run):
    result = run("resolve", "weather in Tokyo", "-c", TOOLS, "--profile", SMALL)
    assert result.exit_code == 0
    out = result.stdout
    assert re.search(r"format\s+pythonic \(fallback\) — the preferred format native is "
                     r"unavailable", out)
    assert re.search(r"cap\s+2 — 2 catalog tools for a small model \(3B\)", out)
    table = out[out.index("visible (4)"):out.index("deferred (")]
    assert [line.split("│")[1].strip() for line in table.splitlines() if "│" in line] == [
        "tool_search", "final_answer", "get_weather", "weather_forecast"]
    assert "via tool_search: get_air_quality" in out
    assert "server-disabled: old_search" in out
    assert "tool-denied: delete_repository" in out
    assert re.search(r"tokens [\d,]+ visible of [\d,]+ \(\d+\.\d%\)", out)
    why = out[out.index("\nwhy\n"):]
    assert "get_weather → visible [auto-search-match] — rank 1, score 0.500" in why
    assert "delete_repository → excluded [tool-denied] — matches filters.tools.deny *:delete_*" \
        in why


def test_resolve_json_has_the_documented_shape(run):
    result = run("resolve", "weather in Tokyo", "-c", TOOLS, "--profile", SMALL,
                 "--json")
    data = json.loads(result.stdout)
    assert sorted(data) == ["cap", "categories", "deferred", "excluded", "format", "gateway",
                            "model", "profile", "prompt", "query", "scorer", "tokens",
                            "tool_search_mode", "trace", "visible"]
    assert [t["name"] for t in data["visible"]] == ["tool_search", "final_answer",
                                                    "get_weather", "weather_forecast"]
    assert sorted(data["visible"][0]) == ["builtin", "name", "qualified_name", "reason",
                                          "rule", "safety", "score", "server", "status",
                                          "tokens", "via"]
    assert data["format"] == {
        "name": "pythonic", "primary": "native", "fallback": True,
        "reason": "the preferred format native is unavailable (the model has no native tool "
                  "calling); pythonic is the first enabled format that is available",
        "available": ["pythonic", "json"],
        "unavailable": {"native": "the model has no native tool calling"}}
    assert data["cap"]["limit"] == 2 and data["model"]["size_class"] == "small"
    assert data["tokens"]["visible"] == sum(t["tokens"] for t in data["visible"])
    assert data["tokens"]["saved"] == data["tokens"]["all"] - data["tokens"]["visible"]
    assert data["deferred"][0]["via"] == "tool_search"
    assert set(data["trace"]) == {"subject", "outcome", "rule", "reason", "children"}


@pytest.mark.slow
def test_every_rule_a_trace_names_is_in_rules_and_documented_in_docs_resolve(run,
                                                                             shared_cache):
    page = (REPO / "docs" / "resolve.md").read_text(encoding="utf-8")
    assert [rule for rule in TRACE_RULES if f"| `{rule}` |" not in page] == []
    for profile in ("small-model", "tool-search", "gateway-relevance", "capability-levels"):
        data = json.loads(run("resolve", "send the weather to slack", "--profile", profile,
                              "--json").stdout)
        stack = [data["trace"]]
        while stack:
            node = stack.pop()
            assert node["rule"] is None or node["rule"] in TRACE_RULES
            stack.extend(node["children"])


@pytest.mark.slow
def test_without_a_profile_a_large_model_with_native_tool_calling_is_assumed(run,
                                                                             shared_cache):
    data = json.loads(run("resolve", "what's the weather in Tokyo", "--json").stdout)
    assert data["profile"] == {"name": "default", "source": None}
    assert (data["format"]["name"], data["cap"]["limit"]) == ("native", 10)
    assert data["visible"][0]["name"] == "tool_search"
    assert "get_weather" in [t["name"] for t in data["visible"]]


@pytest.mark.slow  # loads the embedding model (the default scorer)
@pytest.mark.parametrize("profile", sorted(p.stem for p in (CATALOGS / "profiles").iterdir()))
def test_every_bundled_profile_resolves_on_the_demo_catalog(run, profile):
    result = run("resolve", "post the weather in Tokyo to #general", "--profile", profile)
    assert result.exit_code == 0, result.output
    assert "why" in result.stdout


def test_an_invalid_profile_is_one_line_naming_file_line_column(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("model:\n  size_b: -1\n")
    result = run("resolve", "x", "--profile", str(bad))
    assert result.exit_code == 2
    assert result.stderr == f"toolcat: error: {bad}:2:11: 'model.size_b' must be > 0\n"


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_profile_naming_a_tool_the_catalog_lacks_is_a_warning_and_resolve_goes_on(
        run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("tool_search_mode:\n  pre_discovered: [get_wether]\n")
    result = run("resolve", "x", "--profile", str(bad), "-c", TOOLS)
    assert result.exit_code == 0
    assert f"warning: {bad}:2:20: no tool 'get_wether' in the catalog; did you mean " \
           "get_weather" in " ".join(result.stderr.split())
    assert "profile-warning" in run("resolve", "x", "--profile", str(bad), "-c", TOOLS,
                                    "--json").stdout


@pytest.mark.slow  # loads the embedding model (the default scorer)
@pytest.mark.parametrize("profile", ["capability-levels", "gateway-api", "gateway-relevance",
                                     "gateway-tool-search", "large-model-native", "tool-search"])
def test_every_bundled_profile_resolves_against_a_catalog_it_was_not_written_for(run, profile):
    weather = str(REPO / "catalogs" / "weather.yaml")
    result = run("render", "weather in Paris", "-c", weather, "--profile", profile)
    assert result.exit_code == 0, result.stderr
    assert "warning:" in result.stderr


def test_an_unknown_profile_name_lists_the_bundled_ones(run):
    result = run("resolve", "x", "--profile", "tiny-model")
    assert result.exit_code == 2
    assert "no profile file or bundled profile named 'tiny-model'" in result.stderr
    assert "small-model" in result.stderr


def test_a_query_is_required(run):
    result = run("resolve")
    assert result.exit_code == 2
    assert "give a QUERY" in result.stderr


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_steps_show_each_call_what_it_returned_and_the_footprint(run):
    result = run("resolve", "--profile", "tool-search", "--steps",
                 str(SESSIONS / "tool-search.yaml"))
    out = result.stdout
    assert result.exit_code == 0, out
    assert out.count("\nstep ") == 8
    assert 'step 1  search_tools {"query": "issue"}  ok [search-regex] the regex matched 2 ' \
        'tools' in out, out
    assert "[search-fuzzy-fallback]" in out
    assert 'returned: {"added": ["create_issue"], "already_available": [], "not_found": []' in out
    assert "+create_issue" in out
    assert re.search(r"tokens: [\d,]+ visible of [\d,]+; \d+ deferred", out)
    assert out.rstrip().endswith("8 steps, 0 refused")


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_steps_exit_1_when_a_call_is_refused(run):
    result = run("resolve", "--profile", "gateway-tool-search", "--steps",
                 str(SESSIONS / "gateway.yaml"))
    assert result.exit_code == 1
    assert "refused [phantom-loop-limit]" in result.stdout
    assert "returned: nothing: the gateway dropped the call" in result.stdout
    assert result.stdout.rstrip().endswith("7 steps, 1 refused")


def test_steps_json(run, tmp_path):
    steps = tmp_path / "s.yaml"
    steps.write_text("steps:\n  - tool_search: {query: forecast}\n"
                     "  - tool_search: {query: air quality}\n")
    result = run("resolve", "weather in Oslo", "--profile", SMALL, "-c", TOOLS,
                 "--steps", str(steps), "--json")
    data = json.loads(result.stdout)
    assert data["query"] == "weather in Oslo"
    assert sorted(data) == ["initial", "profile", "query", "refused", "steps", "steps_file"]
    assert data["refused"] == 0
    second = data["steps"][1]
    assert sorted(second) == ["added", "call", "deferred", "note", "refused", "removed",
                              "response", "rule", "step", "tokens", "visible"]
    assert second["added"] == ["get_air_quality"] and "get_air_quality" in second["visible"]
    assert second["tokens"]["visible"] > data["steps"][0]["tokens"]["visible"]


def test_a_bad_steps_file_is_an_error_at_its_line(run, tmp_path):
    steps = tmp_path / "s.yaml"
    steps.write_text("query: x\nsteps:\n  - search_tools: nope\n")
    result = run("resolve", "--steps", str(steps))
    assert result.exit_code == 2
    assert f"{steps}:3:19: the arguments of search_tools must be a mapping" in result.stderr


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_resolve_from_python_takes_paths_or_objects():
    catalog = toolcat.load_catalog(TOOLS)
    by_path = toolcat.resolve("weather in Tokyo", TOOLS, SMALL)
    by_object = toolcat.resolve("weather in Tokyo", catalog, toolcat.load_profile(SMALL))
    assert by_path.names() == by_object.names() == [
        "tool_search", "final_answer", "get_weather", "weather_forecast"]
    assert isinstance(by_path, toolcat.Resolution)
    assert toolcat.resolution.resolve("weather", catalog).profile is toolcat.DEFAULT_PROFILE
    assert Path(by_path.profile.source).name == "small.yaml"
    shipped = toolcat.resolve("weather in Tokyo", TOOLS, "small-model")
    assert shipped.profile.name == "small-model"


@pytest.mark.slow
def test_toolcat_resolve_is_callable_in_a_fresh_process():
    # the first access goes through toolcat.__getattr__; the package import then sets the
    # attribute to the (callable) subpackage, so both calls must work
    code = ("import toolcat, sys\n"
            "first = toolcat.resolve('weather in Tokyo', sys.argv[1], sys.argv[2])\n"
            "second = toolcat.resolve('weather in Tokyo', sys.argv[1], sys.argv[2])\n"
            "print(first.names() == second.names(), first.names()[:2])\n")
    done = subprocess.run([sys.executable, "-c", code, TOOLS, SMALL], capture_output=True,
                          text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert done.stdout.strip() == "True ['tool_search', 'final_answer']"


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_profile_of_toolcat_yaml_applies_without_profile(run, isolated):
    (isolated / "toolcat.yaml").write_text("profile: small-model\n")
    data = json.loads(run("resolve", "weather in Tokyo", "--json").stdout)
    assert data["profile"]["name"] == "small-model"
    explicit = json.loads(run("resolve", "weather in Tokyo", "-p", "large-model-native",
                              "--json").stdout)
    assert explicit["profile"]["name"] == "large-model-native"


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_a_profile_path_in_toolcat_yaml_is_relative_to_it(run, isolated, monkeypatch):
    (isolated / "agent").mkdir()
    (isolated / "agent" / "bot.yaml").write_text("name: bot\nmodel: {name: tiny, size_b: 1}\n")
    (isolated / "agent" / "toolcat.yaml").write_text("profile: bot.yaml\n")
    (isolated / "agent" / "sub").mkdir()
    monkeypatch.chdir(isolated / "agent" / "sub")
    data = json.loads(run("resolve", "weather in Tokyo", "--json").stdout)
    assert data["profile"]["name"] == "bot"


@pytest.mark.slow
@pytest.mark.semantic
def test_resolve_chooses_picks_scorer_by_catalog_size(run, tmp_path, shared_cache):
    """Past LARGE_CATALOG tools resolve, like pick, does not encode the whole catalog first
    (43,000 tools: half an hour on a CPU): hybrid answers by words until `toolcat index`
    has computed the embeddings, and the trace says so."""
    from toolcat.search import LARGE_CATALOG

    path = tmp_path / "big.json"
    path.write_text(json.dumps({"tools": [
        {"name": f"tool_{i}", "description": f"Handles job number {i} of the warehouse."}
        for i in range(LARGE_CATALOG + 1)]}))
    result = run("resolve", "ship the parcel", "-c", str(path), "--json")
    assert json.loads(result.stdout)["scorer"] == "hybrid"
    assert "words only until `toolcat index`" in result.stdout


def test_the_text_tree_prints_a_bounded_number_of_lines_per_rule(run, tmp_path):
    """Each tool the cap cuts has a reason of its own (its rank and score): at 43,000 tools
    the tree printed a line for each. It prints at most 40 per outcome and rule, then one
    line counting the rest; --json keeps every node."""
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps([
        {"name": f"ledger_{i}", "description": "Post an entry to the ledger. " + "entry " * i}
        for i in range(100)]))
    profile = tmp_path / "bm25.yaml"
    profile.write_text("name: bm25\nmodel: {name: big, tool_calling: true, size_b: 72}\n"
                       "scorer: bm25\nmcp: {min_score: 0.0}\n")
    args = ("resolve", "post an entry to the ledger", "-c", str(path), "-p", str(profile))
    text = run(*args).stdout
    cut = [line for line in text.splitlines() if "[over-cap]" in line]
    assert len(cut) == 41 and "… and 50 more → deferred [over-cap]" in cut[-1]
    data = json.loads(run(*args, "--json").stdout)
    assert sum(t["rule"] == "over-cap" for t in data["deferred"]) == 90
