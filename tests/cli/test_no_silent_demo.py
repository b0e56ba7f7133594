"""The bundled demo catalog is never used silently: lint and lock refuse to run without a
catalog of the user's, other commands say on stderr that they use the demo, and the CI
recipes of docs/lint.md check the user's files."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml

from tests.conftest import DATA, REPO

BAD = DATA / "lint" / "TC104" / "bad.yaml"  # has lint errors


def test_lint_without_any_catalog_exits_2_and_says_how_to_name_one(run):
    result = run("lint")
    assert result.exit_code == 2
    assert result.stderr == ("toolcat: error: no catalog: pass paths, -c, $TOOLCAT_CATALOG or "
                             "catalogs: in toolcat.yaml (-c demo for the bundled demo "
                             "catalog)\n")


def test_lock_without_any_catalog_writes_nothing(run, isolated):
    result = run("lock")
    assert result.exit_code == 2 and "no catalog" in result.stderr
    assert not (isolated / "toolcat.lock").exists()


def test_exploring_commands_use_the_demo_and_say_so(run):
    result = run("search", "weather", "--json")
    assert result.exit_code == 0
    assert "using the bundled demo catalog" in result.stderr
    assert json.loads(result.stdout)["tools"][0]["name"] == "get_weather"


def test_demo_by_name_is_the_demo_unless_a_file_is_called_demo(run, isolated):
    assert run("lint", "-c", "demo").exit_code == 0
    shutil.copy(BAD, isolated / "demo")
    assert run("lint", "-c", "demo", "--shape", "toolcat").exit_code == 1


def _project(tmp_path):
    project = tmp_path / "project"
    (project / "catalogs").mkdir(parents=True)
    shutil.copy(BAD, project / "catalogs" / "tools.yaml")
    return project


def _toolcat(argv: list[str], cwd) -> subprocess.CompletedProcess:
    assert argv[0] == "toolcat"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("TOOLCAT_CATALOG", None)
    return subprocess.run([sys.executable, "-m", "toolcat", *argv[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _block(page: str, after: str, language: str) -> str:
    """The first `language` code block after the text `after` in a page of the repository."""
    text = (REPO / page).read_text()
    start = text.index(after)
    match = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    assert match
    return match.group(1)


def test_the_pre_commit_hook_as_the_docs_configure_it_lints_the_users_files(tmp_path):
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    config = yaml.safe_load(_block("docs/lint.md", "pre-commit (`.pre-commit-hooks.yaml`",
                                   "yaml"))
    [used] = config["repos"][0]["hooks"]
    assert used["id"] == hook["id"]
    argv = [*shlex.split(hook["entry"]), *used["args"]]
    project = _project(tmp_path)
    failed = _toolcat(argv, project)
    assert failed.returncode == 1, failed.stderr
    assert "catalogs/tools.yaml" in failed.stdout
    (project / "catalogs" / "tools.yaml").unlink()
    nothing = _toolcat(shlex.split(hook["entry"]), project)  # no paths, no toolcat.yaml
    assert nothing.returncode == 2 and "no catalog" in nothing.stderr


def test_the_ci_recipe_of_the_docs_installs_from_the_repository_and_lints_the_users_files(
        tmp_path):
    workflow = yaml.safe_load(_block("docs/lint.md", "GitHub Actions:", "yaml"))
    steps = [step["run"] for step in workflow["jobs"]["lint-tools"]["steps"] if "run" in step]
    [install] = [line for line in steps if line.startswith("pip install")]
    assert "git+" in install  # not `pip install toolcat`: that name is not ours on PyPI
    project = _project(tmp_path)
    for line in steps[1:]:
        done = _toolcat(shlex.split(line), project)
        assert done.returncode == 1, (line, done.stderr)
    sarif = json.loads((project / "toolcat.sarif").read_text())
    assert sarif["runs"][0]["results"]


def test_the_readme_set_up_command_runs_on_the_bundled_demo(tmp_path, shared_cache):
    # the session's cache: the demo's tools are encoded once a session, not again here
    command = _block("README.md", "## Set-up", "bash").strip()
    steps = [shlex.split(step) for step in command.split("&&")]
    toolcat_steps = [argv for argv in steps if argv[0] == "toolcat"]
    assert [argv[1] for argv in toolcat_steps] == ["lint", "pick"]
    for argv in toolcat_steps:  # in an empty folder: no toolcat.yaml to fall back on
        done = _toolcat(argv, tmp_path)
        assert done.returncode == 0, (argv, done.stderr)
    assert "github:create_pull_request" in done.stdout
