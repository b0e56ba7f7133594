"""Server names found in a request without one pattern of every name (search.phrases): the
same spans that pattern finds, in time that does not grow with the number of names."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolcat.search.phrases import MIN_PIECE, PhraseFinder
from toolcat.search.text import split_name


def by_one_pattern(names: list[str], text: str) -> list[tuple[int, int]]:
    """What the finder replaced: one regular expression of every name, longest first (a name
    of one word also split once into two pieces of MIN_PIECE letters or more)."""
    words = sorted({split_name(n).lower() for n in names if split_name(n).strip()},
                   key=len, reverse=True)
    if not words:
        return []
    pattern = re.compile(r"\b(?:" + "|".join(_spellings(n) for n in words) + r")\b",
                         re.IGNORECASE)
    return [m.span() for m in pattern.finditer(text)]


def _spellings(name: str) -> str:
    parts = name.split()
    if len(parts) > 1:
        return r"[\s_-]*".join(map(re.escape, parts))
    word = parts[0]
    splits = [rf"{re.escape(word[:k])}[\s_-]+{re.escape(word[k:])}"
              for k in range(MIN_PIECE, len(word) - MIN_PIECE + 1)]
    return "(?:" + "|".join([re.escape(word), *splits]) + ")"


def test_a_name_is_found_however_a_request_joins_its_words():
    finder = PhraseFinder(["GitLab", "google-maps", "time"])
    text = "open gitlab, then Git Lab, git_lab, GoogleMaps and google maps at this time"
    assert [text[a:b] for a, b in finder.spans(text)] == [
        "gitlab", "Git Lab", "git_lab", "GoogleMaps", "google maps", "time"]


def test_a_name_is_not_found_inside_a_word_or_split_where_its_words_do_not_meet():
    finder = PhraseFinder(["gitlab", "maps", "GoogleMaps"])
    assert finder.spans("gi tlab x_maps mapsé roadmaps gitlabs Goog leMaps") == []


def test_a_name_of_one_word_is_found_written_as_two_words():
    """Lunch Money's MCP server is `lunchmoney`; its users write the product's name."""
    finder = PhraseFinder(["lunchmoney", "runpod"])
    text = "remove that account from Lunch Money, then stop the run-pod and gitlab"
    assert [text[a:b] for a, b in finder.spans(text)] == ["Lunch Money", "run-pod"]


def test_twenty_thousand_names_are_ready_at_once_and_found():
    names = [f"vendor{i}-service" for i in range(20_000)]
    finder = PhraseFinder(names)
    text = "ask Vendor19999 Service and vendor7_service for it"
    assert [text[a:b] for a, b in finder.spans(text)] == ["Vendor19999 Service",
                                                          "vendor7_service"]


_NAME = st.text(alphabet="abAB1 _-.", min_size=1, max_size=8)
_TEXT = st.text(alphabet="abAB1 _-.é", max_size=30)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(names=st.lists(_NAME, min_size=1, max_size=5), text=_TEXT)
def test_the_finder_finds_what_one_pattern_of_every_name_finds(names, text):
    assert PhraseFinder(names).spans(text) == by_one_pattern(names, text)
