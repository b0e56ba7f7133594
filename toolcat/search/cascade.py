"""The cascade for large catalogs: BM25F picks the candidates, the hybrid score
(`toolcat.search.hybrid`) re-ranks them.

"For large catalogs, prefer the default scorer for a first pass, the semantic scorer for
re-ranking the top candidates", as the design advises. The first pass is BM25F evidence over
every tool (a sparse product, under a millisecond at 43,000 tools); the best `candidates` tools
by that evidence are scored as `hybrid` scores them, everything else scores 0. Only the candidates'
texts are ever embedded, when first needed, and they are cached like every embedding: a
catalog nobody has encoded yet (43,000 tools take about half an hour on a CPU) answers its
first query after encoding a few dozen tools, not all of them.

A tool with no query term at all is never a candidate; `candidates` (default 50) was chosen
on the labeled sets so that no set loses accuracy against `hybrid` (docs/search.md).

Extra evidence per tool (a tuning's usage evidence, `toolcat.search.tuning`) may be given
with a query: a tool with any is a candidate too, however little BM25F finds in it, and the
extra evidence is added to its hybrid evidence.

A request whose parts ask for different things is split as `hybrid` splits it
(`toolcat.search.split`): each part picks its own candidates, and a tool keeps the better
of its whole-request and best-part evidence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import AGREEMENT, Actions
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.device import Progress
from toolcat.search.embeddings import embed_texts, load_embedder
from toolcat.search.focus import Focus, read, with_head
from toolcat.search.hybrid import LAMBDA, midpoint_of, squash, why
from toolcat.search.semantic import blend, length_weight, tool_texts
from toolcat.search.split import Parts, by_best_part
from toolcat.search.text import Repeated, identifier_names, repeated_sentences
from toolcat.search.thesaurus import Thesaurus

CANDIDATES = 50

# the evidence of a tool that is no candidate of a text: below any lift a part may add
NOT_CANDIDATE = -1e9


class CascadeScorer:
    """BM25F first pass, hybrid re-ranking of its best `candidates` (see the module
    docstring)."""

    name = "cascade"

    def __init__(self, tools: Sequence[Tool], *, model: str | None = None,
                 cache: bool = True, device: str | None = None,
                 progress: Progress | None = None, candidates: int = CANDIDATES,
                 semantic_weight: float = LAMBDA) -> None:
        self._setup(BM25Scorer(tools), model=model, cache=cache, device=device,
                    progress=progress, candidates=candidates, weight=semantic_weight)

    @classmethod
    def from_lexical(cls, lexical: BM25Scorer, **options: Any) -> CascadeScorer:
        """A cascade over a BM25F scorer already built (a persisted index)."""
        scorer = cls.__new__(cls)
        scorer._setup(lexical, **{"weight": options.pop("semantic_weight", LAMBDA),
                                  **options})
        return scorer

    def _setup(self, lexical: BM25Scorer, *, model: str | None = None, cache: bool = True,
               device: str | None = None, progress: Progress | None = None,
               candidates: int = CANDIDATES, weight: float = LAMBDA,
               vectors: np.ndarray | None = None) -> None:
        if candidates < 1:
            from toolcat.errors import UsageError

            raise UsageError("candidates must be at least 1")
        self.tools = lexical.tools
        self.lexical = lexical
        self.actions = Actions(self.tools)
        self.focus = Focus(self.tools)
        self.thesaurus = Thesaurus(lexical)
        self.embedder = load_embedder(model, device)
        self.cache = cache
        self.progress = progress
        self.candidates = candidates
        self.weight = weight
        self._names: frozenset[str] | None = None
        self._repeated: Repeated = frozenset()
        self._vectors: dict[int, np.ndarray] = {}  # tool index -> its vector (see blend)
        self.vectors = vectors  # every tool's vector, when the catalog was indexed
        self._stored: dict[str, np.ndarray] = {}  # vectors the disk cache gave, by text key
        self._last: tuple[str, Any, tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
        self.encoded = 0  # texts encoded so far (the others came from the cache or wait)

    def _candidates(self, query: str, extra: np.ndarray | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The first pass: the best `candidates` tools with any lexical evidence (and every
        tool with `extra` evidence), and the evidence of all that hybrid adds to the cosine:
        BM25F's, action agreement's (toolcat.search.actions), the focus's
        (toolcat.search.focus) and WordNet's readings' (toolcat.search.thesaurus)."""
        evidence, _ = self.lexical.evidence(query)
        found = np.flatnonzero(evidence > 0)
        if len(found) > self.candidates:
            values = evidence[found]
            found = found[np.argpartition(-values, self.candidates - 1)[:self.candidates]]
        used = np.flatnonzero(extra > 0) if extra is not None else found[:0]
        if len(used):
            found = np.union1d(found, used)
        return found, (evidence + self.actions.evidence(query)
                       + self.focus.evidence(read(query))
                       + self.thesaurus.evidence(query, self.embedder))

    def _tool_vectors(self, indices: np.ndarray) -> np.ndarray:
        if self.vectors is not None:  # the catalog was indexed: nothing to encode but the query
            rows: np.ndarray = self.vectors[indices]
            return rows
        missing = [i for i in indices.tolist() if i not in self._vectors]
        if missing:
            if self._names is None:
                self._names = identifier_names(self.tools)
                self._repeated = repeated_sentences(self.tools)
            documents = self.embedder.documents  # the model that encodes tools
            pairs = [tool_texts(self.tools[i], self._names, self._repeated) for i in missing]
            vectors, encoded = embed_texts(
                documents, [whole for whole, _ in pairs] + [summary for _, summary in pairs],
                cache=self.cache, progress=self.progress, known=self._stored)
            self.encoded += encoded
            self._vectors.update(zip(missing, blend(vectors[:len(missing)],
                                                    vectors[len(missing):]), strict=True))
        if not len(indices):
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._vectors[i] for i in indices.tolist()])

    def _scored(self, query: str, extra: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidates, their cosine similarities, and the lexical evidence of every tool."""
        if self._last is None or self._last[0] != query or self._last[1] is not extra:
            found, evidence = self._candidates(query, extra)
            cosine = np.zeros(len(found), dtype=np.float32)
            if len(found):
                matrix = self.embedder.matrix(self._tool_vectors(found))
                head = read(query).head
                if head == query:
                    cosine = self.embedder.similarity([query], matrix)[0]
                else:  # read in part from the head, as hybrid reads it
                    whole, of_head = self.embedder.similarity([query, head], matrix)
                    cosine = with_head(whole, of_head)
            self._last = (query, extra, (found, cosine, evidence))
        return self._last[2]

    def scores(self, query: str, extra: np.ndarray | None = None) -> np.ndarray:
        """Scores of every tool; `extra`: evidence to add, one value per tool (see the module
        docstring)."""
        return self._squashed(self.parts(query, extra))

    def parts(self, query: str, extra: np.ndarray | None = None) -> Parts:
        """Where each tool's evidence for `query` comes from (toolcat.search.split); a tool
        that is no candidate of the text its evidence came from has NOT_CANDIDATE."""
        def evidence(texts: Sequence[str]) -> np.ndarray:
            rows = []
            for text in texts:
                found, cosine, lexical = self._scored(text, extra)
                rows.append(self._evidence(text, found, lexical, cosine, extra))
            return np.array(rows).reshape(len(texts), len(self.tools))

        return by_best_part([query], evidence)[0]

    def scores_many(self, queries: Sequence[str], extra: np.ndarray | None = None
                    ) -> list[np.ndarray]:
        """Scores of each query (`extra`: one row per query); query vectors are encoded in
        one batch and cached on disk (as `hybrid` does for benchmarks)."""
        # what the disk cache gives, kept for the batch: each request's parts are encoded
        # as they come
        known: dict[str, np.ndarray] = {}
        # each request and, where it has modifiers, its head (toolcat.search.focus), in a batch
        heads = [read(query).head for query in queries]
        cut = [i for i, (query, head) in enumerate(zip(queries, heads, strict=True))
               if head != query]
        encoded, _ = embed_texts(self.embedder, [*queries, *(heads[i] for i in cut)],
                                 cache=self.cache, known=known)
        wholes = encoded[:len(queries)]
        head_of = dict(zip(cut, encoded[len(queries):], strict=True))
        out = []
        for i, query in enumerate(queries):
            row = None if extra is None else extra[i]
            own_head = head_of.get(i)

            def evidence(texts: Sequence[str], row: np.ndarray | None = row, query: str = query,
                         whole: np.ndarray = wholes[i:i + 1],
                         head: np.ndarray | None = own_head) -> np.ndarray:
                if list(texts) == [query]:
                    vectors, of_heads = whole, ({} if head is None else {0: head})
                else:  # the parts of a split request, encoded as they come
                    vectors = embed_texts(self.embedder, texts, cache=self.cache,
                                          known=known)[0]
                    part_heads = [read(text).head for text in texts]
                    parts_cut = [k for k, text in enumerate(texts) if part_heads[k] != text]
                    of_heads = dict(zip(parts_cut, embed_texts(
                        self.embedder, [part_heads[k] for k in parts_cut], cache=self.cache,
                        known=known)[0], strict=True)) if parts_cut else {}
                rows = []
                for k, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
                    found, lexical = self._candidates(text, row)
                    cosine = self._tool_vectors(found) @ vector if len(found) else np.zeros(0)
                    if k in of_heads and len(found):  # read in part from the head, as hybrid
                        cosine = with_head(cosine, self._tool_vectors(found) @ of_heads[k])
                    rows.append(self._evidence(text, found, lexical, cosine, row))
                return np.array(rows).reshape(len(texts), len(self.tools))

            out.append(self._squashed(by_best_part([query], evidence)[0]))
        return out

    def _evidence(self, text: str, found: np.ndarray, evidence: np.ndarray, cosine: np.ndarray,
                  extra: np.ndarray | None) -> np.ndarray:
        """Hybrid evidence of the candidates `found` for `text`; NOT_CANDIDATE for every other
        tool."""
        out = np.full(len(self.tools), NOT_CANDIDATE)
        weight = self.weight + length_weight(text)
        total = evidence[found] + weight * np.clip(cosine, 0.0, None)
        out[found] = total if extra is None else total + extra[found]
        return out

    def _squashed(self, found: Parts) -> np.ndarray:
        """Scores of the tools that are candidates of their evidence's text, 0 elsewhere."""
        candidate = found.evidence > NOT_CANDIDATE / 2
        out = np.zeros(len(self.tools))
        out[candidate] = squash(found.evidence[candidate], self.midpoint)
        return out

    @property
    def midpoint(self) -> float:
        """The squashing's midpoint for the embedding model (toolcat.search.hybrid)."""
        return midpoint_of(self.embedder.ident)

    def explain(self, query: str, index: int, extra: np.ndarray | None = None
                ) -> tuple[str, Mapping[str, Any]]:
        split = self.parts(query, extra)
        source = int(split.source[index])
        part = split.texts[source] if source >= 0 else query
        found, cosine, _ = self._scored(part, extra)
        at = np.flatnonzero(found == index)
        lexical = float(self.lexical.evidence(part)[0][index])
        if not len(at):
            return (f"not among the {self.candidates} best BM25F candidates",
                    {"candidate": False, "lexical_evidence": round(lexical, 6)})
        reason, details = why(self.lexical, part, index, lexical,
                              float(cosine[at[0]]), self.weight + length_weight(part),
                              self.embedder.ident)
        if self.actions.evidence(part)[index]:
            reason = f"{reason}; its name's action is the one asked for ({AGREEMENT:.1f})"
            details = {**details, "action_evidence": AGREEMENT}
        aside = float(self.focus.evidence(read(part))[index])
        if aside:
            reason = (f"{reason}; its name acts on what the request names only as where or "
                      f"about what ({aside:.1f})")
            details = {**details, "aside_evidence": aside}
        wordnet = self.thesaurus.explained(part, index, self.embedder)
        if wordnet is not None:
            reason, details = f"{reason}; {wordnet[0]}", {**details, **wordnet[1]}
        if source >= 0:
            lift = split.lift[source]
            reason = (f"{reason}" + (f" + {lift:.1f} as a part of its own" if lift else "")
                      + f", for the part {part[:80]!r}")
            details = {**details, "part": part, "part_lift": round(lift, 6)}
        return reason, {**details, "candidate": True}
