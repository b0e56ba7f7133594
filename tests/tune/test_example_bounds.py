"""A catalog's example requests may come from a stranger (issue 40, item 11): a tuning says
where its usage came from, bounds what one tool's and one catalog file's examples can teach,
leaves out examples the user's own requests give to other tools, and warns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolcat
from tests.tune.test_tuned import JOBS, write_jobs
from toolcat.tune import read_sources
from toolcat.tune.usage import MAX_FILE_EXAMPLES, MAX_TOOL_EXAMPLES

GENERIC = "do_anything"


def team_and_vendor(folder: Path, copied: list[str]) -> tuple[Path, Path, Path]:
    """The team's six opaque tools with its call log, and a third-party catalog of one
    generic tool carrying `copied` requests."""
    team = folder / "team"
    team.mkdir()
    _, log = write_jobs(team / "jobs.yaml", folder / "calls.jsonl")
    vendor = folder / "vendor"
    vendor.mkdir()
    (vendor / "helper.yaml").write_text(
        f"tools:\n- name: {GENERIC}\n  description: A general assistant that helps with "
        f"whatever the user asks for.\n  example_requests: {json.dumps(copied)}\n",
        encoding="utf-8")
    return team, vendor, log


def coming(count: int) -> list[tuple[str, str]]:
    """Requests the team's users will make, and the tool each is meant for."""
    out = [(f"could you {verb} {thing} now", name)
           for name, (verb, things) in JOBS.items() for thing in things[-7:]]
    return out[:count]


@pytest.mark.semantic
def test_a_generic_tool_with_copied_requests_is_no_longer_picked_for_others(
        run, tmp_path, shared_cache):
    # The attack of the issue: 64 requests copied onto one generic tool of a third-party
    # catalog, 40 of them requests the team's users will make. Before: the tuning put it
    # first for 14 of those 40; now 3 (a tuning without the vendor: 0).
    tests = coming(40)
    log_texts = [f"please {verb} {thing}" for verb, things in JOBS.values()
                 for thing in things[:-1]]
    team, vendor, log = team_and_vendor(tmp_path, [t for t, _ in tests] + log_texts[:24])
    tuning = tmp_path / "tuning.json"
    result = run("tune", "-c", str(team), "-c", str(vendor), "-q", str(log),
                 "-o", str(tuning), "--json")
    assert result.exit_code == 0, result.output
    helper = str(vendor / "helper.yaml")
    assert f"warning: {helper}: example requests of helper:{GENERIC} bounded, " in result.stderr
    report = json.loads(result.stdout)
    learned = {(e["source"], e["kind"]): e for e in report["learned_from"]}
    assert learned[(str(log), "log")] == {"source": str(log), "kind": "log", "requests": 66,
                                          "tools": 6}
    assert learned.get((helper, "example"), {"requests": 0})["requests"] <= 4
    [bounded] = report["bounded"]
    assert (bounded["source"], bounded["tool"], bounded["written"]) == (
        helper, f"helper:{GENERIC}", 64)
    # the tuning file says where its usage came from
    saved = json.loads(tuning.read_text())["report"]["learned_from"]
    assert {e["source"] for e in saved} <= {str(log), helper}
    catalog = toolcat.load_catalog([team, vendor])
    tuned = toolcat.load_tuning(tuning)
    firsts = [toolcat.pick(text, catalog, tuning=tuned, scorer="hybrid").picks
              for text, _ in tests]
    stolen = sum(bool(p) and p[0].tool.name == GENERIC for p in firsts)
    right = sum(bool(p) and p[0].tool.name == meant
                for p, (_, meant) in zip(firsts, tests, strict=True))
    assert stolen <= 4, stolen
    assert right >= 28, right


def test_one_tool_keeps_at_most_16_distinct_examples_and_says_so(tmp_path):
    copied = [f"request number {i} about something" for i in range(64)]
    team, vendor, log = team_and_vendor(tmp_path, copied + copied[:5])
    usage = read_sources(toolcat.load_catalog([team, vendor]), [log])
    examples = [r for r in usage.requests if r.kind == "example"]
    assert [r.text for r in examples] == copied[:MAX_TOOL_EXAMPLES]
    assert {r.source for r in examples} == {str(vendor / "helper.yaml")}
    assert {r.source for r in usage.requests if r.kind == "log"} == {str(log)}
    [bounded] = usage.bounded
    assert (bounded.tool, bounded.written, bounded.kept) == (f"helper:{GENERIC}", 69, 16)


def test_one_catalog_file_teaches_at_most_what_the_users_own_requests_do(tmp_path):
    # 40 tools of one file with 16 examples each: 640, over the 128 a file keeps when the
    # user's own files hold fewer requests (66 here)
    catalog = tmp_path / "many.yaml"
    catalog.write_text("tools:\n" + "".join(
        f"- name: tool_{i}\n  description: Does thing {i}.\n  example_requests: "
        + json.dumps([f"do thing {i} variant {j}" for j in range(16)]) + "\n"
        for i in range(40)), encoding="utf-8")
    usage = read_sources(toolcat.load_catalog(catalog), [])
    assert usage.count("example") == MAX_FILE_EXAMPLES  # the first 8 tools' 16 each
    assert [(b.tool, b.kept) for b in usage.bounded] == [
        (f"many:tool_{i}", 0) for i in range(8, 40)]
    assert "at most as many as the requests given with -q (0), or 128" in \
        usage.bounded[0].reason


@pytest.mark.semantic
def test_many_bounded_tools_warn_in_a_few_lines(run, tmp_path, shared_cache):
    catalog = tmp_path / "many.yaml"
    catalog.write_text("tools:\n" + "".join(
        f"- name: tool_{i}\n  description: Does thing {i}.\n  example_requests: "
        + json.dumps([f"do thing {i} variant {j}" for j in range(16)]) + "\n"
        for i in range(40)), encoding="utf-8")
    result = run("tune", "-c", str(catalog), "-o", str(tmp_path / "t.json"), "--json")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 6, warnings
    assert warnings[-1] == ("warning: example requests of 27 more tools bounded (--json "
                            "lists them under 'bounded')")
    assert len(json.loads(result.stdout)["bounded"]) == 32
