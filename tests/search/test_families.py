"""Which server, and which family of its tools, a request is about (toolcat.search.families)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search.families import FAMILY_FIT, SERVER_FIT, Families, family_keys

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


def _cloud() -> list[Tool]:
    names = ["nc_calendar_create_event", "nc_calendar_delete_event", "nc_calendar_list_events",
             "nc_contacts_create_contact", "nc_contacts_delete_contact", "nc_notes_get_note"]
    return ([Tool(name=n, description=n, server="cloud") for n in names]
            + [Tool(name="cancel_subscription", description="x", server="store"),
               Tool(name="list_subscriptions", description="x", server="store")])


def test_a_family_is_a_name_word_some_of_a_servers_tools_share_not_its_verb_or_prefix() -> None:
    tools = _cloud()
    keys = family_keys(tools)
    assert keys[0] == {"nc": "nc", "calendar": "calendar", "event": "event"}  # create: the verb
    assert keys[7] == {"subscript": "subscriptions"}
    families = Families(tools)
    # "nc" is on every tool of cloud: a prefix that names the server, not a family of it;
    # "notes" is on one tool only; the store's two tools share "subscript": it names the store
    assert sorted(families._names) == ["calendar", "contact", "event"]


def test_a_server_and_a_family_that_fit_worse_cost_their_tools_evidence() -> None:
    tools = _cloud()
    # two dimensions: calendar things lie along x, everything else along y
    vectors = np.array([[1.0, 0.0]] * 3 + [[0.0, 1.0]] * 3 + [[0.0, 1.0]] * 2)
    request = vectors @ np.array([1.0, 0.0])  # a request about the calendar: cosine 1 or 0
    of_server, of_family = Families(tools).parts(request)
    cloud = 1.0  # the cloud's best three cosines: its three calendar tools
    assert of_server[:6] == pytest.approx([0.0] * 6)  # the cloud fits best
    assert of_server[6:] == pytest.approx([SERVER_FIT * (0.0 - cloud)] * 2)
    assert of_family[:3] == pytest.approx([0.0] * 3)  # calendar is the cloud's best family
    assert of_family[3:5] == pytest.approx([-FAMILY_FIT] * 2)  # contacts: cosine 0 against 1
    assert of_family[5] == 0.0  # in no family
    assert of_family[6:] == pytest.approx([0.0, 0.0])  # the store has no family
    total = Families(tools).evidence(np.stack([request, 1 - request]))
    assert total.shape == (2, 8)
    assert total[0] == pytest.approx(of_server + of_family)


def test_one_server_gives_no_server_evidence_and_no_family_no_family_evidence() -> None:
    tools = [Tool(name=n, description=n) for n in ("get_weather", "get_time", "translate")]
    of_server, of_family = Families(tools).parts(np.array([0.9, 0.1, 0.0]))
    assert of_server.tolist() == [0.0] * 3
    assert of_family.tolist() == [0.0] * 3
    assert Families([]).evidence(np.zeros((1, 0))).shape == (1, 0)


def test_the_explanation_names_the_server_and_the_family_that_fit_best() -> None:
    tools = _cloud()
    vectors = np.array([[1.0, 0.0]] * 3 + [[0.0, 1.0]] * 3 + [[0.0, 1.0]] * 2)
    request = vectors @ np.array([1.0, 0.0])
    families = Families(tools)
    of_server, of_family, said = families.explained(request, 3)
    assert of_server == 0.0
    assert of_family == pytest.approx(-FAMILY_FIT)
    assert "its family 'contact' fits less well than its server's 'calendar'" in said
    of_server, _, said = families.explained(request, 6)
    assert of_server < 0
    assert "less well than 'cloud'" in said
    assert families.explained(request, 0) == (0.0, 0.0, "")


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_what_a_request_is_about_chooses_the_server_its_verb_meets_on_many(run):
    # "drop" meets Datadog's downtime tools by their "schedule"; the calendar server, read as
    # a whole, is what an offsite on one's schedule is about
    result = run("search", "drop the team offsite from my schedule", "-c",
                 str(DATA / "fresh-catalog.json"), "--scorer", "hybrid", "--limit", "3",
                 "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"]
    assert (found[0]["server"], found[0]["name"]) == ("google-calendar", "delete-event")
    datadog = [t for t in found if t["server"] == "datadog"]
    assert datadog
    assert all("its server fits the request as a whole less well than 'google-calendar'"
               in t["reason"] for t in datadog)
