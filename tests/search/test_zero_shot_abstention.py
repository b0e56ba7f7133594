"""The zero-shot abstention shipped with the tool-retrieval model: with no tuning, a request
nearer to small talk than to every tool of the catalog gets no tool, in pick and in bench
alike; requests for a tool keep it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from toolcat.search.embeddings import DEFAULT_MODEL, TOOLS_MODEL

pytestmark = pytest.mark.semantic


def under_minilm_tools(model: tuple[str, ...]) -> bool:
    """Whether `pick` with these options ranks with minilm-tools (named, or the default)."""
    return TOOLS_MODEL in model or (not model and DEFAULT_MODEL == TOOLS_MODEL)


# each model toolcat ships has fits of its own: the behaviour holds whichever is the default
MODELS = pytest.mark.parametrize("model", [(), ("--model", "all-MiniLM-L6-v2"),
                                           ("--model", "minilm-tools")], ids=str)


@MODELS
def test_small_talk_gets_no_tool_without_a_tuning(run, shared_cache, model):
    """The zero-shot abstention shipped with the model: "hello" is nearer to small talk
    than to any tool of the demo catalog, and a request for a tool still gets it."""
    hello = json.loads(run("pick", "-c", "demo", "hello", "--json", *model).stdout)
    assert hello["picks"] == []
    assert "nearer to requests no tool fits" in hello["message"]
    assert "zero-shot" in hello["message"]
    asked = json.loads(run("pick", "-c", "demo", "what's the weather in Oslo", "--json",
                           *model).stdout)
    assert "get_weather" in [p["name"] for p in asked["picks"]]
    # the caller's threshold alone: no abstention
    plain = json.loads(run("pick", "-c", "demo", "hello", "--json", "--min-score",
                           "0.05").stdout)
    assert plain["picks"]


@MODELS
def test_a_joke_gets_no_tool(run, shared_cache, model):
    """No tool of the demo catalog tells jokes: `pick` shows none. Under minilm-tools its
    best evidence is over the floor; it is turned away because no word of it is in any tool
    and it lies nearer to small talk than to every tool by more than the margin of such a
    request (`Abstention.wordless_margin`), not the short requests' (0.27 < 0.32)."""
    joke = json.loads(run("pick", "-c", "demo", "tell me a joke", "--json", *model).stdout)
    assert joke["picks"] == [], joke["picks"]
    assert joke["message"].startswith("no tool fits"), joke["message"]


def test_a_request_that_shares_no_word_with_the_catalog_has_a_margin_of_its_own():
    """Short or long, a request none of whose words any tool has is held to the wordless
    margin; a short one that shares a word keeps the short margin; a fit without one (the
    base model's) keeps the margins it had."""
    import numpy as np

    from toolcat.search.abstain import Abstention

    texts = ["tell me a joke", "tell me a joke", " ".join(["word"] * 12)]
    fitted = Abstention(np.zeros((1, 4), np.float32), 0.07, 0.32, 0.1)
    assert fitted.margins(texts, [True, False, True]).tolist() == [0.1, 0.32, 0.1]
    assert fitted.margins(texts).tolist() == [0.32, 0.32, 0.07]
    older = Abstention(np.zeros((1, 4), np.float32), 0.07, 0.32)
    assert older.margins(texts, [True, False, True]).tolist() == [0.32, 0.32, 0.07]


def refused_when_tampered(tmp_path, monkeypatch, kind: str, load, changes) -> dict:
    """Each of `changes` written over the shipped `kind` file makes `load` refuse it; the file
    as shipped is taken again. Returns the shipped file's arrays."""
    import numpy as np

    from toolcat.search import abstain
    from toolcat.search.embeddings import load_embedder

    ident = load_embedder().ident  # the identity alone: no model is loaded
    with np.load(abstain.shipped_path(kind, ident), allow_pickle=False) as stored:
        good = {key: stored[key] for key in stored.files}
    monkeypatch.setattr(abstain, "MODELS", tmp_path)
    path = abstain.shipped_path(kind, ident)
    for change in changes(good):
        np.savez(path, **{**good, **change})
        load.cache_clear()
        assert load(ident) is None, change
    np.savez(path, **good)
    load.cache_clear()
    assert load(ident) is not None
    load.cache_clear()
    return good


def test_a_tampered_small_talk_margin_is_not_used(tmp_path, monkeypatch):
    """The small-talk fit is data too: a wordless margin past the bound and it is not used."""
    import numpy as np

    from toolcat.search import abstain

    good = refused_when_tampered(
        tmp_path, monkeypatch, "abstain", abstain.shipped,
        lambda good: ({"wordless_margin": np.float32(abstain.MAX_MARGIN + 1)},
                      {"wordless_margin": np.float32(-0.5)}))
    assert "wordless_margin" in good


TOMORROW = pytest.mark.xfail(
    strict=True, reason="minilm-tools ranks get_historical_weather (0.671, cosine 0.298) over "
    "weather_forecast (0.650, cosine 0.282) for 'what is the weather tomorrow' (the base "
    "model: 0.719 against 0.776); it is still not turned away")


@pytest.mark.parametrize("model", [
    pytest.param(model, marks=[TOMORROW] if under_minilm_tools(model) else [])
    for model in [(), ("--model", "all-MiniLM-L6-v2")]], ids=str)
def test_a_request_that_names_a_server_is_for_its_tools(run, shared_cache, model):
    """Embedded without the server's name ("weather"), "what is the weather tomorrow" reads
    like small talk; naming a server of the catalog says it is for the catalog's tools."""
    asked = json.loads(run("pick", "-c", "demo", "what is the weather tomorrow",
                           "--json", *model).stdout)
    assert asked["picks"][0]["qualified_name"] == "weather:weather_forecast"


def test_bench_counts_what_the_zero_shot_abstention_turns_away(run, shared_cache):
    chat = REPO / "tests" / "data" / "tune" / "chitchat.jsonl"  # none of it was fitted on
    ran = {}
    for extra in ([], ["--min-score", "0.05"]):  # with the threshold alone: no abstention
        result = run("bench", "-c", "demo", "-q", str(chat), "-s", "hybrid", "--json", *extra)
        assert result.exit_code == 0, result.output
        ran[bool(extra)] = json.loads(result.stdout)["scorers"][0]["metrics"]
    assert ran[False]["false_accept"] < ran[True]["false_accept"]
    assert ran[False]["false_accept"] <= 0.1
    assert ran[False]["abstention_recall"] == pytest.approx(1 - ran[False]["false_accept"])


def test_a_scorer_built_beforehand_turns_away_what_the_named_one_does(shared_cache):
    """`pick(scorer=<built scorer>)`, as a program that reuses one scorer over many requests
    calls it, turns small talk away as `pick(scorer="hybrid")` and the CLI do."""
    from toolcat.catalog.load import load_catalog
    from toolcat.search import build_scorer
    from toolcat.search.pick import pick

    demo = load_catalog(REPO / "catalogs")
    built = build_scorer("hybrid", list(demo.tools))
    hello = pick("hello", demo, scorer=built)
    assert hello.picks == () and "nearer to requests no tool fits" in hello.message
    assert pick("what's the weather in Oslo", demo, scorer=built).picks


REAL = REPO / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_text", "tool"), [
    ("am I free thursday between 2 and 4?", "get-freebusy"),
    ("is Marco online right now?", "get_presence"),
    ("push tomorrow's standup to 9:30", "update-event"),
])
def test_a_short_everyday_request_for_a_tool_is_not_turned_away(run, shared_cache,
                                                                 request_text, tool):
    """A short request lies near small talk whatever it asks (its cosine to every tool's long
    text is low): the zero-shot decision has a margin of its own for short requests, so these
    reach the calendar and chat tools of real servers instead of "no tool fits"."""
    result = run("pick", "-c", str(REAL / "fresh-catalog.json"), request_text, "-k", "10",
                 "--no-cut", "--allow-unsafe", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert tool in [p["name"] for p in found["picks"]], found["message"]


@pytest.mark.parametrize("request_text", ["good evening!", "many thanks", "catch you later"])
def test_small_talk_is_still_turned_away_on_a_real_catalog(run, shared_cache, request_text):
    result = run("pick", "-c", str(REAL / "fresh-catalog.json"), request_text, "--json")
    found = json.loads(result.stdout)
    assert found["picks"] == [] and "nearer to requests no tool fits" in found["message"]


def test_a_request_for_a_service_the_catalog_lacks_is_turned_away(run, shared_cache):
    """On a catalog of developer tools (dev: GitHub, GitLab, Slack, Kubernetes, files), a
    request for food delivery is as near to its tools as a short request it serves; the
    off-catalog model sees that no tool is about food, says so, and the catalog's own
    requests keep their tools."""
    catalog = str(REAL / "dev-catalog.json")
    result = run("pick", "-c", catalog, "get me a pad thai delivered from the place downstairs",
                 "--allow-unsafe", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["picks"] == [], found["picks"]
    assert "no tool of this catalog is about" in found["message"], found["message"]
    assert "zero-shot" in found["message"]
    explained = run("pick", "-c", catalog, "get me a pad thai delivered from the place "
                    "downstairs", "--allow-unsafe", "--explain")
    assert "no tool of this catalog is about" in explained.stdout
    # the caller's threshold alone: no abstention
    plain = json.loads(run("pick", "-c", catalog, "get me a pad thai delivered from the "
                           "place downstairs", "--allow-unsafe", "--json", "--min-score",
                           "0.01").stdout)
    assert plain["picks"]
    needed = [json.loads(line) for line in
              (REAL / "dev-queries.jsonl").read_text(encoding="utf-8").splitlines()][:12]
    for row in needed:
        asked = json.loads(run("pick", "-c", catalog, row["query"], "--allow-unsafe",
                               "--json").stdout)
        assert asked["picks"], (row["query"], asked["message"])


def test_a_tampered_off_catalog_model_is_not_used(tmp_path, monkeypatch):
    """The model file is data: weights past the bound, another feature list or another
    model's name and it is not used (no request is turned away by it)."""
    import numpy as np

    from toolcat.search import abstain

    refused_when_tampered(
        tmp_path, monkeypatch, "offcatalog", abstain.shipped_off_catalog,
        lambda good: ({"weights": good["weights"] * 1e6}, {"features": np.array(["best"])},
                      {"model": np.array("another-model")},
                      {"threshold": np.float64("nan")}))


def test_the_fits_are_kept_per_model(tmp_path, monkeypatch):
    """Each embedding model reads the fits made for it (train/abstention.py --model NAME
    writes them under the model's name): the default model has both shipped, a model none
    was fitted for turns nothing away, and a fit stored under one model's name but made for
    another is not used."""
    import shutil

    from toolcat.search import abstain
    from toolcat.search.embeddings import load_embedder

    ident = load_embedder().ident
    assert abstain.shipped(ident) is not None and abstain.shipped_off_catalog(ident) is not None
    other = "another-model@1"
    assert abstain.shipped_path("offcatalog", other) != abstain.shipped_path("offcatalog",
                                                                             ident)
    shipped = {part: abstain.shipped_path(part, ident) for part in ("abstain", "offcatalog")}
    monkeypatch.setattr(abstain, "MODELS", tmp_path)
    for part, path in shipped.items():
        shutil.copy(path, abstain.shipped_path(part, other))
    abstain.shipped.cache_clear()
    abstain.shipped_off_catalog.cache_clear()
    assert abstain.shipped(other) is None and abstain.shipped_off_catalog(other) is None
    abstain.shipped.cache_clear()
    abstain.shipped_off_catalog.cache_clear()


NOT_UNDER_MINILM_TOOLS = {  # what minilm-tools' fits do not do yet (docs/search.md)
    "smart home": "minilm-tools keeps zulip's toggle_reaction for 'turn the living room "
                  "lights off': neither part of its fits turns it away"}


@pytest.mark.parametrize(("model", "asked", "kind"), [
    pytest.param(model, asked, kind, id=f"{model}-{kind}",
                 marks=[pytest.mark.xfail(strict=True, reason=NOT_UNDER_MINILM_TOOLS[kind])]
                 if under_minilm_tools(model) and kind in NOT_UNDER_MINILM_TOOLS else [])
    for model in [(), ("--model", "all-MiniLM-L6-v2"), ("--model", "minilm-tools")]
    for asked, kind in (("order a large pepperoni pizza to the office", "food delivery"),
                        ("book me a table for two at an Italian place tonight", "restaurants"),
                        ("turn the living room lights off", "smart home"))])
def test_a_catalog_with_broad_tools_still_turns_a_missing_service_away(run, shared_cache,
                                                                       model, asked, kind):
    """fresh's servers include a web search (Brave, Tavily) and a scraper (Firecrawl), tools
    near any request: a request for a service none of its servers offers is still turned
    away, with the kind it asks for."""
    found = json.loads(run("pick", "-c", str(REAL / "fresh-catalog.json"), asked,
                           "--allow-unsafe", "--json", *model).stdout)
    assert found["picks"] == [], (asked, found["picks"])
    assert f"no tool of this catalog is about {kind}" in found["message"], found["message"]


@MODELS
def test_a_request_for_the_broad_tools_keeps_them(run, shared_cache, model):
    catalog = str(REAL / "fresh-catalog.json")
    for asked, server in (("search the web for reviews of the Framework laptop", "brave-search"),
                          ("scrape the pricing page of example.com", "firecrawl")):
        kept = json.loads(run("pick", "-c", catalog, asked, "--allow-unsafe", "--json",
                              *model).stdout)
        assert server in [p["server"] for p in kept["picks"]], (asked, kept["message"])


@MODELS
def test_a_quoted_value_does_not_say_what_a_request_asks_for(run, shared_cache, model):
    """fresh2 (Airtable, Todoist, Monday, Trello, Asana...) has no tool about groceries, but
    'buy groceries' is a task's title: the off-catalog model looks again at a request it
    turns away without the values it quotes and keeps this one; a request whose service is
    a name it writes ("play some jazz on Spotify" beside developer tools) is still turned
    away."""
    found = json.loads(run("pick", "-c", str(REAL / "fresh2-catalog.json"),
                           "tick off 'buy groceries'", "--allow-unsafe", "--json",
                           *model).stdout)
    assert found["picks"], found["message"]
    away = json.loads(run("pick", "-c", str(REAL / "dev-catalog.json"),
                          "play some jazz on Spotify", "--allow-unsafe", "--json",
                          *model).stdout)
    assert away["picks"] == [] and "zero-shot" in away["message"], away["picks"]


def test_a_request_in_another_language_is_not_judged_by_the_english_model(run, shared_cache):
    """The abstention's model reads English: a request CLD2 is sure is French is ranked, not
    turned away (before, 'à combien est le bitcoin' was read as about no tool's kind), while
    an English request near small talk still is (with the kind of service it asks for, which
    no tool of the catalog is about)."""
    market = str(REPO / "tests" / "data" / "languages" / "market.yaml")
    french = json.loads(run("pick", "-c", market, "à combien est le bitcoin en ce moment ?",
                            "--json").stdout)
    assert [p["name"] for p in french["picks"]][:1] == ["get_crypto_quote"], french["message"]
    joke = json.loads(run("pick", "-c", market, "tell me a joke", "--json").stdout)
    assert joke["picks"] == [] and "zero-shot" in joke["message"]
    assert "no tool of this catalog is about jokes and entertainment" in joke["message"]


def test_a_short_request_in_chinese_is_left_to_the_floor(run, shared_cache):
    """Six characters of Chinese carry a request (the price of Apple's stock); the
    abstention's English model read it as small talk. It is not judged: the floor alone
    applies, and says so."""
    market = str(REPO / "tests" / "data" / "languages" / "market.yaml")
    asked = json.loads(run("pick", "-c", market, "苹果股价", "--json").stdout)
    assert "zero-shot" not in asked["message"], asked["message"]
    assert asked["picks"] or "none scored at least 0.05" in asked["message"]


def test_real_requests_for_a_service_a_real_catalog_lacks_get_no_tool_with_the_reason(
        run, shared_cache):
    """dev's requests for a service none of its servers offers (pizza, flights, Spotify,
    a taxi...), written before any score: `pick` shows no tool for at least 10 of the 12 and
    says why, the kind of service no tool is about or the words nothing mentions
    (docs/search.md: "what's my heart rate been this week?" and "set an alarm for 6:30
    tomorrow morning" are let through)."""
    rows = [json.loads(line) for line in
            (REAL / "dev-offcatalog.jsonl").read_text(encoding="utf-8").splitlines()][8:]
    away = {}
    for row in rows:
        found = json.loads(run("pick", "-c", str(REAL / "dev-catalog.json"), row["query"],
                               "--allow-unsafe", "--json").stdout)
        if not found["picks"]:
            away[row["query"]] = found["message"]
    assert len(rows) == 12 and len(away) >= 10, sorted(away)
    assert all(m.startswith("no tool fits: ") and "zero-shot" in m for m in away.values()), away
    assert "no tool of this catalog is about food delivery" in \
        away["order me a large pepperoni pizza"]
