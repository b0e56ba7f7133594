"""Words of scripts other than Latin and CJK (Cyrillic, Greek, Arabic, Devanagari...) are
words to the lexical scorer (toolcat.search.text), Russian, Greek and Arabic ones stemmed by
their language's Snowball stemmer: a request in the catalog's own language ranks the tools by
the words they share, and an English request weighs every tool exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.text import stems

SHOP = [
    Tool(name="campaign_pause", server="shop",
         description="Pause an ad campaign. Приостанавливает рекламную кампанию продавца."),
    Tool(name="campaign_budget", server="shop",
         description="Change a campaign's daily budget. Меняет дневной бюджет кампании."),
    Tool(name="finance_balance", server="shop",
         description="Seller balance for a period. Баланс продавца за выбранный период."),
    Tool(name="posting_cancel", server="shop",
         description="Cancel a shipment. Отменяет отправление, если товара нет на складе."),
    Tool(name="get_weather", server="weather",
         description="Current weather conditions for a city."),
    Tool(name="send_email", server="mail", description="Send an e-mail to an address."),
]


def names(scorer: str, query: str, tools: list[Tool] = SHOP) -> list[str]:
    return [s.tool.name for s in rank(build_scorer(scorer, tools), query, limit=3)]


def test_words_of_other_scripts_are_words_stemmed_in_their_language() -> None:
    # two forms of one word meet (the request's "кампанию", the description's "кампании")
    assert stems("отправление кампанию") == stems("отправления кампании")
    assert stems("κείμενα") == stems("κείμενο")
    assert stems("हिन्दी भाषा") == ["हिन्दी", "भाषा"]  # vowel signs stay in their word
    assert stems("getWeatherNow for 3 users") == ["weather", "now", "user"]  # Latin as before


@pytest.mark.parametrize(("request_", "tool"), [
    ("останови рекламную кампанию 1844721", "campaign_pause"),
    ("сколько денег на балансе за ноябрь?", "finance_balance"),
    ("отмени отправление 12345678-0001-1, товара нет на складе", "posting_cancel"),
])
def test_a_request_in_the_catalogs_language_meets_its_words(request_: str, tool: str) -> None:
    assert names("bm25", request_)[0] == tool


def test_an_english_request_weighs_every_tool_as_before_their_other_words_were_read() -> None:
    # the Russian glosses add no length to a field: without them the scores are the same
    latin = [Tool(name=t.name, server=t.server, description=t.description.split(". ")[0] + ".")
             for t in SHOP]
    query = "pause the summer campaign"
    with_glosses = [s.score for s in rank(build_scorer("bm25", SHOP), query, limit=6)]
    without = [s.score for s in rank(build_scorer("bm25", latin), query, limit=6)]
    assert np.allclose(with_glosses, without)
    assert names("bm25", query)[0] == "campaign_pause"
