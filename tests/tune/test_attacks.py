"""A tuning file is input a stranger may have written (a repository's `tuning:` setting
applies it silently): values `toolcat tune` cannot write are refused at file:line:column,
the values it can write never lift a tool the query does not match above the bound, and the
tuning in use is named wherever rankings are shown."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import MAX_NEGATIVES, Abstention
from toolcat.search.hybrid import HybridScorer
from toolcat.search.pick import MIN_SCORE
from toolcat.search.text import stems
from toolcat.search.tuning import (
    LIMITS,
    MAX_COUNT,
    MAX_LIFT,
    MAX_TERMS,
    SLACK,
    USAGE_CAP,
    ToolUsage,
    TunedScorer,
    Tuning,
    Weights,
    tool_key,
    unsquash,
)
from toolcat.tune.choose import GRID
from toolcat.tune.file import dumps

DEMO_QUERIES = CATALOGS / "demo-queries.jsonl"
POISON = ("- name: poison\n  description: Internal maintenance hook of the legacy billing "
          "reconciler.\n")


def demo_queries() -> list[str]:
    return [json.loads(line)["query"] for line in DEMO_QUERIES.read_text().splitlines()]


def poisoned_catalog(tmp_path: Path) -> Path:
    """The demo catalog with one more tool, the attacker's, in a folder of its own."""
    folder = tmp_path / "tools"
    folder.mkdir()
    for source in CATALOGS.glob("*.yaml"):
        (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "poison.yaml").write_text("tools:\n" + POISON, encoding="utf-8")
    return folder


def strongest_tuning(catalog_folder: Path, model: str, vector: np.ndarray | None,
                     terms: dict[str, int]) -> Tuning:
    """The most a valid file can do for the poison tool: every weight at its limit, the
    largest count, the most terms, a usage vector near every request."""
    catalog = load_catalog(catalog_folder)
    poison = next(t for t in catalog.tools if t.name == "poison")
    weights = Weights(LIMITS["semantic_weight"][1], LIMITS["usage_weight"][1], 0.0,
                      LIMITS["term_weight"][1], MAX_LIFT, LIMITS["mix"][1])
    return Tuning(model, weights,
                  {poison.qualified_name: ToolUsage(tool_key(poison), MAX_COUNT, vector, terms)},
                  None, frozenset(), {})


def write_pretty(path: Path, tuning: Tuning) -> dict:
    data = json.loads(dumps(tuning))
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return data


def position(text: str, needle: str) -> tuple[int, int]:
    """Line and column (from 1) of the first `needle` in `text`."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_the_learner_chooses_only_values_the_loader_accepts():
    for key, values in GRID.items():
        low, high = LIMITS[key]
        assert all(low <= v <= high for v in values), key
    assert LIMITS["lift"][1] == MAX_LIFT


@pytest.mark.parametrize(("field", "raw", "says"), [
    ('"term_weight": 1.0', '"term_weight": 1000', "'weights.term_weight' must be a number "
     "from 0 to 1"),
    ('"usage_weight": 64.0', '"usage_weight": 1e308', "'weights.usage_weight' must be a "
     "number from 0 to 64"),
    ('"semantic_weight": 20.0', '"semantic_weight": 1e400', "NaN and Infinity"),
    ('"count": 1000000000', '"count": 1' + "0" * 400, "'count' must be a whole number from 1"),
    ('"lift": 1.0', '"lift": 50', "'weights.lift' must be a number from 0 to 1"),
    ('"mix": 0.75', '"mix": 1.5', "'weights.mix' must be a number from 0 to 0.75"),
    ('"scale": ', '"scale": 1000, "x": ', "must be of unit length"),
])
def test_values_tune_cannot_write_are_refused_at_their_line_and_column(run, tmp_path, field,
                                                                       raw, says):
    folder = poisoned_catalog(tmp_path)
    vector = np.ones(384, dtype=np.float32) / np.sqrt(384)
    path = tmp_path / "tuning.json"
    write_pretty(path, strongest_tuning(folder, "m@1", vector, {"bill": 3}))
    text = path.read_text()
    assert field in text, field
    text = text.replace(field, raw, 1)
    path.write_text(text, encoding="utf-8")
    line, column = position(text, raw.split(":")[0])
    for command in (["pick", "-c", str(folder), "open a PR"],
                    ["search", "-c", str(folder), "PR"]):
        result = run(*command, "--tuning", str(path))
        assert result.exit_code == 2, result.output
        [message] = result.stderr.strip().splitlines()
        assert says in message and "Traceback" not in result.output
        found = re.match(rf"toolcat: error: {re.escape(str(path))}:(\d+):(\d+): ", message)
        assert found, message
        # the value or its key: both on the line of the key
        assert int(found.group(1)) == line and int(found.group(2)) >= column - 1


@pytest.mark.parametrize(("change", "key", "says"), [
    ({"margin": -0.5}, '"margin"', "'abstain.margin' must be a number from 0 to 2"),
    ({"margin": "0"}, '"margin"', "'abstain.margin' must be a number from 0 to 2"),
    ({"requests": [{"vector": "", "scale": 1}] * (MAX_NEGATIVES + 1)}, '"requests"',
     f"'abstain.requests' must be a list of at most {MAX_NEGATIVES}"),
    ({"scale": 0.5}, '"scale": 0.5', "abstain.requests[0]: 'vector' times 'scale' must be of "
     "unit length"),
])
def test_an_abstention_tune_cannot_write_is_refused_at_its_line_and_column(run, tmp_path, change,
                                                                          key, says):
    """A margin under 0 would turn away requests nearer to a tool than to any request no
    tool fits (a stranger's file hiding every tool); the vectors are bounded in number."""
    folder = poisoned_catalog(tmp_path)
    vector = np.ones(384, dtype=np.float32) / np.sqrt(384)
    tuning = replace(strongest_tuning(folder, "m@1", vector, {"bill": 3}),
                     abstention=Abstention(vector[None, :], 0.0))
    data = json.loads(dumps(tuning))
    if "scale" in change:
        data["abstain"]["requests"][0].update(change)
    else:
        data["abstain"].update(change)
    text = json.dumps(data, indent=1)
    path = tmp_path / "tuning.json"
    path.write_text(text, encoding="utf-8")
    line, _ = position(text, key if key != '"requests"' else '"requests": [')
    result = run("pick", "-c", str(folder), "open a PR", "--tuning", str(path))
    assert result.exit_code == 2, result.output
    [message] = result.stderr.strip().splitlines()
    assert says in message and "Traceback" not in result.output
    found = re.match(rf"toolcat: error: {re.escape(str(path))}:(\d+):(\d+): ", message)
    assert found, message
    assert int(found.group(1)) == line, (message, line)


def test_thousands_of_stems_and_counts_past_the_tools_are_refused(run, tmp_path):
    folder = poisoned_catalog(tmp_path)
    path = tmp_path / "tuning.json"
    many = {f"word{i}": 1 for i in range(3000)}
    write_pretty(path, strongest_tuning(folder, "m@1", None, many))
    result = run("pick", "-c", str(folder), "open a PR", "--tuning", str(path))
    assert result.exit_code == 2
    assert f"at most {MAX_TERMS} terms a tool" in result.stderr
    assert re.search(r"tuning\.json:\d+:\d+: ", result.stderr)
    write_pretty(path, strongest_tuning(folder, "m@1", None, {"bill": MAX_COUNT + 1}))
    result = run("pick", "-c", str(folder), "open a PR", "--tuning", str(path))
    assert result.exit_code == 2 and "'terms' maps stems to counts" in result.stderr


@pytest.mark.semantic
@pytest.mark.slow
def test_the_strongest_valid_tuning_never_puts_an_unmatched_tool_first(run, tmp_path, isolated,
                                                                      shared_cache, embedder):
    """The attack of issue 25 at the limits the loader allows, through a repository's
    toolcat.yaml: the poisoned tool was first for every request; now it is first for
    none, and named on stderr as the tuning in use."""
    folder = poisoned_catalog(tmp_path)
    queries = demo_queries()
    vectors = embedder.encode(queries)  # type: ignore[attr-defined]
    mean = vectors.mean(axis=0)
    common = Counter(s for q in queries for s in dict.fromkeys(stems(q)))
    terms = {term: MAX_COUNT for term, _ in common.most_common(MAX_TERMS)}
    tuning = strongest_tuning(folder, embedder.ident, (mean / np.linalg.norm(mean))  # type: ignore[attr-defined]
                              .astype(np.float32), terms)
    write_pretty(isolated / "poison.json", tuning)
    (isolated / "toolcat.yaml").write_text(f"catalogs: [{folder}]\ntuning: poison.json\n",
                                           encoding="utf-8")
    first = 0
    for query in queries[:12]:
        result = run("pick", query, "--json")
        assert result.exit_code == 0, result.output
        assert f"tuning: {isolated / 'poison.json'} (" in result.stderr
        picks = json.loads(result.stdout)["picks"]
        first += bool(picks) and picks[0]["name"] == "poison"
    assert first == 0

    # the bound itself, tool by tool: tuned evidence within (1 + MAX_LIFT) times the tool's
    # own plus SLACK, and at most USAGE_CAP more; a tool with no evidence of its own stays
    # under pick's threshold
    catalog = load_catalog(folder)
    hybrid = HybridScorer(catalog.tools, semantic_weight=tuning.weights.semantic_weight)
    tuned = TunedScorer(hybrid, tuning)
    for query in queries:
        own = unsquash(hybrid.scores(query), hybrid.midpoint)
        after = unsquash(tuned.scores(query), hybrid.midpoint)
        assert np.all(after <= own * (1 + MAX_LIFT) + SLACK + 1e-6)
        assert np.all(after <= own + USAGE_CAP + 1e-6)
        assert np.all(tuned.scores(query)[own == 0] < MIN_SCORE)


def tuned_jobs(run, folder, tuning):
    """Six opaque job tools and a tuning learned from their call log, written to `tuning`;
    the catalog's path."""
    from tests.tune.test_tuned import JOBS

    catalog = folder / "jobs.yaml"
    catalog.write_text("tools:\n" + "".join(
        f"- {{name: {name}, description: Runs scheduled operation {name[-1].upper()} of the "
        "household controller.}\n" for name in JOBS), encoding="utf-8")
    calls = folder / "calls.jsonl"
    calls.write_text("".join(json.dumps({"query": f"please {verb} {thing}", "called": [name]})
                             + "\n" for name, (verb, things) in JOBS.items()
                             for thing in things[:-1]), encoding="utf-8")
    assert run("tune", "-c", str(catalog), "-q", str(calls), "-o", str(tuning)).exit_code == 0
    return catalog


@pytest.mark.semantic
@pytest.mark.slow
def test_every_command_names_the_tuning_it_applies(run, tmp_path, isolated, shared_cache):
    catalog = tuned_jobs(run, tmp_path, isolated / "tuning.json")
    (isolated / "toolcat.yaml").write_text(f"catalogs: [{catalog}]\ntuning: tuning.json\n",
                                           encoding="utf-8")
    label = f"{isolated / 'tuning.json'} ("
    shown = {}
    for command in (["pick", "please water the bonsai"],
                    ["search", "water the bonsai", "--scorer", "hybrid"],
                    ["resolve", "please water the bonsai"],
                    ["render", "please water the bonsai"]):
        result = run(*command)
        assert result.exit_code == 0, (command, result.output)
        assert f"tuning: {label}" in result.stderr, command
        shown[command[0]] = " ".join((result.stdout + result.stderr).split())
    explained = run("pick", "please water the bonsai", "--explain")
    assert f"tuning {label}" in explained.stdout
    assert "past requests" in explained.stdout
    assert f"found (hybrid+tuning, tuning {label}" in shown["search"]  # the count line
    resolved = run("resolve", "please water the bonsai", "--json")
    assert f"tuned by {label}" in resolved.stdout  # the trace's scorer decision


@pytest.mark.semantic
@pytest.mark.slow
@pytest.mark.mcp
def test_serve_names_the_tuning_in_its_search_answers_and_log(run, tmp_path, shared_cache):
    import anyio

    from tests.serve.conftest import served, text
    tuning = tmp_path / "tuning.json"
    catalog = tuned_jobs(run, tmp_path, tuning)
    log = tmp_path / "serve.jsonl"

    async def session() -> None:
        async with served("-c", str(catalog), "--tuning", str(tuning), "--log",
                          str(log)) as client:
            for _ in range(240):  # serve answers by words until its semantic stage is ready
                found = json.loads(text(await client.call_tool(
                    "search_tools", {"query": "please water the bonsai"})))
                if "note" not in found:
                    break
                await anyio.sleep(0.5)
            assert found["tools"] and found["tools"][0]["name"] == "job_b", found
            assert found["tuning"].startswith(f"{tuning} (")

    anyio.run(session)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[0]["event"] == "start" and events[0]["tuning"].startswith(f"{tuning} (")
    search = [e for e in events if e["event"] == "search"][-1]
    assert search["method"] == "hybrid+tuning" and search["tuning"] == events[0]["tuning"]


HOUSEHOLD = {
    "job_a": "Bake bread, cakes, pastries and pies in the kitchen oven.",
    "job_b": "Water the plants, the lawn and the garden beds with the irrigation system.",
    "job_c": "Tune a musical instrument: guitar, piano, violin and other strings.",
    "job_d": "Vacuum the floors, carpets, rugs and upholstery of a room.",
    "job_e": "Feed the pets and farm animals their scheduled meals.",
    "job_f": "Polish silverware, shoes, brass, mirrors and wooden furniture.",
}


@pytest.mark.semantic
@pytest.mark.slow
def test_tune_fits_a_threshold_that_turns_chitchat_away(run, tmp_path, shared_cache):
    """Pick's fixed 0.05 shows tools for small talk; a tuning fitted on a call log (and the
    chit-chat built into toolcat) shows none for greetings it never saw, while requests keep
    their tool; bench reports the false-accept rate beside nDCG, per kind of query.

    What turns them away is the tuning's threshold or its abstention: under the default
    minilm-tools (midpoint 5.918) the threshold fitted on this catalog is not over pick's
    0.05, so the tuning keeps pick's (min_score null) and its abstention (the requests no
    tool fits, margin 0) does it; under the base model the threshold did."""
    from tests.conftest import REPO
    from tests.tune.test_tuned import JOBS

    chat = REPO / "tests" / "data" / "tune" / "chitchat.jsonl"
    catalog = tmp_path / "house.yaml"
    catalog.write_text("tools:\n" + "".join(f"- {{name: {name}, description: '{text}'}}\n"
                                             for name, text in HOUSEHOLD.items()),
                       encoding="utf-8")
    calls = tmp_path / "calls.jsonl"
    calls.write_text("".join(json.dumps({"query": f"please {verb} {thing}", "called": [name]})
                             + "\n" for name, (verb, things) in JOBS.items()
                             for thing in things[:-1]), encoding="utf-8")
    tuning = tmp_path / "tuning.json"
    made = run("tune", "-c", str(catalog), "-q", str(calls), "-o", str(tuning), "--json")
    assert made.exit_code == 0, made.output
    fitted = json.loads(made.stdout)["tuning"]
    assert fitted["min_score"] is None or fitted["min_score"] > 0.05  # never under pick's
    assert fitted["abstain"]["requests"] >= 50  # the built-in chit-chat, at least
    texts = [json.loads(line)["query"] for line in chat.read_text().splitlines()]
    shown_before = shown_after = shown_zero_shot = 0
    for text in texts:  # none of them was fitted on
        # the threshold alone (--min-score): what pick showed before any abstention
        before = json.loads(run("pick", "-c", str(catalog), text, "--json",
                                "--min-score", "0.05").stdout)
        zero_shot = json.loads(run("pick", "-c", str(catalog), text, "--json").stdout)
        shown_zero_shot += bool(zero_shot["picks"])
        after = json.loads(run("pick", "-c", str(catalog), text, "--json", "--tuning",
                               str(tuning)).stdout)
        shown_before += bool(before["picks"])
        shown_after += bool(after["picks"])
    assert shown_after * 2 < shown_before, (shown_before, shown_after)  # 7 -> 3 when written
    # the default model's zero-shot abstention, with no tuning at all
    assert shown_zero_shot * 2 < shown_before, (shown_before, shown_zero_shot)
    for name, (verb, things) in JOBS.items():
        asked = json.loads(run("pick", "-c", str(catalog), f"could you {verb} {things[-1]}",
                               "--json", "--tuning", str(tuning)).stdout)
        assert asked["picks"] and asked["picks"][0]["name"] == name

    queries = tmp_path / "queries.jsonl"
    queries.write_text("".join(json.dumps({"id": f"r{n}", "query": f"{verb} {things[-1]}",
                                           "relevant": [name]}) + "\n"
                               for n, (name, (verb, things)) in enumerate(JOBS.items()))
                       + chat.read_text(), encoding="utf-8")
    bench = run("bench", "-c", str(catalog), "-q", str(queries), "--tuning", str(tuning),
                "--json")
    assert bench.exit_code == 0, bench.output
    runs = {r["name"]: r for r in json.loads(bench.stdout)["scorers"]}
    plain, tuned = runs["hybrid"], runs["hybrid+tuning"]
    assert tuned["metrics"]["false_accept"] <= plain["metrics"]["false_accept"]
    assert tuned["kinds"]["no tool"]["queries"] == 50
    assert tuned["kinds"]["recurring"]["queries"] == 6
    assert tuned["metrics"]["ndcg@10"] >= plain["metrics"]["ndcg@10"] - 0.005
    # one definition of "turned away": the per-category abstention, false_accept and the
    # misses all count the same requests (the abstain column once read 0 beside 24%)
    for scored in (plain, tuned):
        no_tool = scored["categories"]["no tool"]["metrics"]
        assert no_tool["abstention_recall"] == pytest.approx(1 - no_tool["false_accept"])
        assert no_tool["false_accept"] == scored["kinds"]["no tool"]["metrics"]["false_accept"]
        missed = [o for o in scored["queries"] if o["id"].startswith("chitchat")
                  and o["missed"]]
        assert len(missed) == round(no_tool["false_accept"] * 50)
    assert tuned["categories"]["no tool"]["metrics"]["abstention_recall"] > 0.5
    table = run("bench", "-c", str(catalog), "-q", str(queries), "--tuning", str(tuning))
    assert "per kind of query" in table.stdout and "false_accept" in table.stdout
    turned = 1 - tuned["metrics"]["false_accept"]
    assert f"abstain {turned:.3f}" in table.stdout
