"""What the search table highlights: the pattern's matches, or the words a query found."""

from __future__ import annotations

from toolcat.search.highlight import spans


def marked(text, query, scorer):
    return [text[a:b] for a, b in spans(text, query, scorer)]


def test_a_pattern_highlights_what_it_matched():
    assert marked("Get weather forecast for a city", "weather|city", "regex") == [
        "weather", "city"]


def test_fuzzy_results_highlight_misspelt_and_abbreviated_words():
    assert marked("Get current weather conditions", "wether", "fuzzy") == ["weather"]
    assert marked("send_message", "send msg", "fuzzy") == ["send", "message"]


def test_stemming_scorers_highlight_other_forms_of_a_word():
    assert marked("sendMessage to channels", "sending a message", "bm25") == [
        "send", "Message"]


def test_other_scorers_highlight_the_query_words():
    assert marked("Get current weather", "weather now", "keyword") == ["weather"]
    assert marked("Get current weather", "wether", "bm25") == []


def test_an_unusable_pattern_highlights_nothing():
    assert marked("missing values", "missing (", "regex") == []


def test_every_stemming_scorer_highlights_alike_tuned_or_not():
    """cascade and a tuned scorer match stems as bm25 does: their results highlight the
    same words (they highlighted only the query's own words before)."""
    for scorer in ("bm25", "hybrid", "cascade", "hybrid+tuning", "cascade+tuning"):
        assert marked("sendMessage to channels", "sending a message", scorer) == [
            "send", "Message"], scorer


def test_words_of_other_languages_highlight_as_search_reads_them():
    """An accented word is matched without its accents and a Chinese request by its pairs of
    letters (toolcat.search.text); the table split on ASCII letters only, so `météo` or
    `天气` found a tool and nothing in it was highlighted."""
    assert marked("Récupère la météo actuelle d'une ville", "meteo ville", "bm25") == [
        "météo", "ville"]
    assert marked("Größe der Datei", "grösse", "hybrid") == ["Größe"]
    assert marked("查询城市的天气预报", "天气", "bm25") == ["天气"]
    assert marked("Получить прогноз погоды", "прогноз", "keyword") == ["прогноз"]
