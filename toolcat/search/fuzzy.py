"""The fuzzy fallback: substring, then word-level, then character similarity.

Text is compared lower-cased with camelCase and separators turned into spaces, so `send msg`
can meet `send_message`. The three stages have ceilings that keep them in order, and a tool's
score is the best stage it reaches:

- 0.9 to 1.0 the whole query occurs in the name (1.0 when it is the whole name); 0.85 it
  occurs in the description or a parameter;
- up to 0.8 word-level: 0.8 times the mean, over the query's words, of how well each is found
  among the tool's words: 1 the same word, 0.9 a prefix (`calc` -> `calculate`), 0.8 an
  abbreviation whose letters appear in order (`msg` -> `message`), else 0.8 times the
  rapidfuzz similarity when that is at least 0.75 (`wether` -> `weather`, 0.92). Words of the
  name count fully, words elsewhere 0.75 of that. A tenth of this stage is instead the share
  of the name's words (stop words aside) the query accounts for, so `weather` puts
  `get_weather` before `weather_forecast`;
- up to 0.5 character-level, for queries of up to three words: half the rapidfuzz partial
  similarity of the query to the name, when that is at least 0.7.

So 0.4 means about half the query's words were found in the tool's name, whatever the query.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from toolcat.model import Tool
from toolcat.search.text import STOPWORDS, parameter_texts, split_name, words

SUBSTRING_NAME, SUBSTRING_OTHER, WORDS, CHARACTERS = 0.9, 0.85, 0.8, 0.5
EXACT, PREFIX, ABBREVIATION = 1.0, 0.9, 0.8
TYPO_CUTOFF, CHARACTER_CUTOFF = 75.0, 70.0
CHARACTER_WORDS = 3  # longer queries are not compared character by character with names
OTHER_FIELD = 0.75  # a word found outside the name counts this much of one in the name


def normalize(text: str) -> str:
    """Lower-case words separated by single spaces: `getWeather-now` -> `get weather now`."""
    return " ".join(words(text))


def query_words(query: str) -> list[str]:
    """The query's words without stop words (all of them when nothing else is left)."""
    found = list(dict.fromkeys(words(query)))
    kept = [w for w in found if w not in STOPWORDS]
    return kept or found


def is_abbreviation(short: str, word: str) -> bool:
    """`msg` of `message`: same first letter, the rest in order, and shorter."""
    if len(short) >= len(word) or short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(ch in rest for ch in short[1:])


def other_text(tool: Tool) -> str:
    """The words of `tool` besides its name that fuzzy search matches: its description, and
    each parameter's name's words and description."""
    return normalize(" ".join([tool.description, *(f"{split_name(n)} {d}" for n, d in
                                                    parameter_texts(tool.parameters))]))


class FuzzyScorer:
    """Substring, word-level and character similarity (see the module docstring)."""

    name = "fuzzy"

    def __init__(self, tools: Sequence[Tool], others: Sequence[str] | None = None) -> None:
        """`others`: each tool's `other_text`, when the caller kept them (serve keeps a
        catalog's: a remembered catalog decodes a tool's definition when it is first read)."""
        self.tools = tools
        self._names = [normalize(split_name(t.name)) for t in tools]
        self._others = [other_text(t) for t in tools] if others is None else list(others)
        # word -> (tool indices, weight): 1 where the word is in the name, else OTHER_FIELD
        weight: dict[str, dict[int, float]] = {}
        for i, (name, other) in enumerate(zip(self._names, self._others, strict=True)):
            for word in set(other.split()):
                weight.setdefault(word, {})[i] = OTHER_FIELD
            for word in set(name.split()):
                weight.setdefault(word, {})[i] = 1.0
        self._vocabulary = sorted(weight)
        self._postings = {w: list(row.items()) for w, row in weight.items()}
        self._name_postings: dict[str, list[int]] = {}
        for i, name in enumerate(self._names):
            for word in set(name.split()) - STOPWORDS:
                self._name_postings.setdefault(word, []).append(i)
        self._name_sizes = [max(len(set(n.split()) - STOPWORDS), 1) for n in self._names]
        self._names_text = _Joined(self._names)
        self._others_text = _Joined(self._others)
        self._matches: dict[str, dict[str, float]] = {}
        self._by_letter: dict[str, list[str]] = {}
        for word in self._vocabulary:
            self._by_letter.setdefault(word[0], []).append(word)

    def word_matches(self, word: str) -> dict[str, float]:
        """Catalog words that `word` finds, with how well (1 exact ... 0.6 a typo).

        Only a word the catalog does not use is read as an abbreviation or a misspelling.
        """
        found = self._matches.get(word)
        if found is not None:
            return found
        found = {}
        start = bisect.bisect_left(self._vocabulary, word)
        for candidate in self._vocabulary[start:]:
            if not candidate.startswith(word):
                break
            if candidate == word or len(word) >= 3:
                found[candidate] = EXACT if candidate == word else PREFIX
        if word not in found:
            if 2 <= len(word) <= 5:
                for candidate in self._by_letter.get(word[0], ()):
                    if candidate not in found and is_abbreviation(word, candidate):
                        found[candidate] = ABBREVIATION
            if len(word) >= 4:
                for candidate, similarity, _ in process.extract(
                        word, self._vocabulary, scorer=fuzz.ratio,
                        score_cutoff=TYPO_CUTOFF, limit=None):
                    found.setdefault(candidate, similarity / 100 * ABBREVIATION)
        self._matches[word] = found
        return found

    def _word_stage(self, wanted: list[str]) -> tuple[list[float], list[dict[str, float]]]:
        total = [0.0] * len(self.tools)
        per_word = [self.word_matches(word) for word in wanted]
        for matches in per_word:
            best: dict[int, float] = {}
            for candidate, quality in matches.items():
                for i, weight in self._postings[candidate]:
                    if quality * weight > best.get(i, 0.0):
                        best[i] = quality * weight
            for i, value in best.items():
                total[i] += value
        named = [0] * len(self.tools)  # distinct name words the query found
        for candidate in {c for matches in per_word for c in matches} - STOPWORDS:
            for i in self._name_postings.get(candidate, ()):
                named[i] += 1
        scale = WORDS / max(len(wanted), 1)
        return [scale * (0.9 * value + 0.1 * len(wanted) * min(hits / size, 1.0))
                if value else 0.0
                for value, hits, size in zip(total, named, self._name_sizes, strict=True)
                ], per_word

    def scores(self, query: str) -> list[float]:
        text = normalize(query)
        if not text:
            return [0.0] * len(self.tools)
        stage = self._word_stage(query_words(query))[0]
        if len(text.split()) <= CHARACTER_WORDS:
            for _, similarity, i in process.extract(text, self._names, scorer=fuzz.partial_ratio,
                                                    score_cutoff=CHARACTER_CUTOFF, limit=None):
                stage[i] = max(stage[i], CHARACTERS * similarity / 100)
        for i in self._names_text.containing(text):
            stage[i] = SUBSTRING_NAME + (1 - SUBSTRING_NAME) * len(text) / len(self._names[i])
        for i in self._others_text.containing(text):
            stage[i] = max(stage[i], SUBSTRING_OTHER)
        return stage

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        text = normalize(query)
        if text and text in self._names[index]:
            return f"'{text}' occurs in the name", {"stage": "substring", "field": "name"}
        if text and text in self._others[index]:
            return (f"'{text}' occurs in the description or parameters",
                    {"stage": "substring", "field": "description"})
        wanted = query_words(query)
        name_words = set(self._names[index].split())
        tool_words = name_words | set(self._others[index].split())
        matched = {}
        for word in wanted:
            matches = self.word_matches(word)
            here = sorted((-matches[w], w not in name_words, w) for w in matches
                          if w in tool_words)
            if here:
                matched[word] = here[0][2]
        if matched:
            pairs = ", ".join(q if q == w else f"{q}~{w}" for q, w in matched.items())
            return (f"words matched: {pairs} ({len(matched)} of {len(wanted)})",
                    {"stage": "words", "matched": matched})
        similarity = fuzz.partial_ratio(text, self._names[index]) / 100
        return (f"characters resemble the name ({similarity:.2f})",
                {"stage": "characters", "similarity": round(similarity, 4)})


class _Joined:
    """Texts joined by newlines, to find which of them contain a string in one pass."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.text = "\n".join(texts)
        self.starts = []
        offset = 0
        for text in texts:
            self.starts.append(offset)
            offset += len(text) + 1

    def containing(self, needle: str) -> list[int]:
        """Indices of the texts that contain `needle` (which holds no newline)."""
        found: list[int] = []
        at = self.text.find(needle)
        while at >= 0:
            index = bisect.bisect_right(self.starts, at) - 1
            found.append(index)
            following = index + 1
            if following == len(self.starts):
                break
            at = self.text.find(needle, self.starts[following])
        return found
