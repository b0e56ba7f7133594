"""Field-aware BM25 (BM25F) over a tool's name, title, description (its first sentence a field of
its own), parameters, tags and server.

Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields" (CIKM 2004).
For a query term t and a tool d with fields f (each of length len_f, mean length avg_f):

    tf~(t, d) = sum_f  w_f * tf(t, f) / (1 - b_f + b_f * len_f / avg_f)
    sat(t, d) = tf~ / (k1 + tf~)                          saturation, in [0, 1)
    idf(t)    = ln(1 + (N - df + 0.5) / (df + 0.5))       Lucene's non-negative idf
    BM25F     = sum_t idf(t) * (k1 + 1) * sat(t, d)

Terms are Snowball stems of lower-case words with camelCase and separators split and stop
words removed, so `sendMessage`, `send_message` and "sending messages" meet; a query's
camelCase words also count whole (`GitLab` meets a server called `gitlab`). Latin words are
read in base letters ("créer" meets "creer"), and a tool written in French, Turkish, German...
has its words' stems in that language too, which a request in that language meets
(`BM25Scorer._other_stems`). A request CLD2 is sure is in another language than English has
its short stop words (le, un, du, el, на) weighed by their idf among the tools written in
that language alone (`BM25Scorer._idf_in_language`). A server's
boilerplate, the sentences that recur in the descriptions of three or more of its tools
(`toolcat.search.text.repeated_sentences`), is left out: it tells which server, not which
tool. The words of the values a request names (a URL, an e-mail address, a path, a file
name: `toolcat.search.text.without_values`) are not matched: they are data for the arguments.
The server's name is a field of its own whose idf is counted among servers, not tools:
naming one of twenty servers says as much as a word one tool in twenty has.

The score divides BM25F by the most the query could earn, `(k1 + 1) * sum_t idf(t)`, so it is
the idf-weighted share of the query a tool explains, saturated per term: 1 means every query
term occurs strongly in the tool. Query terms no tool contains carry no evidence either way
and are left out, but the denominator never drops below the idf of a term that occurs in a
single tool: a query that matches only common words cannot look like a perfect match.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolcat.model import Tool
from toolcat.search.text import (
    LATIN_STEMMERS,
    Repeated,
    acronym_plurals,
    cjk,
    example_values,
    identifier_names,
    in_language,
    language_code,
    latin,
    other_script,
    own_description,
    parameter_texts,
    plurals_said,
    raw_words,
    repeated_sentences,
    sentences,
    split_name,
    stand_in,
    stems,
    stems_in,
    stop_words,
    stop_words_in,
    tool_language_codes,
    tool_languages,
    tool_title,
    whole_words,
    without_values,
    word_stems,
)

if TYPE_CHECKING:
    import numpy as np

# Field weights and length normalisation. The name is short and chosen with care, so one
# occurrence there says more than one in a long description; parameters describe inputs, not
# purpose, so they count for less. A name word the query does not ask for marks a narrower
# tool (get_weather vs get_historical_weather for "the weather in Tokyo"), so names are
# length-normalised as fully as descriptions: with b = 0.3 the longer name barely paid for its
# extra word, and the narrower tool's longer description, repeating the term, put it first.
# A title is a name in words, chosen with the same care. The server field holds the server's
# name: the same for every tool of a server, so it says which server a request is about,
# never which of its tools; weighed lightly (0.3), since where catalogs group their tools
# by topic ("Science/Geology" in seal_tools) a request's words meet the group's name by
# chance: at 1.0 seal_tools lost 0.021 nDCG@10, at 0.3 0.002. A description's first sentence
# says what the tool does; the sentences after it say how (its arguments, limits, when to use
# it: "If a browser dialog was opened, use this command to handle it"), and a vendor's long
# descriptions repeat there the words of every sibling's function. Weighed apart, each
# normalised by its own mean length, a word of the first counts for more than one of the
# rest: (1.2, 0.5) chosen on the development halves of the real-server set from a sweep of
# 0.8-2.0 by 0.5-1.0 (docs/ranking.md, "A description's first sentence apart").
SERVER = "@"  # server-field terms are kept apart from the same words in other fields
FIELDS: dict[str, tuple[float, float]] = {  # name: (weight w_f, length normalisation b_f)
    "name": (3.0, 0.75),
    "first sentence": (1.2, 0.75),
    "description": (0.5, 0.75),
    "parameters": (0.5, 0.75),
    "tags": (1.0, 0.3),
    "examples": (0.5, 0.75),
    "title": (2.0, 0.75),
    "server": (0.3, 0.0),
}


def _field_texts(tool: Tool, names: frozenset[str], repeated: Repeated
                 ) -> tuple[list[str], ...]:
    """The raw words of each field of `tool`, in FIELDS order."""
    params: list[str] = []
    for name, description in parameter_texts(tool.parameters):
        params += raw_words(name)
        params += raw_words(description)
    tags = [w for tag in tool.tags for w in raw_words(tag)]
    examples = [w for value in example_values(tool) for w in raw_words(value)]
    # a tool that says little has its title and parameters' names for a description
    description = stand_in(tool, own_description(tool, names, repeated))
    said = sentences(description)
    lead = said[0] if said else ""
    rest = " ".join(said[1:])
    return (raw_words(tool.name), raw_words(lead), raw_words(rest), params, tags, examples,
            raw_words(tool_title(tool)), raw_words(tool.server))


@dataclass(frozen=True)
class BM25Index:
    """What a BM25F index holds, as arrays: the vocabulary, each term's idf, and a sparse
    terms x tools matrix of saturations `sat(t, d)` (CSR: the postings of term t are
    `indices[indptr[t]:indptr[t + 1]]`). It depends only on the catalog, so it is built
    once and can be saved (see toolcat.search.index)."""

    terms: tuple[str, ...]
    idf: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    size: int
    k1: float
    # tools x terms, CSR: bit f of a value is set when the term occurs in field f (FIELDS
    # order): what `explain` reports, without reading the tool again
    field_indptr: np.ndarray
    field_indices: np.ndarray
    field_bits: np.ndarray
    # the Latin languages other than English the tools are written in, the most used first:
    # a request in one of them is stemmed in it too (BM25Scorer._query)
    languages: tuple[str, ...] = ()

    @classmethod
    def build(cls, tools: Sequence[Tool], k1: float = 1.2) -> BM25Index:
        import numpy as np
        names = identifier_names(tools)
        repeated = repeated_sentences(tools)
        vocabulary: dict[str, int] = {}
        known: dict[str, tuple[int, ...]] = {}  # raw word -> term ids

        def learn(raw: str) -> tuple[int, ...]:
            ids = known[raw] = tuple(vocabulary.setdefault(s, len(vocabulary))
                                     for s in word_stems(raw))
            return ids

        # a tool written in another Latin language than English ("Supprime un candidat")
        # has its words' stems in that language too, as terms of that language alone
        # (`in_language`: "french:supprim"), which add nothing to a field's length (`extra`)
        languages = tool_languages(tools)
        known_in: dict[tuple[str, str], tuple[int, ...]] = {}

        def learn_in(raw: str, language: str) -> tuple[int, ...]:
            ids = known_in[raw, language] = tuple(
                vocabulary.setdefault(in_language(s, language), len(vocabulary))
                for s in stems_in(raw, language)) if latin(raw) and not raw.isdigit() else ()
            return ids

        per_tool: list[list[list[int]]] = []
        extra = array("l")  # per tool and field: how many of its terms are such stems
        for tool, language in zip(tools, languages, strict=True):
            fields = []
            for raws in _field_texts(tool, names, repeated)[:-1]:
                ids = [t for raw in raws for t in (known[raw] if raw in known else learn(raw))]
                more = [t for raw in raws for t in (
                    known_in[raw, language] if (raw, language) in known_in
                    else learn_in(raw, language))] if language else []
                fields.append(ids + more)
                extra.append(len(more))
            extra.append(0)  # the server field
            per_tool.append(fields)
        servers: dict[str, list[int]] = {}  # server -> its terms, kept apart as SERVER + stem
        for tool, fields in zip(tools, per_tool, strict=True):
            if tool.server not in servers:
                servers[tool.server] = [vocabulary.setdefault(SERVER + s, len(vocabulary))
                                        for s in stems(split_name(tool.server))]
            fields.append(servers[tool.server])
        # pairs of CJK letters and words of other scripts than Latin (text.words) do not count
        # towards a field's length: a request without them is weighed exactly as before they
        # were read (CJK pairs counted half, as about a word each, moved English requests'
        # near-ties on fresh9: docs/ranking.md)
        pairs_of = {t for term, t in vocabulary.items() if cjk(term) or other_script(term)}
        tokens = array("i")
        counts = array("l")
        lengths = array("d")
        for fields in per_tool:
            for ids in fields:
                tokens.extend(ids)
                counts.append(len(ids))
                lengths.append(len(ids) - extra[len(lengths)] - (
                    sum(1 for t in ids if t in pairs_of) if pairs_of else 0))
        n = len(tools)
        per_field = np.frombuffer(lengths, dtype=np.float64).reshape(n, len(FIELDS)) \
            if n else np.zeros((0, len(FIELDS)), dtype=np.float64)
        weight = np.empty(per_field.shape, dtype=np.float64)
        for f, (w, b) in enumerate(FIELDS.values()):
            mean = (per_field[:, f].sum() / n if n else 0.0) or 1.0
            weight[:, f] = w / (1 - b + b * per_field[:, f] / mean)
        flat = np.frombuffer(counts, dtype=np.int_) if n else np.zeros(0, dtype=np.int_)
        terms = np.frombuffer(tokens, dtype=np.int32).astype(np.int64)
        owners = np.repeat(np.repeat(np.arange(n, dtype=np.int64), len(FIELDS)), flat)
        size = len(vocabulary)
        # terms x tools: sum the weights of each (term, tool) pair, in CSR order
        pairs, tf = _reduce(terms * n + owners, np.repeat(weight.ravel(), flat), np.add)
        indptr = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(np.bincount(pairs // n, minlength=size), out=indptr[1:])
        df = np.diff(indptr)
        idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
        # a server's name is weighed among the servers: naming one of twenty servers says as
        # much as a word one in twenty tools has, however many tools that server has
        of_servers: dict[int, int] = {}
        for ids in servers.values():
            for t in set(ids):
                of_servers[t] = of_servers.get(t, 0) + 1
        count = sum(1 for server in servers if server)
        for t, found in of_servers.items():
            idf[t] = math.log(1 + (count - found + 0.5) / (found + 0.5))
        # tools x terms: the fields each term of a tool occurs in, as bits
        in_field = np.repeat(np.tile(1 << np.arange(len(FIELDS), dtype=np.int16), n), flat)
        where, bits = _reduce(owners * size + terms, in_field, np.bitwise_or)
        field_indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(where // size, minlength=n) if size else np.zeros(n, np.int64),
                  out=field_indptr[1:])
        used: dict[str, int] = {}
        for language in languages:
            if language:
                used[language] = used.get(language, 0) + 1
        return cls(tuple(vocabulary), idf, indptr, (pairs % n).astype(np.int32), tf / (k1 + tf),
                   n, k1, field_indptr, (where % size).astype(np.int32) if size else where,
                   bits, tuple(sorted(used, key=lambda language: (-used[language], language))))


    def arrays(self) -> list[np.ndarray]:
        """The index as plain arrays (no pickles), in the order `from_arrays` reads them:
        the terms as the UTF-8 text of their lines, then the numbers."""
        import numpy as np

        return [np.frombuffer("\n".join(self.terms).encode(), dtype=np.uint8), self.idf,
                self.indptr, self.indices, self.data, self.field_indptr, self.field_indices,
                self.field_bits, np.array([self.size]), np.array([self.k1]),
                np.frombuffer(" ".join(self.languages).encode(), dtype=np.uint8)]

    @classmethod
    def from_arrays(cls, arrays: Sequence[np.ndarray], *, size: int, k1: float) -> BM25Index:
        """The index `arrays()` gave, checked for consistency with a catalog of `size` tools
        (a stored index is read as views of its entry: nothing here copies the postings).

        Raises:
            ValueError: the arrays hold no such index, or one that does not fit.
        """
        import numpy as np

        if len(arrays) != 11:
            raise ValueError("the stored index does not have the arrays of one")
        (words, idf, indptr, indices, data, field_indptr, field_indices, field_bits, shape,
         stored_k1, stored_languages) = arrays
        kinds = ("u", "f", "iu", "iu", "f", "iu", "iu", "iu", "iu", "f", "u")  # dtype kinds
        if any(array.ndim != 1 or array.dtype.kind not in kind
               for array, kind in zip(arrays, kinds, strict=True)) \
                or words.dtype != np.uint8 or stored_languages.dtype != np.uint8 \
                or len(shape) != 1 or len(stored_k1) != 1:
            raise ValueError("the stored index does not have the arrays of one")
        text = words.tobytes().decode()
        terms = tuple(text.split("\n")) if text else ()
        languages = tuple(stored_languages.tobytes().decode().split())
        if any(language not in LATIN_STEMMERS.values() for language in languages):
            raise ValueError("the stored index names a language toolcat has no stemmer for")
        index = cls(terms, idf, indptr, indices, data, int(shape[0]), float(stored_k1[0]),
                    field_indptr, field_indices, field_bits, languages)
        postings, fields = len(index.indices), len(index.field_indices)
        if (index.size != size or index.k1 != k1 or len(index.idf) != len(terms)
                or len(index.indptr) != len(terms) + 1 or len(index.field_indptr) != size + 1
                or index.indptr[-1] != postings or len(index.data) != postings
                or index.field_indptr[-1] != fields or len(index.field_bits) != fields
                or (postings and not 0 <= index.indices.min() <= index.indices.max() < size)
                or (fields and not 0 <= index.field_indices.min()
                    <= index.field_indices.max() < len(terms))):
            raise ValueError("the stored index does not fit this catalog")
        return index


def _reduce(keys: np.ndarray, values: np.ndarray, ufunc: Any) -> tuple[np.ndarray, np.ndarray]:
    """The distinct keys in ascending order, and `ufunc` over the values of each."""
    import numpy as np

    if not len(keys):
        return keys, values
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], ufunc.reduceat(values, starts)


class BM25Scorer:
    """BM25F with per-query normalisation to 0..1 (see the module docstring)."""

    name = "bm25"

    def __init__(self, tools: Sequence[Tool], *, k1: float = 1.2) -> None:
        self._setup(tools, BM25Index.build(tools, k1))

    @classmethod
    def from_index(cls, tools: Sequence[Tool], index: BM25Index) -> BM25Scorer:
        """A scorer over `tools` with the index already built over them (a persisted one)."""
        scorer = cls.__new__(cls)
        scorer._setup(tools, index)
        return scorer

    def _setup(self, tools: Sequence[Tool], index: BM25Index) -> None:
        self.tools = tools
        self.k1 = index.k1
        self.index = index
        self._term_ids = {term: i for i, term in enumerate(self.index.terms)}
        n = len(tools)
        # the idf of a term that occurs in one tool: the least a query's weight can be
        self._idf_floor = math.log(1 + (n - 0.5) / 1.5) if n else 1.0
        self._last: tuple[str | None, Any] = (None, None)
        self._terms: tuple[str | None, list[list[tuple[str, int | None]]]] = (None, [])
        # the last query and its stop words of its own language: (query, code, their stems,
        # as written), kept with its query as one tuple: serve's threads share the scorer
        self._stop: tuple[str | None, str, frozenset[str], list[str]] = (
            None, "", frozenset(), [])
        self._in_language: dict[str, np.ndarray] = {}  # code -> whether each tool is in it

    def _query(self, query: str) -> list[list[tuple[str, int | None]]]:
        """The query's distinct stems, in order, with their term ids (None: no tool has it),
        each with its word's stems in the request's own language where some tools are
        written in it (`_other_stems`): one group a word, which counts once."""
        if self._terms[0] != query:
            text = query
            found = stems(query) + whole_words(query)
            # the words of the values a request names (URLs, paths, file names) are no
            # evidence, unless nothing else in the request meets a tool
            asked = without_values(query)
            if asked != query:
                kept = set(stems(asked) + whole_words(asked))
                ids = self._term_ids
                if any(term in ids or SERVER + term in ids for term in kept):
                    found = [term for term in found if term in kept]
                    text = asked
            others = self._other_stems(text, set(found))
            found += [SERVER + term for term in found]
            self._terms = (query, [[(term, self._term_ids.get(term))]
                                   + [(other, self._term_ids[other])
                                      for other in others.get(term, ())]
                                   for term in dict.fromkeys(found)])
        return self._terms[1]

    def _other_stems(self, text: str, english: set[str]) -> dict[str, list[str]]:
        """English stem -> the terms of the same word of `text` in its own language
        (`in_language`), when CLD2 is sure which it is and some tools are written in it;
        a request in English is matched on English stems alone, as before."""
        others: dict[str, list[str]] = {}
        if not self.index.languages:
            return others
        own_language = LATIN_STEMMERS.get(language_code(text), "")
        if own_language not in self.index.languages:
            return others
        for raw in dict.fromkeys(raw_words(text)):
            if not latin(raw) or raw.isdigit():
                continue
            own, found = word_stems(raw), stems_in(raw, own_language)
            if len(found) != len(own):
                continue
            for term, other in zip(own, found, strict=True):
                other = in_language(other, own_language)
                if term in english and other in self._term_ids \
                        and other not in others.get(term, ()):
                    others.setdefault(term, []).append(other)
        return others

    def _stop_words(self, query: str) -> tuple[str, frozenset[str], list[str]]:
        """The language of a request CLD2 is sure is not English, the stems of its stop words
        in that language ("supprime le candidat": le) and those words; empty otherwise. Kept
        for the next call with the same query (its evidence, then its explanations)."""
        last = self._stop
        if last[0] != query:
            code = _request_language(query)
            stop = stop_words(code)
            found, said = stop_words_in(query, stop) if stop else (frozenset(), [])
            last = self._stop = (query, code, found, said) if found else (
                query, "", frozenset(), [])
        return last[1], last[2], last[3]

    def _idf_in_language(self, group: list[tuple[str, int | None]], code: str) -> float:
        """The idf of a stop word's term among the tools written in its language alone
        (`tool_language_codes`): "le" is in nearly every French tool and tells them apart
        by nothing, though it is rare in a catalog of English tools; none written in it,
        nothing. Which tools are in a language is read once, at the first request in it."""
        import numpy as np

        mask = self._in_language.get(code)
        if mask is None:
            mask = self._in_language[code] = np.array(
                [c == code for c in tool_language_codes(self.tools)], dtype=bool)
        n = int(mask.sum())
        if not n:
            return 0.0
        index = self.index
        having = np.zeros(len(self.tools), dtype=bool)
        for _, t in group:
            if t is not None:
                having[index.indices[index.indptr[t]:index.indptr[t + 1]]] = True
        df = int((having & mask).sum())
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def term_id(self, term: str) -> int | None:
        """The id of a stem in the index (None: no tool has it)."""
        return self._term_ids.get(term)

    def evidence_of_all(self, ids: tuple[int, ...]) -> np.ndarray:
        """BM25F's evidence of the terms `ids` per tool (idf times saturation, summed), for
        the tools that state them all; 0 elsewhere."""
        import numpy as np

        index = self.index
        n = len(self.tools)
        total, has = np.zeros(n), np.ones(n, dtype=bool)
        for t in ids:
            start, end = index.indptr[t], index.indptr[t + 1]
            where = index.indices[start:end]
            mine = np.zeros(n, dtype=bool)
            mine[where] = True
            has &= mine
            total[where] += float(index.idf[t]) * index.data[start:end]
        return np.where(has, total, 0.0)

    def best_readings(self, words: Sequence[Sequence[tuple[str, tuple[int, ...]]]]
                      ) -> np.ndarray:
        """Per tool, summed over `words` (each word's readings: a text and its term ids), the
        evidence of the word's reading that earns the tool the most (`evidence_of_all`)."""
        import numpy as np

        out = np.zeros(len(self.tools))
        for readings in words:
            best = np.zeros(len(out))
            for _, ids in readings:
                best = np.maximum(best, self.evidence_of_all(ids))
            out += best
        return out

    def best_reading(self, readings: Sequence[tuple[str, tuple[int, ...]]], tool: int
                     ) -> str | None:
        """The text of the reading that earns `tool` the most evidence, None when none
        earns it any (what `best_readings` counted for it)."""
        earned, text = max((float(self.evidence_of_all(ids)[tool]), reading)
                           for reading, ids in readings)
        return text if earned > 0 else None

    def evidence(self, query: str) -> tuple[np.ndarray, float]:
        """Unnormalised evidence `sum_t idf(t) * sat(t, d)` per tool (in nats, since idf is a
        log-odds weight), and the most any tool could earn (the denominator of the score)."""
        if self._last[0] == query:
            return self._last[1]
        import numpy as np

        index = self.index
        out = np.zeros(len(self.tools))
        mass = 0.0
        groups = self._query(query)
        code, stop, _ = self._stop_words(query)
        for group in groups:
            present = [t for _, t in group if t is not None]
            # a stop word of the request's own language weighs what it tells apart among
            # the tools written in that language, at most its idf in the whole catalog
            cap = self._idf_in_language(group, code) if present and group[0][0] in stop \
                else math.inf
            if len(present) == 1:
                t = present[0]
                idf = min(float(index.idf[t]), cap)
                start, end = index.indptr[t], index.indptr[t + 1]
                out[index.indices[start:end]] += idf * index.data[start:end]
                mass += idf
            elif present:
                # one word read in several languages: the best reading for each tool, weighed
                # as the English one where a tool has it (a word the English and the French
                # tools share weighs the same in both), else as the rarest other
                idf = min(float(index.idf[group[0][1]]) if group[0][1] is not None
                          else max(float(index.idf[t]) for t in present), cap)
                best = np.zeros(len(self.tools))
                for t in present:
                    start, end = index.indptr[t], index.indptr[t + 1]
                    where = index.indices[start:end]
                    best[where] = np.maximum(best[where], index.data[start:end])
                out += idf * best
                mass += idf
        found = out, (max(mass, self._idf_floor) if mass else 1.0)
        self._last = (query, found)  # explain() and hybrid ask again for the same query
        return found

    def scores(self, query: str) -> np.ndarray:
        evidence, most = self.evidence(query)
        return evidence / most

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        start, end = self.index.field_indptr[index], self.index.field_indptr[index + 1]
        row = dict(zip(self.index.field_indices[start:end].tolist(),
                       self.index.field_bits[start:end].tolist(), strict=True))
        matched: dict[str, list[str]] = {}
        for term, t in (pair for group in self._query(query) for pair in group):
            bits = row.get(t, 0)
            if bits:
                matched[term] = [f for i, f in enumerate(FIELDS) if bits >> i & 1]
        code, _, stop = self._stop_words(query)
        left_out: dict[str, Any] = {"stop_words": {"language": code, "words": stop}} \
            if stop else {}
        said = (f"; {language_name(code)} stop words weighed among its tools in "
                f"{language_name(code)}: {', '.join(stop)}" if stop else "")
        plurals = acronym_plurals(query)
        if plurals:  # "GPUs" is read as GPU's plural (text.acronym_plurals)
            left_out["plurals"] = dict(plurals)
            said += f"; {plurals_said(plurals)}"
        if not matched:
            return f"no query term occurs in the tool{said}", {"matched": {}, **left_out}
        by_term = ", ".join(f"{t} ({'/'.join(w)})" for t, w in matched.items())
        return f"BM25F matched {by_term}{said}", {"matched": matched, **left_out}


def _request_language(query: str) -> str:
    """The ISO 639 code of the language CLD2 is sure `query` is in, or ""."""
    from toolcat.languages import of_request

    return of_request(query)


def language_name(code: str) -> str:
    """The English name of an ISO 639 code ("fr": French)."""
    from toolcat.languages import name

    return name(code)
