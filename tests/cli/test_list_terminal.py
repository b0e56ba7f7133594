"""`toolcat list` and `stats` on a terminal page through a big catalog; into a pipe they
stream every row as plain lines."""

from __future__ import annotations

from tests.conftest import CATALOGS
from tests.terminal import on_terminal


def test_list_on_a_terminal_shows_the_first_rows_and_counts_the_rest():
    shown = on_terminal("list", "-c", str(CATALOGS))
    assert shown.splitlines()[0].strip() == "72 tools"
    assert sum("│" in line for line in shown.splitlines()) == 50  # the header is drawn with ┃
    assert "… 22 more tools (--all to show them, --limit N for N rows)" in shown


def test_list_all_on_a_terminal_shows_every_row():
    shown = on_terminal("list", "-c", str(CATALOGS), "--all")
    assert sum("│" in line for line in shown.splitlines()) == 72
    assert "more tools" not in shown


def test_stats_on_a_terminal_truncates_each_table_with_a_count():
    shown = on_terminal("stats", "-c", str(CATALOGS), "--limit", "2")
    assert "… 6 more servers (--all" in shown and "… 1 more level (--all" in shown
    assert "more kind" not in shown  # one kind: nothing hidden


def test_list_into_a_pipe_streams_every_tool_and_limit_cuts_it(run):
    every = run("list", "-c", str(CATALOGS)).stdout.splitlines()
    assert len(every) == 72 and all(len(line.split("\t")) == 6 for line in every)
    assert run("list", "-c", str(CATALOGS), "--limit", "5").stdout.splitlines() == every[:5]


def test_stats_into_a_pipe_prints_plain_sections(run):
    lines = run("stats", "-c", str(CATALOGS)).stdout.splitlines()
    assert lines[0].startswith("72 tools on 8 servers")
    server_rows = lines[lines.index("per server") + 1:lines.index("per level")]
    assert len(server_rows) == 8 and server_rows[0].split("\t")[1] == "10"
