"""The near-duplicate rule's candidate filter finds exactly the pairs a full comparison finds."""

from __future__ import annotations

import random

import pytest
from rapidfuzz import fuzz

from toolcat.lint.rules.catalog_level import _similar_pairs


def brute_force(texts: list[str], threshold: float) -> set[tuple[int, int]]:
    return {(i, j) for i in range(len(texts)) for j in range(i + 1, len(texts))
            if texts[i] and texts[j] and fuzz.ratio(texts[i], texts[j]) >= threshold}


@pytest.mark.parametrize("threshold", [50, 70, 85, 90, 95, 100])
def test_prefix_filter_misses_no_pair_and_adds_none(threshold):
    rng = random.Random(threshold)
    vocabulary = [chr(0x4E00 + i) for i in range(40)]
    base = ["".join(rng.choices(vocabulary[:12], k=rng.randint(1, 12))) for _ in range(60)]
    texts = base + ["".join(c if rng.random() > 0.15 else rng.choice(vocabulary) for c in t)
                    for t in base] + ["", vocabulary[0] * 3]
    pairs = list(_similar_pairs(texts, threshold))
    found = {(i, j) for i, j, _ in pairs}
    assert found == brute_force(texts, threshold)
    assert found  # the set has near pairs at every threshold
    assert all(score == fuzz.ratio(texts[i], texts[j]) for i, j, score in pairs)
    assert len(pairs) == len(found)  # each pair once


def test_word_codes_skip_the_surrogate_block():
    from toolcat.lint.rules.catalog_level import _code

    codes = {ord(_code(n)) for n in range(0, 60_000, 7)}
    assert not any(0xD800 <= c <= 0xDFFF for c in codes)
    assert len(codes) == len(range(0, 60_000, 7))


@pytest.mark.parametrize("threshold", [60, 85, 90])
def test_the_length_filter_drops_no_pair_from_long_posting_lists(threshold):
    # a few common words in texts of every length from 1 to 60, in shuffled order: posting
    # lists grow long and lose their short texts as longer ones come
    rng = random.Random(threshold)
    vocabulary = [chr(0x4E00 + i) for i in range(6)]
    texts = ["".join(rng.choices(vocabulary, k=n)) for n in range(1, 61) for _ in range(5)]
    rng.shuffle(texts)
    pairs = list(_similar_pairs(texts, threshold))
    assert {(i, j) for i, j, _ in pairs} == brute_force(texts, threshold)
    assert len(pairs) == len({(i, j) for i, j, _ in pairs})
