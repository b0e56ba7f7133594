"""A request in another language over tools written in English, read through a dictionary.

The query model reads English, and BM25F meets a request typed in German or Chinese only
where it repeats a tool's ids and product names: "Lösch den Lead" shares "Lead" with the tool,
not the verb. A word of a request CLD2 is sure is in another language (`languages.of_request`)
that no tool of the catalog states is read through a bilingual dictionary
(`lists/bilingual.tsv.gz`, built by train/bilingual_dictionary.py from FreeDict and
CC-CEDICT): its English words that the catalog states ("lösch" -> wipe, "删除" -> delete).
A word is looked up by its Snowball stem in its language ("supprime" and the dictionary's
"supprimer" meet as "supprim"); Chinese and Japanese text, written without spaces, is cut into
the dictionary's longest words. Each tool gets DISCOUNT of the BM25F evidence the best of a
word's readings earns it (idf times saturation, as BM25F weighs a word), so a reading weighs
less than the word typed in English would, and the query model reads the request followed
by the first three readings the catalog states of each such word ("Lösch den Lead ... (clean
wipe cancel)"). A word some tool states is read as typed, never translated; an English
request is never read here, and a language's part of the table is read once per process, at
the first request in that language.
`pick --explain` names each reading ("supprime -> remove, FreeDict fra"), `--json` gives them
as `details.bilingual`.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from toolcat.languages import of_request
from toolcat.search.bm25 import SERVER
from toolcat.search.text import (
    STOPWORDS,
    cjk,
    fold,
    raw_words,
    snowball,
    stem,
    without_values,
    word_stems,
)

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.bm25 import BM25Scorer

TABLE = Path(__file__).resolve().parent / "lists" / "bilingual.tsv.gz"
# a reading's share of the evidence the English word would have earned: chosen on the
# development halves (docs/ranking.md, "A request in another language, read through a
# dictionary")
DISCOUNT = 0.3
# the readings of a word the query model reads, the first the catalog states in the
# dictionary's order (those both its directions give first): one alone is often another sense
# ("açık" -> clear, before open)
MODEL_READINGS = 3
MAX_WORDS = 16  # words of one request looked up at most: requests come from strangers
LONGEST = 6  # the longest Chinese or Japanese word the segmentation tries, in letters
# CLD2's code of each language the table holds -> its Snowball stemmer ("": the word itself,
# cut by longest match where it is CJK; Croatian by the Serbian one, Snowball having none of
# its own for a language of the same grammar), and the dictionary it was read from
STEMMERS = {"de": "german", "fr": "french", "es": "spanish", "it": "italian",
            "pt": "portuguese", "nl": "dutch", "pl": "polish", "sv": "swedish",
            "tr": "turkish", "ru": "russian", "ja": "", "zh": "", "cs": "czech", "da": "danish",
            "fi": "finnish", "hu": "hungarian", "el": "greek", "hr": "serbian",
            "sr": "serbian", "sk": "", "sl": "", "lt": "lithuanian", "sw": "", "ar": "arabic",
            "id": "indonesian", "no": "norwegian", "bg": "", "hi": "hindi"}
SOURCES = {"de": "FreeDict deu", "fr": "FreeDict fra", "es": "FreeDict spa",
           "it": "FreeDict ita", "pt": "FreeDict por", "nl": "FreeDict nld",
           "pl": "FreeDict pol", "sv": "FreeDict swe", "tr": "FreeDict tur",
           "ru": "FreeDict eng-rus", "ja": "FreeDict jpn", "zh": "CC-CEDICT",
           "cs": "FreeDict ces", "da": "FreeDict dan", "fi": "FreeDict fin",
           "hu": "FreeDict hun", "el": "FreeDict ell", "hr": "FreeDict hrv",
           "sr": "FreeDict srp", "sk": "FreeDict slk", "sl": "FreeDict slv",
           "lt": "FreeDict lit", "sw": "FreeDict swh", "ar": "FreeDict ara",
           "id": "FreeDict eng-ind", "no": "FreeDict eng-nor", "bg": "FreeDict eng-bul",
           "hi": "FreeDict eng-hin"}


def key_of(word: str, code: str) -> str:
    """The table's key of a lower-case word of the language of `code`: its Snowball stem in
    base letters, or the word itself."""
    stemmer = STEMMERS[code]
    return fold(snowball(stemmer).stemWord(word)) if stemmer else word


@functools.cache
def _table(code: str) -> dict[str, str]:
    """key -> its English readings, space-separated, one or two words each (`a_b`), of the
    language of `code`: the table's lines are sorted by language, so only that language's
    run of them is decoded and split (0.1 s of CPU for any one, against 0.3 s for the whole
    table read as text)."""
    data = gzip.decompress(TABLE.read_bytes())
    start = data.find(f"\n{code}\t".encode())
    if start < 0:
        return {}
    end = data.find(b"\n", data.rfind(f"\n{code}\t".encode()) + 1)
    run = data[start + 1:end if end >= 0 else len(data)].decode("utf-8")
    return dict(line.split("\t", 2)[1:] for line in run.split("\n"))


def _readings(code: str, key: str) -> tuple[str, ...]:
    return tuple(_table(code).get(key, "").split())


@functools.cache
def function_words(code: str) -> frozenset[str]:
    """Every word of stopwords-iso's list of the language of `code` (articles, pronouns,
    auxiliaries, "welche", "gerade", "还是"), lower-case in base letters: a dictionary reads
    them as words no tool is about ("nach" -> after, next, post)."""
    import stopwordsiso

    if not stopwordsiso.has_lang(code):
        return frozenset()
    return frozenset(fold(word).lower() for word in stopwordsiso.stopwords(code))


def language(request: str) -> str:
    """The code of the table's language CLD2 is sure `request` is in, or "" (English)."""
    code = of_request(request).split("-")[0]
    return code if code in STEMMERS else ""


def segments(run: str, code: str) -> list[str]:
    """The words of a CJK run the table holds, longest first from the left ("删除这个文件":
    删除, 这个, 文件); a letter no word starts at is passed over."""
    table = _table(code)
    found: list[str] = []
    at = 0
    while at < len(run) and len(found) <= MAX_WORDS:
        size = next((n for n in range(min(LONGEST, len(run) - at), 1, -1)
                     if run[at:at + n] in table), 0)
        if size:
            found.append(run[at:at + size])
        at += size or 1
    return found


def _looked_up(text: str, code: str, stated: Callable[[str], bool] = lambda raw: False
               ) -> list[str]:
    """The words of `text`, written in the language of `code`, that the dictionary is asked
    for, each once, in order, at most MAX_WORDS: not the language's function words, English
    stop words, words of fewer than three letters or with digits, nor those `stated` (a word
    the catalog states is read as typed)."""
    stop = function_words(code)
    looked: list[str] = []
    for raw in raw_words(without_values(text)):
        if len(looked) >= MAX_WORDS:
            break
        if cjk(raw):
            words = [w for w in segments(raw, code) if w not in stop and not stated(w)]
        else:
            word = raw.lower()
            if (len(word) < 3 or not word.isalpha() or word in STOPWORDS
                    or fold(word) in stop or stated(raw)):
                continue
            words = [word]
        looked += [word for word in dict.fromkeys(words) if word not in looked]
    return looked


def english_readings(text: str, code: str) -> list[tuple[str, ...]]:
    """The English readings of each word of `text` (written in the language of `code`) that
    the dictionary holds: what a translation of `text` would say, word by word."""
    return [said for word in _looked_up(text, code)
            if (said := _readings(code, key_of(word, code)))]


class Bilingual:
    """DISCOUNT of BM25F's evidence of a dictionary's English words, for the words of a
    request in another language that no tool of the catalog states (see the module
    docstring)."""

    def __init__(self, lexical: BM25Scorer) -> None:
        self._lexical = lexical
        # the last request and its readings, kept as one tuple: serve's threads share it
        self._last: tuple[str | None, list[tuple[str, str, list[tuple[str, tuple[int, ...]]]]]
                          ] = (None, [])

    def _stated(self, raw: str) -> bool:
        lexical = self._lexical
        return any(lexical.term_id(s) is not None or lexical.term_id(SERVER + s) is not None
                   for s in word_stems(raw))

    def readings(self, request: str) -> list[tuple[str, str, list[tuple[str, tuple[int, ...]]]]]:
        """(the request's word, its language's code, its English readings the catalog states
        with their term ids) for each word of `request` no tool states that the dictionary
        of its language reads; nothing for a request in English."""
        last = self._last
        if last[0] == request:
            return last[1]
        code = language(request)
        found: list[tuple[str, str, list[tuple[str, tuple[int, ...]]]]] = []
        if code:
            for word in _looked_up(request, code, self._stated):
                targets = self._targets(_readings(code, key_of(word, code)))
                if targets:
                    found.append((word, code, targets))
        self._last = (request, found)
        return found

    def for_model(self, request: str, asked: str) -> str:
        """`asked` (what the query model, which reads English, reads of `request`) followed
        by the English of its words read through a dictionary, the first MODEL_READINGS
        readings the catalog states of each: "Lösch den Lead ... (clean wipe cancel)"."""
        said = [reading for _, _, targets in self.readings(request)
                for reading, _ in targets[:MODEL_READINGS]]
        return f"{asked} ({' '.join(said)})" if said else asked

    def _targets(self, said: tuple[str, ...]) -> list[tuple[str, tuple[int, ...]]]:
        """The readings the catalog states, each with the term ids of its words."""
        targets: list[tuple[str, tuple[int, ...]]] = []
        for reading in said:
            ids = tuple(self._lexical.term_id(stem(w)) for w in reading.split("_"))
            if all(t is not None for t in ids) and all(
                    ids != other for _, other in targets):
                targets.append((reading.replace("_", " "),
                                tuple(t for t in ids if t is not None)))
        return targets

    def evidence(self, request: str) -> np.ndarray:
        """Per tool: DISCOUNT times, summed over the words read through a dictionary, the
        BM25F evidence of the word's reading that earns the tool the most."""
        return DISCOUNT * self._lexical.best_readings(
            [targets for _, _, targets in self.readings(request)])

    def read_as(self, request: str, tool: int) -> list[tuple[str, str, str]]:
        """(the request's word, the reading `tool` states that earns it the most, the
        dictionary) for each word read through a dictionary that earned `tool` evidence."""
        found = []
        for word, code, targets in self.readings(request):
            best = self._lexical.best_reading(targets, tool)
            if best is not None:
                found.append((word, best, SOURCES[code]))
        return found

    def explained(self, request: str, tool: int) -> tuple[str, dict[str, object]] | None:
        """What `--explain` says of the words read through a dictionary for `tool`, and their
        `--json` details; None when none earned it evidence."""
        read_through = self.read_as(request, tool)
        if not read_through:
            return None
        earned = float(self.evidence(request)[tool])
        said = "; ".join(f"{word} -> {reading}, {source}" for word, reading, source in read_through)
        return (f"a word in another language, read through a dictionary: {said} "
                f"({earned:+.1f})",
                {"bilingual": [list(triple) for triple in read_through],
                 "bilingual_evidence": round(earned, 6)})
