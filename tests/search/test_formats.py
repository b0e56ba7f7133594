"""A file a request names says, by its extension, which server reads it
(toolcat.search.formats). Model-free, but for the last three tests, which rank real catalogs'
tools through the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.formats import Formats, extensions

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("request_", "expected"), [
    ("~/contracts/msa-acme.docx swap every 'Licensor' for 'Provider'", ["docx"]),
    ("save the deck over board-update.pptx", ["pptx"]),
    ("copy ./dist/app.tar.gz up to /srv/releases on prod", ["gz"]),
    ("compare (report.PDF) with notes.txt, then notes.txt again", ["pdf", "txt"]),
    ("open https://example.com/files/a.pdf and mail bob@example.com", []),  # addresses
    ("release v2.4.0 of nginx:1.27", []),  # a version is no file
    ("delete the old branch", []),
    ("", []),
])
def test_the_extensions_of_the_files_a_request_names(request_: str, expected: list[str]) -> None:
    assert extensions(request_) == expected


def _formats(tools: list[Tool]) -> Formats:
    return Formats(tools, BM25Scorer(tools))


def _catalog() -> list[Tool]:
    return [
        Tool(name="list_available_documents", server="word",
             description="List all .docx files in the folder."),
        Tool(name="add_paragraph", server="word", description="Add a paragraph."),
        Tool(name="run_query", server="db", description="Run a read-only SQL query."),
        Tool(name="read_file", server="files", description="Read a file (e.g. notes.txt)."),
        Tool(name="send_email", server="mail",
             description="Send mail; the address is checked at example.com first."),
    ]


def test_every_tool_of_the_server_that_speaks_of_the_extension_gets_a_server_names_weight():
    formats = _formats(_catalog())
    found = formats.evidence("bin the third paragraph of cover-letter.docx")
    weight = math.log(1 + (4 - 1 + 0.5) / 1.5)  # one server of four says ".docx"
    assert found.tolist() == pytest.approx([weight, weight, 0.0, 0.0, 0.0])
    value, said = formats.explained("bin the third paragraph of cover-letter.docx", 1)
    assert value == pytest.approx(weight) and ".docx" in said
    assert formats.explained("bin the third paragraph of cover-letter.docx", 2) == (0.0, "")


@pytest.mark.parametrize("request_", [
    "run ~/queries/old_dump.sql",  # "SQL" in capitals is the language, not the file
    "the domain is acme.com now",  # "example.com" in a text is a name, not an extension
    "what's in notes.md",  # no server says ".md"
    "bin the third paragraph",  # no file at all
])
def test_a_file_no_server_speaks_of_as_one_gives_nothing(request_: str) -> None:
    assert not _formats(_catalog()).evidence(request_).any()


def test_an_extension_most_servers_speak_of_or_a_catalog_of_one_server_gives_nothing():
    common = [Tool(name=f"t{i}", server=f"s{i}", description="Reads .json files.")
              for i in range(3)] + [Tool(name="other", server="o", description="Other.")]
    assert not _formats(common).evidence("load config.json").any()
    alone = [Tool(name="list_available_documents", server="word",
                  description="List all .docx files.")]
    assert not _formats(alone).evidence("open a.docx").any()
    assert _formats([]).evidence("open a.docx").tolist() == []


@pytest.mark.semantic
@pytest.mark.timeout(1200)  # encodes fresh6's 596 tools once, on a CPU shared with other tests
@pytest.mark.usefixtures("shared_cache")
@pytest.mark.skipif(not (DATA / "fresh6-catalog.json").exists(),
                    reason="the real-server set is absent")
def test_a_word_document_named_by_its_path_brings_the_word_server_first_and_says_why(run):
    catalog = str(DATA / "fresh6-catalog.json")
    result = run("pick", "~/contracts/msa-acme.docx swap every 'Licensor' for 'Provider'",
                 "-c", catalog, "-k", "5", "--allow-unsafe", "--no-cut", "--json",
                 "--explain")
    assert result.exit_code == 0, result.output
    picks = json.loads(result.output)["picks"]
    # without the format's evidence rootly:list_audits led and one Word tool followed; with
    # it, the Word server fills the rest (list_audits leads it by 0.01 since rank33)
    word = [pick for pick in picks if pick["server"] == "word"]
    assert len(word) == 4
    assert all(pick["provenance"]["details"]["format_evidence"] > 2 for pick in word)
    assert all("a .docx file" in pick["reason"] for pick in word)


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_a_file_the_request_moves_brings_the_server_that_speaks_of_its_format_first(run):
    result = run("pick", "create an archive folder and move old.csv into it", "-c", "demo",
                 "-k", "2", "--json", "--explain")
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)["picks"][0]
    assert first["name"] == "move_file"  # the database's export_query_to_csv came first
    assert first["provenance"]["details"]["format_evidence"] > 0


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")
def test_a_file_the_request_writes_to_leaves_the_tool_that_writes_it_first(run):
    # the demo's filesystem server speaks of ".csv" files; the export is the database's
    result = run("pick", "dump every 2024 invoice into invoices_2024.csv", "-c", "demo",
                 "-k", "3", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["picks"][0]["name"] == "export_query_to_csv"
