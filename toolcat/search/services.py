"""Requests that name a software service the catalog does not have: "open a jira bug for the
checkout crash" against a catalog whose tools and servers never mention Jira asks for what
no tool here can do, however near its other words ("bug", "crash") lie to the catalog's.

Which words are software services is data (lists/software-services.txt): names of the
services that MCP server packages reach or whose API is public, built once from the npm
registry's and PyPI's package names and summaries and from the public-apis list by
train/software_services.py, by a stated rule (everyday words and acronyms of the trade
dropped), read at run time from the package. A word a request names is not
read when it is a value the request hands over: what it quotes, URLs, paths and file names,
channels and handles ("#jira-triage", "@datadog-bot"), pieces with a digit. A service counts
as mentioned when the catalog's text (every tool's name, description, parameters and
server, each piece in lower case with all but letters removed) has it ("PagerDuty",
"pager_duty", "mcp-server-pagerduty"), or one of its words, not an everyday word, is a close
spelling of it ("postgres" for "postgresql", not "finance" for "binance"): a catalog that
mentions a service, in any spelling, is never judged by it. A description that names it only
in passing does not count: in a URL (where its docs are) or an example ("e.g. GitHub",
"such as Slack", "like GitHub", 'Examples: "github", "jira"': what a parameter may hold,
not what the tool acts on).

A product of lists/software-products.txt (one or two words MCP packages' names give, by a
looser rule: train/software_services.py, rules 5 and 6) is read only where the request's form
puts a service. One word, before a noun of what a service holds ("post this photo to my
Instagram story", "restart the nginx container", "our youtube channel"): after "on" or "in"
the list's words are as often places, coins and topics a request asks about ("humidity in
Beijing", "fees on Ethereum", "data on DeFi protocols", metatool's). Two words, there or after
"on", "in", "to", "with", "via", "at", ... and at most one determiner ("in google analytics",
"to my google calendar"): a vendor's product, as the system the request asks to act on.
A name no list has is read by its form alone in the first slot: written in capitals, with one
digit at most at its end, right before what a service holds ("where is my DHL parcel",
"restart the EC2 instance"); the catalog mentions it when its text, digits kept, has it.

Such a request is turned away when it is short (abstain.SHORT_WORDS words or fewer) and its
best tool's hybrid evidence is under SERVICE_FLOOR: long requests and strong fits name
services as things the catalog's tools act on ("forward local port 8080 to the grafana
service", "drop the figma link from story 3300"). Both were chosen on real-server halves and
public sets, and measured on halves the choice never looked at (docs/search.md, abstain9).
The rule runs after the shipped abstention (toolcat.search.abstain), on what it lets through.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from toolcat.model import Tool
from toolcat.search.text import without_values

LIST = Path(__file__).parent / "lists" / "software-services.txt"
PRODUCTS = Path(__file__).parent / "lists" / "software-products.txt"
# the words after which a request names the system it acts on ("on Instagram", "in google
# analytics", "to my google calendar", "with DeepL"), and those it may put between
BEFORE = frozenset("on in into to with via through using at from".split())
DETERMINERS = frozenset("my our the your a an this their".split())
# what a service holds, after its name ("the nginx container", "my DHL parcel", "our youtube
# channel", "a zoom meeting")
HELD = frozenset("""account accounts parcel package order orders store shop channel page
story playlist meeting call instance container pod cluster campaign wallet app api profile
workspace""".split())
# what a request asks of a service, after its name ("a jira ticket", "the okta password", "a
# slack message", "gitlab merge request"): with HELD, the nouns after which a listed service's
# name is the system the request acts on, not a word of the trade
OBJECTS = frozenset("""ticket tickets issue issues bug bugs message messages password passwords
repo repos repository board boards bucket buckets inbox seller merge sheet doc docs""".split())
# a name written in capitals, one digit at most at its end ("DHL", "EC2"): read as a service's
# only right before what a service holds ("my DHL parcel", "the EC2 instance")
_CAPITALS = re.compile(r"[A-Z]{2,5}[0-9]?")
SERVICE_FLOOR = 8.5  # nats of hybrid evidence under which a short request naming a missing
# service is turned away: a strong fit keeps it ("forward local port 8080 to the grafana
# service" over Kubernetes tools, 17.6; "on our Astro deployment, which pipelines exist", 8.9)
CLOSE = 85.0  # rapidfuzz ratio from which a catalog's word is a spelling of a service's name
SHORTEST_CLOSE = 4  # letters of the shortest catalog word compared for a close spelling
MOST = 64  # white-space separated pieces of a request read
EVERYDAY = 4.0  # Zipf frequency from which a catalog's word is an everyday word, no spelling of
# a service's name ("finance" is not "binance", nor "linked" "linkedin"; the list's own rule)
_LETTERS = re.compile(r"[A-Za-z]+")
_NOT_LETTERS = re.compile(r"[^a-z]+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
# what a description names in passing: a URL ("https://github.com/vercel-labs/...": where the
# docs are, not what the tool acts on), and an example, from "e.g.", "ex:", "for example",
# "such as", "like" or "examples:" to the end of its parenthesis or sentence ("GitHub owner
# (e.g. 'runpod-workers')", "free text (ex: 'Java Spring AWS Kubernetes')", "data sources to
# search in. Examples: "github", "jira"."); linear, each run once
_PASSING = re.compile(r"\b(?:https?://|www\.)\S*"
                      r"|(?:\be\.g\.|\beg\b|\bex:|\bfor example\b|\bfor instance\b"
                      r"|\bsuch as\b|\blike\b|\bexamples?\s*:)[^.;)\]\n]{0,400}",
                      re.IGNORECASE)


@functools.cache
def software_services() -> frozenset[str]:
    """The listed software services' names, in lower case (empty when the list is missing:
    nothing is turned away for naming one)."""
    try:
        text = LIST.read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


@functools.cache
def software_products() -> dict[str, str]:
    """The listed software products, each by its key (`_key`: "google sheet" for "google
    sheets") (empty when the list is missing: nothing is turned away for naming one)."""
    try:
        text = PRODUCTS.read_text(encoding="utf-8")
    except OSError:
        return {}
    return {_key(line.split()): line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")}


def _key(words: Sequence[str]) -> str:
    """A product's name as it is looked up: lower case, its last word without a plural "s"
    ("google sheets" and "google sheet" are one product)."""
    lower = [w.lower() for w in words]
    if len(lower) > 1 and len(lower[-1]) > 3 and lower[-1].endswith("s"):
        lower[-1] = lower[-1][:-1]
    return " ".join(lower)


def named_services(request: str, quoted: Callable[[str], str]) -> list[str]:
    """The listed services `request` names, the listed products it names where its form
    puts a service (`in_slot`), and the names it writes in capitals right before what a
    service holds ("my DHL parcel", "the EC2 instance"), in order, each once (`quoted`: the
    request without what it quotes)."""
    return list(naming(request, quoted))


def naming(request: str, quoted: Callable[[str], str]) -> dict[str, bool]:
    """`named_services`, each with whether the request names it in a service's slot (a
    listed service right after one of BEFORE and at most one of DETERMINERS, or right
    before one of HELD or OBJECTS: "reset the okta password", "post it on slack"; a product
    and a name in capitals always are): the system the request asks to act on, not a word
    that says what it is about."""
    listed = software_services()
    found: dict[str, bool] = {}
    words: list[str | None] = []  # the request's words, None for a value it hands over
    pieces = quoted(request).split()[:MOST]
    for at, piece in enumerate(pieces):
        if _CAPITALS.fullmatch(piece) and at + 1 < len(pieces) \
                and _NOT_LETTERS.sub("", pieces[at + 1].lower()) in HELD:
            found[piece.lower()] = True  # "my DHL parcel": a name, though it has a digit
        if piece[:1] in "#@" or any(c.isdigit() for c in piece) \
                or "_" in piece.strip("_") or without_values(piece) != piece:
            words.append(None)
            continue  # a channel, a handle, an identifier (STRIPE_KEY), a URL, a path: a value
        letters = _LETTERS.findall(piece)
        for word in letters:
            lower = word.lower()
            if lower in listed:
                found.setdefault(lower, False)
        words.append(letters[0].lower() if len(letters) == 1 else None)
    for at, word in enumerate(words):
        if word is not None and word in found \
                and in_slot(words, at, at + 1, held=HELD | OBJECTS):
            found[word] = True
    products = software_products()
    for at, word in enumerate(words):
        for size in (2, 1):
            name = words[at:at + size]
            if word is None or len(name) < size or None in name:
                continue
            product = products.get(_key([w for w in name if w is not None]))
            if product is not None and in_slot(words, at, at + size, held_only=size == 1):
                found[product] = True
                break
    return found


def in_slot(words: Sequence[str | None], start: int, end: int, *, held_only: bool = False,
            held: frozenset[str] = HELD) -> bool:
    """Whether `words[start:end]` stand where a request names a service: before one of
    `held`, or (unless `held_only`) after one of BEFORE and at most one of DETERMINERS."""
    if end < len(words) and words[end] in held:
        return True
    before = list(words[max(0, start - 2):start])
    if before and before[-1] in DETERMINERS:
        before = before[:-1]
    return not held_only and bool(before and before[-1] in BEFORE)


class CatalogMentions:
    """Which services a catalog's text mentions, read once per catalog on first need and
    remembered per service asked (linear in the catalog's text, once)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        self._text: str | None = None
        self._digits = ""  # the text with its digits kept, for a name that has one ("ec2")
        self._words: list[str] = []
        self._known: dict[str, bool] = {}

    def mentions(self, service: str) -> bool:
        """Whether some tool's text or server has `service`, or a close spelling of it."""
        if service not in self._known:
            if self._text is None:
                self._read()
            assert self._text is not None
            if any(c.isdigit() for c in service):
                self._known[service] = service in self._digits
                return self._known[service]
            # a product of two words: "google analytics" or "google-analytics"
            self._known[service] = any(
                form in self._text or self._close(form)
                for form in dict.fromkeys((service, service.replace(" ", ""))))
        return self._known[service]

    def _read(self) -> None:
        parts: list[str] = []
        digits: list[str] = []
        words: set[str] = set()
        for tool in self._tools:
            said = " ".join((tool.description or "",
                             json.dumps(tool.parameters) if tool.parameters else ""))
            lower = " ".join((tool.name, tool.server or "", _PASSING.sub(" ", said))).lower()
            # each piece's letters ("PagerDuty", "pager_duty", "mcp-server-pagerduty"), the
            # pieces apart: "linked in" does not write "linkedin"
            parts.append(" ".join(_NOT_LETTERS.sub("", piece) for piece in lower.split()))
            digits.append(" ".join(_NOT_ALNUM.sub("", piece) for piece in lower.split()))
            words.update(w for w in _NOT_LETTERS.split(lower) if len(w) >= SHORTEST_CLOSE)
        self._text = "\n".join(parts)
        self._digits = "\n".join(digits)
        self._words = sorted(words)

    def _close(self, service: str) -> bool:
        from rapidfuzz import fuzz, process

        from toolcat.search.text import stem
        from toolcat.search.unmentioned import zipf

        # an everyday word inflected is no spelling either: "stripped" (strip) is not "stripe"
        return any(zipf(word, "en") < EVERYDAY and zipf(stem(word), "en") < EVERYDAY
                   for word, _, _ in process.extract(service, self._words, scorer=fuzz.ratio,
                                                     score_cutoff=CLOSE, limit=None))


def missing_services(request: str, mentions: CatalogMentions,
                     quoted: Callable[[str], str]) -> list[str]:
    """The listed services `request` names that no tool of the catalog mentions."""
    return [s for s in named_services(request, quoted) if not mentions.mentions(s)]


def why_missing(services: Sequence[str], nearest: str) -> str:
    """Why a request naming the software `services` no tool mentions is turned away."""
    named = ", ".join(services[:3])
    return f"no tool here mentions {named}, a software service (nearest: {nearest})"
