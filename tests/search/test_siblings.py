"""Specificity among siblings (toolcat.search.siblings): a tool whose name adds words the
request never says loses a little to its plainer sibling on the same server, only when both
fit about as well. Model-free, but for the last test, which ranks a real server's tools."""

from __future__ import annotations

import json
from pathlib import Path
from string import ascii_lowercase

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search.siblings import NARROWER, Siblings

DEV = (Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"
       / "dev-catalog.json")


def tools(server: str, *names: str) -> list[Tool]:
    return [Tool(name=n, description=f"{n} does it", server=server) for n in names]


def test_the_narrower_name_loses_when_the_plainer_sibling_fits_as_well():
    gitlab = tools("gitlab", "cancel_pipeline", "cancel_pipeline_job", "list_pipelines")
    found = Siblings(gitlab).evidence("stop the pipeline", np.array([11.9, 11.95, 9.0]))
    assert found.tolist() == [0.0, -NARROWER, 0.0]


def test_the_narrower_name_keeps_its_lead_when_the_request_says_its_qualifier():
    gitlab = tools("gitlab", "cancel_pipeline", "cancel_pipeline_job")
    assert not Siblings(gitlab).evidence("stop the pipeline job 42",
                                         np.array([11.9, 11.95])).any()


def test_a_plainer_sibling_that_fits_clearly_worse_changes_nothing():
    gitlab = tools("gitlab", "list_pipelines", "list_merge_request_pipelines")
    assert not Siblings(gitlab).evidence("list the pipelines",
                                         np.array([6.0, 6.0 + NARROWER + 0.1])).any()


def test_siblings_are_on_one_server_and_open_with_the_same_word():
    # a namespace prepended is not a qualifier (BFCL's math.gcd and gcd are two authors')
    mixed = (tools("a", "cancel_pipeline") + tools("b", "cancel_pipeline_job")
             + tools("c", "gcd", "math_gcd"))
    assert not Siblings(mixed).evidence("gcd of 12 and 18", np.full(4, 5.0)).any()
    assert not Siblings(mixed).evidence("stop the pipeline", np.full(4, 5.0)).any()


def test_every_word_of_a_name_counts_stop_words_too():
    # "show" says what git_show does: it is not a plainer git_log
    git = tools("git", "git_show", "git_log", "git_log_graph")
    found = Siblings(git).evidence("show recent commits", np.full(3, 5.0))
    assert found.tolist() == [0.0, 0.0, -NARROWER]
    shortcut = tools("shortcut", "get_story", "get_story_by_id")
    assert Siblings(shortcut).evidence("what does story 12 say",
                                       np.full(2, 5.0)).tolist() == [0.0, -NARROWER]


def test_many_siblings_and_long_names_stay_bounded():
    # 300 narrower things, and 62 names that are all "thing" (one-letter words do not count)
    plain = ["thing", *(f"thing_{c}" for c in ascii_lowercase),
             *(f"{c}_thing" for c in ascii_lowercase), *(f"thing_{d}" for d in range(9))]
    many = tools("s", *plain, *(f"thing_v{k}" for k in range(300)), "ab_cd_ef_gh_ij_kl_mn")
    found = Siblings(many).evidence("a thing", np.full(len(many), 5.0))
    assert found.shape == (len(many),)
    assert (found[len(plain):-1] == -NARROWER).all()
    assert not found[:len(plain)].any() and not found[-1]
    assert not Siblings([]).evidence("anything", np.zeros(0)).any()


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not DEV.exists(), reason="the real-server set is absent")
def test_the_plainer_sibling_is_first_on_a_real_server_and_the_reason_says_why(run):
    result = run("search", "stop the pipeline that is running on main", "-c", str(DEV),
                 "--scorer", "hybrid", "--limit", "2", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"]
    assert [t["name"] for t in found] == ["cancel_pipeline", "cancel_pipeline_job"]
    assert "narrower than a sibling" in found[1]["reason"]
    assert "narrower" not in found[0]["reason"]
