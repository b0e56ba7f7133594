"""The tuning file: versioned, small, keyed to each tool's content; hostile files are one line
naming the file and exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.errors import ConfigError
from toolcat.search.abstain import Abstention
from toolcat.search.tuning import ToolUsage, Tuning, Weights, match, query_digest, tool_key
from toolcat.tune.file import dumps, from_json, load_tuning, quantized, to_json


def a_tuning(tools, model="m@1") -> Tuning:
    rng = np.random.default_rng(0)
    usages = {}
    for tool in tools[:3]:
        vector = rng.normal(size=384).astype(np.float32)
        usages[tool.qualified_name] = ToolUsage(tool_key(tool), 4,
                                                vector / np.linalg.norm(vector),
                                                {"rain": 3, "umbrella": 1})
    chat = rng.normal(size=(2, 384)).astype(np.float32)
    return Tuning(model, Weights(16.0, 8.0, 0.5, 0.0), usages, 0.12,
                  frozenset(query_digest(q) for q in ("is it raining", "open a PR")),
                  {"requests": 2},
                  abstention=Abstention(chat / np.linalg.norm(chat, axis=1, keepdims=True),
                                        0.03))


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


def test_a_tuning_reads_back_as_it_was_written(demo, tmp_path):
    tuning = a_tuning(demo.tools)
    path = tmp_path / "tuning.json"
    path.write_text(dumps(tuning), encoding="utf-8")
    back = load_tuning(path)
    assert back.weights == tuning.weights and back.min_score == 0.12
    assert back.model == "m@1" and back.trained == tuning.trained
    assert back.source == str(path)
    for name, usage in tuning.tools.items():
        read = back.tools[name]
        assert (read.key, read.count, dict(read.terms)) == (usage.key, 4, dict(usage.terms))
        assert float(read.vector @ usage.vector) > 0.999  # int8 keeps the direction
        assert np.array_equal(read.vector, quantized(usage.vector))
    assert back.seen(["Is it  RAINING", "something else"]) == 1
    assert back.abstention is not None and back.abstention.margin == 0.03
    assert tuning.abstention is not None
    assert np.all(np.sum(back.abstention.vectors * tuning.abstention.vectors, 1) > 0.999)


def test_files_of_earlier_versions_read_without_the_weights_they_lacked(demo, tmp_path):
    """Version 3 had no abstention (read as none), version 2 no Tool2Vec mix (read as none),
    version 1 no lift (read as the most)."""
    data = json.loads(dumps(a_tuning(demo.tools)))
    path = tmp_path / "v4.json"
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "abstain"}),
                    encoding="utf-8")
    with pytest.raises(ConfigError, match="needs 'abstain'"):  # a version 4 file says it
        load_tuning(path)
    data = {**data, "version": 3}
    del data["abstain"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_tuning(path).abstention is None
    for version, gone, value in ((2, "mix", 0.0), (1, "lift", 1.0)):
        old = {**data, "version": version,
               "weights": {k: v for k, v in data["weights"].items() if k != gone}}
        path = tmp_path / f"v{version}.json"
        path.write_text(json.dumps(old), encoding="utf-8")
        assert getattr(load_tuning(path).weights, gone) == value
    del data["weights"]["mix"]  # a version 3 file must say it
    path = tmp_path / "v3.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"'weights\.mix' must be a number from 0 to 0\.75"):
        load_tuning(path)


def test_the_file_stays_small(demo):
    from dataclasses import replace

    per_tool = len(dumps(replace(a_tuning(demo.tools), abstention=None))) / 3
    assert per_tool < 1000  # bytes a tool, however many requests it learned from
    per_request = (len(dumps(a_tuning(demo.tools))) - 3 * per_tool) / 2
    assert per_request < 600  # a request no tool fits (1,024 at most: 600 KB)


def test_a_changed_tool_is_counted_and_gets_no_usage(demo):
    from dataclasses import replace

    tuning = a_tuning(demo.tools)
    tools = list(demo.tools)
    tools[1] = replace(tools[1], description=tools[1].description + " Now also hail.")
    found = match(tuning, tools)
    assert (found.changed, found.missing) == (1, 0)
    assert found.active.tolist() == [0, 2]
    elsewhere = match(tuning, tools[3:])
    assert (elsewhere.changed, elsewhere.missing, len(elsewhere.active)) == (0, 3, 0)


@pytest.mark.parametrize(("text", "says"), [
    ("not json at all", "not a tuning file: not JSON"),
    ('{"format": "openai", "tools": []}', "not a toolcat tuning file"),
    ("[1, 2]", "not a toolcat tuning file"),
    ('{"format": "toolcat-tuning", "version": 99}', "tuning format version 99 is newer"),
    ('{"format": "toolcat-tuning", "version": "1"}', "no valid 'version'"),
    ("\udcff", "cannot read the tuning file (not UTF-8 text)"),
    ("x" * 10 + "\x00", "binary data (a NUL byte)"),
])
def test_a_broken_or_foreign_file_is_one_error_naming_it(tmp_path, text, says):
    path = tmp_path / "tuning.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ConfigError) as caught:
        load_tuning(path)
    assert str(caught.value).startswith(f"{path}:")  # and the line and column when known
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d["weights"].update(usage_weight=-1), "'weights.usage_weight'"),
    (lambda d: d["weights"].update(usage_floor=1.0), "usage_floor' must be a number from 0 to 0.7"),
    (lambda d: d.update(min_score=7), "'min_score'"),
    (lambda d: d.update(trained="***"), "'trained' is not base64"),
    (lambda d: d.update(trained="AAAA"), "whole digests"),
    (lambda d: next(iter(d["tools"].values())).update(vector="AAAA"), "'vector' must be 384"),
    (lambda d: next(iter(d["tools"].values())).update(count=0), "'count' must be a whole"),
    (lambda d: next(iter(d["tools"].values())).update(terms={"x": "many"}), "'terms'"),
    (lambda d: d.update(tools=[]), "needs 'tools'"),
])
def test_a_tampered_file_is_refused_with_what_is_wrong(demo, change, says):
    data = json.loads(json.dumps(to_json(a_tuning(demo.tools))))
    change(data)
    with pytest.raises(ConfigError) as caught:
        from_json(data, "tuning.json")
    assert str(caught.value).startswith("tuning.json") and says in str(caught.value)


def test_commands_refuse_a_broken_tuning_with_exit_2_and_one_line(run, tmp_path):
    bad = tmp_path / "tuning.json"
    bad.write_text('{"format": "toolcat-tuning", "version": 1}', encoding="utf-8")
    for command in (["pick", "-c", "demo", "open a PR"], ["search", "-c", "demo", "PR"],
                    ["resolve", "-c", "demo", "open a PR"], ["render", "-c", "demo", "x"],
                    ["bench", "-c", "demo", "-q", str(CATALOGS / "demo-queries.jsonl")]):
        result = run(*command, "--tuning", str(bad))
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.strip().splitlines() == [
            f"toolcat: error: {bad}:1:1: the tuning file needs 'model' (a string)"]


def test_toolcat_yaml_names_the_tuning_and_a_bad_value_is_an_error(run, tmp_path, isolated):
    (isolated / "toolcat.yaml").write_text("tuning: [1]\n", encoding="utf-8")
    result = run("pick", "-c", "demo", "open a PR", "--scorer", "bm25")
    assert result.exit_code == 2
    assert "'tuning' must be the path of a tuning file" in result.stderr
    (isolated / "toolcat.yaml").write_text("tuning: missing.json\n", encoding="utf-8")
    result = run("pick", "-c", "demo", "open a PR", "--scorer", "bm25")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"toolcat: error: {isolated / 'missing.json'}: cannot read")
