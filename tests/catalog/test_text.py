"""Text toolcat cannot encode (docs/security.md, "Text"): a `\\ud800` escape decodes, in
JSON, to a lone surrogate, which no UTF-8 output can hold. It is a load error at
file:line:column in every reader and refuses a tool call's arguments; no command ends in a
traceback. The CLI tests run the real `python -m toolcat`, as a user would."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO

LONE = re.compile("[\ud800-\udfff]")
MESSAGE = "a lone surrogate (\\ud800 escape) is not a Unicode character"


def toolcat(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TOOLCAT_")}
    environ.update(PYTHONPATH=str(REPO), TOOLCAT_CACHE_DIR=str(cwd / "cache"))
    return subprocess.run([sys.executable, "-m", "toolcat", *args], cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=120, input=stdin)


def one_line_error(result: subprocess.CompletedProcess[str], prefix: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"toolcat: error: {prefix}"), result.stderr


TOOL = '{"name": "get_x", "description": "Get the x of a thing.", "parameters": ' \
       '{"type": "object", "properties": {"q": {"type": "string"}}}}'
FILES = {
    # file name, text, where the lone surrogate is
    "value.json": ("[" + TOOL.replace("Get the x", "Get the \\ud800 x") + "]", "1:35"),
    "key.json": ("[" + TOOL.replace('"q"', '"q\\udc00"') + "]", "1:108"),
    "lines.jsonl": ("\n" + TOOL.replace("get_x", "get_\\uDBFFx") + "\n", "2:10"),
    "comments.json": ("// a JSONC file\n[" + TOOL.replace("thing.", "thing \\ud800.") + ",]\n",
                      "2:35"),
    "pair-split.json": ("[" + TOOL.replace("x of", "\\ud83d x \\ude00 of") + "]", "1:35"),
}
COMMANDS = [("list",), ("show", "get_x"), ("lint",), ("convert", "--to", "openai"),
            ("render", "get the x", "--provider", "anthropic"), ("tokens",), ("stats",),
            ("pick", "x"), ("serve",)]


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_lone_surrogate_in_a_catalog_is_a_load_error(tmp_path, name, command):
    text, where = FILES[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    result = toolcat(tmp_path, *command, "-c", name)
    one_line_error(result, f"{name}:{where}: a lone surrogate (\\u")


def test_a_surrogate_pair_is_one_character_and_fine(tmp_path):
    (tmp_path / "emoji.json").write_text(
        "[" + TOOL.replace("Get the x", "Get the \\ud83d\\ude00 x") + "]", encoding="utf-8")
    result = toolcat(tmp_path, "convert", "--to", "openai", "-c", "emoji.json")
    assert result.returncode == 0, result.stderr
    described = json.loads(result.stdout)["tools"][0]["function"]["description"]
    assert described == "Get the \U0001f600 x of a thing."


def test_yaml_escapes_of_surrogates_are_load_errors(tmp_path):
    (tmp_path / "tools.yaml").write_text(
        'tools:\n  - name: get_x\n    description: "Get \\ud800 x."\n', encoding="utf-8")
    one_line_error(toolcat(tmp_path, "list", "-c", "tools.yaml"), "tools.yaml:3:")
    (tmp_path / "keys.yaml").write_text(
        'tools:\n  - name: get_x\n    "k\\uDC00": 1\n', encoding="utf-8")
    one_line_error(toolcat(tmp_path, "list", "-c", "keys.yaml"), "keys.yaml:3:")


def test_standard_input_is_held_to_the_same_rule(tmp_path):
    result = toolcat(tmp_path, "list", "-c", "-", stdin=FILES["value.json"][0])
    one_line_error(result, "/dev/stdin:1:35: a lone surrogate")


@pytest.mark.parametrize(("encoding", "named"), [("utf-16", "UTF-16"), ("utf-32", "UTF-32")])
def test_a_utf16_or_utf32_file_is_named_as_such(tmp_path, encoding, named):
    (tmp_path / "wide.json").write_bytes(f"[{TOOL}]".encode(encoding))  # with its BOM
    one_line_error(toolcat(tmp_path, "list", "-c", "wide.json"),
                   f"wide.json:1:1: {named} text (it starts with a {named} byte-order mark)")


def test_a_utf8_bom_is_read_and_invalid_utf8_is_placed(tmp_path):
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf[" + TOOL.encode() + b"]")
    assert toolcat(tmp_path, "list", "-c", "bom.json").returncode == 0
    (tmp_path / "latin1.json").write_bytes(("[" + TOOL.replace("thing", "th\xefng") + "]")
                                           .encode("latin-1"))
    one_line_error(toolcat(tmp_path, "list", "-c", "latin1.json"),
                   "latin1.json:1:53: not UTF-8 text")


def test_nul_characters_are_kept_and_reported_by_lint(tmp_path):
    """`\\u0000` is a character every output can hold (escaped in JSON and YAML): not a load
    error, but TC602 reports it as hidden."""
    (tmp_path / "nul.json").write_text("[" + TOOL.replace("Get the", "Get\\u0000the") + "]")
    converted = toolcat(tmp_path, "convert", "--to", "toolcat", "-c", "nul.json")
    assert converted.returncode == 0 and "Get\\0the" in converted.stdout
    linted = toolcat(tmp_path, "lint", "-c", "nul.json", "--json")
    assert linted.returncode == 1
    assert "TC602" in {f["rule"] for f in json.loads(linted.stdout)["findings"]}


def response(arguments: str) -> str:
    return json.dumps({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "get_weather", "arguments": arguments}}]}}]})


def test_check_call_refuses_arguments_holding_a_lone_surrogate(tmp_path):
    """The response file is sound; the call's arguments are not: the call is refused (exit 1,
    as for arguments that are not JSON) and --json stays printable."""
    (tmp_path / "response.json").write_text(response('{"city": "\\ud800"}'))
    result = toolcat(tmp_path, "check-call", "response.json", "--provider", "openai",
                     "-c", "demo", "--json")
    assert result.returncode == 1, result.stderr
    error = json.loads(result.stdout)["calls"][0]["errors"][0]
    assert error["code"] == "malformed-arguments" and error["pointer"] == "/city"
    assert MESSAGE in error["message"]
    text = toolcat(tmp_path, "check-call", "response.json", "--provider", "openai", "-c", "demo")
    assert text.returncode == 1 and "Traceback" not in text.stderr


def test_check_call_refuses_a_response_file_holding_a_lone_surrogate(tmp_path):
    (tmp_path / "response.json").write_text(json.dumps({"content": [
        {"type": "tool_use", "id": "t1", "name": "get_weather",
         "input": {"city": "\ud800"}}]}))
    result = toolcat(tmp_path, "check-call", "response.json", "--provider", "anthropic",
                     "-c", "demo", "--json")
    one_line_error(result, "response.json:1:")


# --- properties: any JSON string, surrogates included, never ends in a traceback -------------

TEXT = st.text(st.one_of(st.characters(codec="utf-8"),
                         st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
               max_size=12)


def lone(text: str) -> bool:
    """Whether JSON text written with escapes reads back holding a lone surrogate (a high
    surrogate followed by a low one reads back as one character)."""
    return LONE.search(json.loads(json.dumps(text))) is not None


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(description=TEXT, key=TEXT)
def test_random_json_strings_never_give_a_traceback(run, tmp_path, description, key):
    catalog = tmp_path / "random.json"
    catalog.write_text(json.dumps([{
        "name": "get_x", "description": description,
        "parameters": {"type": "object", "properties": {key or "q": {"type": "string"}}}}]))
    for command in (("list", "--json"), ("convert", "--to", "openai"), ("lint", "--json")):
        result = run(*command, "-c", str(catalog))  # an exception would fail the test
        if lone(description) or lone(key):
            assert result.exit_code == 2 and "a lone surrogate" in result.stderr
        else:
            assert result.exit_code in (0, 1), result.stderr
            json.loads(result.stdout)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=TEXT)
def test_random_tool_call_arguments_never_give_a_traceback(run, tmp_path, value):
    path = tmp_path / "response.json"
    path.write_text(response(json.dumps({"location": value})))
    result = run("check-call", str(path), "--provider", "openai", "-c", "demo", "--json")
    codes = {e["code"] for e in json.loads(result.stdout)["calls"][0]["errors"]}
    assert result.exit_code == (1 if lone(value) else 1 if codes else 0)
    assert ("malformed-arguments" in codes) == lone(value)


def test_a_file_name_that_is_not_utf8_is_refused_by_name(tmp_path):
    """A repository can hold `tools/x\\xff.json`: its name reaches list's sources, SARIF and
    error messages, which are UTF-8 text."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / os.fsdecode(b"x\xff.json")).write_text("[" + TOOL + "]")
    for command in (("list",), ("lint", "--format", "sarif")):
        one_line_error(toolcat(tmp_path, *command, "-c", "tools"),
                       "tools/x\\udcff.json: the file name is not UTF-8 text")


def test_a_command_line_argument_that_is_not_utf8_is_refused(tmp_path):
    result = subprocess.run([sys.executable, "-m", "toolcat", "search", b"caf\xe9", "-c", "demo"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert (result.returncode, result.stderr) == (2, "toolcat: error: argument 2 is not UTF-8 "
                                                     "text\n")
