"""Fit the zero-shot "no tool fits" decision shipped for the default embedding model.

A request is turned away when it is nearer to requests no tool fits (toolcat's built-in small
talk, toolcat.tune.chitchat) than to every tool of the catalog, by more than a margin
(toolcat.search.abstain). The margin is fitted on requests that need a tool, from the training
side of each labeled set's tool-disjoint split (train/tool_model.py): the least margin under
which at most 0.5% of each set's requests are turned away (2% is the bound for sets never
seen). It is then measured on what the fit never saw: each set's held-out requests (tools it
never saw either), ToolAlpaca's evaluation requests, and two sets of requests no tool fits
(tests/data/tune: 50 chit-chat phrases and a sample of BFCL's 1,124 irrelevance requests)
against the demo catalog and each labeled catalog. (The first fit kept 98% of the training
requests and turned away 2.4% of ToolAlpaca's; the 0.5% here was chosen after seeing that.)

Short requests (SHORT_WORDS words or fewer) get a margin of their own, fitted the same way on
the short training requests alone: their cosine to a tool's long text is low whether or not
the tool fits, so they lie nearer to small talk ("What is my user name?" is 0.32 nearer to it
than to RestBench's tools), and the per-set fit above is ruled by the many long ones. Every
short training request of each public set counts (few sets have many), those of API-Bank,
RestBench and ToolBench too (train/data). A request none of whose content words any tool
of its catalog has gets a margin of its own too, whatever its length, fitted the same way on
the training requests that share no word with their catalog and never under the first margin:
the short margin allows for a short request's low cosine to the long text of a tool that has
its words, which such a request does not have.

The second part turns away a request for a service the catalog lacks ("order me a large
pepperoni pizza" against developer tools), which lies as near to the catalog's tools as a short
request it serves. A logistic model over features of the request against the catalog
(toolcat.search.abstain.FEATURES: the small-talk contrast, the best cosine and its lift over
the catalog's centre, BM25F evidence, the share of the request's words some tool has, how much
nearer the request is to its nearest kind of service (KINDS) than to any kind a tool of the
catalog is nearest to, its length, the idf-weighted share of its words in the nearest tool's own
text, and the best cosine over that tool's breadth) is fitted on the training requests: each
against its own set's catalog, alone and with broad tools added (BROAD: the public sets' web
searches, scrapers, command runners, automations; needs a tool), and against three catalogs of
other sets (or other domains of Seal-Tools, the other RestBench service; a bundle of several; a
part with broad tools added) that have no tool within a cosine of NEAR_DUPLICATE of the tools
it needs (cannot serve it). `--real HALF...` (among dev, fresh..fresh6) adds requests for a
missing service in users' own words: each named real-server half's requests against its own
catalog (needs a tool) and against up to OTHERS catalogs of the other halves named none of
whose servers offers the product or service it needs (train/real_pairs.py: by the servers'
names and the labeled tools' servers, never by a score), each half a set of its own below.
Not in the shipped fit: with them the features catch fewer of the public sets' requests
against other catalogs and no more of the real ones (docs/search.md, abstain7). Its
threshold is the least under which both parts together turn away at most 0.5% of each set's
training requests, as above, raised by the shift that the model fitted without each set needs
to keep 99.5% of it. It is measured on the held-out requests, ToolAlpaca's evaluation set,
BFCL's irrelevance requests and the chit-chat phrases, never fitted on, as toolcat decides:
a request turned away that quotes a value is kept when the model keeps it without it
(toolcat.search.abstain.second_look).
`--model NAME` fits both parts for another embedding model, `--write` puts them where toolcat
reads that model's (toolcat.search.abstain.shipped_path).

    nice -n 10 python train/abstention.py --write --report train/results-abstention.json
    nice -n 10 python train/abstention.py --model minilm-tools --write  # another model's fits
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_pairs import DATA, FITTED, catalog_servers, missing_in, needed_servers
from tool_model import BENCHDATA, CONVERTED, MEASURED_ONLY, ROOT, TRAINED, LabeledSet, load_set

KEPT = 0.995  # of each set's training requests that need a tool: 0.5%, so that sets unlike
# them stay within the 2% the decision may cost (at 0.98 ToolAlpaca lost 2.4%)
PER_SET = 300  # requests scored per set and split (a seeded sample beyond)
NO_TOOL = 300  # requests no tool fits scored per file (a seeded sample beyond)
OTHERS = 3  # catalogs of other sets each training request is a negative against: one part,
# one bundle, one part with broad tools added
NEAR_DUPLICATE = 0.8  # a catalog with a tool this near to a needed one might serve it
SMALLEST = 20  # tools of a domain (Seal-Tools) or service (RestBench) to be a catalog
BUNDLES = 40  # catalogs of several parts
BUNDLED = (3, 13)  # parts in a bundle: from 3 to 12
# the public sets' tools that could serve a request of any kind: a web search, a browser or a
# scraper, an HTTP client, a command, code or query runner, an automation of other apps, a
# calculator (by name and the first words of the description; the embedding cannot tell them:
# it finds "search the web" as specific as "book a hotel")
BROAD = re.compile(r"web.?search|search.?(the )?(web|internet)|search engine|browser|browse"
                   r"|scrape|crawl|web.?request|fetch.?(url|web|page)|execute|run.?command"
                   r"|shell|terminal|workflow|zapier|automat|calculator|wolfram", re.I)
BROAD_ADDED = (3, 16)  # broad tools added to a catalog: from 3 to 15
KEPT_UNSEEN = KEPT  # of a set's training requests, kept by the model fitted without it (plus
# the shift): a set never seen keeps what the fitted ones do
SHIFTS = np.round(np.arange(0.0, 3.01, 0.05), 2)  # the shift of the threshold, chosen among
COVERS = (0.0, 0.25, 0.3, 0.35, 0.4, 0.45)  # the model's `cover`, chosen among these
L2 = 0.01  # the logistic model's ridge, on standardized features

KINDS = {  # a kind of service -> a sentence of what it does
    "food delivery": "order food delivery or takeout from a restaurant: pizza, burgers, sushi",
    "restaurants": "find a restaurant nearby and book a table for dinner",
    "groceries": "buy groceries and household supplies from a supermarket",
    "recipes and cooking": "find a recipe and cooking instructions for a meal",
    "smart home": "control smart home devices: lights on or off, the thermostat, door locks",
    "flights": "search and book airline flights and check flight status",
    "hotels": "find and book a hotel room or vacation rental",
    "rides and taxis": "call a taxi or ride share car to a destination",
    "public transit": "train and bus schedules, public transport routes and tickets",
    "maps and directions": "get driving directions, maps, distances and places nearby",
    "weather": "get the weather forecast, temperature and rain for a city",
    "music": "play music, songs, albums, artists and playlists",
    "movies and tv": "movies, tv shows, actors, ratings and streaming",
    "books": "books, authors, reading lists and libraries",
    "podcasts and radio": "listen to podcasts and radio stations",
    "video games": "video games, players, game stats and esports",
    "sports": "sports scores, teams, matches, leagues and players",
    "news": "latest news headlines and articles",
    "stocks and investing": "stock prices, market quotes, trading and investment portfolios",
    "banking": "bank account balance, transfers and transactions",
    "payments": "send money, pay a bill, payment processing and refunds",
    "cryptocurrency": "cryptocurrency prices, bitcoin wallets and blockchain transactions",
    "accounting and invoices": "invoices, bookkeeping, expenses and taxes",
    "insurance": "insurance policies, quotes and claims",
    "shopping": "shop online for products, compare prices, place an order and track it",
    "shipping and parcels": "ship a package, track a parcel delivery and postage",
    "real estate": "houses and apartments for sale or rent, property listings",
    "jobs and hiring": "job listings, resumes, candidates and hiring",
    "payroll and hr": "employees, payroll, vacation requests and human resources",
    "health and fitness": "workouts, steps, calories, sleep and fitness tracking",
    "medical": "doctors, symptoms, medications, prescriptions and medical appointments",
    "pets": "pet care, dog walking, veterinarians and animal adoption",
    "dating": "dating profiles, matches and romance",
    "events and tickets": "concerts, events and buying tickets",
    "email": "read, write, send and search email messages",
    "calendar": "calendar events, meetings and scheduling appointments",
    "chat and messaging": "send a chat message to a person or channel",
    "phone calls and sms": "make a phone call or send a text message sms",
    "social media": "social media posts, followers, likes and profiles",
    "notes and documents": "notes, documents, wikis and pages",
    "files and storage": "files, folders, uploads and cloud storage",
    "spreadsheets": "spreadsheets, rows, columns and cells",
    "project management": "tasks, tickets, issues, boards and sprints",
    "code repositories": "source code repositories, commits, branches and pull requests",
    "software builds and deployment": "builds, ci pipelines, deployments and releases",
    "cloud infrastructure": "cloud servers, virtual machines, containers and kubernetes clusters",
    "databases": "database tables, sql queries and records",
    "monitoring and logs": "monitoring, metrics, alerts, logs and incidents",
    "security": "vulnerabilities, security scans, passwords and access permissions",
    "customer relationships": "customers, sales leads, deals and contacts crm",
    "customer support": "support tickets and help desk conversations with customers",
    "marketing and ads": "marketing campaigns, advertising and newsletters",
    "web search": "search the web for pages and information",
    "translation": "translate text between languages",
    "math and calculation": "calculate, solve equations, convert units and do math",
    "science": "physics, chemistry, biology and scientific data",
    "education": "courses, lessons, students, quizzes and homework",
    "images and photos": "images and photos: generate, edit, resize and search pictures",
    "video": "videos: upload, edit, stream and transcribe",
    "design": "graphic design files, mockups and prototypes",
    "cars and vehicles": "cars, vehicles, fuel, parking and charging",
    "energy and utilities": "electricity, gas and water usage and utility bills",
    "legal": "laws, contracts, legal cases and compliance",
    "government and public records": "government services, permits and public records",
    "travel planning": "trip itineraries, tourist attractions and travel guides",
    "fashion and beauty": "clothes, fashion, beauty and cosmetics",
    "gardening and agriculture": "plants, gardening, farming and crops",
    "religion and astrology": "horoscopes, astrology and religious texts",
    "jokes and entertainment": "jokes, trivia, quotes and fun facts",
    "time and dates": "current time, time zones, dates and holidays",
    "geography": "countries, cities, populations and geographic data",
}


def contrasts(query: np.ndarray, negatives: np.ndarray, tools: np.ndarray) -> np.ndarray:
    return np.asarray((query @ negatives.T).max(axis=1) - (query @ tools.T).max(axis=1))


@dataclass
class Example:
    """A request against one catalog, as far as the features need it (they depend on the
    model's `cover`, chosen after these are computed)."""

    text: str
    query: np.ndarray
    best: float
    at: int  # the nearest tool
    lexical: tuple[float, float, float]
    kinds: Any  # toolcat.search.abstain.CatalogKinds
    catalog: str  # the name of the catalog it is against (Catalogs.built)
    wordless: bool  # no word of it is in the catalog (toolcat.search.abstain.known_share)


class Catalogs:
    """Catalogs to measure requests against: a set's whole catalog, a part of one (the tools
    of one Seal-Tools domain, of one RestBench service) or a bundle of parts of several sets,
    each with its BM25F index and kinds, built on first use."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.built: dict[str, tuple[Any, np.ndarray, Any]] = {}
        self.tools: dict[str, list] = {}

    def away(self, off: Any, examples: list[Example], embedder: Any) -> np.ndarray:
        """Which of `examples` the off-catalog model `off` turns away, as toolcat decides
        it: those it would keep without the values they quote are kept
        (toolcat.search.abstain.second_look)."""
        from toolcat.search.abstain import second_look

        over = off.score(matrix(off, examples)) > off.threshold
        rows: dict[str, list[int]] = {}
        for i in np.flatnonzero(over).tolist():
            rows.setdefault(examples[i].catalog, []).append(i)
        for name, found in rows.items():
            lexical, vectors, kinds = self.built[name]
            again = second_look(off, kinds, [examples[i].text for i in found],
                                ["away"] * len(found), embedder.encode, vectors, lexical,
                                self.tools[name])
            over[found] = [r is not None for r in again]
        return np.asarray(over)

    def examples(self, catalog: Catalog, texts: list[str], queries: np.ndarray
                 ) -> list[Example]:
        from toolcat.search.abstain import catalog_kinds, known_share, lexical_features
        from toolcat.search.bm25 import BM25Scorer

        if catalog.name not in self.built:
            self.built[catalog.name] = (BM25Scorer(catalog.tools), catalog.vectors,
                                        catalog_kinds(self.model, catalog.vectors))
            self.tools[catalog.name] = catalog.tools
        lexical, vectors, kinds = self.built[catalog.name]
        near = queries @ vectors.T
        return [Example(t, q, float(near[i, a]), a, lexical_features(lexical, t, a), kinds,
                        catalog.name, known_share(lexical, t) == 0)
                for i, (t, q, a) in enumerate(zip(texts, queries,
                                                  near.argmax(axis=1).tolist(), strict=True))]


@dataclass
class Catalog:
    name: str
    tools: list  # toolcat Tools
    vectors: np.ndarray
    sets: frozenset[str]  # the labeled sets its tools come from


def whole(data: LabeledSet) -> Catalog:
    return Catalog(data.name, data.tools, data.vectors, frozenset({data.name}))


def parts(data: LabeledSet) -> list[Catalog]:
    """The catalogs a set gives: one per Seal-Tools domain or RestBench service (of at least
    SMALLEST tools), else the whole catalog."""
    if data.name not in ("seal_tools", "restbench"):
        return [whole(data)]
    found: dict[str, list[int]] = {}
    for i, tool in enumerate(data.tools):
        found.setdefault((tool.server or "").split("/")[0], []).append(i)
    return [Catalog(f"{data.name}:{key}", [data.tools[i] for i in rows], data.vectors[rows],
                    frozenset({data.name}))
            for key, rows in found.items() if len(rows) >= SMALLEST]


def broadest(pool: list[Catalog]) -> Catalog:
    """The pool's tools that could serve a request of any kind (BROAD): what a catalog with a
    browser, a web search, a command runner or a workflow tool has, public tools all."""
    tools = [t for c in pool for t in c.tools]
    vectors = np.vstack([c.vectors for c in pool])
    top = [i for i, t in enumerate(tools)
           if BROAD.search(f"{t.name} {(t.description or '')[:120]}")]
    return Catalog("broad", [tools[i] for i in top], vectors[top],
                   frozenset().union(*(c.sets for c in pool)))


def with_broad(catalog: Catalog, broad: Catalog, rng: np.random.Generator) -> Catalog:
    """`catalog` with BROAD_ADDED of the broad tools added (none of the same name)."""
    names = {t.name for t in catalog.tools}
    rows = [i for i, t in enumerate(broad.tools) if t.name not in names]
    chosen = sorted(rng.choice(rows, min(len(rows), int(rng.integers(*BROAD_ADDED))),
                               replace=False).tolist())
    return Catalog(f"{catalog.name}+broad{len(chosen)}:{chosen[0] if chosen else ''}",
                   catalog.tools + [broad.tools[i] for i in chosen],
                   np.vstack([catalog.vectors, broad.vectors[chosen]]), catalog.sets)


def bundles(pool: list[Catalog], rng: np.random.Generator) -> list[Catalog]:
    """BUNDLES catalogs of several parts each (BUNDLED), as a catalog of several servers is:
    what a request for a missing service meets among tools of many kinds."""
    made = []
    for n in range(BUNDLES):
        chosen = [pool[i] for i in rng.choice(len(pool), int(rng.integers(*BUNDLED)),
                                                replace=False)]
        made.append(Catalog(f"bundle{n}", [t for c in chosen for t in c.tools],
                            np.vstack([c.vectors for c in chosen]),
                            frozenset().union(*(c.sets for c in chosen))))
    return made


def sample(rng: np.random.Generator, rows: list[int], size: int) -> list[int]:
    return rows if len(rows) <= size else sorted(rng.choice(rows, size, replace=False).tolist())


def labeled(data: LabeledSet, rows: list[int], pool: list[Catalog], broad: Catalog,
            catalogs: Catalogs, embedder: Any, rng: np.random.Generator
            ) -> tuple[list[Example], list[Example]]:
    """`rows` against their own catalog, and against it with broad tools added (they need a
    tool of it), and each against OTHERS catalogs of the pool (one part, one bundle, one
    part with broad tools added) without a near duplicate of a tool it needs (none can
    serve it)."""
    texts = [data.texts[i] for i in rows]
    queries = embedder.encode(texts)
    own = catalogs.examples(whole(data), texts, queries)
    widened = with_broad(whole(data), broad, rng)
    own += catalogs.examples(widened, texts, queries)
    single = [c for c in pool if not c.name.startswith("bundle") and "+broad" not in c.name
              and c.name != data.name]
    many = [c for c in pool if c.name.startswith("bundle")]
    wide = [c for c in pool if "+broad" in c.name and not c.name.startswith(data.name + "+")]
    away = []
    for j, row in enumerate(rows):
        needed = data.vectors[data.relevant[row]]
        for choices in (single, many, wide)[:OTHERS]:
            for k in rng.permutation(len(choices))[:5].tolist():  # the first that cannot serve
                if float((needed @ choices[k].vectors.T).max()) < NEAR_DUPLICATE:
                    away += catalogs.examples(choices[k], [texts[j]], queries[j:j + 1])
                    break
    return own, away


def real_material(halves: tuple[str, ...], catalogs: Catalogs, embedder: Any,
                  rng: np.random.Generator) -> dict[str, tuple[list[Example], list[Example]]]:
    """The real-server halves' requests (train/real_pairs.py), per half: each against its own
    half's catalog (needs a tool) and against OTHERS catalogs of the other `halves` none of
    whose servers offers what it needs (a request for a missing service, in a user's words)."""
    from toolcat.catalog.load import load_catalog
    from toolcat.search.semantic import tool_vectors

    built = {}
    for half in halves:
        tools = list(load_catalog(str(DATA / f"{half}-catalog.json")).tools)
        built[half] = (Catalog(f"real:{half}", tools, tool_vectors(tools, embedder)[0],
                               frozenset({f"real:{half}"})), catalog_servers(half))
    found = {}
    for half in halves:
        asked = needed_servers(half)
        texts = [q for q, _ in asked]
        queries = embedder.encode(texts)
        own = catalogs.examples(built[half][0], texts, queries)
        away: list[Example] = []
        for j, (_, servers) in enumerate(asked):
            others = [h for h in halves if h != half and missing_in(servers, built[h][1])]
            for k in rng.permutation(len(others))[:OTHERS].tolist():
                away += catalogs.examples(built[others[k]][0], [texts[j]], queries[j:j + 1])
        found[f"real:{half}"] = (own, away)
    return found


def matrix(model: Any, examples: list[Example]) -> np.ndarray:
    from toolcat.search.abstain import features

    return np.vstack([features(model, e.kinds, e.query[None, :], np.array([e.best]),
                               [e.lexical], [e.text], np.array([e.at])) for e in examples])


def small_talk(decision: Any, examples: list[Example]) -> np.ndarray:
    """Which of `examples` the small-talk margin alone turns away."""
    from toolcat.search.abstain import far_from_tools

    if not examples:
        return np.zeros(0, dtype=bool)
    return far_from_tools(decision, np.vstack([e.query for e in examples]),
                          np.array([e.best for e in examples]), [e.text for e in examples],
                          [e.wordless for e in examples])


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, float]:
    """A weighted logistic regression (Newton's method, a ridge of L2 on standardized
    features): the weights and bias on the features as they are."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])
    ridge = L2 * np.diag(np.r_[np.ones(x.shape[1]), 0.0])
    beta = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ beta))
        gradient = z.T @ (weight * (p - y)) + ridge @ beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + ridge
        beta -= np.linalg.solve(hessian, gradient)
    weights = beta[:-1] / scale
    return weights, float(beta[-1] - mean @ weights)


def fit(model: Any, train: dict[str, Any]) -> tuple[Any, dict[str, float], float]:
    """The model fitted on the training requests (`train`: per set, its examples against
    its own catalogs and against others, and which of the first small talk already turns
    away); its threshold: the least under which both parts turn away at most 1 - KEPT of
    each set's training requests that need a tool (that least per set is returned too),
    raised by the shift for sets never seen: the least under which, for each set, the model
    fitted without it (its weights and its threshold) turns away at most 1 - KEPT_UNSEEN of
    it (SHIFTS' largest when none does)."""
    own = {name: matrix(model, examples) for name, (examples, _, _) in train.items()}
    away = {name: matrix(model, examples) for name, (_, examples, _) in train.items()}
    small = {name: found for name, (_, _, found) in train.items()}

    def fitted(names: list[str]) -> tuple[Any, dict[str, float]]:
        xs, ys, weights = [], [], []
        for name in names:
            xs += [own[name], away[name]]
            ys += [np.zeros(len(own[name])), np.ones(len(away[name]))]
            weights += [np.full(len(own[name]), 1 / len(own[name])),
                        np.full(len(away[name]), 1 / len(away[name]))]
        weight = np.concatenate(weights)
        found, bias = fit_logistic(np.vstack(xs), np.concatenate(ys), weight * len(weight) / 2)
        shaped = replace(model, weights=found, bias=bias)
        bars = {}
        for name in names:
            scores = np.sort(shaped.score(own[name])[~small[name]])[::-1]
            allowed = int(np.floor(len(own[name]) * (1 - KEPT))) - int(small[name].sum())
            bars[name] = float(scores[max(allowed, 0)]) if allowed < len(scores) else -np.inf
        return replace(shaped, threshold=max(bars.values())), bars

    shaped, bars = fitted(list(train))
    left_out = {}  # each set against the model fitted without it: its scores, its threshold
    for name in train:
        without, _ = fitted([other for other in train if other != name])
        left_out[name] = (without.score(own[name]), without.threshold)

    def unseen(name: str, shift: float) -> float:
        """The share of `name`'s requests the off-catalog part of the model fitted without
        it turns away, its threshold raised by `shift` (the small-talk margin's is its own)."""
        scores, bar = left_out[name]
        return float(np.mean(~small[name] & (scores > bar + shift)))

    shift = next((float(d) for d in SHIFTS
                  if all(unseen(name, d) <= 1 - KEPT_UNSEEN for name in train)),
                 float(SHIFTS[-1]))
    print("  turned away by the model fitted without the set, unshifted:",
          {name: round(unseen(name, 0.0), 4) for name in train}, "-> shift", shift)
    return replace(shaped, threshold=round(shaped.threshold + shift, 4)), bars, shift


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="the embedding model to fit for (one of toolcat's "
                        "model names, a sentence-transformers name or a path; default: "
                        "toolcat's default model)")
    parser.add_argument("--write", action="store_true",
                        help="write the fits where toolcat reads them for the model "
                        "(toolcat/search/models/zero-shot-{abstain,offcatalog}.<model>.npz)")
    parser.add_argument("--report", type=Path)
    parser.add_argument("--real", nargs="*", default=[], metavar="HALF",
                        help="real-server halves whose requests are fitted on too, each "
                        "against its own catalog and, as a request for a missing service, "
                        "against the other halves named (train/real_pairs.py; among "
                        f"{' '.join(FITTED)}; default: none, the public sets alone, as "
                        "shipped: docs/search.md, abstain7)")
    parser.add_argument("--study", action="store_true",
                        help="print what the real-server halves' requests do to the "
                        "off-catalog model, fitted in several ways, on halves the fits never "
                        "saw, and fit nothing (train/missing_service_study.py)")
    args = parser.parse_args()
    from toolcat.catalog.load import load_catalog
    from toolcat.config.paths import demo_catalog
    from toolcat.search.abstain import (
        FEATURES,
        SHORT_WORDS,
        Abstention,
        OffCatalog,
        known_share,
        shipped_path,
    )
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.semantic import tool_vectors
    from toolcat.tune.chitchat import CHITCHAT

    started = time.time()
    embedder = load_embedder(args.model)  # the decision is fitted for this model alone
    negatives = embedder.encode(list(CHITCHAT))
    sets = [load_set(n, BENCHDATA / n, True) for n in TRAINED]
    held = [load_set(n, f, False) for n, f in MEASURED_ONLY.items()]
    converted = [load_set(n, f, True) for n, f in CONVERTED.items()]
    for s in sets + held + converted:  # the tools' vectors by the model that encodes them
        s.vectors = tool_vectors(s.tools, embedder)[0]
    rng = np.random.default_rng(38)
    fitted = {}
    for s in sets:
        rows = sample(rng, s.train, PER_SET)
        found = contrasts(embedder.encode([s.texts[i] for i in rows]), negatives, s.vectors)
        fitted[s.name] = float(np.quantile(found, KEPT))
    margin = round(max(0.0, *fitted.values()), 4)
    print("margin per set:", fitted, "->", margin)
    short_fitted = {}
    for s in sets + converted:
        rows = [i for i in s.train if len(s.texts[i].split()) <= SHORT_WORDS]
        if rows:
            found = contrasts(embedder.encode([s.texts[i] for i in rows]), negatives, s.vectors)
            short_fitted[f"{s.name} ({len(rows)})"] = float(np.quantile(found, KEPT))
    short_margin = round(max(margin, *short_fitted.values()), 4)
    print("short requests' margin per set:", short_fitted, "->", short_margin)
    wordless_fitted = {}  # the training requests that share no word with their catalog
    for s in sets + converted:
        lexical = BM25Scorer(s.tools)
        rows = [i for i in s.train if known_share(lexical, s.texts[i]) == 0]
        if rows:
            found = contrasts(embedder.encode([s.texts[i] for i in rows]), negatives, s.vectors)
            wordless_fitted[f"{s.name} ({len(rows)})"] = float(np.quantile(found, KEPT))
    wordless_margin = round(max([margin, *wordless_fitted.values()]), 4)
    print("wordless requests' margin per set:", wordless_fitted, "->", wordless_margin)
    decision = Abstention(negatives, margin, short_margin, wordless_margin)

    # the off-catalog model: requests against their own catalog and against other sets'
    model = OffCatalog(negatives, tuple(KINDS), embedder.encode(list(KINDS.values())),
                       np.zeros(len(FEATURES)), 0.0, 0.0, 0.0)
    catalogs = Catalogs(model)
    single = [p for s in sets + converted for p in parts(s)]  # never the measured-only sets
    broad = broadest(single)
    print(f"{len(broad.tools)} broad tools, e.g.",
          ", ".join(t.name for t in broad.tools[::max(1, len(broad.tools) // 8)]))
    pool = single + bundles(single, rng) + [with_broad(c, broad, rng) for c in single]
    split: dict[str, dict[str, Any]] = {"train": {}, "test": {}}
    for s in sets + converted + held:
        for side in ("train", "test"):
            rows = sample(rng, getattr(s, side), PER_SET)
            if rows:
                own, away = labeled(s, rows, pool, broad, catalogs, embedder, rng)
                split[side][s.name] = (own, away, small_talk(decision, own))
    if args.study:
        from missing_service_study import study

        study(split["train"], split["test"], model, decision, catalogs, embedder)
        return
    real = tuple(args.real)
    if any(h not in FITTED for h in real):
        parser.error(f"--real: the halves fitted on are among {' '.join(FITTED)}")
    for name, (own, away) in real_material(real, catalogs, embedder,
                                                   np.random.default_rng(39)).items():
        split["train"][name] = (own, away, small_talk(decision, own))
        print(f"{name}: {len(own)} needed, {len(away)} against halves without its service",
              flush=True)
    chosen: dict[float, tuple[float, Any, dict[str, float], float]] = {}
    for cover in COVERS:
        off, bars, shift = fit(replace(model, cover=cover), split["train"])
        caught = float(np.mean([np.mean(off.score(matrix(off, away)) > off.threshold)
                                for _, away, _ in split["train"].values()]))
        chosen[cover] = (caught, off, bars, shift)
        print(f"cover {cover}: training requests against other catalogs turned away "
              f"{caught:.1%} (threshold {off.threshold}, shift {shift})", flush=True)
    cover = max(COVERS, key=lambda c: chosen[c][0])
    _, off, bars, shift = chosen[cover]
    weights, bias, threshold = off.weights, off.bias, off.threshold
    took = time.time() - started
    print("weights:", dict(zip(FEATURES, weights.round(3).tolist(), strict=True)),
          "bias", round(bias, 3), "threshold per set", bars, "->", threshold)
    report: dict = {"margin": margin, "per_set": fitted, "short_margin": short_margin,
                    "short_per_set": short_fitted, "wordless_margin": wordless_margin,
                    "wordless_per_set": wordless_fitted,
                    "off_catalog": {"weights": dict(zip(FEATURES, weights.round(4).tolist(),
                                                        strict=True)),
                                    "bias": round(bias, 4), "threshold": threshold,
                                    "threshold_per_set": bars, "shift": shift,
                                    "kinds": len(KINDS), "broad_tools": len(broad.tools),
                                    "cover": cover, "caught_per_cover": {
                                        str(c): round(chosen[c][0], 4) for c in COVERS},
                                    "fit_seconds": round(took)},
                    "needed_turned_away": {}, "other_catalog_turned_away": {},
                    "no_tool_turned_away": {}}
    for side in ("train", "test"):
        for name, (own, away, small) in split[side].items():
            first = small | (off.score(matrix(off, own)) > threshold)
            gone = small | catalogs.away(off, own, embedder)
            # against its own catalog, then with broad tools added (a real half: its own alone)
            half = len(own) if name.startswith("real:") else len(own) // 2
            share = float(np.mean(gone[:half]))
            widened = float(np.mean(gone[half:])) if half < len(own) else share
            across = float(np.mean(catalogs.away(off, away, embedder)))
            report["needed_turned_away"][f"{name} {side}"] = round(share, 4)
            report["needed_turned_away"][f"{name} {side}, broad tools added"] = round(
                widened, 4)
            report["other_catalog_turned_away"][f"{name} {side}"] = round(across, 4)
            print(f"{name:16} {side:5} needed turned away {share:.1%} (small talk alone "
                  f"{small[:half].mean():.1%}, without the second look {first[:half].mean():.1%};"
                  f" broad tools added {widened:.1%}); against other catalogs turned away "
                  f"{across:.1%}")
    demo = load_catalog(str(demo_catalog()))
    demo_tools = list(demo.tools)
    demo_set = LabeledSet("demo", demo_tools, [], [], tool_vectors(demo_tools, embedder)[0],
                          [], [], np.arange(len(demo_tools)))
    for name in ("chitchat", "bfcl_irrelevance"):
        path = ROOT / "tests" / "data" / "tune" / f"{name}.jsonl"
        texts = [json.loads(line)["query"] for line in path.read_text().splitlines()]
        if len(texts) > NO_TOOL:
            texts = [texts[i] for i in sorted(rng.choice(len(texts), NO_TOOL, replace=False))]
        vectors = embedder.encode(texts)
        for s in [*sets, *converted, *held, demo_set]:
            lexical = BM25Scorer(s.tools)
            small = contrasts(vectors, negatives, s.vectors) > decision.margins(
                texts, [known_share(lexical, t) == 0 for t in texts])
            found = catalogs.away(off, catalogs.examples(
                Catalog(s.name, s.tools, s.vectors, frozenset()), texts, vectors), embedder)
            both = float(np.mean(small | found))
            report["no_tool_turned_away"][f"{name} on {s.name}"] = {
                "small talk alone": round(float(small.mean()), 4), "both": round(both, 4)}
            print(f"{name} ({len(texts)}) on {s.name}: turned away {small.mean():.1%} -> "
                  f"{both:.1%}")
    if args.write:
        out = shipped_path("abstain", embedder.ident)
        np.savez_compressed(out, vectors=negatives.astype(np.float16),
                            margin=np.float32(margin), short_margin=np.float32(short_margin),
                            wordless_margin=np.float32(wordless_margin),
                            model=np.array(embedder.ident))
        print(f"wrote {out} ({out.stat().st_size / 1e3:.0f} kB)")
        out = shipped_path("offcatalog", embedder.ident)
        np.savez_compressed(out, model=np.array(embedder.ident),
                            small_talk=negatives.astype(np.float16),
                            kinds=np.array(off.kinds), features=np.array(FEATURES),
                            kind_vectors=off.kind_vectors.astype(np.float16),
                            weights=weights, bias=np.float64(bias),
                            threshold=np.float64(threshold), cover=np.float64(cover))
        print(f"wrote {out} ({out.stat().st_size / 1e3:.0f} kB)")
    print(f"fitted in {took:.0f} s")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
