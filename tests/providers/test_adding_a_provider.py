"""A provider is one module and one registry entry (docs/adding-a-provider.md): a provider
written at test time, registered in PROVIDERS and nowhere else, is read and detected as a
shape, linted against with `--target`, rendered with `--provider`, priced by `tokens`, and
its calls are checked, through the real CLI on the real demo catalog."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CATALOGS, REPO
from toolcat.catalog.load import load_catalog
from toolcat.model import compact_json
from toolcat.providers import PROVIDERS
from toolcat.providers.tokens import count_tokens

ACME = '''
    """Acme chat: tools `[{kind: "acme-tool", name, summary, input}]`; a response carries its
    calls in `calls[]` as `{name, input}`."""

    from toolcat.providers.contract import Limits, Provider
    from toolcat.providers.reading import BASE_FIELDS, Fields
    from toolcat.providers.replies import locate, named_call
    from toolcat.providers.writing import (
        deferred_left_out, drop_none, object_schema, with_model, written_tools)
    from toolcat.providers.names import NameRule
    from toolcat.providers.targets import LintTarget
    from toolcat.providers.tokens import TokenRule

    KEYS = {"kind", "name", "summary", "input"}


    def claims(item):
        return 3 if item.get("kind") == "acme-tool" else 0


    def read_tool(item, ctx):
        fields = Fields(item, ctx)
        return ctx.tool(item, "acme", ctx.pointer_to("input"), name=fields.name(),
                        description=fields.text("summary"), parameters=fields.schema("input"),
                        extra=fields.rest(KEYS))


    def write_tool(tool):
        notes = []
        return drop_none({"kind": "acme-tool", "name": tool.name,
                          "summary": tool.description or None,
                          "input": object_schema(tool, notes, "Acme")}), notes


    def request(req):
        notes = []
        body = {"ask": req.query, "prompt": req.system}
        if req.tools:
            body["tools"] = written_tools(req.tools, write_tool, notes)
        deferred_left_out(req, "Acme chat", notes)
        return with_model(req, body), notes


    def parse_calls(response):
        return [named_call(item, "name", "input", pointer)
                for item, pointer in locate(response, ("calls/*",), "Acme chat")]


    PROVIDER = Provider(
        name="acme",
        label="Acme chat",
        carries=BASE_FIELDS,
        claims=claims,
        read_tool=read_tool,
        write_tool=write_tool,
        wrap=lambda items, servers: {"tools": items},
        limits=Limits(names=NameRule("a-z_", max_length=12), max_tools=3),
        request=request,
        parse_calls=parse_calls,
        lint_targets=(LintTarget(name="acme", label="Acme chat", description_max=40,
                                 property_name_pattern=r"^[a-z]+$",
                                 max_tools_note="Acme's API reference"),),
        tokens=TokenRule(basis="Acme keeps its tokenizer to itself",
                         overhead=lambda model: (77, "Acme's hidden tool preamble")),
    )
'''


@pytest.fixture
def acme(pymodule: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The Acme provider module, written to a file, imported, and registered: the one entry a
    new provider adds to toolcat/providers/__init__.py."""
    pymodule("acme_provider.py", ACME)
    module = importlib.import_module("acme_provider")
    monkeypatch.setitem(PROVIDERS, "acme", module.PROVIDER)
    return module


def report(result: Any) -> Any:
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_lint_checks_a_catalog_against_the_new_target(acme, run):
    findings = report(run("lint", "-c", "demo", "--target", "acme", "--json"))["findings"]
    acme_rules = {f["rule"] for f in findings if f.get("target") == "acme"}
    assert acme_rules == {"TC202", "TC403", "TC405", "TC406"}
    messages = "\n".join(f["message"] for f in findings if f.get("target") == "acme")
    assert "72 tools; Acme chat accepts at most 3 in one request (Acme's API reference)" \
        in messages
    assert "Acme chat rejects the parameter name 'min_access_role'" in messages
    assert "Acme chat rejects the name 'list_calendars': it must match ^[a-z_]{1,12}$" \
        in messages
    assert "the description is 190 characters; Acme chat rejected more than 40" in messages


def test_all_targets_list_the_new_provider_after_the_built_in_ones(acme, run):
    targets = report(run("lint", "-c", "demo", "--target", "all", "--select", "TC403",
                         "--json"))["targets"]
    assert targets == ["openai", "anthropic", "gemini", "ollama", "bedrock", "mistral", "acme"]


def test_render_builds_the_new_providers_request_and_prices_it(acme, run, shared_cache):
    rendered = report(run("render", "-c", "demo", "what is the weather in Paris",
                          "--provider", "acme", "--json"))
    payload = rendered["payload"]
    assert payload["ask"] == "what is the weather in Paris"
    assert payload["tools"] and all(t["kind"] == "acme-tool" for t in payload["tools"])
    method = rendered["tokens"]["method"]
    assert method["label"] == "estimate via o200k_base"
    assert method["basis"].startswith("Acme keeps its tokenizer to itself")
    assert rendered["tokens"]["overhead"] == 77
    assert method["overhead_basis"] == "Acme's hidden tool preamble"


def test_tokens_price_every_tool_as_the_new_provider_writes_it(acme, run):
    cost = report(run("tokens", "-c", "demo", "--provider", "acme", "--json"))
    demo = load_catalog([CATALOGS])  # what `-c demo` names
    expected = sum(count_tokens(compact_json(acme.write_tool(tool)[0])) for tool in demo.tools)
    assert cost["shape"] == "acme"
    assert cost["total"] == expected
    assert cost["method"]["basis"].startswith("Acme keeps its tokenizer to itself")


def test_a_file_in_the_new_shape_is_detected_and_its_calls_checked(acme, run, tmp_path):
    tools = tmp_path / "acme-tools.json"
    tools.write_text(json.dumps({"tools": [
        {"kind": "acme-tool", "name": "get_forecast", "summary": "Forecast for a city.",
         "input": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}]}))
    listed = report(run("list", "-c", str(tools), "--json"))
    assert [t["name"] for t in listed["tools"]] == ["get_forecast"]
    assert load_catalog([str(tools)]).tools[0].shape == "acme"

    good = tmp_path / "good.json"
    good.write_text(json.dumps({"calls": [{"name": "get_forecast", "input": {"city": "Oslo"}}]}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"calls": [{"name": "get_forecast", "input": {}}]}))
    assert run("check-call", str(good), "-c", str(tools), "--provider", "acme").exit_code == 0
    refused = run("check-call", str(bad), "-c", str(tools), "--provider", "acme")
    assert refused.exit_code == 1 and "city" in refused.output


def test_the_shape_round_trips_like_every_registered_one(acme, tmp_path):
    from tests.catalog.test_shapes import FULL, assert_kept, written_and_read

    tools = load_catalog(FULL).tools
    back = written_and_read(tools, "acme", tmp_path)
    assert [t.name for t in back] == [t.name for t in tools]
    for original, copy in zip(tools, back, strict=True):
        assert_kept(original, copy, acme.PROVIDER.carries)
        assert copy.shape == "acme"


def test_the_walkthroughs_module_works_as_written(pymodule, monkeypatch, run, shared_cache):
    text = (REPO / "docs" / "adding-a-provider.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    module_text = next(block for block in blocks if "PROVIDER = Provider(" in block)
    pymodule("acme_walkthrough.py", module_text)
    module = importlib.import_module("acme_walkthrough")
    monkeypatch.setitem(PROVIDERS, "acme", module.PROVIDER)

    rendered = report(run("render", "-c", "demo", "what is the weather in Paris",
                          "--provider", "acme", "--json"))
    assert all(t["kind"] == "acme-tool" for t in rendered["payload"]["tools"])
    assert rendered["tokens"]["method"]["basis"].startswith("Acme publishes no tokenizer")
    linted = report(run("lint", "-c", "demo", "--target", "acme", "--select", "TC405",
                        "--json"))
    assert linted["targets"] == ["acme"]
