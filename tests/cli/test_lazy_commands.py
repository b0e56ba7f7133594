"""Commands are found lazily: `toolcat --help` imports no command module, and every command
listed there loads and answers its own --help."""

from __future__ import annotations

import subprocess
import sys

import pytest

from toolcat.cli.app import COMMANDS


def test_top_level_help_lists_every_command_without_importing_one():
    probe = ("import sys\nfrom typer.testing import CliRunner\nfrom toolcat.cli.app import app\n"
             "out = CliRunner().invoke(app, ['--help']).output\n"
             "loaded = [m for m in sys.modules if m.endswith('_cmds')]\n"
             "assert not loaded, loaded\nprint(out)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.split("Commands:")[1].splitlines()
              if line.strip()]
    assert listed == list(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_loads_and_shows_its_help(run, name):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: toolcat {name} [OPTIONS]")


def test_an_unknown_command_is_a_usage_error(run):
    result = run("lsit")
    assert result.exit_code == 2
    assert "No such command 'lsit'" in result.stderr
