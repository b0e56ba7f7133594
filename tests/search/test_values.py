"""Typed values a request names as evidence of the argument a tool takes
(toolcat.search.values). Model-free, but for the last tests, which rank through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import pytest

from tests.conftest import servers_of
from toolcat.model import Tool
from toolcat.search.text import SCHEMA_NODES, parameter_texts
from toolcat.search.values import PREFIX, Values, abbreviates, documented, request_values

FRESH4 = (Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
          / "fresh4-catalog.json")
FRESH18 = FRESH4.with_name("fresh18-catalog.json")


def kinds(request: str) -> list[tuple[str, str]]:
    return [(v.kind, v.prefix) for v in request_values(request)]


def tool(name: str, server: str = "s", **properties: dict) -> Tool:
    return Tool(name=name, description=f"{name} does it", server=server,
                parameters={"type": "object", "properties": properties})


def test_the_values_of_a_request_are_recognised_by_kind():
    assert kinds("give jon@acme.com view access") == [("email", "")]
    assert kinds("open https://example.com/post now") == [("url", "")]
    assert kinds("let 81.2.69.160 and 10.0.0.0/16 through") == [("ip", ""), ("ip", "")]
    assert kinds("remove silence 3f2a9c1e-77b0-4c1e-9d8a-2b6f0c1d4e5a") == [("uuid", "")]
    assert kinds("what's in B2:F40 on Sheet1!A1:C3") == [("range", ""), ("range", "")]
    assert kinds("show commit 9fceb02d0ae5") == [("hex", "")]
    assert kinds("runs from 2025-01-15T09:30:00Z on") == [("date", "")]
    assert kinds("status of ENG-412, CHG0040021 and sub_7781") == [
        ("key", "eng"), ("number", "chg"), ("token", "sub")]
    assert kinds("run it at 0 3 * * * every day") == [("cron", "")]
    assert kinds('post {"name": "a", "n": 1} to it') == [("json", "")]


def test_words_quantities_and_names_are_no_values():
    assert not request_values("spin up an Ubuntu 24.04 box called build-agent-3, 4GB, at 3pm")
    assert not request_values("move it to version 2 of UTF-8 in sprint 14")
    assert not request_values("")


def test_a_parameter_says_which_kinds_it_takes():
    catalog = [
        tool("share", recipient={"type": "string", "format": "email"}),
        tool("read", range_name={"type": "string",
                                 "description": 'The range (e.g., "Sheet1!A1:D10").'}),
        tool("write", cells={"type": "string", "description": "Cells in A1 notation."}),
        tool("issue", project={"type": "string", "description": "The key, like FIRST-123"}),
        tool("host", address={"type": "string", "pattern": r"^\d+\.\d+\.\d+\.\d+$"}),
        tool("plain", slug={"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}),
        Tool(name="to", server="s", parameters={
        "type": "object", "properties": {"to": {"type": "array",
                                                "items": {"$ref": "#/$defs/address"}}},
        "$defs": {"address": {"type": "string", "format": "email"}}}),
    ]
    taken = Values(catalog).taken.kinds
    assert {k: sorted(v.tolist()) for k, v in taken.items()} == {
        "email": [0, 6], "range": [1, 2], "key": [3], "ip": [4]}


def test_a_parameter_most_of_a_servers_tools_have_is_its_boilerplate():
    signed_in = {"type": "string", "description": "The user's e-mail address."}
    catalog = [tool(f"t{i}", "google", user_email=signed_in) for i in range(6)]
    catalog.append(tool("share", "google", user_email=signed_in,
                        share_with={"type": "string", "description": "E-mail address."}))
    assert Values(catalog).taken.kinds["email"].tolist() == [6]


def test_a_tool_that_takes_the_value_named_gains():
    catalog = [tool("share_file", recipient={"type": "string", "format": "email"}),
               tool("get_file", file_id={"type": "string"})]
    found = Values(catalog).evidence("give jon@acme.com access to the file")
    assert found[0] > 0 and found[1] == 0
    assert not Values(catalog).evidence("give jon access to the file").any()


def test_an_identifiers_prefix_a_parameter_describes_is_strong_evidence():
    catalog = [
        tool("manage_incident", incident_id={"type": "string",
                                             "description": "sys_id or INC number"}),
        tool("approve_change", change_id={"type": "string",
                                          "description": "Change request ID or sys_id"}),
        tool("download", record={"type": "string", "description": "e.g. RITM0010023"}),
        tool("get_weather", city={"type": "string"}),
    ]
    values = Values(catalog)
    # `download` shows a value of the same shape: it takes one, a weaker sign
    incident = values.evidence("INC0012345 is fixed")
    assert incident[0] == PREFIX and 0 < incident[2] < PREFIX and not incident[[1, 3]].any()
    change = values.evidence("CHG0040021 is good to go")
    assert change[1] == PREFIX and change[2] < PREFIX and not change[[0, 3]].any()
    shown = values.evidence("what about RITM0001234")  # the prefix of a value it shows
    assert shown[2] > PREFIX and not shown[[0, 1, 3]].any()
    assert abbreviates("chg", "change") and abbreviates("inc", "incident")
    assert not abbreviates("eng", "change") and not abbreviates("ch", "ch")


def test_defanged_values_are_read_as_the_values_they_stand_for():
    # threat reports write what they name so that nothing follows it
    assert kinds("submit hxxp://login-examp1e[.]top for analysis") == [("url", "")]
    assert kinds("HXXPS://evil(.)example/a") == [("url", "")]
    assert kinds("is 198.51.100[.]7 known bad?") == [("ip", "")]
    assert kinds("mail bob[@]acme.io the report") == [("email", "")]
    assert kinds("the end of the list[.] hxxpx") == []


def test_a_docstrings_block_of_arguments_says_what_its_parameters_take():
    # FastMCP servers document their parameters in the tool's description, not the schema
    description = ("Look an indicator up.\n\n    Args:\n        kind (str): One of: IPv4,\n"
                   "            IPv6, domain.\n        value: The indicator itself.\n\n"
                   "    Returns:\n        url: what a pulse links to\n")
    assert documented(description) == {"kind": "One of: IPv4, IPv6, domain.",
                                       "value": "The indicator itself."}
    strings = {"kind": {"type": "string"}, "value": {"type": "string"}}
    lookup = Tool(name="get_indicator", description=description, server="s",
                  parameters={"type": "object", "properties": strings})
    undocumented = Tool(name="get_indicator", description="Look an indicator up.",
                        server="s", parameters={"type": "object", "properties": strings})
    catalog = [lookup, undocumented, tool("get_user", username={"type": "string"})]
    found = Values(catalog).evidence("is 203.0.113.9 known bad?")
    assert found[0] > 0 and not found[1:].any()
    # "url" is said under "Returns:", which ended the block
    assert not Values(catalog).evidence("scan https://example.com").any()


@pytest.mark.timeout(60)
def test_hostile_patterns_and_long_texts_cost_linear_time():
    # exponential for a backtracking engine on the 40-character sample of a hex digest
    hostile = {"type": "string", "pattern": "^([0-9a-z]|[0-9a-z])*!$",
               "description": "(" * 5000 + "e.g. " * 5000 + "x" * 50_000}
    catalog = [tool(f"t{i}", f"s{i}", value=hostile) for i in range(200)]
    assert not Values(catalog).evidence("commit 9fceb02d0ae598e95dc970b74767f19372d61af8").any()
    request = "0 " * 50_000 + "x" * 100_000 + " a@b.co" * 10_000 + " hxxp[.][:][@]" * 10_000
    assert Values(catalog).evidence(request).shape == (200,)
    # a description that is one long block of arguments is read only as far as its bound
    block = "Args:\n" + "  value: an IPv4 address\n      " * 100_000 + "(" * 100_000
    documented_tools = [Tool(name=f"t{i}", description=block, server=f"s{i}",
                             parameters={"properties": {"value": {"type": "string"}}})
                        for i in range(199)]
    found = Values([*documented_tools, tool("t", value={"type": "string"})]).evidence(
        "is 203.0.113.9 bad?")
    assert found[:-1].all() and not found[-1]


def test_the_ranking_texts_and_the_values_read_a_schema_within_one_bound():
    # a wide object, a long anyOf and a deep nest: each read only as far as the bounds go
    wide = {f"p{i}": {"type": "string", "format": "email"} for i in range(10_000)}
    branches = [{"properties": {f"b{i}": {"format": "uuid"}}} for i in range(10_000)]
    deep: dict = {"type": "string"}
    for i in range(5000):
        deep = {"type": "object", "properties": {f"d{i}": deep}}
    names = [name for name, _ in parameter_texts({"properties": wide, "anyOf": branches})]
    assert names[:2] == ["p0", "p1"] and "p199" in names and "p200" not in names
    assert {"b0", "b199"} <= set(names) and "b200" not in names
    names = [name for name, _ in parameter_texts(deep)]
    assert names[0] == "d4999" and len(names) == SCHEMA_NODES and "d0" not in names
    taken = Values([tool("t", wide={"properties": wide}), tool("u")]).taken.kinds
    assert taken["email"].tolist() == [0]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_a_request_with_an_email_picks_the_sharing_tool_that_takes_one(run, tmp_path):
    catalog = tmp_path / "drive.json"
    catalog.write_text(json.dumps({"tools": [
        {"name": "share_file", "description": "Adds a permission to a file or folder.",
         "inputSchema": {"type": "object", "properties": {
             "file_id": {"type": "string", "description": "ID of the file."},
             "recipient": {"type": "string", "format": "email"}}}},
        {"name": "list_file_access", "description": "Lists who can view or edit a file.",
         "inputSchema": {"type": "object", "properties": {
             "file_id": {"type": "string", "description": "ID of the file."}}}},
        {"name": "get_file", "description": "Gets a file's metadata and its viewer link.",
         "inputSchema": {"type": "object", "properties": {
             "file_id": {"type": "string", "description": "ID of the file."}}}},
    ]}), encoding="utf-8")
    result = run("pick", "give jon@acme.com access to the file", "-c", str(catalog),
                 "-k", "2", "--explain", "--json")
    assert result.exit_code == 0, result.output
    picked = json.loads(result.output)["picks"]
    assert [t["name"] for t in picked] == ["share_file", "list_file_access"]
    assert "it takes the e-mail address the request names" in picked[0]["reason"]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not FRESH4.exists(), reason="the real-server set is absent")
def test_an_incident_number_alone_finds_the_tool_whose_parameter_describes_it(run, tmp_path):
    # ServiceNow among fresh4's other servers of tickets, tests, deploys and alerts
    catalog = servers_of(FRESH4, ("servicenow", "plane", "browserstack", "coolify",
                                  "alertmanager", "currents"), tmp_path)
    result = run("search", 'INC0012345 is fixed, resolve it with "restarted the mail relay"',
                 "-c", str(catalog), "--scorer", "hybrid", "--limit", "1", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"][0]
    assert found["name"] == "manage_incident"
    assert "a parameter of it describes ids like INC0012345" in found["reason"]


@pytest.mark.semantic
@pytest.mark.timeout(300)
@pytest.mark.usefixtures("shared_cache")
def test_a_hostile_pattern_in_a_schema_costs_the_cli_no_time(run, tmp_path):
    # exponential for a backtracking engine on a hex digest; RE2 matches it in linear time
    hostile = {"type": "string", "pattern": "^([0-9a-z]|[0-9a-z])*!$"}
    catalog = tmp_path / "git.json"
    catalog.write_text(json.dumps({"tools": [
        {"name": f"tag_{i}", "description": "Tags a thing.",
         "inputSchema": {"type": "object", "properties": {"label": hostile}}}
        for i in range(50)] + [
        {"name": "get_commit", "description": "Shows a commit.",
         "inputSchema": {"type": "object", "properties": {
             "sha": {"type": "string", "description": "The commit's SHA."}}}}]}),
        encoding="utf-8")
    result = run("search", "show 9fceb02d0ae598e95dc970b74767f19372d61af8", "-c", str(catalog),
                 "--scorer", "hybrid", "--limit", "1", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"][0]
    assert found["name"] == "get_commit"
    assert "it takes the hexadecimal id the request names" in found["reason"]


def _kept_catalog(folder: Path) -> Path:
    catalog = folder / "tools.json"
    catalog.write_text(json.dumps([
        {"name": "share_file", "description": "Share a file with someone.",
         "parameters": {"type": "object", "properties": {
             "file": {"type": "string"}, "user": {"type": "string", "format": "email"}}}},
        {"name": "resolve_incident", "description": "Resolve an incident.",
         "parameters": {"type": "object", "properties": {
             "incident_id": {"type": "string", "description": "The INC number."}}}},
        {"name": "get_weather", "description": "Current weather for a city.",
         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]))
    return catalog


KEPT_REQUEST = "give jon@acme.com the file, INC0012345 is fixed"


def test_the_tool_side_is_kept_with_the_index_and_read_back(tmp_path, monkeypatch):
    """A catalog read from files keeps its tool side with its search index: a later scorer
    (a later process) reads it back and reads no parameter, with the very same evidence."""
    import numpy as np

    from toolcat.catalog.load import load_catalog
    from toolcat.search import values
    from toolcat.search.index import scorer_for

    catalog = _kept_catalog(tmp_path)
    built = scorer_for("hybrid", load_catalog(catalog), embeddings="later")
    first = built.values.evidence(KEPT_REQUEST)
    assert first.tolist()[2] == 0 and first[0] > 0 and first[1] >= PREFIX
    [entry] = (tmp_path / "cache" / "index").glob("*-values-*.arrays")

    def unread(tools: object) -> NoReturn:
        raise AssertionError("the tool side was read again")

    monkeypatch.setattr(values, "_tool_side", unread)
    again = scorer_for("hybrid", load_catalog(catalog), embeddings="later").values
    assert np.array_equal(again.evidence(KEPT_REQUEST), first)
    assert again.explained(KEPT_REQUEST, 1) == built.values.explained(KEPT_REQUEST, 1)
    assert [p.name for p in entry.parent.glob("*-values-*.arrays")] == [entry.name]


def test_a_kept_tool_side_that_does_not_fit_is_made_again(tmp_path, caplog):
    """A sealed entry naming a tool the catalog does not have (as a bug or another release
    could leave) is not used: one warning line, the tool side made again, the same
    evidence."""
    import logging

    import numpy as np

    from toolcat.catalog.load import load_catalog
    from toolcat.search.index import scorer_for
    from toolcat.search.values import Taken
    from toolcat.source import cache

    catalog = _kept_catalog(tmp_path)
    first = scorer_for("hybrid", load_catalog(catalog), embeddings="later").values
    clean = first.evidence(KEPT_REQUEST)
    [entry] = (tmp_path / "cache" / "index").glob("*-values-*.arrays")
    wrong = Taken({"email": np.array([0, 7])}, {}, {})
    cache.store(entry, lambda handle: cache.save_arrays(handle, wrong.arrays()), 8)
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        healed = scorer_for("hybrid", load_catalog(catalog), embeddings="later").values
        assert np.array_equal(healed.evidence(KEPT_REQUEST), clean)
    [warning] = [r.getMessage() for r in caplog.records]
    assert warning.startswith("warning: the search cache ") and "rebuilding it" in warning


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not FRESH18.exists(), reason="the real-server set is absent")
@pytest.mark.parametrize("request_text", [
    "any intel on 203.0.113.54?",
    pytest.param("what's the reputation of 198.51.100.23", marks=pytest.mark.xfail(
        strict=True, reason="'reputation' is in OTX's later sentences, weighed 0.5 since "
        "rank33: 0.125 against kraken's get_account_balance 0.200 (0.206 before)"))])
def test_an_address_alone_finds_the_lookup_whose_docstring_says_it_takes_one(
        run, tmp_path, request_text):
    # OTX's lookup documents its parameters under "Args:" only ("One of: IPv4, IPv6, ...");
    # read from the schema alone, analytics and exchange tools came first
    catalog = servers_of(FRESH18, ("otx", "plausible", "kraken", "microsoft365", "evolution"),
                         tmp_path)
    result = run("search", request_text, "-c", str(catalog), "--scorer", "hybrid",
                 "--limit", "1", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"][0]
    assert found["name"] == "get_indicator_details"
    assert "it takes the IP address the request names" in found["reason"]
