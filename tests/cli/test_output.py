"""`-o` never destroys what is there, and output meant for files and pipes is never wrapped.

Every command with `-o` (and `bench --plot`) goes through one writer; these tests drive the
real CLI, in a subprocess where a real pipe or a real stdout matters.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import CATALOGS, REPO

WEATHER = str(CATALOGS / "weather.yaml")


def toolcat(*args: str, stdout: int | None = subprocess.PIPE,
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "toolcat", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env, timeout=120,
                          check=False, cwd=cwd)


# Each command that writes with -o, as (arguments before -o), so that every one is checked.
WRITERS = {
    "convert": ["convert", "-c", WEATHER, "--to", "openai"],
    "lint": ["lint", "-c", WEATHER, "--format", "json"],
    "render": ["render", "weather in Paris", "-c", WEATHER, "--provider", "openai"],
}


@pytest.mark.parametrize("command", WRITERS)
def test_existing_file_is_replaced_keeping_its_mode(run, tmp_path, command):
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "out.json"
    out.write_text("old")
    out.chmod(0o600)
    result = run(*WRITERS[command], "-o", str(out))
    assert result.exit_code in (0, 1), result.stderr
    assert out.read_text() != "old"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == ["out.json"]  # no temporary file left


@pytest.mark.parametrize("command", WRITERS)
def test_dev_null_stays_a_device(run, command):
    result = run(*WRITERS[command], "-o", "/dev/null")
    assert result.exit_code in (0, 1), result.stderr
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def test_import_mcp_to_dev_null_leaves_it_a_device(run):
    pytest.importorskip("mcp")
    from tests.mcp.conftest import DEMO, START_TIMEOUT

    result = run("import", "mcp", "--timeout", START_TIMEOUT, "-o", "/dev/null", "--", *DEMO)
    assert result.exit_code == 0, result.stderr
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def test_named_pipe_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "catalog.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    done = toolcat("convert", "-c", WEATHER, "--to", "openai", "-o", str(fifo))
    reader.join(60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert '"name": "get_weather"' in received[0]


def test_dev_stdout_into_a_pipe_is_the_output(tmp_path):
    done = toolcat("convert", "-c", WEATHER, "--to", "openai", "-o", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(json.loads(done.stdout)["tools"]) == 8  # nothing else on stdout
    assert "wrote 8 tools as openai to /dev/stdout" in done.stderr


def test_a_dash_is_stdout_as_it_is_stdin_for_inputs(tmp_path):
    done = toolcat("convert", "-c", WEATHER, "--to", "openai", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["tools"]) == 8
    assert not (tmp_path / "-").exists()


def test_dev_stdout_redirected_to_a_file_keeps_the_file(tmp_path):
    target = tmp_path / "out.json"
    with target.open("w") as handle:
        done = toolcat("lint", "-c", WEATHER, "--format", "json", "-o", "/dev/stdout",
                       stdout=handle)
    assert done.returncode in (0, 1), done.stderr
    assert '"findings"' in target.read_text()


def test_symlink_to_a_file_is_written_through(run, tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    result = run(*WRITERS["convert"], "-o", str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink()
    assert "get_" in real.read_text()


@pytest.mark.parametrize("case", ["folder", "socket", "dangling-link", "missing-folder"])
def test_what_cannot_hold_the_output_is_refused(run, tmp_path, case):
    target = tmp_path / "target"
    if case == "folder":
        target.mkdir()
    elif case == "socket":
        target = Path("/tmp") / f"toolcat-test-{os.getpid()}.sock"  # AF_UNIX paths are short
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
    elif case == "dangling-link":
        target.symlink_to(tmp_path / "missing" / "file.json")
    else:
        target = tmp_path / "missing" / "file.json"
    try:
        result = run(*WRITERS["convert"], "-o", str(target))
        assert result.exit_code == 2
        assert result.stderr.startswith("toolcat: error: cannot write")
        assert "Traceback" not in result.stderr
        if case == "socket":
            assert stat.S_ISSOCK(target.stat().st_mode)
        if case == "folder":
            assert target.is_dir()
    finally:
        if case == "socket":
            server.close()
            target.unlink()


def test_bench_plot_svg_is_svg_and_a_bad_suffix_fails_before_the_run(run, tmp_path):
    pytest.importorskip("matplotlib")
    queries = str(CATALOGS / "demo-queries.jsonl")
    bad = run("bench", "-q", queries, "--scorer", "keyword", "--plot", str(tmp_path / "x.gif"))
    assert bad.exit_code == 2
    assert "cannot tell the image format" in bad.stderr
    missing = run("bench", "-q", queries, "--scorer", "keyword", "--plot",
                  str(tmp_path / "no" / "x.svg"))
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    assert "hit@1" not in missing.stdout  # refused before the benchmark ran
    svg = tmp_path / "recall.svg"
    result = run("bench", "-q", queries, "--scorer", "keyword", "--plot", str(svg))
    assert result.exit_code == 0, result.stderr
    assert svg.read_text().lstrip().startswith("<?xml")


def test_long_lines_are_not_wrapped_into_a_pipe(tmp_path):
    description = "Look up the weather " + "in a very specific place " * 12
    catalog = tmp_path / "long.yaml"
    catalog.write_text(yaml.safe_dump({"tools": [
        {"name": "weather_lookup", "description": description,
         "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}},
        {"name": "weather_lookup_again", "description": "TODO " + description}]}, width=1000))
    shown = toolcat("show", "weather_lookup", "-c", str(catalog))
    assert shown.returncode == 0, shown.stderr
    assert description.strip() in shown.stdout
    assert "\x1b[" not in shown.stdout
    linted = toolcat("lint", "-c", str(catalog), "--select", "TC2,TC3")
    findings = [line for line in linted.stdout.splitlines() if "TC" in line]
    assert findings, linted.stdout
    for line in findings:  # each finding on one line, with its rule's name at the end
        assert line.rstrip().split()[-1].islower(), line


def test_import_refuses_a_missing_folder_before_starting_any_server(run, tmp_path):
    pytest.importorskip("mcp")
    result = run("import", "mcp", "-o", str(tmp_path / "no" / "x.yaml"), "--",
                 "toolcat-no-such-server")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr and "cannot start" not in result.stderr


def test_shell_completion_is_available(monkeypatch):
    # typer guesses the shell from the process tree; a CI runner may have none, so name it
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    done = toolcat("--show-completion", "bash")
    assert done.returncode == 0, done.stderr
    assert "TOOLCAT_COMPLETE=complete_bash" in done.stdout and "complete -o default" in done.stdout


def test_lock_into_stdout_does_not_read_it_first():
    done = toolcat("lock", "-c", "demo", "--lockfile", "/dev/stdout")  # a read would block
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["version"] == 1
    assert "locked 72 tools on 8 servers in /dev/stdout" in done.stderr


def _toolcat(*args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"}
    return subprocess.Popen([sys.executable, "-m", "toolcat", *args], env=env, cwd=REPO,
                            **kwargs)


@pytest.mark.parametrize("args", [("list", "-c", "demo"), ("rules",),
                                  ("lint", "-c", "demo", "--target", "gemini"),
                                  ("convert", "-c", "demo", "--to", "openai"),
                                  ("convert", "-c", "demo", "--to", "openai", "-o", "/dev/stdout")])
def test_a_reader_that_went_away_ends_the_command_quietly(args):
    # `toolcat lint | head -1` once head has left: every write meets a closed pipe
    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = _toolcat(*args, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    _, err = proc.communicate(timeout=60)
    assert b"error" not in err and b"Traceback" not in err
    assert proc.returncode == 141  # as a shell reports `cat big | head`; 1 says "problems found"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("rules",), ("list", "-c", "demo"), ("lint", "-c", "demo",
                                                                        "--json")])
def test_a_full_disk_under_stdout_is_one_line_and_exit_2(args):
    with Path("/dev/full").open("wb") as full:
        proc = _toolcat(*args, stdout=full, stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err == b"toolcat: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("output", [(), ("-o", "-")])
def test_convert_into_head_that_stops_after_a_line_exits_141(tmp_path, output):
    # `toolcat convert -o - | head -1` on a catalog bigger than a pipe holds: the write meets
    # the closed pipe part way (a short write, no error), which must not pass for success
    tools = [{"name": f"tool_{i}", "description": "Look up one record by its id. " * 4,
              "parameters": {"type": "object", "properties": {}}} for i in range(2000)]
    catalog = tmp_path / "big.json"
    catalog.write_text(json.dumps(tools))
    proc = _toolcat("convert", "-c", str(catalog), "--to", "mcp", *output,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"{\n"
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert b"wrote" not in err and b"Traceback" not in err
