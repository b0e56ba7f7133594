"""TC302 on the seeds' own examples: the bad description ("Returns data about
conditions") is vague, its good one is not, and neither is any description of the demo
catalog."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings
from toolcat.lint.text import words, words_of

ONLY_TC302 = LintSettings(select=("TC302",))


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str], Path]:
    def make(text: str) -> Path:
        path = tmp_path / "tools.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return make


def lint_descriptions(write, *descriptions: str) -> list[str]:
    tools = "".join(f"  - name: tool_{i}\n    description: {d!r}\n"
                    f"    parameters: {{type: object, properties: {{}}}}\n"
                    for i, d in enumerate(descriptions))
    report = lint_catalog(load_catalog(write("tools:\n" + tools)), ONLY_TC302)
    return [f.message for f in report.findings]


@pytest.mark.parametrize("description", [
    "Returns data about conditions",             # the bad example
    "Retrieve information about a specific boxer",
    "Gets all the details of an item",
    "Returns the results for the given value",
])
def test_a_description_with_at_most_one_specific_word_is_vague(write, description):
    [message] = lint_descriptions(write, description)
    assert f"the description {description!r} says" in message


def test_the_message_names_the_one_specific_word(write):
    [message] = lint_descriptions(write, "Returns data about conditions")
    assert "only 'conditions' is specific" in message


@pytest.mark.parametrize("description", [
    "Get current weather conditions for a city or location",   # the good example
    "Get current weather for a location",                      # tool search example
    "Get weather forecast for the next 7 days",
    "Returns the list of open issues of a repository",
    "Process return of products",  # return as a noun
])
def test_a_description_that_says_what_and_to_what_is_not_vague(write, description):
    assert lint_descriptions(write, description) == []


def test_the_demo_catalog_has_no_vague_description():
    report = lint_catalog(load_catalog(CATALOGS), ONLY_TC302)
    assert report.findings == ()


@pytest.mark.parametrize("texts", [
    ["getUserID", "HTTPServer_status", "ΟΔΟΣ και ΟΔΟΣ", "Σ", "a\u00adb"],
    ["endsWith", "Upper", "lower", ""],
    ["a name with the separator \x00 in it", "getWeather"],
    [],
])
def test_the_words_of_many_texts_read_at_once_are_each_texts_own(texts):
    # a catalog's names and descriptions are read joined: no camelCase boundary, no final
    # sigma and no word may run from one text into the next
    assert words_of(texts) == [words(text) for text in texts]
