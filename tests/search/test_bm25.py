"""BM25F: fields weigh differently, words meet across spelling, scores mean the same."""

from __future__ import annotations

from toolcat.model import Tool
from toolcat.search import build_scorer, rank

TOOLS = [
    Tool(name="store_files", description="Archive old logs into cold storage."),
    Tool(name="archive_logs", description="Move old log files somewhere cheaper."),
    Tool(name="sendMessage", description="Post a note to a channel.",
         parameters={"type": "object",
                     "properties": {"channel_id": {"description": "Where to post."}}}),
    Tool(name="list_users", description="List the people in the workspace.", tags=("directory",)),
]


def names(query, tools=TOOLS, limit=None):
    return [s.tool.name for s in rank(build_scorer("bm25", tools), query, limit=limit)]


def test_a_word_in_the_name_counts_more_than_in_the_description():
    assert names("archive")[:2] == ["archive_logs", "store_files"]


def test_words_meet_across_case_separators_and_endings():
    assert names("sending messages") == ["sendMessage"]
    assert names("channels") == ["sendMessage"]


def test_parameters_and_tags_are_searched():
    assert names("channel id") == ["sendMessage"]
    assert names("directory") == ["list_users"]


def test_a_query_a_tool_explains_fully_scores_near_the_top_of_the_scale():
    scorer = build_scorer("bm25", TOOLS)
    full = max(scorer.scores("archive logs"))
    part = max(scorer.scores("archive logs tomorrow morning quickly please"))
    assert 0.5 < full <= 1.0
    assert full == part  # words no tool has carry no evidence either way


def test_a_clause_that_points_to_another_tool_is_evidence_for_that_tool(demo):
    # weather_forecast says "use get_weather for conditions right now"
    assert names("conditions right now", demo.tools, limit=1) == ["get_weather"]


def test_the_reason_names_the_matched_terms_and_fields():
    best = rank(build_scorer("bm25", TOOLS), "archive", limit=1)[0]
    assert best.details == {"matched": {"archiv": ["name"]}}
    assert best.reason == "BM25F matched archiv (name)"


VALUE_TOOLS = [
    Tool(name="post_message", description="Post a message to a channel."),
    Tool(name="create_note", description="Add a note to an issue."),
    Tool(name="fetch_page", description="Fetch a web page and return its text."),
    Tool(name="read_file", description="Read a file and return its text."),
    Tool(name="describe_image", description="Describe what a png or jpeg image shows."),
    Tool(name="read_range", description="Read a range of cells of a Google spreadsheet."),
]


def test_the_words_of_a_url_or_file_name_a_request_names_are_no_evidence():
    # "post" and "notes" are data handed over, not what the request asks for
    assert "post_message" not in names("grab the text of https://example.org/post",
                                       VALUE_TOOLS)
    assert "create_note" not in names("show me the text of notes.txt", VALUE_TOOLS)
    assert "create_note" not in names("read ~/work/notes/today", VALUE_TOOLS)
    assert "create_note" not in names("mail the text to notes@example.org", VALUE_TOOLS)


def test_a_file_names_extension_and_a_urls_host_stay_evidence_of_its_kind_and_service():
    assert names("what is in holiday.png", VALUE_TOOLS) == ["describe_image"]
    assert names("read https://docs.google.com/spreadsheets/d/1Bx/edit", VALUE_TOOLS)[0] == \
        "read_range"


def test_dotted_names_and_a_request_made_only_of_a_value_keep_their_words():
    assert names("call post_message.send", VALUE_TOOLS)[0] == "post_message"
    assert names("https://example.org/notes", VALUE_TOOLS) == ["create_note"]
