"""What a serve session shows and answers, decided by the resolver under a profile, on the
bundled demo catalogs (no MCP server involved: the discovery tools are answered by toolcat)."""

from __future__ import annotations

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.resolution import load_profile
from toolcat.resolution.profile import Profile
from toolcat.serve.gate import Gate

DISCOVERY = ["search_tools", "add_tool", "show_all_tools"]
BM25 = Profile(scorer="bm25")  # the default profile, ranking with bm25 (quick to build)


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


def test_the_default_profile_starts_with_the_discovery_tools_only(demo):
    gate = Gate(demo)
    assert [name for name, _ in gate.visible()] == DISCOVERY
    assert len(gate.pool) == sum(t.safe for t in demo.tools)  # everything safe is findable


def test_the_tool_search_profile_decides_what_is_visible_and_findable(demo):
    gate = Gate(demo, load_profile("tool-search"))
    # pre-discovered tools are callable at once; builtins toolcat cannot run are not offered
    assert [name for name, _ in gate.visible()] == [*DISCOVERY, "read_file", "list_files"]
    # filters: github, slack and filesystem, plus google-sheets:* through the tools list
    assert {t.server for t in gate.pool} == {"github", "slack", "filesystem", "google-sheets"}
    weather = next(t for t in demo.tools if t.server == "weather")
    added = gate.add([weather.name]).response
    assert added["added"] == [] and added["refused"][0]["name"] == weather.name
    assert "not available to this profile" in added["refused"][0]["reason"]
    assert "not available to this profile" in gate.unavailable(weather.name)


def test_levels_show_the_core_tools_and_narrow_what_can_be_found(demo):
    gate = Gate(demo, load_profile("capability-levels"))
    core = [t.name for t in demo.tools if t.level == 1 and gate.allowed(t)
            and gate.resolution.verdict(t.qualified_name).status == "visible"]
    visible = [name for name, _ in gate.visible()]
    # the core tools come in the resolution's order (priority), after discovery
    assert core and visible[:len(DISCOVERY)] == DISCOVERY
    assert sorted(visible[len(DISCOVERY):]) == sorted(core)
    assert "run_query" in gate.show_all()["tools"]  # matched by a required capability
    refused = gate.add(["send_message"]).response["refused"]  # no required capability
    assert refused[0]["reason"].startswith("not available to this profile: ")


def test_search_is_regex_first_then_the_scorer_then_fuzzy(demo):
    gate = Gate(demo, BM25)
    regex = gate.search("slack|channel")
    assert regex.method == "regex" and len(regex.found) == 5
    words = gate.search("send a message to my team")
    assert words.method == "bm25" and words.found[0] == "send_message"
    typo = gate.search("wether forcast")
    assert typo.method == "fuzzy" and typo.found[0] == "weather_forecast"
    broken = gate.search("(unclosed")  # not a pattern: search's invalid-pattern error
    assert broken.method == "invalid-pattern"
    assert broken.response["error"].startswith("invalid regex pattern: missing )")


def test_added_tools_become_callable_and_their_calls_are_checked(demo):
    gate = Gate(demo, BM25)
    answer = gate.add(["read_file", "read_file", "nope"])
    assert answer.added == ("read_file",)
    assert answer.response["not_found"] == ["nope"]
    assert gate.add(["read_file"]).response["already_available"] == ["read_file"]
    tool = gate.callable("read_file")
    assert tool is not None and gate.callable("write_file") is None
    assert gate.check(tool, {"path": "README.md"}) == []
    problems = gate.check(tool, {"path": 3})
    assert problems and "/path" in problems[0]


def test_oversized_requests_are_refused_before_any_work(demo):
    gate = Gate(demo, BM25)
    search = gate.search("weather " * 200)
    assert search.method == "refused" and "at most 1,000" in search.response["error"]
    added = gate.add([f"tool_{i}" for i in range(101)])
    assert added.added == () and "at most 100" in added.response["error"]


def test_unsafe_tools_need_allow_unsafe(demo):
    unsafe = next(t for t in demo.tools if not t.safe)
    name = demo.ident(unsafe)
    gate = Gate(demo, BM25)
    refused = gate.add([name]).response["refused"]
    assert refused[0]["name"] == name and "unsafe" in refused[0]["reason"]
    assert unsafe not in gate.pool
    allowed = Gate(demo, BM25, allow_unsafe=True)
    assert allowed.add([name]).added == (name,)


def test_a_profile_naming_a_missing_server_is_a_warning(demo, tmp_path):
    profile = tmp_path / "p.yaml"
    profile.write_text("name: p\nfilters: {servers: {allow: [nowhere]}}\n")
    [warning] = Gate(demo, load_profile(profile)).resolver.warnings
    assert "no server 'nowhere' in the catalog" in warning.message


def test_the_security_verdict_is_kept_for_a_catalog_seen_before(tmp_path, monkeypatch):
    """serve's start scans every definition once per catalog content: the second start of
    the same files reads the sealed verdict, and any edit of the files scans again."""
    from tests.serve.test_call_mode import POISONED
    from toolcat.lint import engine
    from toolcat.serve.trust import withheld

    path = tmp_path / "helpers.yaml"
    path.write_text(POISONED)
    first = withheld(load_catalog(path))
    assert list(first) == ["helpers:add_numbers"] and "TC6" in first["helpers:add_numbers"]
    assert len(list((tmp_path / "cache").rglob("*-security.json"))) == 1

    def no_scan(*args, **kwargs):
        raise AssertionError("scanned again")

    with monkeypatch.context() as patched:
        patched.setattr(engine, "lint_catalog", no_scan)
        assert withheld(load_catalog(path)) == first
        assert withheld(load_catalog(path), allowed=["helpers:*"]) == {}
    path.write_text("tools:\n  - {name: add_numbers, server: helpers, description: Add two "
                    "numbers.}\n")
    assert withheld(load_catalog(path)) == {}


def test_regex_search_answers_the_same_from_the_texts_kept_for_the_catalog(demo):
    """serve keeps a catalog's descriptions and parameter texts (its regex and fuzzy
    searches') in the cache: a gate on the catalog seen before reads them back and answers
    exactly as the texts made from the tools, names, descriptions and parameters alike."""
    from toolcat.catalog.kept import catalog_key
    from toolcat.search.fuzzy import FuzzyScorer
    from toolcat.search.regex import RegexScorer
    from toolcat.serve.texts import REGEX as PART

    queries = ["slack|channel", "min_access_role", "at least this role", "^get_", "owner",
               "calendar.*role", "no such words anywhere"]
    first = Gate(demo, BM25)  # makes the texts and keeps them
    answers = [first.search(q).response for q in queries]
    assert PART.path(str(catalog_key(demo))).is_file()
    again = Gate(load_catalog(CATALOGS), BM25)  # seen before: the kept texts
    assert [again.search(q).response for q in queries] == answers
    assert answers[1]["found"] and answers[2]["found"]  # a parameter name, its description
    made = RegexScorer(again.pool)  # from the tools themselves
    for query in queries:
        assert list(again.scorer("regex").scores(query)) == list(made.scores(query))
    fuzzy = FuzzyScorer(again.pool)  # fuzzy search's texts are kept too
    first.scorer("fuzzy")
    for query in ["calender acess role", "slak chanel", "repositry ownr"]:
        assert list(again.scorer("fuzzy").scores(query)) == list(fuzzy.scores(query))


@pytest.mark.parametrize("arguments", [
    {"query": "weather"}, {}, {"query": 3}, {"query": "x", "other": True},
    {"query": "\ud800"}, {"tool_names": ["a", 2]}, {"tool_names": "a"}, {"tool_names": []},
])
def test_discovery_arguments_are_judged_as_check_call_judges_them(arguments):
    """serve checks a discovery tool's arguments without importing jsonschema when they are
    fine; what it says about them is check-call's, word for word."""
    from toolcat.calls.check import CallChecker
    from toolcat.model import ToolCall
    from toolcat.resolution.builtins import builtin_catalog
    from toolcat.serve.server import BuiltinArguments

    builtins = builtin_catalog()
    checker = BuiltinArguments(builtins)
    for name in ("search_tools", "add_tool", "show_all_tools"):
        tool = next(t for t in builtins.tools if t.name == name)
        expected = [e.message for e in
                    CallChecker(builtins).check(ToolCall(name, arguments)).errors]
        assert checker.problems(tool, arguments) == expected
