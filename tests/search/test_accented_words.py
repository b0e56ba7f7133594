"""Latin words with accented letters are read whole and matched without their marks
(toolcat.search.text.fold): "personnalisé" is one word, not "personnalis" and nothing, and a
user who types "creer" or "ucret" without the accents meets a tool that says "créer" or
"ücret"."""

from __future__ import annotations

import numpy as np
import pytest

from toolcat.model import Tool
from toolcat.search import bm25, build_scorer, rank
from toolcat.search.bm25 import BM25Index
from toolcat.search.text import fold, stems, words

TOOLS = [
    Tool(name="brutten_nete", server="bordro",
         description="Brüt ücretten net ücreti hesaplar: SGK primi, gelir vergisi ve damga "
                     "vergisi düşülür."),
    Tool(name="emekli_zammi", server="bordro",
         description="Emekli aylığının temmuz zammıyla ne kadar olacağını hesaplar."),
    Tool(name="kidem_tazminati", server="bordro",
         description="Kıdem tazminatını işe giriş ve çıkış tarihine göre hesaplar."),
    Tool(name="search_permits", server="permis",
         description="Recherche les permis de construire déposés dans une commune."),
    Tool(name="create_folder", server="permis",
         description="Créer un dossier de demande personnalisé pour un projet."),
    Tool(name="paket_groesse", server="versand",
         description="Berechnet die Größe und das Gewicht eines Pakets für den Versand."),
    Tool(name="emitir_nota", server="fiscal",
         description="Emite a nota fiscal de serviço eletrônica de uma venda."),
    Tool(name="anadir_articulo", server="tienda",
         description="Añade un artículo al carrito de compras del cliente."),
    Tool(name="get_weather", server="weather", description="Current weather for a city."),
]


def top(query: str, scorer: str = "bm25") -> str:
    return rank(build_scorer(scorer, TOOLS), query, limit=1)[0].tool.name


def test_an_accented_word_is_one_word_in_base_letters() -> None:
    assert words("personnalisé") == ["personnalise"]
    assert words("Größe ücret Çalışanın") == ["grosse", "ucret", "calisanin"]
    assert words("İŞLEM Łódź œuvre þing") == ["islem", "lodz", "oeuvre", "thing"]
    assert words("getÉtatCourant") == ["get", "etat", "courant"]  # camelCase split after folding
    assert words("cafe\u0301 x×y") == ["cafe"]  # a decomposed accent stays in its word
    assert fold("Ärger") == "Arger" and fold("plain") == "plain"


@pytest.mark.parametrize(("accented", "plain"), [
    ("créer", "creer"), ("ücretten", "ucretten"), ("Größe", "grosse"),
    ("eletrônica", "eletronica"), ("artículo", "articulo"),
])
def test_a_word_and_the_same_word_typed_without_its_marks_have_one_stem(
        accented: str, plain: str) -> None:
    assert stems(accented) == stems(plain)


def test_other_scripts_are_not_folded() -> None:
    assert words("мой край") == ["мой", "край"]  # й keeps its breve


@pytest.mark.parametrize(("request_", "tool"), [
    ("brut ucretten net ne kalir", "brutten_nete"),
    ("kidem tazminati ne kadar", "kidem_tazminati"),
    ("creer un dossier personnalise", "create_folder"),
    ("grosse des Pakets", "paket_groesse"),
    ("nota fiscal eletronica", "emitir_nota"),
    ("añadir el artículo al carrito", "anadir_articulo"),
])
def test_a_request_with_or_without_accents_meets_the_tools_words(request_: str,
                                                                 tool: str) -> None:
    assert top(request_) == tool
    assert top(fold(request_)) == tool


BORDRO = [
    Tool(name="memur_maasi", server="bordro",
         description="Memur maaşını unvan ve derece bilgisine göre hesaplar."),
    Tool(name="asgari_ucret", server="bordro",
         description="Asgari ücretin net ve brüt tutarını hesaplar."),
    Tool(name="emekli_zammi", server="bordro",
         description="Emekli aylığının temmuz zammıyla yeni tutarını hesaplar."),
    Tool(name="get_weather", server="weather", description="Current weather for a city."),
    Tool(name="send_email", server="mail", description="Send an e-mail to an address."),
]


def test_a_tools_words_are_stemmed_in_its_language_too() -> None:
    # "maaşım" (my salary) and "maaşını" (its salary) share no English stem; the Turkish
    # stemmer reads both as "maaş"
    index = BM25Index.build(BORDRO)
    assert index.languages == ("turkish",)
    scorer = build_scorer("bm25", BORDRO)
    assert rank(scorer, "öğretmen maaşım ne kadar olur", limit=1)[0].tool.name == "memur_maasi"
    assert rank(scorer, "aylığım ne kadar artar", limit=1)[0].tool.name == "emekli_zammi"


def test_an_english_catalog_is_stemmed_in_english_alone() -> None:
    assert BM25Index.build(BORDRO[3:]).languages == ()
    assert BM25Index.build([Tool(name="x", description="Créer")]).languages == ()  # too short


def test_an_english_request_is_matched_on_english_stems_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the Turkish stems of the tools add no length to a field and a request CLD2 reads as
    # English is not stemmed in Turkish: its scores are those of an index without them
    query = "net salary from the gross amount, brüt maaş"
    stemmed = [(s.tool.name, s.score) for s in rank(build_scorer("bm25", BORDRO), query)]
    monkeypatch.setattr(bm25, "tool_languages", lambda tools: [""] * len(tools))
    plain = [(s.tool.name, s.score) for s in rank(build_scorer("bm25", BORDRO), query)]
    assert BM25Index.build(BORDRO).languages == ()
    assert [n for n, _ in stemmed] == [n for n, _ in plain]
    assert np.allclose([s for _, s in stemmed], [s for _, s in plain])
