"""A short request that names a software service no tool of the catalog mentions ("show the
datadog p99 latency for the api service" over a catalog without Datadog) gets no tool, with
the service as the reason; one naming a service the catalog has keeps its tools
(toolcat.search.services, its list built by train/software_services.py)."""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import REPO, real_part, servers_of
from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import without_quotes
from toolcat.search.services import (
    LIST,
    CatalogMentions,
    missing_services,
    named_services,
    software_services,
)

REAL = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO / "train"))

from software_services import public_apis, service_of, services  # noqa: E402


def test_the_shipped_list_names_services_and_no_everyday_word():
    """The list in the package: the developer services requests name, and none of the
    words MCP servers are named after that a request says by chance."""
    listed = software_services()
    assert {"slack", "jira", "datadog", "pagerduty", "zendesk", "gitlab", "kubernetes"} <= listed
    # named by two public sources though left by one MCP package's name, or by none
    assert {"stripe", "sendgrid", "uber", "deepl"} <= listed
    assert not {"time", "fetch", "memory", "git", "files", "browser", "deploy", "filesystem",
                "weather", "calendar", "pdf", "sql", "csv", "python", "ethereum"} & listed
    text = LIST.read_text(encoding="utf-8")
    assert all(w in text for w in ("npm", "PyPI", "2026-11-30", "licence",
                                   "train/software_services.py", "public-apis", "MIT",
                                   "c045a2eb505f0f8b7992bb4af53cc020f25003fd"))
    assert all(w.isalpha() and w.islower() for w in listed)


def test_a_package_name_gives_its_service_by_the_stated_rule():
    """One word left once the scope and the words every MCP package may carry are gone; the
    scope when nothing is left; nothing when two words are (no one service)."""
    assert service_of("mcp-server-datadog") == "datadog"
    assert service_of("zendesk-mcp") == "zendesk"
    assert service_of("@stripe/mcp") == "stripe"
    assert service_of("jiramcp") == "jira"
    assert service_of("@aashari/mcp-server-atlassian-jira") is None
    assert service_of("left-pad") is None  # no MCP package
    # a product's name is written with a capital; a word of the trade is not, nor an acronym
    packages = [("mcp-server-fetch", "MCP server to fetch web pages"),
                ("fetch-mcp", "An MCP server that can fetch URLs"),
                ("mcp-server-datadog", "MCP server for Datadog metrics"),
                ("datadog-mcp", "Query Datadog monitors from an agent"),
                ("pdf-mcp", "Read a PDF with an agent"),
                ("mcp-pdf", "Split PDF files")]
    assert services(packages) == ["datadog"]


def test_two_public_sources_make_a_service_one_does_not():
    """A word one MCP package leaves is a service when the public-apis list has its API or
    six packages' summaries write it before "API" or "SDK"; either of those alone, or one
    MCP package alone, is not."""
    readme = "\n".join(["| API | Description |", "|---|---|",
                        "| [Sendgrid](https://sendgrid.com) | Email | `apiKey` |",
                        "| [Uber](https://developer.uber.com) | Rides | `OAuth` |",
                        "| [Google Analytics](https://x) | Stats | `OAuth` |",
                        "| [Fx](https://x) | Rates | No |"])
    apis = public_apis(readme)
    assert apis == {"sendgrid", "uber"}  # one word of three letters or more
    packages = [("mcp-stripe", "Take payments with Stripe from an agent"),
                ("uber-mcp", "Order an Uber ride"),
                ("mcp-coin", "Prices of Coin, the token")]
    packages += [(f"stripe-wrapper-{i}", "Stripe API wrapper") for i in range(6)]
    packages += [(f"sendgrid-lib-{i}", "A client for the Sendgrid API") for i in range(6)]
    packages += [(f"coin-lib-{i}", "Coin SDK for bots") for i in range(5)]
    # stripe: one MCP package and six summaries; uber: one MCP package and the list;
    # sendgrid: the list and six summaries; coin: one MCP package and five summaries only
    assert services(packages, apis) == ["sendgrid", "stripe", "uber"]
    assert services(packages) == ["stripe"]


def test_a_request_names_a_service_in_its_words_not_in_its_values():
    """Channels, handles, URLs, quotes and identifiers are values the request hands over."""
    assert named_services("post the release notes in #general on slack",
                          without_quotes) == ["slack"]
    assert named_services("open a Jira bug, then page PagerDuty", without_quotes) == \
        ["jira", "pagerduty"]
    assert named_services("summarise https://jira.example.com/x for #datadog-alerts",
                          without_quotes) == []
    assert named_services("tick off 'migrate to gitlab' and ping @zendesk-bot",
                          without_quotes) == []


def test_a_catalog_mentions_a_service_in_any_spelling():
    """dev's catalog has Postgres tools: "postgresql" is a close spelling of a word it has;
    it has no word of Jira's; fresh10's names its servers' services as they are written."""
    dev = CatalogMentions(load_catalog(REAL / "dev-catalog.json").tools)
    assert dev.mentions("postgres") and dev.mentions("postgresql")
    assert not dev.mentions("jira")
    fresh10 = CatalogMentions(load_catalog(REAL / "fresh10-catalog.json").tools)
    assert missing_services("clear all my github notifications", fresh10,
                            without_quotes) == []
    assert missing_services("page the on-call engineer in PagerDuty, checkout is down",
                            fresh10, without_quotes) == ["pagerduty"]


@pytest.mark.semantic
def test_a_real_catalog_turns_away_a_service_it_lacks_and_keeps_one_it_has(run,
                                                                           shared_cache,
                                                                           tmp_path):
    """fresh11's servers have no Datadog and no Slack: pick shows no tool for requests that
    name them, and says which service no tool mentions; requests naming its own services
    (Splunk, Mattermost) keep their tools. The picks run on the servers around Splunk and
    Mattermost (the model encodes 212 tools, not 752)."""
    from toolcat.search import build_scorer, default_scorer
    from toolcat.search.pick import pick

    whole = CatalogMentions(load_catalog(REAL / "fresh11-catalog.json").tools)
    assert not whole.mentions("datadog") and not whole.mentions("slack")
    assert whole.mentions("splunk") and whole.mentions("mattermost")
    catalog = real_part("fresh11", tmp_path)
    datadog = "show the datadog p99 latency for the api service"
    away = json.loads(run("pick", "-c", str(catalog), datadog, "--allow-unsafe",
                          "--json").stdout)
    assert away["picks"] == [], away["picks"]
    assert away["message"].startswith("no tool fits: no tool here mentions datadog"), \
        away["message"]
    tools = list(load_catalog(catalog).tools)
    scorer = build_scorer(default_scorer(len(tools))[0], tools)
    slack = pick("post the release notes in #general on slack", tools, max_candidates=5,
                 scorer=scorer, allow_unsafe=True)
    assert not slack.picks and "no tool here mentions slack" in slack.message, slack.message
    splunk = pick("is splunk waiting for a restart after the props.conf change?", tools,
                  max_candidates=5, scorer=scorer, allow_unsafe=True)
    assert splunk.picks and "splunk" in splunk.picks[0].tool.server.lower(), splunk.message
    # a service the catalog has counts for nothing: the request is kept (which tool ranks
    # first is the ranking's matter)
    mattermost = pick("jdoe left last friday, deactivate his mattermost account", tools,
                      max_candidates=5, scorer=scorer, allow_unsafe=True)
    assert mattermost.picks, mattermost.message


@pytest.mark.semantic
def test_services_only_a_second_source_names_are_turned_away_where_missing(run,
                                                                          shared_cache,
                                                                          tmp_path):
    """fresh13's servers (Mailchimp, Search Console, M-PESA) have no Stripe and no
    SendGrid, names one MCP package's name and none leave: pick shows no tool and says
    which service no tool mentions. fresh5's catalog mentions the Stripe API: a request
    naming it there keeps its tools."""
    fresh13 = REAL / "fresh13-catalog.json"
    for request, service in (("refund order #10293 in stripe", "stripe"),
                             ("send a password reset email through sendgrid to user 4412",
                              "sendgrid")):
        away = json.loads(run("pick", "-c", str(fresh13), request, "--allow-unsafe",
                              "--json").stdout)
        assert away["picks"] == [], away["picks"]
        assert away["message"].startswith(f"no tool fits: no tool here mentions {service}"), \
            away["message"]
    kept = json.loads(run("pick", "-c", str(fresh13), "show the subscribers of the "
                          "mailchimp audience", "--allow-unsafe", "--json").stdout)
    assert kept["picks"], kept["message"]
    fresh5 = json.loads(run("pick", "-c", str(real_part("fresh5", tmp_path)),  # Postman's
                            "find the public Stripe API in our catalog", "--allow-unsafe",
                            "--json").stdout)
    assert fresh5["picks"], fresh5["message"]  # which tool ranks first is the ranking's matter


def test_a_service_named_only_in_passing_is_not_one_the_catalog_has():
    """fresh10 names Kubernetes only in a parameter's example ("ex: 'Java Spring AWS
    Kubernetes'"), fresh12 Vercel only in a URL and no word like Binance but "finance";
    fresh14 has no LinkedIn (its "linked" is an everyday word). A tool's name, its server
    and what its description says of itself still count: dev's Postgres tools, fresh10's
    GitHub ones."""
    fresh10 = CatalogMentions(load_catalog(REAL / "fresh10-catalog.json").tools)
    assert missing_services("restart the api deployment in the prod kubernetes cluster",
                            fresh10, without_quotes) == ["kubernetes"]
    assert missing_services("clear all my github notifications", fresh10,
                            without_quotes) == []
    fresh12 = CatalogMentions(load_catalog(REAL / "fresh12-catalog.json").tools)
    assert not fresh12.mentions("vercel") and not fresh12.mentions("binance")
    fresh14 = CatalogMentions(load_catalog(REAL / "fresh14-catalog.json").tools)
    assert not fresh14.mentions("linkedin")
    dev = CatalogMentions(load_catalog(REAL / "dev-catalog.json").tools)
    assert dev.mentions("postgres") and dev.mentions("postgresql")


@pytest.mark.semantic
def test_pick_turns_away_a_service_the_catalog_names_only_in_passing(run, shared_cache,
                                                                      tmp_path):
    """fresh14 has no LinkedIn server (its "linked" is an everyday word, no spelling of
    it): the request gets no tool and the service as the reason. The pick runs on the three
    servers whose tools say "linked" (the model encodes 227 tools, not 712)."""
    linked = servers_of(REAL / "fresh14-catalog.json", ("pipedrive", "dataverse", "serpstat"),
                        tmp_path)
    assert "linked to a dataverse record" in linked.read_text(encoding="utf-8").lower()
    away = json.loads(run("pick", "-c", str(linked),
                          "post this announcement on our linkedin company page",
                          "--allow-unsafe", "--json").stdout)
    assert away["picks"] == [], away["picks"]
    assert "no tool here mentions linkedin" in away["message"], away["message"]


def test_an_everyday_word_inflected_is_no_spelling_of_a_service():
    # fresh5's whole catalog "mentioned" Stripe by a download URL "stripped" of its query
    from toolcat.model import Tool

    said = Tool(name="get_download_url", description="The link, stripped of its query string.")
    assert not CatalogMentions([said]).mentions("stripe")
    typo = Tool(name="charge", description="Charge a card through Strippe.")  # a misspelling
    assert CatalogMentions([typo]).mentions("stripe")


def test_a_service_inside_an_identifier_is_a_value_not_the_service_asked_for():
    assert named_services("set STRIPE_KEY on the billing app", without_quotes) == []
    assert named_services("refund the last stripe charge", without_quotes) == ["stripe"]


def test_a_service_named_after_examples_is_named_in_passing():
    """fresh16's Glean search names Jira only in its datasources parameter's "Examples:
    "github", "gdrive", "confluence", "jira"": no tool of the catalog acts on Jira. What a
    tool's own text says of itself still counts (Keycloak, Wildberries)."""
    fresh16 = CatalogMentions(load_catalog(REAL / "fresh16-catalog.json").tools)
    assert not fresh16.mentions("jira")
    assert fresh16.mentions("keycloak") and fresh16.mentions("wildberries")
    assert missing_services("file a jira issue about the broken signup form", fresh16,
                            without_quotes) == ["jira"]


@pytest.mark.semantic
def test_pick_turns_away_jira_where_a_search_tool_lists_it_among_examples(run, shared_cache,
                                                                          tmp_path):
    """Over fresh16's Glean search (Jira one of its datasources' examples), ActiveCollab's
    tasks and Keycloak, a request to file a Jira issue gets no tool and Jira as the reason;
    requests with the same words that ask what these servers do keep their tools."""
    part = servers_of(REAL / "fresh16-catalog.json", ("glean", "activecollab", "keycloak"),
                      tmp_path)

    def picked(request: str) -> dict[str, object]:
        found: dict[str, object] = json.loads(run("pick", "-c", str(part), request,
                                                  "--allow-unsafe", "--json").stdout)
        return found

    away = picked("file a jira issue about the broken signup form")
    assert away["picks"] == [], away["picks"]
    assert str(away["message"]).startswith("no tool fits: no tool here mentions jira"), \
        away["message"]
    for request in ("create a task for the broken signup form in our project",
                    "search our company documents for the login bug ticket"):
        kept = picked(request)
        assert kept["picks"], kept["message"]


def test_where_a_request_names_a_service_is_read_with_the_name():
    """`naming`: a listed service in a service's slot (after "on", "in", "with", ...; before
    what a service holds or is asked for: "the okta password", "a jira ticket") is the
    system the request acts on; the same name elsewhere is only named. Products and names
    in capitals are read only in a slot."""
    from toolcat.search.services import naming

    assert naming("reset the okta password for bob", without_quotes) == {"okta": True}
    assert naming("open a jira ticket for the login bug", without_quotes) == {"jira": True}
    assert naming("post the release notes in #general on slack",
                  without_quotes) == {"slack": True}
    assert naming("forward local port 8080 to the grafana service",
                  without_quotes) == {"grafana": True}
    assert naming("compare okta and auth0 pricing", without_quotes) == {"okta": False}
    assert naming("where is my DHL parcel", without_quotes) == {"dhl": True}
