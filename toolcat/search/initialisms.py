"""An initialism the user typed for words the catalog's tool names spell out.

A user writes "P&L for FY 25-26" where the tool is `get_profit_and_loss`, "PRs waiting for
review" where it is `get_pull_requests`. A word of a request written in capitals (two to four
letters, a plural's "s" aside: "PR", "PRs") or two short runs of initials joined by "&"
("P&L", "M&A") that no tool of the catalog states, in a request not written wholly in
capitals, is read as the runs of consecutive words of the catalog's tool names whose first
letters it spells ("pull_request" for "PR"), as the descriptions write them: a capital
initialism only as a phrase the descriptions use MIN_USES times or more (names string words
together that no one abbreviates: "build_id" is no "BI"), one joined by "&" as two things
joined by "and" that a description writes ("profit_loss" for "P&L" where a description says
"profit and loss"). A capital word joined by a hyphen or by digits is an identifier's prefix
("ENG-412", "FV-2026-0142"), not read. Each tool gets DISCOUNT of the BM25F evidence of the
reading that earns it the most (its words all stated, idf times saturation, as BM25F weighs
a word), so a reading weighs less than the words typed would, and the query model reads the
request followed by the reading the descriptions use most ("P&L for FY 25-26 (profit and
loss)"). A word some tool states is read as typed ("PR" where a tool says `create_pr`).
`pick --explain` names each reading ("P&L -> profit and loss"), `--json` gives them as
`details.initialisms`."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from toolcat.search.bm25 import SERVER
from toolcat.search.text import STOPWORDS, split_name, stem

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.bm25 import BM25Scorer

# a reading's share of the evidence its words typed out would have earned: the share the
# other readings of a word no tool states have (toolcat.search.thesaurus, .bilingual)
DISCOUNT = 0.3
MAX_WORDS = 8  # initialisms of one request read at most: requests come from strangers
MAX_READINGS = 4  # the phrases one initialism is read as, those the descriptions use most
MAX_CANDIDATES = 32  # the runs of name words tried for one initialism, those most names hold
# the uses in the catalog's descriptions a phrase needs for a capital initialism to be read as
# it: on the development halves the phrases meant were used 9 to 28 times ("pull request",
# "change request"), the others a name strings together 1 to 4 times ("build id" for "BI",
# "poe monitor" for "PM"); "&" needs one use, its "and" being evidence enough
MIN_USES = 5
MAX_KEPT = 1024  # initialisms whose runs are kept, per catalog
_CAPITALS = re.compile(r"(?<![\w&-])([A-Z]{2,4})s?(?![\w&-])")
_PROSE_WORD = re.compile(r"[a-z]+")
_AMPERSAND = re.compile(r"(?<![\w&-])([A-Za-z]{1,2})\s?&\s?([A-Za-z]{1,2})(?![\w&-])")


def typed(request: str) -> list[tuple[str, str, bool]]:
    """(the initialism as typed, its letters in lower case, whether "&" joins them) for each
    one of `request`, the first MAX_WORDS; none in a request written wholly in capitals."""
    if not any(c.islower() for c in request):
        return []
    found = [(m.group(0), (m.group(1) + m.group(2)).lower(), True)
             for m in _AMPERSAND.finditer(request)]
    found += [(m.group(0), m.group(1).lower(), False) for m in _CAPITALS.finditer(request)]
    return found[:MAX_WORDS]


def _phrase(run: tuple[str, ...], ampersand: bool) -> str | None:
    """The words of a name's `run` as a description would write them: an initialism joined
    by "&" stands for two things joined by "and" ("profit_loss" is "profit and loss")."""
    if not ampersand or "and" in run:
        return " ".join(run)
    return f"{run[0]} and {run[1]}" if len(run) == 2 else None


class Names:
    """A catalog's tool names as words, and the runs of them an initialism spells."""

    def __init__(self, names: list[str]) -> None:
        self._words = [split_name(name).lower().split() for name in names]
        # each name's initials ("and" spelled by no letter) and the word each letter is of
        self._initials: list[tuple[str, list[int]]] = []
        for words in self._words:
            at = [i for i, word in enumerate(words) if word != "and"]
            self._initials.append(("".join(words[i][0] for i in at), at))
        self._runs: dict[str, Counter[tuple[str, ...]]] = {}

    def runs(self, letters: str) -> Counter[tuple[str, ...]]:
        """The runs of consecutive words of the names whose initials are `letters` (an "and"
        between two of them kept in the run, not spelled; no stop word, no digit), with how
        many names hold each."""
        if letters in self._runs:
            return self._runs[letters]
        found: Counter[tuple[str, ...]] = Counter()
        for words, (initials, at) in zip(self._words, self._initials, strict=True):
            held: set[tuple[str, ...]] = set()
            start = initials.find(letters)
            while start >= 0:
                run = tuple(words[at[start]:at[start + len(letters) - 1] + 1])
                if all(w == "and" or (w.isalpha() and w not in STOPWORDS) for w in run):
                    held.add(run)
                start = initials.find(letters, start + 1)
            found.update(held)
        if len(self._runs) >= MAX_KEPT:  # requests come from strangers: keep a bounded few
            self._runs.clear()
        self._runs[letters] = found
        return found


class Initialisms:
    """DISCOUNT of BM25F's evidence of the name words an initialism spells, for the
    initialisms of a request that no tool of the catalog states (see the module
    docstring)."""

    def __init__(self, lexical: BM25Scorer) -> None:
        self._lexical = lexical
        self._names: Names | None = None  # on first need
        self._described: str | None = None  # on first need
        # the last request and its readings, kept as one tuple: serve's threads share it
        self._last: tuple[str | None, list[tuple[str, list[tuple[str, tuple[int, ...]]]]]
                          ] = (None, [])

    def _prose(self) -> str:
        """The catalog's descriptions as one run of lower-case words, "&" read as "and",
        between spaces."""
        if self._described is None:
            said = " ".join(tool.description for tool in self._lexical.tools).lower()
            self._described = f" {' '.join(_PROSE_WORD.findall(said.replace('&', ' and ')))} "
        return self._described

    def readings(self, request: str) -> list[tuple[str, list[tuple[str, tuple[int, ...]]]]]:
        """(the initialism as typed, the runs of name words it spells with their term ids,
        those most names hold first) for each initialism of `request` no tool states."""
        last = self._last
        if last[0] == request:
            return last[1]
        lexical = self._lexical
        found: list[tuple[str, list[tuple[str, tuple[int, ...]]]]] = []
        for written, letters, ampersand in typed(request):
            own = stem(letters)
            if lexical.term_id(own) is not None or lexical.term_id(SERVER + own) is not None:
                continue  # a word the catalog states is read as typed
            if self._names is None:
                self._names = Names([tool.name for tool in lexical.tools])
            # the phrases one stem apart ("pull request", "pull requests") are one reading,
            # the form the descriptions use most
            held: dict[tuple[int, ...], tuple[int, str]] = {}
            for run, _ in self._names.runs(letters).most_common(MAX_CANDIDATES):
                phrase = _phrase(run, ampersand)
                if phrase is None:
                    continue
                uses = self._prose().count(f" {phrase} ")
                ids = tuple(lexical.term_id(stem(w)) for w in run if w != "and")
                if uses < (1 if ampersand else MIN_USES) or any(t is None for t in ids):
                    continue
                key = tuple(t for t in ids if t is not None)
                if uses > held.get(key, (0, ""))[0]:
                    held[key] = (uses, phrase)
            targets = [(phrase, ids) for ids, (_, phrase) in
                       sorted(held.items(), key=lambda item: -item[1][0])[:MAX_READINGS]]
            if targets and all(written != other for other, _ in found):
                found.append((written, targets))
        self._last = (request, found)
        return found

    def for_model(self, request: str, asked: str) -> str:
        """`asked` followed by the reading the descriptions use most of each initialism of
        `request`: "P&L for FY 25-26 (profit and loss)"."""
        said = [targets[0][0] for _, targets in self.readings(request)]
        return f"{asked} ({' '.join(said)})" if said else asked

    def evidence(self, request: str) -> np.ndarray:
        """Per tool: DISCOUNT times, summed over the initialisms read, the BM25F evidence of
        the reading that earns the tool the most."""
        return DISCOUNT * self._lexical.best_readings(
            [targets for _, targets in self.readings(request)])

    def explained(self, request: str, tool: int) -> tuple[str, dict[str, object]] | None:
        """What `--explain` says of the initialisms read for `tool`, and their `--json`
        details; None when none earned it evidence."""
        read_as = []
        for written, targets in self.readings(request):
            best = self._lexical.best_reading(targets, tool)
            if best is not None:
                read_as.append((written, best))
        if not read_as:
            return None
        earned_all = float(self.evidence(request)[tool])
        said = "; ".join(f"{written} -> {reading}" for written, reading in read_as)
        return (f"an initialism no tool states, read as the words of tool names it spells: "
                f"{said} ({earned_all:+.1f})",
                {"initialisms": [list(pair) for pair in read_as],
                 "initialisms_evidence": round(earned_all, 6)})
