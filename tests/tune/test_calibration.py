"""Per-tool calibration: a bias learned for each tool with usage, shrunk by how little the
requests say, that reorders a request's tools it has usage for and never touches a tool
without usage; kept in the tuning file."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.errors import ConfigError
from toolcat.search.tuning import MAX_BIAS, ToolUsage, Tuning, Weights, tool_key
from toolcat.tune.calibration import tool_biases
from toolcat.tune.file import dumps, from_json, load_tuning

REQUEST = "what is the weather tomorrow"  # zero-shot: weather_forecast, then the history


def calibrated(demo) -> Tuning:
    """Usage for two weather tools: the history raised as far as a bias goes, the forecast
    lowered; every other tool has none."""
    tools = {t.name: t for t in demo.tools}
    usages = {tools[name].qualified_name: ToolUsage(tool_key(tools[name]), 40, None, {}, bias)
              for name, bias in (("get_historical_weather", MAX_BIAS),
                                 ("weather_forecast", -1.0))}
    return Tuning("all-MiniLM-L6-v2", Weights(calibration=1.0), usages)


def picks(run, *args: str) -> list[str]:
    # the order is what is tested: the cut would leave out a tool the tuning moved far down
    # the tuning is the base model's (`calibrated`): its model ranks
    result = run("pick", "-c", "demo", REQUEST, "--json", "-k", "3", "--no-cut",
                 "--model", "all-MiniLM-L6-v2", *args)
    assert result.exit_code == 0, result.output
    return [p["name"] for p in json.loads(result.stdout)["picks"]]


def test_a_calibrated_tuning_reorders_tools_with_usage_and_no_other(run, tmp_path, shared_cache):
    from toolcat.search.hybrid import HybridScorer
    from toolcat.search.tuning import TunedScorer

    demo = load_catalog(CATALOGS)
    path = tmp_path / "tuning.json"
    path.write_text(dumps(calibrated(demo)), encoding="utf-8")
    assert picks(run)[:2] == ["weather_forecast", "get_historical_weather"]
    tuned = picks(run, "--tuning", str(path))  # the history raised, the forecast lowered
    assert tuned[0] == "get_historical_weather" and "weather_forecast" in tuned[1:]
    hybrid = HybridScorer(demo.tools, model="all-MiniLM-L6-v2")
    tuned = TunedScorer(hybrid, load_tuning(path))
    before, after = hybrid.scores(REQUEST), tuned.scores(REQUEST)
    used = [i for i, t in enumerate(demo.tools)
            if t.name in ("get_historical_weather", "weather_forecast")]
    others = np.ones(len(demo.tools), bool)
    others[used] = False
    assert np.array_equal(before[others], after[others])  # no usage: zero-shot, bit for bit
    assert after[used[0]] != before[used[0]] and after[used[1]] != before[used[1]]


def test_the_bias_round_trips_and_older_files_read_with_none(tmp_path):
    demo = load_catalog(CATALOGS)
    tuning = calibrated(demo)
    path = tmp_path / "tuning.json"
    path.write_text(dumps(tuning), encoding="utf-8")
    back = load_tuning(path)
    assert back.weights == tuning.weights
    assert {n: u.bias for n, u in back.tools.items()} == {
        n: round(u.bias, 4) for n, u in tuning.tools.items()}
    data = json.loads(path.read_text())
    data["version"] = 3
    del data["weights"]["calibration"]
    for entry in data["tools"].values():
        del entry["bias"]
    path.write_text(json.dumps(data), encoding="utf-8")
    old = load_tuning(path)
    assert old.weights.calibration == 0 and all(u.bias == 0 for u in old.tools.values())


def test_what_declined_a_tool_round_trips_and_is_checked(tmp_path):
    demo = load_catalog(CATALOGS)
    tuning = calibrated(demo)
    name, usage = next(iter(tuning.tools.items()))
    vector = np.random.default_rng(1).normal(size=384).astype(np.float32)
    declined = replace(usage, vector=vector / np.linalg.norm(vector), declined=12,
                       declined_vector=-vector / np.linalg.norm(vector))
    data = json.loads(dumps(replace(tuning, tools={name: declined})))
    back = from_json(data, "t.json").tools[name]
    assert back.declined == 12 and back.declined_vector is not None
    assert float(back.declined_vector @ declined.declined_vector) > 0.999
    assert data["version"] == 4
    del data["tools"][name]["declined_vector"]  # a count without what declined it
    with pytest.raises(ConfigError, match="'declined' must be a whole number from 1"):
        from_json(data, "t.json")


@pytest.mark.parametrize(("key", "value", "says"), [
    ("bias", 2.5, "'bias' must be a number from -2.0794 to 2.0794"),
    ("bias", "high", "'bias' must be a number"),
    ("calibration", 1.5, "'weights.calibration' must be a number from 0 to 1"),
])
def test_a_bias_or_weight_out_of_bounds_is_refused_at_its_place(tmp_path, key, value, says):
    data = json.loads(dumps(calibrated(load_catalog(CATALOGS))))
    if key == "bias":
        next(iter(data["tools"].values()))["bias"] = value
    else:
        data["weights"][key] = value
    path = tmp_path / "tuning.json"
    text = json.dumps(data, indent=1)
    path.write_text(text, encoding="utf-8")
    needle = f'"{key}": {json.dumps(value)}'
    line = text[:text.index(needle)].count("\n") + 1
    with pytest.raises(ConfigError) as caught:
        load_tuning(path)
    assert str(caught.value).startswith(f"{path}:{line}:") and says in str(caught.value)


def biases(first: list[int], needed: list[int], tools: list[int]) -> np.ndarray:
    """Biases from requests whose zero-shot first tool is `first[j]` and that need
    `needed[j]`, in a catalog of three tools."""
    evidence = np.full((len(first), 3), 1.0)
    evidence[np.arange(len(first)), first] = 5.0
    return tool_biases(evidence, [((n,),) for n in needed], np.array(tools))


def test_a_tool_put_first_too_often_is_lowered_and_few_requests_say_nothing():
    # tool 0 comes first for every request, tool 1 is needed by half of them, tool 2 is
    # first and needed as often
    first = [0] * 80 + [2] * 40
    needed = [0] * 40 + [1] * 40 + [2] * 40
    found = biases(first, needed, [0, 1, 2])
    assert found[0] < -0.5 and found[1] > 0.5 and abs(found[2]) < 0.1
    assert np.all(np.abs(found) <= MAX_BIAS)
    # the same habits over six requests: about as much noise as habit, so each tool keeps
    # a few hundredths of its log ratio (-0.59 and +1.61 unshrunk)
    few = biases([0, 0, 0, 0, 2, 2], [0, 0, 1, 1, 2, 2], [0, 1, 2])
    assert np.all(np.abs(few) < 0.05)
    # first places are counted among the tools with usage: tool 0 (no usage) is first for
    # every request, tool 2 next: tool 2 is lowered (first among them, needed by a quarter)
    evidence = np.tile([5.0, 1.0, 3.0], (80, 1))
    without = tool_biases(evidence, [((1,),)] * 60 + [((2,),)] * 20, np.array([1, 2]))
    assert without[0] > 0.5 and without[1] < -0.5

