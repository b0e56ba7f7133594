"""The trade's word for the user's: words that tens of thousands of tool texts state together.

A network admin says "wifi" where the tool says wireless, "forward port 8443" where it says NAT;
a lawyer says "matter" where the tool says project. `lists/trade-words.tsv.gz` (built by
train/trade_words.py from public tool texts, never from requests) holds, for each word stem,
the words that occur in the same tool's text far more often than chance (pointwise mutual
information, with enough tools holding both). A word of a request is read as its associates
that the catalog states and that the model puts at NEAR or more from it, one embedding of each
word (the corpus says which words go together, the model which of them mean the word), and
each tool whose text lacks the word gets DISCOUNT of the BM25F evidence the best of those
earns it. A tool that states the word earns nothing more: the word is its own evidence there.
Without the model (hybrid's lexical stage) nothing is read. `--explain` names each reading
("wifi -> wireless, tool texts"), `--json` gives them as `details.trade_words`.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from toolcat.search.text import STOPWORDS, raw_words, stem, without_values
from toolcat.search.verbs import unit_vectors

if TYPE_CHECKING:
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.embeddings import Embedder

TABLE = Path(__file__).resolve().parent / "lists" / "trade-words.tsv.gz"
# an associate's share of the evidence the word the user typed would have earned: chosen on
# the development halves (docs/ranking.md, "The trade's words, learned from tool texts")
DISCOUNT = 0.3
NEAR = 0.6  # the least cosine between the word and its associate, one embedding of each
KEEP = 10  # the strongest associates of a word that are read
MAX_WORDS = 16  # words of one request read at most: requests come from strangers


@functools.cache
def _table() -> dict[str, str]:
    """stem -> its associates as `word:strength`, space-separated, strongest first."""
    with gzip.open(TABLE, "rt", encoding="utf-8") as lines:
        return dict(line.rstrip("\n").split("\t", 1) for line in lines
                    if not line.startswith("#"))


def associates(own: str) -> tuple[str, ...]:
    """The words tool texts state with the word of stem `own`, strongest first (KEEP)."""
    entry = _table().get(own)
    if not entry:
        return ()
    return tuple(pair.rsplit(":", 1)[0] for pair in entry.split()[:KEEP])


class TradeWords:
    """DISCOUNT of BM25F's evidence of a request word's associates, for the tools whose text
    lacks the word (see the module docstring)."""

    def __init__(self, lexical: BM25Scorer) -> None:
        self._lexical = lexical
        # the last request and its readings, kept as one tuple: serve's threads share it
        self._last: tuple[tuple[str, str] | None,
                          list[tuple[str, int | None, list[tuple[str, int]]]]] = (None, [])

    def readings(self, request: str, embedder: Embedder
                 ) -> list[tuple[str, int | None, list[tuple[str, int]]]]:
        """Each word of `request` (the first MAX_WORDS) with the term id of its own stem (None
        when no tool states it) and its associates that the catalog states and the model puts
        at NEAR or more from it, with their term ids; words with none left out."""
        key = (request, embedder.ident)
        last = self._last
        if last[0] == key:
            return last[1]
        lexical = self._lexical
        found: list[tuple[str, int | None, list[tuple[str, int]]]] = []
        seen: list[str] = []
        for raw in raw_words(without_values(request)):
            word = raw.lower()
            if (word in seen or word in STOPWORDS or len(word) < 3 or not word.isascii()
                    or not word.isalpha()):
                continue
            seen.append(word)
            if len(seen) > MAX_WORDS:
                break
            own = stem(word)
            targets: list[tuple[str, int]] = []
            for other in associates(own):
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
                found.append((word, lexical.term_id(own), targets))
        self._last = (key, found)
        return found

    def evidence(self, request: str, embedder: Embedder | None) -> np.ndarray:
        """Per tool: DISCOUNT times, summed over the request's words its text lacks, the BM25F
        evidence of the word's associate that earns the tool the most; nothing without the
        model (hybrid's lexical stage)."""
        index = self._lexical.index
        out = np.zeros(len(self._lexical.tools))
        if embedder is None:
            return out
        for _, own, targets in self.readings(request, embedder):
            best = np.zeros(len(out))
            for _, t in targets:
                start, end = index.indptr[t], index.indptr[t + 1]
                where = index.indices[start:end]
                best[where] = np.maximum(best[where],
                                         float(index.idf[t]) * index.data[start:end])
            if own is not None:  # a tool that states the word has the word's own evidence
                best[index.indices[index.indptr[own]:index.indptr[own + 1]]] = 0.0
            out += best
        return DISCOUNT * out

    def read_as(self, request: str, tool: int, embedder: Embedder | None
                ) -> list[tuple[str, str]]:
        """(the request's word, its associate `tool` states) for each word read through the
        tool texts that earned `tool` evidence."""
        if embedder is None:
            return []
        index = self._lexical.index
        start, end = index.field_indptr[tool], index.field_indptr[tool + 1]
        has = set(index.field_indices[start:end].tolist())
        return [(word, next(other for other, t in targets if t in has))
                for word, own, targets in self.readings(request, embedder)
                if own not in has and any(t in has for _, t in targets)]
