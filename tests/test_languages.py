"""toolcat.languages.foreign: which requests the zero-shot abstention's English model leaves
to the floor. Model-free."""

from __future__ import annotations

import pytest

from toolcat.languages import foreign, letters


@pytest.mark.parametrize("request_", [
    "苹果股票价格",  # the price of Apple's stock: six characters
    "删除这个文件",  # delete this file
    "日历上加个会议",  # add a meeting to the calendar
    "ビットコインの価格は",  # the price of bitcoin?
    "비트코인 지금 얼마야",  # how much is bitcoin now
    "¿a cuánto está el bitcoin ahora mismo?",
])
def test_a_short_request_in_chinese_japanese_or_korean_is_long_enough_to_name(request_):
    assert foreign(request_)


@pytest.mark.parametrize("request_", [
    "你好",  # two characters: CLD2 is not sure of them
    "tell me a joke",
    "send an email",  # CLD2 calls it Scots, sure of it: too short to be believed
    "delete the file old.log now please",
    "BTC 价格",
])
def test_english_and_what_is_too_short_to_name_are_judged(request_):
    assert not foreign(request_)


def test_a_character_of_chinese_counts_as_a_word_of_letters():
    assert letters("苹果") == letters("ab") + 8
    assert letters("tell me") == 7
    assert letters("x" * 10_000 + "苹" * 10_000) == 10_000 + 50_000  # linear
