"""Every request toolcat renders passes the provider SDK's own types: openai's
ChatCompletionToolParam and Responses ToolParam, anthropic's ToolUnionParam, google-genai's Tool
model, botocore's Converse input shape and mistralai's Tool model, for the bundled demo catalog
and for a catalog of hard cases (shared names, dotted, long and spaced names, parameterless
tools, BFCL type names, nested schemas). Names are checked against each provider's rule."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import CATALOGS, DATA
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog
from toolcat.providers import PROVIDERS
from toolcat.render import RenderInput, render

HARD = [DATA / "providers" / "hard.yaml", DATA / "providers" / "bfcl.json"]

# The documented name rules (../shared/reference/provider-formats.md §0, §4, §6, §7).
NAME_RULES = {
    "openai": r"^[a-zA-Z0-9_-]{1,64}$",
    "openai-responses": r"^[a-zA-Z0-9_-]{1,64}$",
    "anthropic": r"^[a-zA-Z0-9_-]{1,64}$",
    "gemini": r"^[A-Za-z_][a-zA-Z0-9_.:-]{0,127}$",
    "bedrock": r"^[a-zA-Z0-9_-]{1,64}$",
    "mistral": r"^[a-zA-Z0-9_-]{1,64}$",
    "ollama": r"^.+$",
}


def validate_openai(payload: dict) -> list[str]:
    from openai.types.chat import ChatCompletionToolParam
    from pydantic import TypeAdapter

    TypeAdapter(list[ChatCompletionToolParam]).validate_python(payload["tools"])
    return [t["function"]["name"] for t in payload["tools"]]


def validate_openai_responses(payload: dict) -> list[str]:
    from openai.types.responses import ToolParam
    from pydantic import TypeAdapter

    TypeAdapter(list[ToolParam]).validate_python(payload["tools"])
    functions = [t for t in payload["tools"] if t["type"] == "function"]
    # Required in FunctionToolParam (a missing `strict` means strict to the API)
    assert all(isinstance(t["strict"], bool) and "parameters" in t for t in functions)
    return [t["name"] for t in functions]


def validate_anthropic(payload: dict) -> list[str]:
    from anthropic.types import ToolUnionParam
    from pydantic import TypeAdapter

    TypeAdapter(list[ToolUnionParam]).validate_python(payload["tools"])
    custom = [t for t in payload["tools"] if "input_schema" in t]
    assert all(t["input_schema"]["type"] == "object" for t in custom)
    return [t["name"] for t in custom]


def validate_gemini(payload: dict) -> list[str]:
    from google.genai import types

    names = []
    for item in payload["tools"]:
        tool = types.Tool.model_validate(item)  # extra="forbid": unknown keys fail
        for declaration in tool.function_declarations or ():
            params = declaration.parameters
            # the widely reported 400: an OBJECT with no properties
            assert params is None or params.properties or params.any_of, declaration.name
            names.append(declaration.name)
    return names


def validate_bedrock(payload: dict) -> list[str]:
    import botocore.session
    from botocore.validate import ParamValidator

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    shape = model.operation_model("Converse").input_shape
    report = ParamValidator().validate({"modelId": "m", **payload}, shape)
    assert not report.has_errors(), report.generate_report()
    return [t["toolSpec"]["name"] for t in payload["toolConfig"]["tools"]]


def validate_mistral(payload: dict) -> list[str]:
    from mistralai.client.models import Tool

    for item in payload["tools"]:
        Tool.model_validate(item)
    return [t["function"]["name"] for t in payload["tools"]]


def validate_ollama(payload: dict) -> list[str]:
    assert all(t["type"] == "function" for t in payload["tools"])
    return [t["function"]["name"] for t in payload["tools"]]


VALIDATORS: dict[str, Callable[[dict], list[str]]] = {
    "openai": validate_openai,
    "openai-responses": validate_openai_responses,
    "anthropic": validate_anthropic,
    "gemini": validate_gemini,
    "bedrock": validate_bedrock,
    "mistral": validate_mistral,
    "ollama": validate_ollama,
}


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {"demo": load_catalog(CATALOGS), "hard": load_catalog(HARD)}


def payload_of(catalog: Catalog, provider: str) -> tuple[Any, Any]:
    inp = RenderInput(query="do it", tools=catalog.tools, universe=catalog.tools,
                      documents=catalog.documents)
    rendered = render(inp, provider)
    return rendered, rendered.payload


def test_every_request_provider_is_validated():
    assert set(VALIDATORS) == {n for n, p in PROVIDERS.items() if p.request}


@pytest.mark.parametrize("provider", sorted(NAME_RULES))
def test_name_rules_are_the_documented_ones(provider):
    assert PROVIDERS[provider].limits.name_pattern == NAME_RULES[provider]


@pytest.mark.parametrize("which", ["demo", "hard"])
@pytest.mark.parametrize("provider", sorted(VALIDATORS))
def test_every_payload_passes_the_sdk_types(catalogs, which, provider):
    catalog = catalogs[which]
    rendered, payload = payload_of(catalog, provider)
    names = VALIDATORS[provider](payload)
    assert len(names) == len(catalog.tools)
    assert len(set(names)) == len(names), "a name sent twice"
    assert all(re.fullmatch(NAME_RULES[provider], n) for n in names), names
    assert rendered.rejected == ()


def test_hard_cases_are_mapped_not_sent_as_they_are(catalogs):
    rendered, payload = payload_of(catalogs["hard"], "openai")
    sent = {t["function"]["name"] for t in payload["tools"]}
    assert {"github__search", "jira__search", "github__read_file", "jira__read_file",
            "Math_sum", "TwoSum_twoSum", "list_repos"} <= sent
    long = [n for n in sent if n.startswith("get_the_current_status")]
    assert len(long) == 1 and len(long[0]) == 64 and re.search(r"_[0-9a-f]{8}$", long[0])
    assert rendered.names["jira:Math.sum"] == "Math_sum"
    assert rendered.names["bfcl:TwoSum.twoSum"] == "TwoSum_twoSum"


def test_gemini_sends_parameterless_tools_without_parameters(catalogs):
    _, payload = payload_of(catalogs["hard"], "gemini")
    declared = {d["name"]: d for d in payload["tools"][0]["functionDeclarations"]}
    assert "parameters" not in declared["ping"]
    assert "parameters" not in declared["list_repos"]
    assert declared["Math.sum"]["parameters"]["type"] == "OBJECT"  # Gemini allows dots


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_what_a_provider_would_still_refuse_is_an_error_and_exit_1(run, tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("tools:\n"
                    "  - name: send\n    description: Send a message.\n"
                    "    parameters: {type: object, properties: {to: {type: address}}}\n"
                    "  - name: count\n    description: Count things.\n"
                    "    parameters: {type: integer}\n")
    result = run("render", "send a message", "-c", str(path), "--provider", "anthropic")
    assert result.exit_code == 1
    assert "error: send: type 'address' is not a JSON Schema type" in result.stderr
    assert "error: count: Anthropic Messages needs an object schema at the root" in result.stderr
    assert '"tools"' in result.stdout  # the payload is still written, for inspection
