"""Reading labeled query sets, and checking their labels against a catalog."""

from __future__ import annotations

import pytest

from tests.conftest import CATALOGS
from toolcat.bench.queries import load_queries, resolve_labels, unknown_labels_error
from toolcat.catalog.load import load_catalog
from toolcat.errors import ConfigError, UsageError


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_the_demo_query_set_loads_with_its_categories_and_no_tool_queries():
    queries = load_queries(CATALOGS / "demo-queries.jsonl")
    assert len(queries) == 109
    assert sum(not q.needs_tool for q in queries) == 6
    first = queries.queries[0]
    assert (first.id, first.groups, first.category) == ("q001", (("weather_forecast",),),
                                                        "weather")
    assert str(first.origin) == f"{CATALOGS / 'demo-queries.jsonl'}:1:1"


def test_yaml_query_sets_read_relevant_groups_and_positions(tmp_path):
    path = write(tmp_path / "q.yaml", """\
queries:
  - id: 1
    query: show me README.md
    relevant_groups: [[read_file, get_file_contents]]
    category: files
  - id: two
    query: read the file and mail it to Ann
    relevant: [send_email]
    relevant_groups: [[read_file, get_file_contents]]
  - id: none
    query: order a pizza
    relevant: []
""")
    queries = load_queries(path)
    one, two, none = queries.queries
    assert one.id == "1" and one.groups == (("read_file", "get_file_contents"),)
    assert two.groups == (("send_email",), ("read_file", "get_file_contents"))
    assert two.relevant == ("send_email", "read_file", "get_file_contents")
    assert not none.needs_tool
    assert (two.origin.line, two.origin.column) == (6, 5)


def test_a_json_array_and_json_lines_in_a_json_file_both_load(tmp_path):
    array = write(tmp_path / "a.json", '[{"id": "a", "query": "weather", "relevant": []}]')
    lines = write(tmp_path / "b.json", '{"id": "a", "query": "x", "relevant": []}\n'
                                       '{"id": "b", "query": "y", "relevant": ["z"]}\n')
    assert [q.id for q in load_queries(array)] == ["a"]
    assert [q.id for q in load_queries(lines)] == ["a", "b"]


def test_trec_qrels_load_with_a_tsv_topics_file(tmp_path):
    qrels = write(tmp_path / "tools.qrels", "t1 0 get_weather 1\nt1 0 send_email 0\n"
                                            "t2 0 send_email 2\n")
    topics = write(tmp_path / "topics.tsv", "t1\tis it raining?\nt2\tmail Ann\nt3\tpizza\n")
    queries = load_queries(qrels, topics=topics)
    assert [(q.id, q.text, q.relevant) for q in queries] == [
        ("t1", "is it raining?", ("get_weather",)), ("t2", "mail Ann", ("send_email",)),
        ("t3", "pizza", ())]  # a topic without relevant judgments is one no tool fits


def test_trec_topics_in_top_blocks_load(tmp_path):
    qrels = write(tmp_path / "qrels.txt", "301 0 get_weather 1\n")
    topics = write(tmp_path / "topics.txt", "<top>\n<num> Number: 301\n<title> rain in Oslo\n"
                                            "<desc> Description:\nWill it rain?\n</top>\n")
    [query] = load_queries(qrels, topics=topics).queries
    assert (query.id, query.text, query.origin.line) == ("301", "rain in Oslo", 1)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ('{"id": "a", "query": "x", "relevant": []}\n{"id": "b", "query": }\n', 2, 22,
     "invalid JSON: Expecting value"),
    ('{"id": "a", "query": "x"}\n', 1, 1, "query 'a' has no 'relevant' labels"),
    ('{"id": "a", "query": "", "relevant": []}\n', 1, 22, "needs a non-empty 'query'"),
    ('{"query": "x", "relevant": []}\n', 1, 1, "each query needs an 'id'"),
    ('{"id": "a", "query": "x", "relevant": "get_weather"}\n', 1, 39,
     "'relevant' must be a list of tool names"),
    ('{"id": "a", "query": "x", "relevant_groups": [[]]}\n', 1, 47,
     "a relevant group is empty"),
    ('{"id": "a", "query": "x", "relevant": ["t"], "relevant_groups": [["t", "u"]]}\n', 1, 1,
     "tool 't' is labeled twice"),
    ('{"id": "a", "query": "x", "relevant": []}\n\n{"id": "a", "query": "y", "relevant": []}\n',
     3, 8, "query id 'a' is used twice (first at"),
    ('[1, 2]\n', 1, 1, "each query must be a mapping"),
])
def test_a_malformed_record_is_an_error_at_its_field(tmp_path, text, line, column, message):
    path = write(tmp_path / "q.jsonl", text)
    with pytest.raises(ConfigError) as raised:
        load_queries(path)
    assert message in raised.value.message
    assert (raised.value.where.line, raised.value.where.column) == (line, column)


def test_a_yaml_record_error_points_at_the_record(tmp_path):
    path = write(tmp_path / "q.yaml", "- id: a\n  query: x\n  relevant: []\n- id: b\n  query: y\n")
    with pytest.raises(ConfigError) as raised:
        load_queries(path)
    assert str(raised.value).startswith(f"{path}:4:3: query 'b' has no 'relevant' labels")


@pytest.mark.parametrize(("qrels", "topics", "message"), [
    ("t1 0 get_weather\n", "t1\train\n", "4 fields, found 3"),
    ("t1 0 get_weather yes\n", "t1\train\n", "relevance 'yes' is not a whole number"),
    ("t9 0 get_weather 1\n", "t1\train\n", "query 't9' is not in the topics file"),
    ("t1 0 get_weather 1\n", "t1 rain\n", "a topics line is 'query-id<TAB>query text'"),
])
def test_malformed_trec_files_are_errors_at_their_line(tmp_path, qrels, topics, message):
    with pytest.raises(ConfigError) as raised:
        load_queries(write(tmp_path / "q.qrels", qrels), topics=write(tmp_path / "t.tsv", topics))
    assert message in raised.value.message
    assert raised.value.where.line == 1


def test_qrels_need_topics_and_topics_need_qrels(tmp_path):
    qrels = write(tmp_path / "q.qrels", "t1 0 get_weather 1\n")
    jsonl = write(tmp_path / "q.jsonl", '{"id": "a", "query": "x", "relevant": []}\n')
    with pytest.raises(UsageError, match="need --topics"):
        load_queries(qrels)
    with pytest.raises(UsageError, match="--topics goes with a TREC qrels file"):
        load_queries(jsonl, topics=qrels)


@pytest.mark.parametrize("command", [["bench", "--scorer", "bm25"], ["review", "-o", "out"],
                                     ["tune", "-o", "tuning.yaml"]])
def test_a_folder_or_a_missing_file_as_the_queries_is_said_so_not_taken_for_qrels(
        run, isolated, command):
    (isolated / "requests").mkdir()
    for given, said in (("requests", "requests: is a directory, not a file"),
                        ("missing", "missing: no such file")):
        result = run(*command, "-c", "demo", "-q", given)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == f"toolcat: error: {said}\n"  # not "read as TREC qrels"
    assert not (isolated / "out").exists() and not (isolated / "tuning.yaml").exists()


def test_labels_that_name_no_tool_are_listed_with_their_lines(demo, tmp_path):
    path = write(tmp_path / "q.jsonl",
                 '{"id": "a", "query": "x", "relevant": ["get_weather"]}\n'
                 '{"id": "b", "query": "y", "relevant": ["get_wether", "send_mail"]}\n'
                 '{"id": "c", "query": "z", "relevant_groups": [["read_file", "cat_file"]]}\n')
    queries, unknown = resolve_labels(load_queries(path), demo)
    assert [(u.name, u.query_id) for u in unknown] == [
        ("get_wether", "b"), ("send_mail", "b"), ("cat_file", "c")]
    error = unknown_labels_error(unknown)
    assert str(error) == (
        f"{path}:2:1: 3 labels name no tool of the catalog: get_wether (line 2), send_mail "
        "(line 2), cat_file (line 3) (--allow-unknown runs anyway and counts them as misses)")
    assert queries.queries[1].groups == (("get_wether",), ("send_mail",))  # kept as written


def test_a_qualified_label_resolves_to_the_catalog_identity(demo, tmp_path):
    path = write(tmp_path / "q.jsonl",
                 '{"id": "a", "query": "x", "relevant": ["weather:get_weather"]}\n')
    queries, unknown = resolve_labels(load_queries(path), demo)
    assert not unknown
    assert queries.queries[0].groups == (("get_weather",),)


def test_a_label_shared_by_two_servers_must_say_which(tmp_path):
    catalog = load_catalog(write(tmp_path / "c.yaml", """\
tools:
  - {name: search, server: web, description: Search the web}
  - {name: search, server: files, description: Search files}
"""))
    path = write(tmp_path / "q.jsonl", '{"id": "a", "query": "x", "relevant": ["search"]}\n')
    with pytest.raises(ConfigError, match="label 'search' is on several servers; say which: "
                                          "web:search, files:search"):
        resolve_labels(load_queries(path), catalog)
    path.write_text('{"id": "a", "query": "x", "relevant": ["files:search"]}\n')
    queries, _ = resolve_labels(load_queries(path), catalog)
    assert queries.queries[0].groups == (("files:search",),)
