"""`toolcat review` through the CLI: one folder per request with what the model sees, the
comparison with a baseline, the snapshot check, and a folder that never loses a user's file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from tests.review.helpers import AFTER, BEFORE, setup_project, write_catalog

FILES = ["decisions.yaml", "payload.anthropic.json", "prompt.md", "trace.md"]


@pytest.fixture
def project(isolated: Path) -> dict[str, Path]:
    (isolated / ".git").mkdir()  # a review's inputs stay inside its repository
    return setup_project(isolated)


def review(run, project, *extra: str, catalog: str = "before"):
    return run("review", "-c", str(project[catalog]), "-q", str(project["requests"]),
               "-p", str(project["profile"]), *extra)


def test_every_request_gets_a_folder_with_prompt_payload_tokens_and_trace(run, project):
    result = review(run, project, "--provider", "anthropic", "-o", "out")
    assert result.exit_code == 0, result.output
    out = Path("out")
    folders = sorted(p.parent.relative_to(out).as_posix() for p in out.glob("*/*/prompt.md"))
    assert folders == [f"q{i}/reviewer" for i in range(1, 6)]
    assert sorted(p.name for p in (out / "q1" / "reviewer").iterdir()) == FILES
    decisions = yaml.safe_load((out / "q1/reviewer/decisions.yaml").read_text())
    assert decisions["request"] == {"id": "q1", "query": "open notes.txt"}
    assert [v["name"] for v in decisions["visible"]] == ["read_file", "write_file", "move_file"]
    assert all(v["rule"] and v["reason"] for v in decisions["visible"])
    [unsafe] = [g for g in decisions["hidden"] if g["rule"] == "unsafe"]
    assert (unsafe["status"], unsafe["count"], unsafe["tools"]) == (
        "excluded", 1, ["files:delete_file"])
    assert decisions["tokens"][0]["target"] == "anthropic" and decisions["tokens"][0]["total"] > 0
    # the same prompt and payload `toolcat render` writes for that request
    render = run("render", "open notes.txt", "-c", str(project["before"]), "-p",
                 str(project["profile"]), "--provider", "anthropic", "--json")
    rendered = json.loads(render.stdout)
    payload = json.loads((out / "q1/reviewer/payload.anthropic.json").read_text())
    assert payload == rendered["payload"]
    assert rendered["system_prompt"] in (out / "q1/reviewer/prompt.md").read_text()
    assert decisions["tokens"][0]["total"] == rendered["tokens"]["total"]
    trace = (out / "q1/reviewer/trace.md").read_text()
    assert "delete_file → excluded [unsafe]" in trace
    assert (out / "index.html").is_file() and (out / "tools.yaml").is_file()
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "index.html").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_review_is_byte_for_byte_stable_and_its_check_passes(run, project):
    assert review(run, project, "-o", "out").exit_code == 0
    first = {p: p.read_bytes() for p in Path("out").rglob("*") if p.is_file()}
    assert review(run, project, "-o", "out").exit_code == 0
    assert {p: p.read_bytes() for p in Path("out").rglob("*") if p.is_file()} == first
    result = run("review", "--check", "out")
    assert result.exit_code == 0, result.output
    assert "up to date (5 requests)" in result.stdout


def test_check_from_another_folder_finds_the_inputs_relative_to_the_review(run, project,
                                                                          isolated):
    assert review(run, project, "-o", "out").exit_code == 0
    os.chdir(isolated / "before")
    assert run("review", "--check", str(isolated / "out")).exit_code == 0


def test_a_baseline_catalog_shows_what_joined_left_and_changed_with_old_and_new_values(
        run, project):
    result = review(run, project, "--baseline", str(project["before"]), "-o", "out",
                    "--json", catalog="after")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["records"] == 5 and len(data["changed"]) == 5
    first = data["changed"][0]
    assert first["joined"] == ["files:read_graph"] and first["left"] == ["files:move_file"]
    [redefined] = first["redefined"]
    assert redefined["tool"] == "files:read_file"
    assert redefined["changes"] == [
        'description: "Read a text file from the store{+ and return its lines+}."']
    assert first["tokens"][0]["new"] > first["tokens"][0]["old"]
    changes = Path("out/changes.md").read_text()
    assert "joined: **read_graph**" in changes and "left: **move_file**" in changes
    assert "now: not in the catalog" in changes


def test_the_terminal_summary_lists_each_changed_request(run, project):
    result = review(run, project, "--baseline", str(project["before"]), "-o", "out",
                    catalog="after")
    assert "5 of 5 changed against" in result.stdout
    assert "q1 (reviewer): visible +read_graph -move_file; definition changed: " \
           "files:read_file; tokens" in result.stdout


def test_an_earlier_review_folder_is_a_baseline_with_the_same_findings(run, project):
    assert review(run, project, "-o", "old").exit_code == 0
    result = review(run, project, "--baseline", "old", "-o", "new", "--json", catalog="after")
    first = json.loads(result.stdout)["changed"][0]
    assert first["joined"] == ["files:read_graph"] and first["left"] == ["files:move_file"]
    assert first["redefined"][0]["tool"] == "files:read_file"
    assert "{+ and return its lines+}" in first["redefined"][0]["changes"][0]


def test_a_lock_file_baseline_names_the_definitions_that_changed_since_the_lock(
        run, project):
    assert run("lock", "-c", str(project["before"]), "--lockfile", "toolcat.lock").exit_code == 0
    result = review(run, project, "--baseline", "toolcat.lock", "-o", "out", "--json",
                    catalog="after")
    first = json.loads(result.stdout)["changed"][0]
    by_tool = {r["tool"]: r["changes"] for r in first["redefined"]}
    assert by_tool["files:read_file"] == [
        "description changed since the lock (the lock keeps hashes, not the old values)"]
    assert by_tool["files:read_graph"] == ["not in the lock"]


def test_check_fails_with_a_summary_per_request_when_what_the_model_sees_changed(
        run, project):
    assert review(run, project, "-o", "out").exit_code == 0
    write_catalog(project["before"].parent, AFTER)  # the server was upgraded in place
    result = run("review", "--check", "out")
    assert result.exit_code == 1
    assert "5 of 5 requests differ" in result.stdout
    assert "q1 (reviewer): visible +read_graph -move_file; definition changed: " \
           "files:read_file" in result.stdout
    assert "[decisions.yaml, trace.md" in result.stdout
    data = json.loads(run("review", "--check", "out", "--json").stdout)
    assert not data["ok"] and len(data["stale"]) == 5
    write_catalog(project["before"].parent, BEFORE)
    assert run("review", "--check", "out").exit_code == 0


def test_requests_default_to_the_example_requests_of_the_tools(run, project):
    result = run("review", "-c", str(project["before"]), "-p", str(project["profile"]),
                 "-o", "out")
    assert result.exit_code == 0, result.output
    assert [p.name for p in Path("out").iterdir() if p.is_dir()] == ["read_file.1"]


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_each_profile_gets_its_own_folder_per_request(run, project):
    result = review(run, project, "-p", "small-model", "-o", "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in Path("out/q1").iterdir()) == ["reviewer", "small-model"]
    # each names the embedding model that ranked: the default scorer's, none for bm25
    ranked = {profile: yaml.safe_load(Path(f"out/q1/{profile}/decisions.yaml").read_text())
              for profile in ("reviewer", "small-model")}
    assert ranked["small-model"]["scorer"] == "hybrid"
    assert ranked["small-model"]["embedding_model"] == "minilm-tools"  # the default model
    assert ranked["reviewer"]["embedding_model"] is None  # scorer: bm25
    assert '"embedding_model":"minilm-tools"' in Path("out/index.html").read_text()
    assert run("review", "--check", "out").exit_code == 0


def test_a_folder_that_is_not_a_review_is_never_written_into(run, project):
    Path("mine").mkdir()
    Path("mine/notes.txt").write_text("mine")
    result = review(run, project, "-o", "mine")
    assert result.exit_code == 2
    assert "not empty and is not a review folder" in result.output
    assert [p.name for p in Path("mine").iterdir()] == ["notes.txt"]


def test_a_rewrite_keeps_the_users_files_and_drops_only_requests_that_are_gone(run, project):
    assert review(run, project, "-o", "out").exit_code == 0
    Path("out/README.md").write_text("reviewed by me")
    Path("out/q5/reviewer/comment.txt").write_text("looks fine")
    lines = project["requests"].read_text().splitlines()
    project["requests"].write_text("\n".join(lines[:3]) + "\n")  # q4 and q5 are gone
    assert review(run, project, "-o", "out").exit_code == 0
    assert not Path("out/q4").exists()
    assert [p.name for p in Path("out/q5/reviewer").iterdir()] == ["comment.txt"]
    assert Path("out/README.md").read_text() == "reviewed by me"
    assert run("review", "--check", "out").exit_code == 0


def test_a_users_file_where_review_would_write_is_refused_before_any_work(run, project):
    Path("out/q1/reviewer").mkdir(parents=True)
    assert review(run, project, "-o", "out").exit_code == 2  # not empty, no manifest
    assert review(run, project, "-o", "fresh").exit_code == 0
    Path("fresh/q9").mkdir()
    Path("fresh/q9/reviewer").symlink_to(Path("elsewhere").resolve())
    extra = project["requests"].read_text() + json.dumps(
        {"id": "q9", "query": "x", "relevant": []}) + "\n"
    project["requests"].write_text(extra)
    result = review(run, project, "-o", "fresh")
    assert result.exit_code == 2 and "symbolic link" in result.output
    assert not Path("elsewhere").exists()


def test_hostile_ids_stay_inside_the_folder(run, project):
    project["requests"].write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": "../../escape", "query": "open notes.txt", "relevant": []},
        {"id": "/etc/passwd", "query": "open notes.txt", "relevant": []},
        {"id": "..", "query": "open notes.txt", "relevant": []}]))
    result = review(run, project, "-o", "out")
    assert result.exit_code == 0, result.output
    made = sorted(p.name for p in Path("out").iterdir() if p.is_dir())
    assert len(made) == 3 and not any(name.startswith(".") for name in made)
    assert not Path("../escape").exists() and not Path("escape").exists()
    assert run("review", "--check", "out").exit_code == 0


def test_bad_input_is_one_line_and_exit_2(run, project):
    result = run("review", "-c", str(project["before"]))
    assert result.exit_code == 2 and "give -o DIR" in result.output
    result = review(run, project, "--provider", "nope", "-o", "out")
    assert result.exit_code == 2 and "unknown provider 'nope'" in result.output
    assert not Path("out").exists()
    result = run("review", "--check", "nowhere")
    assert result.exit_code == 2 and "not a review folder" in result.output
    assert review(run, project, "-o", "out").exit_code == 0
    Path("out/toolcat-review.yaml").write_text("toolcat_review: 1\nrecords: [../../x]\n")
    result = run("review", "--check", "out")
    assert result.exit_code == 2
    assert "toolcat-review.yaml:2" in result.output and "not a path inside" in result.output
    result = review(run, project, "--baseline", "out", "-o", "out")
    assert result.exit_code == 2 and "--baseline is the folder being written" in result.output


def test_check_reproduces_a_review_made_with_a_baseline_and_several_providers(run, project):
    assert review(run, project, "-o", "old").exit_code == 0
    result = review(run, project, "--baseline", "old", "--provider", "openai", "--provider",
                    "gemini", "-o", "new", catalog="after")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in Path("new/q2/reviewer").glob("payload.*")) == [
        "payload.gemini.json", "payload.openai.json"]
    tokens = yaml.safe_load(Path("new/q2/reviewer/decisions.yaml").read_text())["tokens"]
    assert [t["target"] for t in tokens] == ["openai", "gemini"]
    assert run("review", "--check", "new").exit_code == 0
    Path("new/q2/reviewer/decisions.yaml").unlink()  # a damaged committed review differs
    Path("new/q3/reviewer/trace.md").write_text("edited by hand")
    result = run("review", "--check", "new")
    assert result.exit_code == 1
    assert "q2 (reviewer): new request [decisions.yaml]" in result.stdout
    assert "q3 (reviewer): trace changed [trace.md]" in result.stdout


def test_a_tool_whose_safety_nobody_stated_is_shown_and_marked(run, project):
    # move_file as an MCP server lists it without hints: shown, its reason marked
    unstated = [dict(t, source="mcp", server="files") if t["name"] == "move_file" else t
                for t in BEFORE]
    catalog = write_catalog(Path("unstated"), unstated)
    result = run("review", "-c", str(catalog), "-q", str(project["requests"]),
                 "-p", str(project["profile"]), "-o", "out")
    assert result.exit_code == 0, result.output
    decisions = yaml.safe_load(Path("out/q3/reviewer/decisions.yaml").read_text())
    [moved] = [v for v in decisions["visible"] if v["name"] == "move_file"]
    assert moved["reason"].endswith("safety not stated")
    [read] = [v for v in decisions["visible"] if v["name"] == "read_file"]
    assert "safety" not in read["reason"]
    assert "safety not stated" in Path("out/index.html").read_text()
