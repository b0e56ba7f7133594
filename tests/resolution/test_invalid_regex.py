"""One behaviour for an invalid regex in tool search: `toolcat search` and a model's
search_tools step both give the invalid-pattern error, word for word; the gateway search keeps
that seed's keyword fallback."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA

TOOLS = str(DATA / "resolve" / "tools.yaml")


@pytest.mark.slow  # loads the embedding model (the default scorer)
@pytest.mark.parametrize("pattern", ["missing (", "[unclosed", "(?<=get_)weather", r"(\w)\1"])
def test_the_command_and_the_step_give_the_same_error(run, write, pattern):
    command = run("search", pattern, "-c", TOOLS)
    assert command.exit_code == 2
    error = command.stderr.removeprefix("toolcat: error: ").split(" (escape the special")[0]
    assert error.startswith("invalid regex pattern: ")
    profile = write("tool_search_mode: {enabled: true}\n")
    script = write("query: weather\nsteps:\n  - search_tools: {query: " + json.dumps(pattern)
                   + "}\n", "steps.yaml")
    session = json.loads(run("resolve", "-c", TOOLS, "-p", str(profile), "--steps",
                             str(script), "--json").stdout)
    step = session["steps"][0]
    assert step["rule"] == "search-invalid-regex"
    assert step["response"] == {"error": error}


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_the_gateway_search_still_falls_back_to_keywords(run, write):
    profile = write("builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
                    "gateway: {strategy: tool-search}\n")
    script = write("query: weather\nsteps:\n  - gateway_search_tools: {query: '(weather'}\n",
                   "steps.yaml")
    session = json.loads(run("resolve", "-c", TOOLS, "-p", str(profile), "--steps",
                             str(script), "--json").stdout)
    step = session["steps"][0]
    assert step["rule"] == "gateway-search-keyword"
    assert "get_weather" in step["added"]
