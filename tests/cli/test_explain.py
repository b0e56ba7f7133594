"""`pick --explain` names what each figure of a hybrid reason is, and says once, above the
picks, what every pick's reason shares and, below them, how the figures are read."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.semantic

# hybrid.why: both parts with what each is made of
PARTS = re.compile(r"why: lexical \d+\.\d \(BM25F(: no term matched| of the terms [^)]+)\) "
                   r"\+ semantic \d+\.\d \(cosine 0\.\d\d × 12\)")


def test_the_reason_every_pick_shares_is_said_once_and_the_figures_are_named(run,
                                                                             shared_cache):
    shown = run("pick", "-c", "demo", "slack", "--explain")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    shared = "the request names only its server: similarity to the server's tools as a whole"
    assert lines[1] == f"   why, for every pick: {shared}"
    whys = [line for line in lines if line.startswith("   why: ")]
    assert len(whys) == 3 and all(PARTS.match(line.strip()) for line in whys), whys
    assert shown.stdout.count(shared) == 1
    assert lines[-1].startswith("how to read why (hybrid): the figures are evidence in nats")
    # --json keeps each reason whole, as documented
    picks = json.loads(run("pick", "-c", "demo", "slack", "--json").stdout)["picks"]
    assert all(shared in pick["reason"] for pick in picks)


def test_a_reason_no_other_pick_shares_stays_with_its_pick(run, shared_cache):
    shown = run("pick", "-c", "demo", "open a pull request for my branch", "--explain")
    lines = shown.stdout.splitlines()
    assert not any(line.startswith("   why, for every pick") for line in lines)
    first = next(line for line in lines if line.startswith("   why: "))
    assert PARTS.match(first.strip()) and "BM25F of the terms open, pull, request, branch" in first
    assert first.endswith("; its name's action is the one asked for (+1.0)")
