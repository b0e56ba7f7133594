"""A resolution makes its verdicts and trace leaves when they are read (at 43,000 tools making
them all was most of its time): what is read lazily must be what reading everything says.

Random catalogs (shared names, equal scores with unequal priorities, unsafe tools, many
servers) under profiles that reach every stage: the automatic search with its floor and cap,
normal mode, tool search mode, deferral without a search tool (unreachable tools), levels and
a gateway."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcat.catalog.load import load_catalog
from toolcat.resolution import Resolution, Resolver, load_profile

WORDS = ("weather", "forecast", "email", "send", "file", "read", "csv", "table", "city")
PROFILES = {
    "default": "{}",
    "floor-and-cap": "model: {size_b: 70}\nmcp: {max_in_prompt: 3, min_score: 0.2}",
    "normal-mode": "mcp: {defer: false, max_in_prompt: 2}",
    "tool-search-mode": "tool_search_mode: {enabled: true}",
    "no-search-tool": "builtins: []",
    "auto-search-off": "mcp: {auto_search: false}",
    "levels": "builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
              "levels: {required_capabilities: [weather], complexity: medium}",
    "gateway": "builtins: []\nmcp: {defer: false, max_in_prompt: all}\n"
               "gateway: {strategy: relevance, min_tools: 1, max_tools: 2, target_ratio: 0.5}",
}

tools = st.lists(
    st.tuples(st.sampled_from(("get", "send", "read", "find")),  # names repeat across servers
              st.sampled_from(("a", "b", "c", "")),
              st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
              st.sampled_from((10, 50, 80)), st.booleans()),
    min_size=1, max_size=14)


def catalog_file(folder: Path, drawn: list[tuple[str, str, list[str], int, bool]]) -> Path:
    entries, seen = [], set()
    for n, (verb, server, words, priority, safe) in enumerate(drawn):
        name = f"{verb}_{n % 4}"
        if (server, name) in seen:
            continue
        seen.add((server, name))
        entries.append({"name": name, "description": " ".join(words), "priority": priority,
                        "safe": safe, "tags": words[:1], "level": 1 + n % 3,
                        **({"server": server} if server else {})})
    path = folder / "tools.json"
    path.write_text(json.dumps({"tools": entries}), encoding="utf-8")
    return path


def oracle_verdict(resolution: Resolution, name: str):  # the scan `verdict` used to be
    for v in resolution.verdicts:
        if name in (v.name, v.tool.name, v.tool.qualified_name):
            return v
    return None


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=tools, which=st.sampled_from(sorted(PROFILES)),
       query=st.sampled_from(("weather in the city", "send an email", "read a csv table", "")))
def test_what_is_read_lazily_is_what_reading_everything_says(tmp_path_factory, drawn, which,
                                                            query):
    folder = tmp_path_factory.mktemp("lazy")
    catalog = load_catalog(catalog_file(folder, drawn))
    profile_path = folder / "profile.yaml"
    profile_path.write_text(textwrap.dedent(PROFILES[which]), encoding="utf-8")
    profile = replace(load_profile(profile_path), scorer="keyword")
    resolution = Resolver(catalog, profile).resolve(query)

    verdicts = list(resolution.verdicts)
    assert len(verdicts) == len(resolution.verdicts)
    assert tuple(verdicts) == resolution.verdicts  # a Lazy equals the tuple of its items
    assert resolution.verdicts[-1] == verdicts[-1]
    assert resolution.verdicts[1:3] == tuple(verdicts[1:3])
    with pytest.raises(IndexError):
        resolution.verdicts[len(verdicts)]

    # each list's tools have the verdicts of that status, and every tool is in one list
    by_key = {v.tool.qualified_name: v for v in verdicts}
    for status in ("visible", "deferred", "excluded"):
        listed = getattr(resolution, status)
        assert all(by_key[t.qualified_name].status == status for t in listed)
        assert resolution.names(status) == [by_key[t.qualified_name].name for t in listed]
    assert sum(map(len, (resolution.visible, resolution.deferred, resolution.excluded))) \
        == len(by_key)

    # lookups by key and by name find what a scan of every verdict finds
    for tool in catalog.tools:
        assert resolution.verdict_of(tool) == by_key[tool.qualified_name]
        v = by_key[tool.qualified_name]
        assert resolution.brief(tool) == (v.name, v.status, v.rule, v.via, v.tokens)
        for name in (tool.name, tool.qualified_name, by_key[tool.qualified_name].name):
            assert resolution.verdict(name) == oracle_verdict(resolution, name)
    with pytest.raises(KeyError):
        resolution.verdict("no such tool")

    # the deferred tools outside the request: by descending score, then catalog order
    position = {t.qualified_name: i for i, t in enumerate(catalog.tools)}
    rest = [t for t in resolution.deferred if t.qualified_name in position
            and by_key[t.qualified_name].rule != "gateway-deferred"]
    assert rest == sorted(rest, key=lambda t: (-(by_key[t.qualified_name].score or 0.0),
                                               position[t.qualified_name]))

    # a leaf of the stage that settled a tool says what its verdict says, unless a later
    # stage (the gateway, or finding it unreachable) changed it
    later = {leaf.subject for stage in resolution.trace.walk()
             if stage.subject == "unreachable" or stage.subject.startswith("gateway")
             for leaf in stage.walk()}
    for node in resolution.trace.walk():
        if node.subject in ("automatic search", "normal mode", "tool search mode", "deferred"):
            for leaf in node.children:
                if leaf.rule == "priority" or leaf.subject in later:
                    continue
                v = resolution.verdict(leaf.subject)
                assert (leaf.outcome, leaf.rule, leaf.reason) == (v.status, v.rule, v.reason)
    text = json.dumps(resolution.to_json())
    assert json.loads(text)["trace"] == json.loads(json.dumps(resolution.trace.to_json()))
