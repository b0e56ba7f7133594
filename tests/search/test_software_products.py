"""A short request that names a software product where its form puts a service ("restart the
nginx container on prod-web-2", "what was our bounce rate in google analytics this week")
gets no tool when no tool of the catalog mentions the product, with the product as the
reason; a request naming a product the catalog has keeps its tools (toolcat.search.services,
its list lists/software-products.txt built by train/software_services.py --products)."""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import REPO, servers_of
from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import without_quotes
from toolcat.search.services import (
    PRODUCTS,
    CatalogMentions,
    missing_services,
    named_services,
    software_products,
    software_services,
)

REAL = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO / "train"))

from software_services import products  # noqa: E402


def test_the_shipped_products_list_names_products_and_no_everyday_word():
    """The list in the package: products MCP packages are named after, one word or a
    vendor's two, none of the services read anywhere, no word a request says by chance."""
    listed = set(software_products().values())
    assert {"instagram", "youtube", "nginx", "wildberries", "google analytics",
            "google calendar", "bing webmaster"} <= listed
    assert not listed & software_services()
    assert not {"time", "fetch", "memory", "files", "search", "weather", "calendar",
                "web search", "file system", "pdf"} & listed
    text = PRODUCTS.read_text(encoding="utf-8")
    assert all(w in text for w in ("npm", "PyPI", "2026-11-30", "licence",
                                   "train/software_services.py --products"))


def test_a_product_is_what_three_mcp_packages_are_named_after():
    """Rules 5 and 6: a piece (or two side by side) of three MCP packages' names, written
    with a capital in their summaries or rare; an author of two packages is not one, nor an
    everyday word of the trade, nor two words whose first is written in lower case."""
    packages = [("zoom-meetings-mcp", "Zoom meetings for agents"),
                ("osomai-zoomy-mcp", "Schedule Zoomy calls"),
                ("mcp-zoomy", "A Zoomy client"), ("zoomy-mcp-server", "Talk to Zoomy"),
                ("mcp-server-google-analytics", "Reports from Google Analytics"),
                ("google-analytics-mcp", "GA4 reports"),
                ("barie-google-analytics-mcp", "Google Analytics data"),
                ("web-search-mcp", "search the web"), ("mcp-web-search", "web search"),
                ("free-web-search-mcp", "a web search for agents"),
                ("nginx-proxy-mcp", "manage nginx"), ("nginx-logs-mcp", "read nginx logs"),
                ("mcp-nginx", "nginx config"),
                ("memory-mcp", "memory for agents"), ("mcp-memory", "a memory store"),
                ("memory-graph-mcp", "graph memory")]
    found = products(packages, set())
    assert {"zoomy", "google analytics", "nginx"} <= set(found)
    assert not {"osomai", "barie", "web search", "memory", "web"} & set(found)
    assert "zoomy" not in products(packages, {"zoomy"})  # a service read anywhere already


def test_a_product_is_read_only_where_a_request_puts_a_service():
    """One word before what a service holds; two words there or after "in", "to", ...;
    never in what the request hands over (quotes, values), nor in a slot a place or a coin
    takes ("in Beijing", "on Ethereum")."""
    def named(request: str) -> list[str]:
        return named_services(request, without_quotes)

    assert named("post this photo to my Instagram story") == ["instagram"]
    assert named("restart the nginx container on prod-web-2") == ["nginx"]
    assert named("what was our bounce rate in google analytics this week") == \
        ["google analytics"]
    assert named("add lunch with Dana thursday 1pm to my google calendar") == \
        ["google calendar"]
    assert named("configure nginx as a reverse proxy") == []
    assert named("how many followers does instagram report") == []
    assert named("google analytics says traffic fell") == []
    assert named("tick off 'restart the nginx container'") == []
    # a name in capitals no list has, right before what a service holds; not a quarter
    assert named("where is my DHL parcel 00340434161094042557?") == ["dhl"]
    assert named("restart the EC2 instance i-0abc1234def567890") == ["ec2"]
    assert named("DHL says the parcel is late") == []
    assert named("list my Q3 orders") == []


def test_a_catalog_that_mentions_the_product_keeps_the_request():
    """fresh14 has no nginx, no Google Analytics and no DHL; fresh6's catalog mentions
    Google Analytics, and fresh4's google-workspace server Google Docs."""
    fresh14 = CatalogMentions(load_catalog(REAL / "fresh14-catalog.json").tools)
    assert missing_services("restart the nginx container on prod-web-2", fresh14,
                            without_quotes) == ["nginx"]
    assert missing_services("what was our bounce rate in google analytics this week",
                            fresh14, without_quotes) == ["google analytics"]
    assert missing_services("where is my DHL parcel JD014600003828", fresh14,
                            without_quotes) == ["dhl"]
    fresh6 = CatalogMentions(load_catalog(REAL / "fresh6-catalog.json").tools)
    assert missing_services("what was our bounce rate in google analytics this week",
                            fresh6, without_quotes) == []
    fresh4 = CatalogMentions(load_catalog(REAL / "fresh4-catalog.json").tools)
    assert missing_services("turn ~/notes/retro-nov.md into a google doc", fresh4,
                            without_quotes) == []
    # fresh4's AWS tools say EC2 (its digit kept); fresh9's servers never do
    assert missing_services("restart the EC2 instance i-0abc1234def567890", fresh4,
                            without_quotes) == []
    fresh9 = CatalogMentions(load_catalog(REAL / "fresh9-catalog.json").tools)
    assert missing_services("restart the EC2 instance i-0abc1234def567890", fresh9,
                            without_quotes) == ["ec2"]


@pytest.mark.semantic
def test_pick_turns_away_a_product_the_catalog_lacks_and_keeps_one_it_has(run, shared_cache,
                                                                         tmp_path):
    """fresh14's Runpod, Pipedrive and Snyk servers have pods and containers but no nginx,
    and conversion statistics but no Google Analytics: pick shows no tool for requests that
    name them and says which product no tool mentions. Its real requests with the same
    words (a pod, this month's figures) keep their tools, and fresh4's google-workspace
    server keeps "turn ... into a google doc"."""
    fresh14 = servers_of(REAL / "fresh14-catalog.json", ("runpod", "pipedrive", "snyk"),
                         tmp_path)
    for request, product in (("restart the nginx container on prod-web-2", "nginx"),
                             ("what was our bounce rate in google analytics this week",
                              "google analytics")):
        away = json.loads(run("pick", "-c", str(fresh14), request, "--allow-unsafe",
                              "--json").stdout)
        assert away["picks"] == [], away["picks"]
        assert away["message"].startswith(f"no tool fits: no tool here mentions {product}"), \
            away["message"]
    for request in ("terminate pod xq7k2m9d3f, training finished",
                    "how much have we spent on runpod this month?"):
        kept = json.loads(run("pick", "-c", str(fresh14), request, "--allow-unsafe",
                              "--json").stdout)
        assert kept["picks"], kept["message"]
    fresh4 = servers_of(REAL / "fresh4-catalog.json", ("google-workspace", "obsidian"),
                        tmp_path)
    doc = json.loads(run("pick", "-c", str(fresh4), "turn ~/notes/retro-nov.md into a "
                         "google doc", "--allow-unsafe", "--json").stdout)
    assert doc["picks"], doc["message"]
