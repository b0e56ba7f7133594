"""A request in another language over tools written in English, read through FreeDict and
CC-CEDICT (toolcat.search.bilingual). Model-free, but for the last tests, which rank a real
catalog of benchmarks/data/real-servers with the real model; the requests are ours, not a
half's."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.bilingual import Bilingual, key_of, segments
from toolcat.search.bm25 import BM25Scorer

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.fixture(scope="module")
def mail() -> list[Tool]:
    """Five servers of the fresh9 half, written in English: Gmail, Bitwarden, Contentful,
    Meilisearch and ElevenLabs (211 tools)."""
    return [t for t in load_catalog(DATA / "fresh9-catalog.json").tools
            if t.server in {"gmail", "bitwarden", "contentful", "meilisearch", "elevenlabs"}]


@pytest.fixture(scope="module")
def mail_readings(mail: list[Tool]) -> Bilingual:
    return Bilingual(BM25Scorer(mail))


def read(bilingual: Bilingual, request: str) -> dict[str, list[str]]:
    return {word: [reading for reading, _ in targets]
            for word, _, targets in bilingual.readings(request)}


@pytest.mark.parametrize(("request_", "word", "reading"), [
    ("supprimer le brouillon 5521 de ma boîte aux lettres", "supprimer", "remove"),
    ("Entferne den Entwurf mit der Nummer 5521 aus meinem Postfach", "entwurf", "draft"),
    ("Entferne den Entwurf mit der Nummer 5521 aus meinem Postfach", "postfach", "mailbox"),
    ("删除草稿邮件，编号是5521的那封", "删除", "delete"),
    ("删除草稿邮件，编号是5521的那封", "草稿", "draft"),
    ("envoyer un courriel à Paul pour la réunion de demain", "courriel", "email"),
    ("Smaž koncept 5521 z mé poštovní schránky", "smaž", "delete"),
    ("Smaž koncept 5521 z mé poštovní schránky", "koncept", "draft"),
    ("Usuń szkic 5521 z mojej skrzynki pocztowej", "skrzynki", "mailbox"),
    ("Διάγραψε το πρόχειρο 5521 από το γραμματοκιβώτιό μου", "πρόχειρο", "draft"),
    ("Poista luonnos 5521 postilaatikostani", "luonnos", "draft"),
])
def test_a_word_no_tool_states_is_read_in_english(mail_readings: Bilingual, request_: str,
                                                  word: str, reading: str) -> None:
    assert reading in read(mail_readings, request_)[word]


def test_an_english_request_is_never_read(mail_readings: Bilingual) -> None:
    assert mail_readings.readings("delete the draft 5521 from my mailbox") == []
    assert not mail_readings.evidence("delete the draft 5521 from my mailbox").any()


def test_function_words_are_not_translated(mail_readings: Bilingual) -> None:
    # "den", "mit", "der", "aus", "meinem": stopwords-iso's German list, not what it asks for
    found = read(mail_readings, "Entferne den Entwurf mit der Nummer 5521 aus meinem Postfach")
    assert not {"den", "mit", "der", "aus", "meinem"} & found.keys()


def test_a_word_the_catalog_states_is_read_as_typed(mail_readings: Bilingual) -> None:
    # BoondManager's tools are written in French: "supprimer" and "facture" are their words
    french = [t for t in load_catalog(DATA / "fresh10-catalog.json").tools
              if t.server in {"boondmanager", "quickbooks"}]
    request = "supprimer la facture 77 du client Dupont"
    assert read(Bilingual(BM25Scorer(french)), request) == {}
    assert "supprimer" in read(mail_readings, request)  # over the English tools it is read


def test_a_word_is_met_in_its_inflected_forms() -> None:
    # the table's key is the Snowball stem: the dictionary's infinitive meets the imperative
    assert key_of("supprime", "fr") == key_of("supprimer", "fr")
    assert key_of("erstatte", "de") == key_of("erstatten", "de")
    # Czech and Polish decline their nouns: the accusative meets the dictionary's nominative
    assert key_of("fakturu", "cs") == key_of("faktura", "cs")
    assert key_of("fakturę", "pl") == key_of("faktura", "pl")


def test_chinese_is_cut_into_the_dictionarys_longest_words() -> None:
    assert segments("删除这个文件", "zh")[0] == "删除"
    assert "文件" in segments("删除这个文件", "zh")


def test_a_hostile_request_costs_linear_time(mail_readings: Bilingual) -> None:
    start = time.process_time()
    mail_readings.readings("删" * 200_000)
    mail_readings.readings("supprimer " + "abcdé " * 100_000)
    assert time.process_time() - start < 5


def test_explain_names_the_word_its_reading_and_the_dictionary(
        mail: list[Tool], mail_readings: Bilingual) -> None:
    request = "删除草稿邮件，编号是5521的那封"
    draft = next(i for i, t in enumerate(mail) if t.name == "delete_draft")
    said, details = mail_readings.explained(request, draft) or ("", {})
    assert "删除 -> delete, CC-CEDICT" in said
    assert ["草稿", "draft", "CC-CEDICT"] in details["bilingual"]  # type: ignore[operator]
    assert details["bilingual_evidence"] > 0  # type: ignore[operator]


@pytest.mark.semantic
@pytest.mark.parametrize(("request_", "expected"), [
    # without the dictionary, create_file_send, get-health-status, text_to_speech and
    # list_ai_actions led: the model reads English, and no word of these requests is a word
    # of the catalog
    ("Entferne den Entwurf mit der Nummer 5521 aus meinem Postfach", "delete_draft"),
    ("Zeige alle Entwürfe in meinem Postfach", "list_drafts"),
    ("删除编号为5521的草稿", "delete_draft"),
    ("发送草稿5521", "send_draft"),
    ("Smaž koncept 5521 z mé poštovní schránky", "delete_draft"),
])
def test_a_request_in_another_language_finds_the_tool_it_asks_for(
        mail: list[Tool], shared_cache: Path, request_: str, expected: str) -> None:
    from toolcat.search import build_scorer, rank

    found = rank(build_scorer("hybrid", mail), request_, limit=3)
    assert found[0].tool.name == expected
    assert "read through a dictionary" in found[0].reason
