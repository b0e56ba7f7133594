"""A relative $TOOLCAT_CACHE_DIR or $XDG_CONFIG_HOME would be read in whatever folder a
command runs, where a repository could ship the cache key and forged entries: toolcat ignores
them (the XDG rule), says so, and keeps its cache and key under the user's home."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO


def test_relative_cache_and_config_folders_are_never_the_working_trees(tmp_path):
    repo = tmp_path / "cloned"
    (repo / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    tools = [{"name": f"tool_{i}", "description": "Read the record " + "x" * 200,
              "parameters": {"type": "object"}} for i in range(5_000)]
    (repo / "big.json").write_text(json.dumps(tools))  # over 1 MiB: its reading is cached
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLCAT_")}
    env.update(PYTHONPATH=str(REPO), HOME=str(home), XDG_CONFIG_HOME="cfg",
               TOOLCAT_CACHE_DIR="cache")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "toolcat", "list", "-c", "big.json",
                               "--json"], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["count"] == 5_000
    assert sorted(p.name for p in repo.iterdir()) == [".git", "big.json"]
    assert "ignoring $TOOLCAT_CACHE_DIR=cache" in done.stderr
    assert "ignoring $XDG_CONFIG_HOME=cfg" in done.stderr
    assert (home / ".cache" / "toolcat").is_dir()
    assert (home / ".config" / "toolcat" / "cache.key").is_file()
