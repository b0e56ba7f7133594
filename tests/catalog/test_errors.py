"""Every broken file gets one line naming file:line:column, exit code 2, no traceback."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA

BROKEN = DATA / "broken"

EXPECTED = {
    "alias-bomb.yaml": "alias-bomb.yaml:1:1: YAML aliases expand 29 nodes to 926,177,115 "
    "(an alias bomb?); refused",
    "bad-type.yaml": "bad-type.yaml:4:12: 'level' must be a whole number",
    "duplicate.yaml": "duplicate.yaml:5:5: tool 'twice' is defined twice on server "
    "'duplicate': here and at {dir}/duplicate.yaml:2:5",
    "empty.json": "empty.json: file is empty",
    "empty.yaml": "empty.yaml: file is empty",
    "item-not-mapping.json": "item-not-mapping.json:1:12: each tool must be a mapping with "
    "at least a name",
    "malformed.json": "malformed.json:2:16: invalid JSON: Expecting property name enclosed "
    "in double quotes",
    "malformed.yaml": "malformed.yaml:4:1: invalid YAML: did not find expected ',' or ']'",
    "no-name.yaml": "no-name.yaml:4:5: tool has no name",
    "not-utf8.json": "not-utf8.json:1:25: not UTF-8 text",
    "scalar.json": "scalar.json:1:1: expected a list of tools or an object with a 'tools' "
    "array, found a number",
    "string.yaml": "string.yaml:1:1: expected a list of tools or an object with a 'tools' "
    "array, found a string",
    "tools-not-list.json": "tools-not-list.json:1:11: 'tools' must be a list",
    "unknown-shape.json": "unknown-shape.json:1:1: no tools found: expected a list of tools, "
    "an object with a 'tools' array, Gemini functionDeclarations, Bedrock toolConfig or a "
    "capabilities list",
}


def test_every_broken_file_has_an_expected_message():
    assert sorted(p.name for p in BROKEN.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_is_one_line_with_its_position_and_exit_2(run, name):
    result = run("list", "-c", str(BROKEN / name))
    assert result.exit_code == 2
    expected = EXPECTED[name].format(dir=BROKEN)
    assert result.stderr == f"toolcat: error: {BROKEN}/{expected}\n"
    assert result.stdout == ""


def test_missing_file_is_named(run):
    result = run("list", "-c", "nowhere.yaml")
    assert result.exit_code == 2
    assert result.stderr == "toolcat: error: nowhere.yaml: no such file\n"


def test_traceback_flag_shows_the_python_traceback(run):
    from toolcat.errors import CatalogError

    with pytest.raises(CatalogError, match="file is empty"):
        run("--traceback", "list", "-c", str(BROKEN / "empty.yaml"))


@pytest.mark.timeout(10)
def test_self_referencing_alias_is_refused(tmp_path):
    from toolcat.catalog.load import load_catalog
    from toolcat.errors import CatalogError

    path = tmp_path / "loop.yaml"
    path.write_text("a: &a [1, *a]\ntools: []\n")
    with pytest.raises(CatalogError, match="alias refers to itself"):
        load_catalog(path)


def test_deep_nesting_is_an_error_not_a_crash(tmp_path):
    from toolcat.catalog.load import load_catalog
    from toolcat.errors import CatalogError

    path = tmp_path / "deep.json"
    path.write_text('{"tools": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(CatalogError, match="nested deeper than 64 levels"):
        load_catalog(path)


def test_control_characters_a_file_chose_cannot_split_or_colour_the_error(tmp_path, run):
    path = tmp_path / "tools.json"
    path.write_text('[{"name": "a\\r\\u001b[31mb", "description": "x"},'
                    ' {"name": "a\\r\\u001b[31mb", "description": "x"}]')
    result = run("list", "-c", str(path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "\r" not in result.stderr
    assert "\x1b" not in result.stderr
    assert "tool 'a\\u000d\\u001b[31mb' is defined twice" in result.stderr


def test_a_warning_cannot_recolour_the_terminal_either(tmp_path, run):
    path = tmp_path / "tools.json"
    path.write_text('{"tools": [{"name": "ok", "description": "x"},'
                    ' {"type": "web_search\\u001b[2J", "name": "w"}]}')
    result = run("list", "-c", str(path))
    assert result.exit_code == 0 and "warning" in result.stderr
    assert "\x1b" not in result.stderr and "\\u001b[2J" in result.stderr


@pytest.mark.parametrize("hidden, shown", [
    ("\u202e", "\\u202e"),  # right-to-left override: "exe.txt" would read "txt.exe"
    ("\u2066", "\\u2066"),  # left-to-right isolate
    ("\u200b", "\\u200b"),  # zero-width space: two names that look the same
    ("\u061c", "\\u061c"),  # Arabic letter mark
    ("\u2028", "\\u2028"),  # line separator
    ("\x85", "\\u0085"),  # C1 next line
    ("\U000e0041", "\\U000e0041"),  # tag letter A: invisible
])
def test_bidi_and_invisible_characters_in_an_error_line_are_shown_escaped(tmp_path, run,
                                                                          hidden, shown):
    path = tmp_path / "tools.json"
    name = f"cat{hidden}txt.exe"
    path.write_text(json.dumps([{"name": name, "description": "x"}] * 2))
    result = run("list", "-c", str(path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert hidden not in result.stderr
    assert f"tool 'cat{shown}txt.exe' is defined twice" in result.stderr


HOSTILE = [{"name": "evil\u001b[2Jtool", "description": "x\u202edesc\u200b of a red tool"},
           {"name": "ok_tool", "description": "a red tool"}]


def test_what_a_catalog_names_reaches_no_output_raw(tmp_path, run):
    """Not only errors: list's lines, search's lines and --json show a stranger's names and
    descriptions escaped too (JSON escapes read back as the same text)."""
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(HOSTILE))
    for args in (["list"], ["search", "red", "--scorer", "bm25"]):
        result = run(*args, "-c", str(path))
        assert result.exit_code == 0
        assert not set("\x1b\u202e\u200b") & set(result.stdout)
        assert "evil\\u001b[2Jtool" in result.stdout
    result = run("list", "-c", str(path), "--json")
    assert not set("\x1b\u202e\u200b") & set(result.stdout)
    assert json.loads(result.stdout)["tools"][0]["description"] == HOSTILE[0]["description"]


def test_a_table_on_a_terminal_shows_a_stranger_s_names_escaped(tmp_path):
    from tests.terminal import on_terminal

    path = tmp_path / "tools.json"
    path.write_text(json.dumps(HOSTILE))
    shown = on_terminal("list", "-c", str(path))
    assert "evil\\u001b[2Jtool" in shown and "\u202e" not in shown
