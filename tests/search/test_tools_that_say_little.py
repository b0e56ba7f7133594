"""Tools that say little (an empty or one-word description, as GitHub's server and generated
OpenAPI servers ship them) are read by what they do have: their title and their parameters'
names stand in for the description, on the lexical side and in the text that is embedded
(toolcat.search.text.stand_in)."""

from __future__ import annotations

import pytest

from toolcat.model import Tool
from toolcat.search import build_scorer, rank
from toolcat.search.semantic import tool_texts
from toolcat.search.text import says_little, stand_in

RUN_ID = {"type": "object", "properties": {"owner": {"type": "string"},
                                           "repo": {"type": "string"},
                                           "run_id": {"type": "integer"}}}
TOOLS = [
    Tool(name="github_get_workflow_run", server="github", description="",
         parameters=RUN_ID, annotations={"title": "Get Workflow Run"}),
    Tool(name="github_list_workflow_runs", server="github", description="",
         annotations={"title": "List Workflow Runs"}),
    Tool(name="github_get_job_logs", server="github", description="",
         annotations={"title": "Get Job Logs"}),
    Tool(name="manage_glue_workflows", server="aws",
         description="Manage AWS Glue workflows: create, delete, get or list workflows, start "
                     "a workflow run and get the state of a run."),
    Tool(name="get_pipeline_status", server="ci",
         description="Get the status of a pipeline and of the jobs that run in it."),
    Tool(name="search", server="docs", description="Search.",
         annotations={"title": "Search the documentation"}),
    Tool(name="find_in_files", server="files",
         description="Find text in the files of a folder, by a word or a pattern."),
    Tool(name="get_quota", server="api", description="Get the API quota and its rate limits."),
]


def test_a_tool_that_says_little_is_read_by_its_title_and_parameters() -> None:
    thin, described, one_word = TOOLS[0], TOOLS[3], TOOLS[5]
    assert says_little(thin, "") and says_little(one_word, "Search.")
    assert not says_little(described, described.description)
    assert stand_in(thin, "") == "Get Workflow Run. with owner, repo, run id"
    assert stand_in(one_word, "Search.") == "Search. Search the documentation"
    assert stand_in(described, described.description) == described.description
    assert tool_texts(thin)[1] == "github get workflow run: " + stand_in(thin, "")


@pytest.mark.parametrize(("request_", "tool"), [
    ("get workflow run 9912345678 in acme/web", "github_get_workflow_run"),
    ("show me the job logs", "github_get_job_logs"),
])
def test_a_tool_without_a_description_meets_the_request_its_title_answers(
        request_: str, tool: str) -> None:
    assert rank(build_scorer("bm25", TOOLS), request_, limit=1)[0].tool.name == tool


@pytest.mark.slow
@pytest.mark.semantic
def test_the_default_ranks_a_tool_without_a_description_by_what_it_has() -> None:
    # the one-word tool's title says it searches the documentation: above the tool whose
    # description has the words "rate limits" (below it when only "Search." was embedded)
    scorer = build_scorer("hybrid", TOOLS)
    assert rank(scorer, "find rate limits in the documentation", limit=1)[0].tool.name == "search"
    assert rank(scorer, "is the deploy workflow still running?", limit=1)[0].tool.name in {
        "github_get_workflow_run", "github_list_workflow_runs"}
