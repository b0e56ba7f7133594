"""The tool search section of the system prompt stays the same for a whole session: adding a
server's last deferred tool does not take its category out of "Available tool categories",
so a client that renders the prompt each turn keeps its prompt cache; and `resolve --steps
--provider` prices each request with the system prompt it really sends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.render.cache import session_cache
from toolcat.resolution.profile_reader import load_profile
from toolcat.resolution.session import Session

CATALOG = """\
servers:
  - {name: clock, description: Time and time zones}
  - {name: notes, description: Personal notes}
tools:
  - name: get_time
    server: clock
    description: Get the current time in a time zone.
    parameters: {type: object, properties: {tz: {type: string}}}
  - name: add_note
    server: notes
    description: Add a note.
    parameters: {type: object, properties: {text: {type: string}}}
  - name: list_notes
    server: notes
    description: List the notes.
    parameters: {type: object, properties: {}}
"""
STEPS = """\
query: what time is it in Tokyo
steps:
  - search_tools: {query: time}
  - add_tool: {tool_names: [get_time]}
  - get_time: {tz: Asia/Tokyo}
  - user: and add a note about it
  - add_tool: {tool_names: [add_note, list_notes]}
"""
PROFILE = """\
name: search
model: {name: claude-sonnet-4-5, size_b: 70}
scorer: keyword
tool_search_mode: {enabled: true}
provider_search: {mode: local}
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, text in (("catalog.yaml", CATALOG), ("steps.yaml", STEPS),
                       ("profile.yaml", PROFILE)):
        paths[name] = tmp_path / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


def test_every_request_of_a_session_lists_the_same_categories(run, files):
    result = run("resolve", "-c", str(files["catalog.yaml"]), "-p", str(files["profile.yaml"]),
                 "--steps", str(files["steps.yaml"]), "--provider", "anthropic", "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert [c["name"] for c in data["initial"]["categories"]] == ["clock", "notes"]
    steps = data["cache"]["steps"]
    assert data["steps"][1]["added"] == ["get_time"]  # clock's last tool: clock stays listed
    # the whole prefix (tools, system prompt) is read from the cache on every later request
    assert [s["cached"] == s["prefix"] == steps[0]["prefix"] for s in steps[1:]] == \
        [True] * 5


def test_the_python_session_keeps_the_section_and_prices_what_it_sends(files):
    catalog = load_catalog(files["catalog.yaml"])
    session = Session(catalog, load_profile(files["profile.yaml"]), "what time is it")
    first = session.resolution
    session.call("add_tool", {"tool_names": ["get_time"]})
    assert session.resolution.categories == first.categories
    # a resolution that lists fewer categories (as each request had before) is priced as
    # sent: its system prompt differs from the first's, so only the tools stay cached
    shrunk = session.resolver.resolve("what time is it", session.state)
    assert [c.name for c in shrunk.categories] == ["notes"]
    report = session_cache([first, shrunk], catalog.documents, "anthropic")
    kept = session_cache([first, session.resolution], catalog.documents, "anthropic")
    assert kept.steps[1].cached == kept.steps[1].prefix
    assert report.steps[1].cached < report.steps[1].prefix
    assert report.steps[1].uncached > kept.steps[1].uncached
