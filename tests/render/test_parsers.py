"""Completions in the text formats are read back into calls: hermes, mistral (every tokenizer
version), pythonic (with ast, never evaluated) and json; through check-call too."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.render.formats import FORMATS

NO_SCHEMA = DATA / "calls" / "no-schema.yaml"


def parse(fmt: str, text: str):
    return FORMATS[fmt].parse(text)


def simple(calls):
    return [(c.name, c.arguments, c.error) for c in calls]


def test_hermes_reads_every_tool_call_block():
    text = ('Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Oslo"}}'
            '\n</tool_call>\n<tool_call>\n{"arguments": {"location": "Rome"}, '
            '"name": "weather_forecast"}\n</tool_call>')
    calls = parse("hermes", text)
    assert simple(calls) == [("get_weather", {"location": "Oslo"}, None),
                             ("weather_forecast", {"location": "Rome"}, None)]
    assert (calls[0].line, calls[0].column) == (2, 1)
    assert (calls[1].line, calls[1].column) == (5, 1)


def test_hermes_accepts_a_python_dict_and_an_unclosed_last_block():
    text = "<tool_call>\n{'name': 'get_weather', 'arguments': {'location': 'Oslo'}}"
    assert simple(parse("hermes", text)) == [("get_weather", {"location": "Oslo"}, None)]


def test_hermes_reports_a_block_that_is_not_json():
    (call,) = parse("hermes", "<tool_call>{name: get_weather}</tool_call>")
    assert call.name == "" and "not JSON" in call.error


def test_hermes_without_tool_calls_is_a_plain_reply():
    assert parse("hermes", "It is sunny in Oslo.") == []


@pytest.mark.parametrize("text", [
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"location": "Oslo"}, "id": "a1B2c3D4e"}]',
    '[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"location": "Oslo"}',
    '[TOOL_CALLS]get_weather[ARGS]{"location": "Oslo"}',
    '[TOOL_CALLS]get_weather{"location": "Oslo"}',
])
def test_mistral_reads_the_call_syntax_of_every_tokenizer_version(text):
    (call,) = parse("mistral", text)
    assert (call.name, call.arguments, call.error) == ("get_weather", {"location": "Oslo"}, None)


def test_mistral_reads_several_calls_and_keeps_their_ids():
    text = ('[TOOL_CALLS]get_weather[CALL_ID]abcDEF123[ARGS]{"location": "Oslo"}'
            '[TOOL_CALLS]weather_forecast[CALL_ID]xyzXYZ789[ARGS]{"location": "Rome", "days": 2}')
    calls = parse("mistral", text)
    assert [(c.name, c.id) for c in calls] == [("get_weather", "abcDEF123"),
                                               ("weather_forecast", "xyzXYZ789")]
    assert calls[1].arguments == {"location": "Rome", "days": 2}


def test_mistral_keeps_unreadable_arguments_for_check_to_refuse():
    (call,) = parse("mistral", '[TOOL_CALLS]get_weather[ARGS]{"location": "Oslo"')
    assert call.name == "get_weather" and call.arguments == '{"location": "Oslo"'


def test_mistral_without_the_token_is_a_plain_reply():
    assert parse("mistral", "The weather in Oslo is mild.") == []


def test_pythonic_reads_a_list_of_calls_with_literal_values():
    text = "[get_weather(location='San Francisco', units='metric'), " \
           "run_query(sql='SELECT 1', params=[1, None, True, (2, 3)], max_rows=-5)]"
    assert simple(parse("pythonic", text)) == [
        ("get_weather", {"location": "San Francisco", "units": "metric"}, None),
        ("run_query", {"sql": "SELECT 1", "params": [1, None, True, [2, 3]], "max_rows": -5},
         None),
    ]


def test_pythonic_accepts_the_python_tag_and_a_single_call():
    assert simple(parse("pythonic", '<|python_tag|>get_weather(location="Oslo")<|eot_id|>')) \
        == [("get_weather", {"location": "Oslo"}, None)]


@pytest.mark.parametrize(("text", "error"), [
    ("[get_weather('Oslo')]", "keyword arguments only"),
    ("[get_weather(**{'location': 'Oslo'})]", "keyword arguments only"),
    ("[get_weather(location=city)]", "not a literal"),
    ("[get_weather(location={1, 2})]", "not a literal"),
    ("[__import__('os').system('touch /tmp/pwned')]", "does not name a function"),
    ("[get_weather(location='Oslo'), 42]", "not a function call"),
    ("[get_weather(location='Oslo'", "not a Python list of calls"),
])
def test_pythonic_refuses_what_is_not_a_literal_keyword_call(text, error, tmp_path):
    calls = parse("pythonic", text)
    assert any(c.error and error in c.error for c in calls)


def test_pythonic_never_evaluates_the_completion(tmp_path):
    target = tmp_path / "pwned"
    parse("pythonic", f"[open(file={str(target)!r}, mode='w')]")
    parse("pythonic", f"[get_weather(location=open({str(target)!r}, 'w'))]")
    assert not target.exists()


def test_pythonic_prose_is_a_plain_reply():
    assert parse("pythonic", "I (the assistant) cannot help with that.") == []


@pytest.mark.parametrize("text", [
    '{"name": "get_weather", "parameters": {"location": "Oslo"}}',
    '<|python_tag|>{"type": "function", "name": "get_weather", "parameters": {"location": "Oslo"}}',
    '{"name": "get_weather", "arguments": {"location": "Oslo"}}',
    '{"tool_call": {"name": "get_weather", "arguments": {"location": "Oslo"}}}',
    '[{"name": "get_weather", "arguments": {"location": "Oslo"}}]',
])
def test_json_reads_the_common_key_conventions(text):
    assert simple(parse("json", text)) == [("get_weather", {"location": "Oslo"}, None)]


def test_json_reads_several_calls_separated_by_semicolons():
    text = '{"name": "get_weather", "parameters": {"location": "Oslo"}}; ' \
           '{"name": "get_weather", "parameters": {"location": "Rome"}}'
    assert [c.arguments["location"] for c in parse("json", text)] == ["Oslo", "Rome"]


def test_json_reads_a_response_without_a_call_as_a_plain_reply():
    assert parse("json", '{"response": "Hello!"}') == []
    assert parse("json", "Hello!") == []


def test_json_reports_broken_json():
    (call,) = parse("json", '{"name": "get_weather", "parameters": {"location": ')
    assert call.error.startswith("not JSON")


COMPLETIONS = {
    "hermes": [
        '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Tokyo"}}\n</tool_call>',
        '<tool_call>\n{"name": "get_weather", "arguments": "{\\"location\\": \\"Tokyo\\"}"}\n'
        '</tool_call>',
        '<tool_call>\n{"name": "get_weather", "arguments": "{\\"location\\": "}\n</tool_call>',
        '<tool_call>\n{"name": "get_wether", "arguments": {}}\n</tool_call>',
        '<tool_call>\n{"name": "run_script", "arguments": {}}\n</tool_call>',
        '<tool_call>\n{"name": "get_weather", "arguments": {"units": "kelvin"}}\n</tool_call>',
    ],
    "mistral": [
        '[TOOL_CALLS]get_weather[ARGS]{"location": "Tokyo"}',
        '[TOOL_CALLS][{"name": "get_weather", "arguments": "{\\"location\\": \\"Tokyo\\"}"}]',
        '[TOOL_CALLS]get_weather[ARGS]{"location": ',
        '[TOOL_CALLS]get_wether[ARGS]{}',
        '[TOOL_CALLS]run_script[ARGS]{}',
        '[TOOL_CALLS]get_weather[ARGS]{"units": "kelvin"}',
    ],
    "pythonic": [
        "[get_weather(location='Tokyo')]",
        "[get_weather(location='Tokyo')]",
        "[get_weather(location='Tokyo'",
        "[get_wether()]",
        "[run_script()]",
        "[get_weather(units='kelvin')]",
    ],
    "json": [
        '{"name": "get_weather", "parameters": {"location": "Tokyo"}}',
        '{"name": "get_weather", "parameters": "{\\"location\\": \\"Tokyo\\"}"}',
        '{"name": "get_weather", "parameters": "{\\"location\\": "}',
        '{"name": "get_wether", "parameters": {}}',
        '{"name": "run_script", "parameters": {}}',
        '{"name": "get_weather", "parameters": {"units": "kelvin"}}',
    ],
}
EXPECTED = [None, None, {"malformed-arguments", "malformed-call"}, {"unknown-tool"},
            {"no-schema"}, {"schema-violation"}]


@pytest.mark.parametrize("fmt", list(COMPLETIONS))
@pytest.mark.parametrize("case", range(6))
def test_check_call_reads_text_completions(run, tmp_path, fmt, case):
    completion = tmp_path / "completion.txt"
    completion.write_text(COMPLETIONS[fmt][case])
    result = run("check-call", str(completion), "--format", fmt, "-c", str(CATALOGS),
                 "-c", str(NO_SCHEMA), "--json")
    (call,) = json.loads(result.stdout)["calls"]
    if EXPECTED[case] is None:
        assert result.exit_code == 0 and call["accepted"] and call["validated"]
        assert call["arguments"] == {"location": "Tokyo"}
    else:
        assert result.exit_code == 1
        assert {e["code"] for e in call["errors"]} <= EXPECTED[case]


def test_code_and_native_have_no_completion_parser(run, tmp_path):
    completion = tmp_path / "completion.txt"
    completion.write_text("print(1)")
    result = run("check-call", str(completion), "--format", "code")
    assert result.exit_code == 2
    assert "known: hermes, mistral, pythonic, json" in result.output
