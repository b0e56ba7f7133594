"""The verb with its object (toolcat.search.collocations): a verb the table lacks, read with
its object, says which sibling's action a request asks for. Model-free, but for the last test,
which ranks a real server's tools through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.search.collocations import phrase

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_", "said"), [
    ("lock the offer letter so nobody can edit it without a password",
     ("lock the offer letter", "the offer letter")),
    ("bump the Pro monthly price pri_01gsz8 to $29",
     ("bump the pro monthly price", "the pro monthly price")),  # the value is left out
    ("publish a help-center article on how to reset 2FA", ("publish a article", "a article")),
    ("get rid of the 'vacation lights' automation, we're back",
     ("get rid of the vacation lights automation", "the vacation lights automation")),
    ("fire off customer_ltv_daily for yesterday", ("fire off", "")),  # no object
    ("cut a release/2.5 branch off develop", ("cut a branch", "a branch")),
])
def test_the_verb_phrase_is_the_orders_verb_with_its_object(
        request_: str, said: tuple[str, str]) -> None:
    assert phrase(request_) == said


@pytest.mark.parametrize("request_", [
    "delete the third paragraph",  # the table's verb: the table decides
    "can you create an invoice for Brightline",
    "checkout app is OutOfSync since the last commit",  # a statement
    "what is the status of ENG-412",  # a question
    "",
])
def test_no_phrase_where_the_table_knows_the_verb_or_there_is_no_order(request_: str) -> None:
    assert phrase(request_) is None


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh6-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_verb_phrase_the_table_lacks_picks_the_sibling_with_its_action_and_says_why(run):
    # protect_document and unprotect_document embed alike (unprotect came first); "lock"
    # is no verb of the table nor near one of the catalog's
    result = run("pick", "lock the offer letter so nobody can edit it without a password",
                 "-c", str(DATA / "fresh6-catalog.json"), "-k", "2", "--json", "--explain")
    assert result.exit_code == 0, result.output
    picks = json.loads(result.output)["picks"]
    assert [p["name"] for p in picks] == ["protect_document", "unprotect_document"]
    assert picks[0]["provenance"]["details"]["phrase_evidence"] == 1.0
    assert "'lock the offer letter' says" in picks[0]["reason"]
    assert "phrase_evidence" not in picks[1]["provenance"]["details"]
