"""Action agreement: a request's verb and the verb a tool's name opens with
(toolcat.search.actions). Model-free: the evidence is read before any embedding; the tests
marked semantic rank with the real model."""

from __future__ import annotations

import pytest

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, Actions, asked


def tools(server: str, *names: str) -> list[Tool]:
    return [Tool(name=n, description=f"{n} does it", server=server) for n in names]


def agreeing(catalog: list[Tool], request: str) -> list[str]:
    return [catalog[i].name for i in Actions(catalog).agreeing(request)]


def test_a_synonym_of_the_name_verb_agrees_and_the_siblings_do_not():
    gitlab = tools("gitlab", "get_branch", "delete_branch", "update_branch", "list_branches",
                   "create_branch")
    assert agreeing(gitlab, "remove the old branch feature/x") == ["delete_branch"]
    assert agreeing(gitlab, "erase that branch") == ["delete_branch"]
    assert agreeing(gitlab, "make a branch for the release") == ["create_branch"]
    evidence = Actions(gitlab).evidence("remove the old branch")
    assert evidence.tolist() == [0.0, AGREEMENT, 0.0, 0.0, 0.0]


def test_the_verb_the_name_has_agrees_only_with_what_it_acts_on():
    # BM25F counted the verb already: counted again alone, "find the coordinates of Berlin"
    # put find_free_time before geocode_location; with a word of its object, the tool the
    # request names word for word keeps its lead over a synonym ("read the file": read_file
    # before get_file_info)
    files = tools("files", "read_file", "get_file_info", "find_free_time", "write_file")
    assert agreeing(files, "find the coordinates of Berlin") == []
    assert agreeing(files, "find some free time on Friday") == ["find_free_time"]
    assert agreeing(files, "read the file notes.txt") == ["read_file", "get_file_info"]


def test_show_asks_to_read_one_or_list_many():
    gitlab = tools("gitlab", "get_deployment", "list_deployments", "delete_deployment")
    assert agreeing(gitlab, "show the recent deployments") == ["get_deployment",
                                                               "list_deployments"]


@pytest.mark.parametrize(("request_", "group"), [
    ("nuke the old meeting series, nobody comes", "delete"),
    ("trash the meeting I set up by mistake", "delete"),
    ("reschedule the meeting with Sam to friday at 10", "update"),
    ("amend the meeting's title to 'Q3 review'", "update"),
])
def test_everyday_verbs_are_read_as_the_action_they_name(request_: str, group: str) -> None:
    assert asked(request_) == {group}
    meetings = tools("calendar", "create_meeting", "update_meeting", "delete_meeting",
                     "get_meeting")
    assert agreeing(meetings, request_) == [f"{group}_meeting"]


def test_the_first_verb_of_the_request_decides_and_only_as_an_order():
    assert asked("stop the pipeline that is running") == {"stop"}
    assert asked("who last changed each line of app.py") == frozenset()  # not an order
    assert asked("what files are in the docs folder") == frozenset()
    assert asked("Remove it") == {"delete"}


def test_a_prefix_the_server_tools_share_is_skipped():
    kubernetes = tools("kubernetes", "kubectl_get", "kubectl_delete", "kubectl_logs",
                       "exec_in_pod")
    assert agreeing(kubernetes, "show the pods in the staging namespace") == ["kubectl_get"]


def test_a_verb_in_names_that_are_mostly_topics_is_no_action():
    # MetaTool-like: one group whose names rarely open with an action; find_agency is a topic
    plugins = tools("catalog", "find_agency", "ResearchFinder", "HouseRentingTool",
                    "WeatherPlugin", "ProductSearch")
    assert agreeing(plugins, "find a rental property in Tokyo") == []


def test_a_request_without_a_verb_of_the_table_changes_nothing():
    gitlab = tools("gitlab", "get_user", "list_users", "whoami")
    assert not Actions(gitlab).evidence("which user am I logged in as").any()
    assert not Actions([]).evidence("delete everything").any()


def test_the_names_read_are_read_again_when_the_tools_change_in_place():
    from toolcat.search.actions import named

    catalog = [Tool(name=n, description="x", server="s") for n in ("delete_branch", "list_tags")]
    assert [found[0] if found else None for found in named(catalog)] == ["delet", "list"]
    catalog[0] = Tool(name="create_branch", description="x", server="s")
    assert [found[0] if found else None for found in named(catalog)] == ["creat", "list"]


def test_a_verb_after_a_longer_prefix_or_at_the_end_of_the_name_is_its_action():
    # `boond_candidates_delete`, `collections_items_create_item`: the verb stands after the
    # server's first word and what it acts on; none of these servers' names opens with one
    crm = tools("crm", "crm_candidates_search", "crm_candidates_get", "crm_candidates_delete",
                "crm_candidates_information", "crm_orders_delete", "crm_orders_search")
    assert agreeing(crm, "remove candidate 4412, a duplicate") == ["crm_candidates_delete",
                                                                  "crm_orders_delete"]
    assert agreeing(crm, "delete candidate 4412") == ["crm_candidates_delete"]
    cms = tools("cms", "collections_items_create_item", "collections_items_update_items",
                "collections_items_list_items", "collections_list", "site_publish")
    assert agreeing(cms, "add a blog post to the site") == ["collections_items_create_item"]


def test_a_name_whose_verb_comes_late_without_a_shared_first_word_has_none():
    # `text_to_speech`-like names: a word of the table deep in a name of its own is a topic
    audio = tools("audio", "text_to_speech", "voice_clone_delete", "speech_to_text")
    assert agreeing(audio, "remove the cloned voice") == []


ORDERS = [Tool(name=f"crm_orders_{verb}", server="crm", description=text) for verb, text in (
    ("search", "Search the orders by client, date or status."),
    ("get", "Get one order with its lines and amounts."),
    ("create", "Create an order for a client."),
    ("update", "Update an order's lines, dates or amounts."),
    ("delete", "Delete an order."),
    ("information", "An order's information sheet: its client, project and amounts."))]


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the catalog is encoded once a session
@pytest.mark.parametrize(("request_", "expected"), [
    ("the client cancelled order 7781, remove it", "crm_orders_delete"),
    ("erase order 7781 from the books", "crm_orders_delete"),
    ("add an order for Decathlon: 3 days of consulting", "crm_orders_create"),
])
def test_names_that_end_with_their_verb_get_the_action_asked_for(request_: str,
                                                                expected: str) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", ORDERS), request_, limit=1)
    assert found[0].tool.name == expected
    assert "its name's action is the one asked for" in found[0].reason


@pytest.mark.parametrize(("request_", "group"), [
    ("set up a webhook for new projects", "create"),  # "set" alone is an update
    ("please spin up a staging droplet", "create"),
    ("turn off the nightly backups", "stop"),
    ("kick off the release pipeline", "run"),
    ("take down the listing, it sold", "delete"),
])
def test_a_phrasal_verb_is_read_as_the_action_its_particle_makes(request_: str,
                                                                 group: str) -> None:
    assert asked(request_) == {group}
    from toolcat.search.verbs import spoken

    assert spoken(request_) is None  # the table reads it: not mapped by the model
    users = tools("splunk", "create_user", "update_user", "delete_user", "get_user")
    assert agreeing(users, "set up a login for the new analyst") == ["create_user"]


def test_a_verb_with_another_particle_keeps_its_own_action() -> None:
    assert asked("set the flag to on for everyone") == {"update"}
    assert asked("take it down") == frozenset()  # its object between: not the table's


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the catalog is encoded once a session
def test_setting_up_an_account_ranks_the_create_tool_first_and_says_why(tmp_path) -> None:
    # fresh11's servers (Splunk's users beside Zammad's and Mattermost's): "set" alone read
    # as update put update_user first for "set up a splunk login"
    from tests.conftest import real_part
    from toolcat.catalog.load import load_catalog
    from toolcat.search import build_scorer, rank

    catalog = list(load_catalog(real_part("fresh11", tmp_path)).tools)
    found = rank(build_scorer("hybrid", catalog),
                 "set up a splunk account for the contractor, role power", limit=2)
    assert found[0].tool.name == "create_user"
    assert "'set up' read as create, its name's action is the one asked for" in found[0].reason
    assert "update_user" not in {f.tool.name for f in found}
