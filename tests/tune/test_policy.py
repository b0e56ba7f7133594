"""Which tuning a command applies, as a value: the tuning, the note naming it, the warnings."""

from __future__ import annotations

from tests.conftest import CATALOGS
from tests.tune.test_file import a_tuning
from toolcat.catalog.load import load_catalog
from toolcat.tune.file import dumps
from toolcat.tune.policy import find_tuning, for_profile, for_scorer


def test_a_scorer_a_tuning_is_not_for_scores_zero_shot_and_says_so():
    tools = load_catalog(CATALOGS).tools
    choice = for_scorer(a_tuning(tools), "bm25", tools)
    assert choice.tuning is None and choice.notes == ()
    assert "bm25 scores zero-shot" in choice.warnings[0]


def test_a_tunable_scorer_applies_the_tuning_and_names_it():
    tools = load_catalog(CATALOGS).tools
    found = a_tuning(tools)
    choice = for_scorer(found, "hybrid", tools)
    assert choice.tuning is found
    assert choice.notes == (f"tuning: {found.label} applied to the hybrid scorer",)
    # learned over three tools, with another model: the warnings say both
    assert choice.warnings


def test_the_option_wins_over_the_configuration_and_none_gives_none(tmp_path):
    tools = load_catalog(CATALOGS).tools
    given, configured = tmp_path / "given.json", tmp_path / "configured.json"
    given.write_text(dumps(a_tuning(tools, model="given@1")))
    configured.write_text(dumps(a_tuning(tools, model="configured@1")))
    assert find_tuning(given, configured).model == "given@1"
    assert find_tuning(None, configured).model == "configured@1"
    assert find_tuning(None, None) is None
    assert for_profile(None, "hybrid", tools).tuning is None
