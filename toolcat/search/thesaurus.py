"""The user's word for what a tool's text says in another, read through WordNet.

A user says "how much have we spent" where the tool says spend, "who is eating the bandwidth"
where it says consumers, "Acme paid invoice 1043" where it says receive_payment. A word of a
request that no tool of the catalog states is read through WordNet 3.0
(`lists/wordnet-thesaurus.tsv.gz`, built by train/wordnet_thesaurus.py): the words of the same
sense among its first two senses as a verb (its synonyms, the sense's more general action, their
derivations: spent -> spend, spending; eating -> consume; paid -> payment) that
the catalog does state and that the model puts at NEAR or more from it, one embedding of each
word (WordNet lists every sense of a word; the model says which one the word is near: "roll"
is no "list", "consulting" no "refer"). A word's senses as a noun are not read: their words
("hello" -> greeting, "friday" -> weekday) name what a request hands over or when, not what
it asks for. Each tool gets DISCOUNT of the BM25F evidence the best of a word's readings earns
it (idf times saturation, as BM25F weighs a word), so a reading weighs less than the word
would have. A word some tool states is read as typed, never through WordNet. Without the
model (hybrid's lexical stage) nothing is read. `pick --explain` names each reading
("spent -> spend"), `--json` gives them as `details.wordnet`.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from toolcat.search.bm25 import SERVER
from toolcat.search.text import STOPWORDS, raw_words, stem, without_values
from toolcat.search.verbs import unit_vectors

if TYPE_CHECKING:
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.embeddings import Embedder

TABLE = Path(__file__).resolve().parent / "lists" / "wordnet-thesaurus.tsv.gz"
# a synonym's share of the evidence the word the user typed would have earned: chosen on the
# development halves (docs/ranking.md, "A word no tool states, read through WordNet")
DISCOUNT = 0.3
# the least cosine between the word and its synonym, one embedding of each (the model's sense
# of the word must agree with WordNet's: "consulting" is not "refer", "roll" not "list")
NEAR = 0.6
MAX_WORDS = 16  # words of one request read through WordNet at most: requests come from strangers
# the regular endings of English verbs and nouns and what they stand for, as WordNet's morphy
# reads them ("settled" -> settle, "eating" -> eat, "invoices" -> invoice)
_ENDINGS = (("ies", "y"), ("es", "e"), ("es", ""), ("s", ""), ("ed", "e"), ("ed", ""),
            ("ing", "e"), ("ing", ""), ("men", "man"))


@functools.cache
def _table() -> dict[str, str]:
    """word -> its synonyms, space-separated, or "=base" for an irregular form."""
    with gzip.open(TABLE, "rt", encoding="utf-8") as lines:
        return dict(line.rstrip("\n").split("\t", 1) for line in lines
                    if not line.startswith("#"))


def synonyms(word: str) -> tuple[str, ...]:
    """WordNet's words of the same sense as the lower-case `word` and as its base form, the
    base form first ("spent": spend, then pay, spending, ...; "eating": the noun eating and
    the verb eat), in the table's order."""
    table = _table()
    found = [table.get(word, "")]
    for ending, base in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            lemma = word[:-len(ending)] + base
            entry = table.get(lemma)
            if entry is not None and not entry.startswith("="):
                found.append(f"{lemma} {entry}")
                break
    said = [f"{entry[1:]} {table.get(entry[1:], '')}" if entry.startswith("=") else entry
            for entry in found]
    return tuple(other for other in dict.fromkeys(
        other for entry in said for other in entry.split()) if other != word)


class Thesaurus:
    """DISCOUNT of BM25F's evidence of WordNet's words of the same sense, for the words of a
    request that no tool of the catalog states (see the module docstring)."""

    def __init__(self, lexical: BM25Scorer) -> None:
        self._lexical = lexical
        # the last request and its expansions, kept as one tuple: serve's threads share it
        self._last: tuple[tuple[str, str] | None,
                          list[tuple[str, list[tuple[str, int]]]]] = (None, [])

    def expansions(self, request: str, embedder: Embedder
                   ) -> list[tuple[str, list[tuple[str, int]]]]:
        """Each word of `request` no tool states (the first MAX_WORDS), with its words of the
        same sense that the catalog states and the model puts at NEAR or more from it, and
        their term ids; words with none left out."""
        key = (request, embedder.ident)
        last = self._last
        if last[0] == key:
            return last[1]
        lexical = self._lexical
        found: list[tuple[str, list[tuple[str, int]]]] = []
        unknown: list[str] = []
        for raw in raw_words(without_values(request)):
            word = raw.lower()
            if (word in unknown or word in STOPWORDS or len(word) < 3 or not word.isascii()
                    or not word.isalpha()):
                continue
            own = stem(word)
            if lexical.term_id(own) is not None or lexical.term_id(SERVER + own) is not None:
                continue  # a word the catalog states is read as typed
            unknown.append(word)
            if len(unknown) > MAX_WORDS:
                break
            targets: list[tuple[str, int]] = []
            for other in synonyms(word):
                term = stem(other)
                t = lexical.term_id(term)
                if t is not None and term != own and all(t != u for _, u in targets):
                    targets.append((other, t))
            if not targets:
                continue
            vectors = unit_vectors(embedder, [word] + [other for other, _ in targets])
            near = (vectors[1:] @ vectors[0]).tolist()
            targets = [pair for pair, cosine in zip(targets, near, strict=True)
                       if cosine >= NEAR]
            if targets:
                found.append((word, targets))
        self._last = (key, found)
        return found

    def evidence(self, request: str, embedder: Embedder | None) -> np.ndarray:
        """Per tool: DISCOUNT times, summed over the words read through WordNet, the BM25F
        evidence of the word's reading that earns the tool the most; nothing without the
        model (hybrid's lexical stage), which must agree with WordNet's sense."""
        index = self._lexical.index
        out = np.zeros(len(self._lexical.tools))
        if embedder is None:
            return out
        for _, targets in self.expansions(request, embedder):
            best = np.zeros(len(out))
            for _, t in targets:
                start, end = index.indptr[t], index.indptr[t + 1]
                where = index.indices[start:end]
                best[where] = np.maximum(best[where],
                                         float(index.idf[t]) * index.data[start:end])
            out += best
        return DISCOUNT * out

    def read_as(self, request: str, tool: int, embedder: Embedder | None
                ) -> list[tuple[str, str]]:
        """(the request's word, the word of the same sense `tool` states) for each word read
        through WordNet that earned `tool` evidence."""
        if embedder is None:
            return []
        index = self._lexical.index
        start, end = index.field_indptr[tool], index.field_indptr[tool + 1]
        has = set(index.field_indices[start:end].tolist())
        return [(word, next(other for other, t in targets if t in has))
                for word, targets in self.expansions(request, embedder)
                if any(t in has for _, t in targets)]

    def explained(self, request: str, tool: int, embedder: Embedder | None
                  ) -> tuple[str, dict[str, object]] | None:
        """What `--explain` says of the words read through WordNet for `tool`, and their
        `--json` details; None when none earned it evidence."""
        read_through = self.read_as(request, tool, embedder)
        if not read_through:
            return None
        earned = float(self.evidence(request, embedder)[tool])
        said = ", ".join(f"{word} -> {other}" for word, other in read_through)
        return (f"a word no tool states, read through WordNet: {said} ({earned:+.1f})",
                {"wordnet": [list(pair) for pair in read_through],
                 "wordnet_evidence": round(earned, 6)})
