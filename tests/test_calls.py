"""check-call for every provider: good, stringified, malformed, unknown-tool, no-schema and
schema-violating calls, through the CLI and through CallChecker."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.calls.check import CallChecker, parse_arguments
from toolcat.catalog.load import load_catalog
from toolcat.model import ToolCall

NO_SCHEMA = DATA / "calls" / "no-schema.yaml"
GOOD = {"location": "Tokyo", "units": "metric"}

# (id, tool, arguments as the test sends them, expected outcome)
CASES = [
    ("c1", "get_weather", GOOD, "accepted"),
    ("c2", "get_weather", json.dumps(GOOD), "accepted"),  # stringified
    ("c3", "get_weather", '{"location": "Tokyo"', "malformed-arguments"),
    ("c4", "get_wether", {"location": "Tokyo"}, "unknown-tool"),
    ("c5", "run_script", {"script": "rotate-logs"}, "no-schema"),
    ("c6", "open_dashboard", {"view": "latency"}, "unvalidated"),
    ("c7", "get_weather", {"location": "", "units": "kelvin", "days": 3}, "schema-violation"),
]


def openai_args(args):
    return args if isinstance(args, str) else json.dumps(args)


def build_response(provider: str, cases) -> dict:
    """A response of `provider` carrying these calls, in its real wire shape."""
    if provider in ("openai", "mistral"):
        encode = openai_args if provider == "openai" else (lambda a: a)
        calls = [{"id": i, "type": "function", "function": {"name": n, "arguments": encode(a)}}
                 for i, n, a, _ in cases]
        return {"id": "r1", "object": "chat.completion", "choices": [
            {"index": 0, "finish_reason": "tool_calls",
             "message": {"role": "assistant", "content": None, "tool_calls": calls}}]}
    if provider == "openai-responses":
        return {"id": "resp_1", "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            *({"type": "function_call", "id": f"fc_{i}", "call_id": i, "name": n,
               "arguments": openai_args(a), "status": "completed"} for i, n, a, _ in cases)]}
    if provider == "anthropic":
        return {"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
                "content": [{"type": "text", "text": "Let me check."},
                            *({"type": "tool_use", "id": i, "name": n, "input": a}
                              for i, n, a, _ in cases)]}
    if provider == "gemini":
        return {"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"id": i, "name": n, "args": a}} for i, n, a, _ in cases]}}]}
    if provider == "ollama":
        return {"model": "llama3.1", "message": {"role": "assistant", "content": "",
                "tool_calls": [{"function": {"name": n, "arguments": a}}
                               for _, n, a, _ in cases]}}
    if provider == "bedrock":
        return {"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": i, "name": n, "input": a}} for i, n, a, _ in cases]}},
            "stopReason": "tool_use"}
    raise AssertionError(provider)


PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "ollama", "bedrock",
             "mistral"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_call_sorts_every_kind_of_call_for_every_provider(run, tmp_path, provider):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response(provider, CASES), indent=2))
    result = run("check-call", str(response), "--provider", provider, "-c", str(CATALOGS),
                 "-c", str(NO_SCHEMA), "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "fail"
    assert (report["accepted"], report["refused"], report["unvalidated"]) == (3, 4, 1)
    for call, (_, name, _, expected) in zip(report["calls"], CASES, strict=True):
        assert call["name"] == name
        if expected == "accepted":
            assert call["accepted"] and call["validated"] and call["arguments"] == GOOD
        elif expected == "unvalidated":
            assert call["accepted"] and not call["validated"]
            assert call["no_schema_mode"] == "read-only"
            assert call["arguments"] == {"view": "latency"}
        else:
            assert not call["accepted"]
            assert {e["code"] for e in call["errors"]} == {expected}
        assert call["where"]["line"] > 1


def test_schema_violations_are_reported_at_their_json_pointer(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("anthropic", CASES[-1:])))
    result = run("check-call", str(response), "--provider", "anthropic", "--json")
    errors = json.loads(result.stdout)["calls"][0]["errors"]
    assert [(e["pointer"], e["keyword"]) for e in errors] == [
        ("", "additionalProperties"), ("/location", "minLength"), ("/units", "enum")]
    assert '"kelvin" is not one of ["metric", "imperial", "standard"]' in errors[2]["message"]


def test_the_text_report_names_each_call_by_file_line_and_column(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("openai", CASES[:4]), indent=2))
    result = run("check-call", str(response), "--provider", "openai")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{response}:") and "get_weather (c1)  accepted" in lines[0]
    assert "did you mean get_weather" in result.output
    assert lines[-1] == "4 calls: 2 accepted, 2 refused"


def test_a_response_whose_calls_are_all_valid_exits_0(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("gemini", CASES[:2])))
    result = run("check-call", str(response), "--provider", "gemini")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "2 calls: 2 accepted, 0 refused"


def test_a_reply_without_tool_calls_is_clean(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps({"choices": [{"message": {"role": "assistant",
                                                             "content": "Hello!"}}]}))
    result = run("check-call", str(response), "--provider", "openai", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["calls"] == []


def test_a_response_of_another_provider_is_an_error_naming_the_file(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("anthropic", CASES[:1])))
    result = run("check-call", str(response), "--provider", "bedrock")
    assert result.exit_code == 2
    assert f"{response}: not a Bedrock Converse response: expected output.message.content[]" \
        in result.output


def test_a_response_that_is_not_json_is_an_error_with_its_position(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text('{"choices": [\n  {"message": }\n]}')
    result = run("check-call", str(response), "--provider", "openai")
    assert result.exit_code == 2
    assert f"{response}:2:" in result.output


def test_provider_or_format_must_be_given(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text("{}")
    result = run("check-call", str(response))
    assert result.exit_code == 2
    assert "--provider" in result.output and "--format" in result.output


@pytest.fixture(scope="module")
def checker() -> CallChecker:
    return CallChecker(load_catalog([CATALOGS, NO_SCHEMA]))


def test_a_validator_is_compiled_once_per_tool(checker):
    tool = checker.catalog.get("get_weather")
    assert checker.validator(tool) is checker.validator(tool)


def test_nested_refs_enums_and_formats_are_validated(checker):
    good = {"summary": "Sync", "start": {"date_time": "2025-03-14T15:00:00+00:00"},
            "end": {"date": "2025-03-14"}, "attendees": [{"email": "ana@example.com"}]}
    assert checker.check(ToolCall("create_event", good)).accepted
    bad = {**good, "start": {"date": "2025-13-01"}, "attendees": [{"email": "ana"}]}
    errors = checker.check(ToolCall("create_event", bad)).errors
    assert [(e.pointer, e.keyword) for e in errors] == [
        ("/attendees/0/email", "format"), ("/start/date", "format")]


def test_a_tool_that_allows_no_schema_but_names_no_mode_fails_closed(tmp_path):
    catalog = tmp_path / "tools.yaml"
    catalog.write_text("tools:\n  - name: poke\n    allow_no_schema: true\n")
    checked = CallChecker(load_catalog(catalog)).check(ToolCall("poke", {}))
    assert not checked.accepted
    assert "names no no_schema_mode" in checked.errors[0].message


def test_a_tool_name_shared_by_two_servers_is_ambiguous_unless_qualified(tmp_path):
    catalog = tmp_path / "tools.yaml"
    catalog.write_text("tools:\n"
                       "  - {name: ping, server: a, parameters: {type: object}}\n"
                       "  - {name: ping, server: b, parameters: {type: object}}\n")
    checker = CallChecker(load_catalog(catalog))
    assert checker.check(ToolCall("ping", {})).errors[0].code == "ambiguous-tool"
    assert checker.check(ToolCall("b:ping", {})).tool.server == "b"


def test_references_into_other_files_are_followed_when_validating(data):
    checker = CallChecker(load_catalog(data / "refs" / "file-ref.yaml"))
    good = {"name": "Ana", "address": {"country": "PT"}, "tags": ["work"]}
    assert checker.check(ToolCall("add_contact", good)).accepted
    bad = {"name": "Ana", "address": {"country": "FR"}, "tags": [3]}
    errors = checker.check(ToolCall("add_contact", bad)).errors
    assert [(e.pointer, e.keyword) for e in errors] == [
        ("/address/country", "enum"), ("/tags/0", "type")]


@pytest.mark.parametrize(("raw", "code"), [
    ("[1, 2]", "arguments-not-object"),
    ('"{\\"a\\": 1}"', "arguments-not-object"),
    ("", "malformed-arguments"),
    (7, "arguments-not-object"),
])
def test_arguments_must_parse_to_an_object(raw, code):
    value, error = parse_arguments(raw)
    assert value is None and error.code == code


def test_missing_arguments_are_an_empty_object():
    assert parse_arguments(None) == ({}, None)


def test_calls_to_builtin_tools_are_known_unless_turned_off(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("anthropic", [
        ("b1", "tool_search", {"query": "send a slack message"}, "accepted")])))
    result = run("check-call", str(response), "--provider", "anthropic", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["calls"][0]["tool"] == "builtin:tool_search"
    result = run("check-call", str(response), "--provider", "anthropic", "--no-builtins")
    assert result.exit_code == 1
    assert "no tool named 'tool_search'" in result.stdout


def test_messages_show_the_values_as_json_not_python(run, tmp_path):
    # a model sent null for a number: the message says null, as the JSON had it, not None
    response = tmp_path / "response.json"
    response.write_text(json.dumps(build_response("anthropic", [
        ("c8", "get_weather", {"location": True, "units": None, "days": 3},
         "schema-violation")])))
    result = run("check-call", str(response), "--provider", "anthropic", "--json")
    messages = [e["message"] for e in json.loads(result.stdout)["calls"][0]["errors"]]
    assert any(m.startswith("null is not") for m in messages), messages
    assert any(m.startswith("true is not of type") for m in messages), messages
    assert not any("None" in m or "True" in m or "'" in m for m in messages), messages


@pytest.mark.parametrize("json_", [False, True])
def test_a_lone_surrogate_a_model_wrote_refuses_the_call_without_a_traceback(run, tmp_path,
                                                                              json_):
    """`\\ud800` in a text completion's tool name decodes to a lone surrogate, which no
    output can encode: the call is refused, like one whose arguments hold one, and every
    report prints (it once ended in a UnicodeEncodeError, exit 1)."""
    completion = tmp_path / "completion.txt"
    completion.write_text('<tool_call>{"name": "get_\\ud800weather", "arguments": '
                          '{"location": "\\udc00"}}</tool_call>\n'
                          '<tool_call>{"name": "get_weather", "arguments": '
                          '{"location": "\\ud800"}}</tool_call>')
    result = run("check-call", str(completion), "-f", "hermes", "-c", str(CATALOGS),
                 *(["--json"] if json_ else []))
    assert result.exit_code == 1 and "Traceback" not in result.output
    if json_:
        named, valued = json.loads(result.stdout)["calls"]
        assert named["name"] == "get_\\ud800weather" and not named["accepted"]
        assert named["errors"][0]["code"] == "malformed-call"
        assert valued["arguments"] == {"location": "\ud800"}  # the escape reads back as it was
        assert valued["errors"][0]["code"] == "malformed-arguments"
    else:
        assert "get_\\ud800weather  refused" in result.stdout
        assert "the tool name is refused: a lone surrogate" in result.stdout


def test_a_call_name_a_model_wrote_is_shown_escaped(run, tmp_path):
    completion = tmp_path / "completion.txt"
    completion.write_text('<tool_call>{"name": "get_weather\\u202e\\u001b[2J", '
                          '"arguments": {}}</tool_call>')
    result = run("check-call", str(completion), "-f", "hermes", "-c", str(CATALOGS))
    assert result.exit_code == 1
    assert "\u202e" not in result.stdout and "\x1b" not in result.stdout
    assert "no tool named 'get_weather\\u202e\\u001b[2J'" in result.stdout
