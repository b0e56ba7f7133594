"""Chinese, Japanese and Korean text, written without spaces between words, is read as its
pairs of letters (toolcat.search.text): a request in the catalog's own language ranks the
tools by the words they share, lexically and in hybrid."""

from __future__ import annotations

import pytest

from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.text import MAX_RUN, stems

CLOUD = [
    Tool(name="listFunctions", server="cloud",
         description="查询云函数列表，返回每个函数的名称、运行时和配置信息。"),
    Tool(name="queryLogs", server="cloud",
         description="查询云函数的运行日志，可按时间范围和日志级别筛选报错信息。"),
    Tool(name="createDatabase", server="cloud",
         description="为当前环境开通一个新的数据库实例。"),
    Tool(name="deleteRecords", server="cloud",
         description="删除集合中符合查询条件的文档记录。"),
    Tool(name="uploadFile", server="drive",
         description="ファイルをストレージにアップロードします。"),
    Tool(name="get_weather", server="weather",
         description="Current weather conditions for a city."),
    Tool(name="send_email", server="mail", description="Send an e-mail to an address."),
]


def names(scorer: str, query: str) -> list[str]:
    return [s.tool.name for s in rank(build_scorer(scorer, CLOUD), query, limit=3)]


def test_a_run_of_cjk_letters_is_read_as_its_pairs() -> None:
    assert stems("报错日志") == ["报错", "错日", "日志"]
    assert stems("删") == ["删"]  # a letter alone stays itself
    assert stems("云函数 order-sync 日志") == ["云函", "函数", "order", "sync", "日志"]


def test_a_strangers_endless_run_is_read_in_bounded_pairs() -> None:
    assert len(stems("日志" * 1_000_000)) == MAX_RUN - 1


@pytest.mark.parametrize(("request_", "tool"), [
    ("帮我看一下 order-sync 昨天的报错日志", "queryLogs"),
    ("把 users 集合里过期的记录都删除", "deleteRecords"),
    ("给测试环境开通一个数据库", "createDatabase"),
    ("このファイルをアップロードして", "uploadFile"),
])
def test_a_request_in_the_catalogs_language_meets_its_words(request_: str, tool: str) -> None:
    assert names("bm25", request_)[0] == tool


def test_english_requests_do_not_meet_cjk_text() -> None:
    assert names("bm25", "what's the weather in Paris")[0] == "get_weather"
    assert all(n != "queryLogs" for n in names("bm25", "send an email to bob"))


@pytest.mark.semantic
@pytest.mark.parametrize(("request_", "tool"), [
    ("帮我看一下 order-sync 昨天的报错日志", "queryLogs"),
    ("把 users 集合里过期的记录都删除", "deleteRecords"),
])
def test_hybrid_ranks_a_chinese_request_by_the_words_it_shares(request_: str,
                                                              tool: str) -> None:
    assert names("hybrid", request_)[0] == tool
