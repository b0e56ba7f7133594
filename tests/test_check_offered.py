"""check-call accepts only calls to tools that were offered: those the rendered request put in
front of the model (`--request`, render's --json output), else the catalog's own tools and
the built-ins the profile shows. A model that calls anything else was steered or is guessing."""

from __future__ import annotations

import json

import pytest

from tests.test_calls import build_response

# python_execution: never shown by the default profile (it needs the code format)
CALLS = [("c1", "python_execution", {"code": "import os; os.system('id')"}, "refused"),
         ("c2", "tool_search", {"query": "send a slack message"}, "accepted"),
         ("c3", "get_weather", {"location": "Tokyo"}, "accepted")]


@pytest.fixture
def response(tmp_path):
    path = tmp_path / "response.json"
    path.write_text(json.dumps(build_response("anthropic", CALLS)))
    return path


def outcome(result) -> dict[str, tuple[bool, list[str]]]:
    calls = json.loads(result.stdout)["calls"]
    return {c["name"]: (c["accepted"], [e["code"] for e in c["errors"]]) for c in calls}


def test_a_builtin_the_profile_never_showed_is_refused_by_default(run, response):
    result = run("check-call", str(response), "--provider", "anthropic", "--json")
    assert result.exit_code == 1
    assert outcome(result) == {"python_execution": (False, ["not-offered"]),
                               "tool_search": (True, []), "get_weather": (True, [])}
    text = run("check-call", str(response), "--provider", "anthropic")
    assert "was not offered to the model: profile 'default' shows no such built-in" in \
        text.stdout


def test_a_profile_that_shows_the_builtin_accepts_it(run, response):
    result = run("check-call", str(response), "--provider", "anthropic", "--json",
                 "-p", "large-model-native")
    assert result.exit_code == 0, result.stdout


def test_builtins_opts_in_to_every_builtin_and_no_builtins_out_of_all(run, response):
    assert run("check-call", str(response), "--provider", "anthropic",
               "--builtins").exit_code == 0
    result = run("check-call", str(response), "--provider", "anthropic", "--no-builtins",
                 "--json")
    assert outcome(result)["python_execution"] == (False, ["unknown-tool"])


def test_the_rendered_request_decides_what_was_offered(run, tmp_path, shared_cache):
    request = tmp_path / "request.json"
    rendered = run("render", "weather in tokyo", "--json")
    assert rendered.exit_code == 0
    request.write_text(rendered.stdout)
    shown = json.loads(rendered.stdout)["tools"]
    assert "weather:get_weather" in shown["payload"]
    deferred = shown["deferred"][0].split(":", 1)[1]  # a catalog tool the model never saw
    path = tmp_path / "response.json"
    path.write_text(json.dumps(build_response("anthropic", [
        ("c1", "get_weather", {"location": "Tokyo"}, "accepted"),
        ("c2", deferred, {}, "refused"),
        ("c3", "python_execution", {"code": "1"}, "refused")])))
    result = run("check-call", str(path), "--provider", "anthropic", "--json",
                 "--request", str(request))
    assert result.exit_code == 1
    found = outcome(result)
    assert found["get_weather"] == (True, [])
    assert found[deferred] == (False, ["not-offered"])
    assert found["python_execution"] == (False, ["not-offered"])
    # a request that carries the deferred tools (defer_loading) offers them: the model can
    # load them with the provider's tool search
    carried = run("render", "weather in tokyo", "--json", "--provider", "anthropic")
    request.write_text(carried.stdout)
    result = run("check-call", str(path), "--provider", "anthropic", "--json",
                 "--request", str(request))
    assert outcome(result)[deferred][1] != ["not-offered"]


def test_a_request_file_that_is_not_renders_output_is_a_clear_error(run, response, tmp_path):
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"model": "x", "tools": []}))
    result = run("check-call", str(response), "--provider", "anthropic",
                 "--request", str(request))
    assert result.exit_code == 2
    assert "not the output of `toolcat render --json`" in result.stderr
    assert "Traceback" not in result.stderr
