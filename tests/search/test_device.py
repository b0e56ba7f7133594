"""Where the embedding model runs: --device, $TOOLCAT_DEVICE and toolcat.yaml, and the
progress of encoding reported to the caller."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO
from tests.terminal import on_terminal
from toolcat.model import Tool
from toolcat.search import build_scorer


def test_an_unknown_device_is_refused_with_the_known_ones(run):
    result = run("pick", "weather", "--scorer", "semantic", "--device", "gpu")
    assert result.exit_code == 2
    assert "unknown device 'gpu'; known: auto, cpu, cuda, mps" in result.stderr


def test_the_device_applies_to_the_semantic_scorers_only(run):
    result = run("pick", "weather", "--scorer", "bm25", "--device", "cpu")
    assert result.exit_code == 2
    assert "--device applies to the semantic, hybrid and cascade scorers only" in result.stderr


def test_a_bad_device_in_the_environment_is_refused(run, monkeypatch):
    monkeypatch.setenv("TOOLCAT_DEVICE", "tpu")
    result = run("pick", "weather", "--scorer", "hybrid")
    assert result.exit_code == 2
    assert "$TOOLCAT_DEVICE: unknown device 'tpu'" in result.stderr


def test_a_bad_device_in_toolcat_yaml_is_refused(run, isolated):
    (isolated / "toolcat.yaml").write_text("device: [cpu]\n")
    result = run("pick", "weather", "--scorer", "semantic")
    assert result.exit_code == 2
    assert "'device' must be one of auto, cpu, cuda, mps" in result.stderr


@pytest.mark.semantic
def test_a_gpu_asked_for_where_there_is_none_is_an_error_not_a_silent_cpu(run, embedder):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    result = run("pick", "weather", "--scorer", "semantic", "--device", "cuda")
    assert result.exit_code == 2
    assert "torch sees no CUDA GPU here" in result.stderr


@pytest.mark.semantic
def test_auto_and_cpu_pick_the_same_tools(run, shared_cache, isolated):
    auto = json.loads(run("pick", "remove the users table", "--scorer", "semantic",
                          "--allow-unsafe", "--json").stdout)
    (isolated / "toolcat.yaml").write_text("device: cpu\n")
    cpu = json.loads(run("pick", "remove the users table", "--scorer", "semantic",
                         "--allow-unsafe", "--json").stdout)
    assert [p["name"] for p in auto["picks"]] == [p["name"] for p in cpu["picks"]]
    assert auto["picks"][0]["name"] == "drop_table"


@pytest.mark.semantic
def test_encoding_reports_its_progress_to_the_caller(embedder, tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    tools = [Tool(name=f"tool_{i}", description=f"Does the thing number {i} of {i * 7}.")
             for i in range(700)]
    heard: list[tuple[int, int]] = []
    scorer = build_scorer("semantic", tools, progress=lambda done, total: heard.append(
        (done, total)))
    assert scorer.encoded == 700
    assert heard[-1] == (700, 700) and len(heard) > 1
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)
    heard.clear()
    build_scorer("semantic", tools, progress=lambda done, total: heard.append((done, total)))
    assert heard == []  # everything came from the cache: nothing to report


@pytest.mark.semantic
def test_the_cli_says_the_model_loads_and_draws_a_bar_only_on_a_terminal(tmp_path):
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps([{"name": f"tool_{i}", "description": f"Thing {i}."}
                                   for i in range(600)]))
    args = ["pick", "thing 5", "-c", str(catalog), "--scorer", "semantic", "--device", "cpu"]
    shown = on_terminal(*args, stream="stderr", columns=120,
                        env={"TOOLCAT_CACHE_DIR": str(tmp_path / "c1")})
    # while the model loads, a status line says so and what comes next; then the bar
    assert "loading the embedding model, then encoding 600 new tools (once) ..." in shown
    assert "encoding the tools" in shown and "600/600" in shown
    quiet = on_terminal(*args, "--json", stream="stderr", columns=120,
                        env={"TOOLCAT_CACHE_DIR": str(tmp_path / "c1")})
    assert quiet == ""  # --json: nothing on stderr, a terminal or not
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(tmp_path / "c2")}
    piped = subprocess.run([sys.executable, "-m", "toolcat", *args], capture_output=True,
                           text=True, check=True, timeout=120, env=env)
    assert piped.stderr == "" and "tool_5" in piped.stdout
