"""A request that only names a server (toolcat.search.central): its central tools first."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import real_part, servers_of
from toolcat.model import Tool
from toolcat.search.central import Centres

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


def _top3(run, query: str, catalog: Path) -> list[dict]:
    """The first three tools `toolcat search` gives for `query` on a real-server catalog."""
    result = run("search", query, "-c", str(catalog),
                 "--scorer", "hybrid", "--limit", "3", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["tools"]


def test_a_servers_tools_get_their_cosine_to_the_servers_mean() -> None:
    tools = [Tool(name=n, description=n, server=s)
             for n, s in [("a", "one"), ("b", "one"), ("c", "one"), ("d", "two")]]
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [1.0, 0.0]], dtype=np.float32)
    found = Centres(tools).apply({"one"}, np.full(4, 0.1), vectors)
    mean = vectors[:3].sum(axis=0) / np.linalg.norm(vectors[:3].sum(axis=0))
    assert np.allclose(found[:3], vectors[:3] @ mean)
    assert found[3] == pytest.approx(0.1)  # another server's tool keeps the request's cosine
    assert found.argmax() == 2  # the tool between the others is the central one
    assert Centres(tools).apply({"three"}, np.full(4, 0.1), vectors).tolist() == [0.1] * 4


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh14-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_server_named_in_one_word_is_found_written_as_its_product_is(run, tmp_path):
    """Lunch Money's server is `lunchmoney`; "lunch money" named no server before. Three of
    fresh14's servers, not its 712 tools: the model encodes each tool once."""
    catalog = servers_of(DATA / "fresh14-catalog.json", ("lunchmoney", "runpod", "banxico"),
                         tmp_path)
    result = run("search", "Lunch Money", "-c", str(catalog), "--scorer", "hybrid",
                 "--limit", "3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["tools"]
    assert {t["server"] for t in found} == {"lunchmoney"}
    assert all("names only its server" in t["reason"] for t in found)


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_bare_server_name_puts_its_plain_story_tools_first(run):
    found = _top3(run, "shortcut", DATA / "fresh-catalog.json")
    assert found[0]["name"] in {"stories-get-by-id", "stories-create", "stories-search"}
    assert all("names only its server" in t["reason"] for t in found)
    mixed = run("search", "shortcut stories about login", "-c",
                str(DATA / "fresh-catalog.json"), "--scorer", "hybrid", "--json")
    assert all("names only its server" not in t["reason"]
               for t in json.loads(mixed.output)["tools"])


def test_a_bare_server_name_asks_to_look_where_the_server_names_tools_by_action() -> None:
    tools = [Tool(name=n, description=n, server=s) for n, s in [
        ("create_ticket_field", "desk"), ("create_ticket", "desk"), ("get_ticket", "desk"),
        ("list_contacts", "desk"), ("search_tickets", "desk"), ("get_weather", "sky")]]
    centres = Centres(tools)
    assert centres.look({"desk"}).tolist() == [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    assert centres.look(set()).tolist() == [0.0] * 6
    unnamed = [Tool(name=n, description=n, server="ops") for n in ("system", "projects", "get_x")]
    assert Centres(unnamed).look({"ops"}).tolist() == [0.0] * 3  # names that are not actions


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh5-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_bare_server_name_puts_a_tool_that_looks_first_on_a_server_of_creators(run,
                                                                                tmp_path):
    # most of Freshdesk's tools create or update; their mean is nearest create_ticket_field
    found = _top3(run, "freshdesk", real_part("fresh5", tmp_path))
    assert found[0]["name"] in {"get_tickets", "search_tickets", "get_ticket", "list_contacts"}
    assert "reads, lists or searches" in found[0]["reason"]
    assert not any(t["name"].startswith(("create_", "update_")) for t in found)


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh2-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_bare_server_name_is_no_word_evidence_for_the_tools_that_repeat_it(run):
    # monday's get_monday_* tools say "monday" in their names and texts; the name alone asks
    # for the server's main tools, not for those
    found = _top3(run, "monday", DATA / "fresh2-catalog.json")
    assert all(t["server"] == "monday" for t in found)
    assert not any("monday" in t["name"] for t in found)
    assert all("lexical 0.0 (BM25F: no term matched)" in t["reason"] for t in found)
