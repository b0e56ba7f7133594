"""The requests a tuning learns from, scored zero-shot once, and the usage built from them.

`prepare` scores every request with the hybrid scorer a single time (its evidence per tool and
the cosine its semantic weight multiplies), so that every candidate weight, fold and check is
arithmetic on these arrays; `tool_usages` builds the usage (mean request vector, stems) of the
tools that a subset of the requests used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from toolcat.model import Catalog
from toolcat.search.hybrid import HybridScorer
from toolcat.search.text import stems
from toolcat.search.tuning import (
    MAX_TERMS,
    Matched,
    ToolUsage,
    build_matched,
    query_digest,
    tool_key,
)
from toolcat.tune.calibration import tool_biases
from toolcat.tune.chitchat import CHITCHAT
from toolcat.tune.usage import Bounded, Request, Usage

CHAT = "chitchat"  # the kind of the built-in requests no tool fits (toolcat.tune.chitchat)
BATCH = 4096  # requests scored zero-shot at a time (each batch reads the embedding cache)
# An example request at least this near (cosine) to a request of the user's own files that
# went to other tools is that request, copied or reworded, claimed for another tool
NEAR = 0.8


@dataclass
class Material:
    """Requests of one catalog with what scoring them needs, computed once: the hybrid's
    zero-shot evidence per tool (at its semantic weight `weight`, before the floor at zero)
    and the clipped cosine that weight multiplies, so another semantic weight's evidence is
    `max(base + (w - weight) * cosine, 0)`; request vectors and digests."""

    catalog: Catalog
    requests: tuple[Request, ...]  # the catalog's example requests come last
    base: np.ndarray
    cosine: np.ndarray
    weight: float
    vectors: np.ndarray
    model: str
    digests: list[bytes] = field(default_factory=list)
    tool_vectors: np.ndarray | None = None  # the hybrid's, one a tool (for Tool2Vec's mix)
    bounded: tuple[Bounded, ...] = ()  # example requests left out (toolcat.tune.usage)

    @property
    def size(self) -> int:
        return len(self.catalog.tools)

    @cached_property
    def priority(self) -> np.ndarray:
        """Each tool's `priority`: equal scores rank the higher first, as search does."""
        return np.array([t.priority for t in self.catalog.tools], dtype=np.float64)

    @property
    def measured(self) -> list[int]:
        """The requests that are measured: every one but the author's examples, which are
        always learned from (they are part of the catalog, not of its traffic), and the
        chit-chat that the threshold is fitted on."""
        return [i for i, r in enumerate(self.requests) if r.kind not in ("example", CHAT)]

    @property
    def chitchat(self) -> list[int]:
        return [i for i, r in enumerate(self.requests) if r.kind == CHAT]

    @property
    def examples(self) -> list[int]:
        return [i for i, r in enumerate(self.requests) if r.kind == "example"]

    def positives(self, indices: Sequence[int]) -> list[int]:
        return [i for i in indices if self.requests[i].groups]

    def provenance(self) -> list[dict[str, object]]:
        """Where the learned requests came from: each file (a call log, a query set, the
        catalog file whose tools carry example requests) with its kind, how many requests
        of it are learned from and how many tools they name."""
        out: dict[tuple[str, str], tuple[int, set[int]]] = {}
        for request in self.requests:
            if request.kind == CHAT:
                continue
            count, tools = out.get((request.source, request.kind), (0, set()))
            out[(request.source, request.kind)] = (count + 1, tools | set(request.tools))
        return [{"source": source, "kind": kind, "requests": count, "tools": len(tools)}
                for (source, kind), (count, tools) in out.items()]


def prepare(catalog: Catalog, usage: Usage, hybrid: HybridScorer) -> Material:
    """Score every request zero-shot once (the hybrid must be over `catalog.tools`)."""
    from toolcat.search.embeddings import embed_texts

    requests = tuple(r for r in usage.requests if r.kind != "example") + \
        tuple(r for r in usage.requests if r.kind == "example") + \
        tuple(Request(text, (), CHAT) for text in CHITCHAT)
    embedder = hybrid.embedder
    vectors = embed_texts(embedder, [r.text for r in requests], cache=hybrid.cache)[0]
    keep, claimed = _unclaimed(requests, _paraphrase_vectors(requests, vectors, hybrid),
                               catalog)
    requests = tuple(r for r, k in zip(requests, keep, strict=True) if k)
    vectors = vectors[keep]
    texts = [r.text for r in requests]
    size = len(catalog.tools)
    base = np.zeros((len(texts), size))
    cosine = np.zeros((len(texts), size))
    for start in range(0, len(texts), BATCH):  # the hybrid's own evidence, at its weight
        chunk = texts[start:start + BATCH]
        base[start:start + BATCH] = hybrid.evidence(chunk, cached=True, floor=False)
        cosine[start:start + BATCH] = hybrid.cosine(chunk, cached=True)  # the one it adds
    return Material(catalog, requests, base, cosine, hybrid.weight, vectors, embedder.ident,
                    [query_digest(r.text) for r in requests
                     if r.kind not in ("example", CHAT)],
                    np.asarray(hybrid.semantic.vectors, dtype=np.float32),
                    _merged(usage.bounded, claimed))


def _merged(first: Sequence[Bounded], then: Sequence[Bounded]) -> tuple[Bounded, ...]:
    """One note a tool: what was written, what is left, every reason."""
    out = {(b.source, b.tool): b for b in first}
    for b in then:
        before = out.get((b.source, b.tool))
        out[(b.source, b.tool)] = b if before is None else Bounded(
            b.source, b.tool, before.written, b.kept, f"{before.reason}; {b.reason}")
    return tuple(out.values())


def _paraphrase_vectors(requests: Sequence[Request], vectors: np.ndarray,
                        hybrid: HybridScorer) -> np.ndarray:
    """The vectors `_unclaimed` compares requests by: whether an example request is one of
    the user's, copied or reworded, is a question of paraphrase, which the model that
    encodes tools answers (NEAR was set with it). A query-side update (minilm-tools) is
    trained to pull a request toward its tools, not toward its rewordings: "could you water
    the plants now" lies at a median 0.79 from "please water the plants" under it, 0.88
    under the base model, so under NEAR it let most copies through. `vectors`: the requests'
    vectors by the scorer's model, used as they are when it encodes tools too."""
    from toolcat.search.embeddings import embed_texts

    documents = hybrid.embedder.documents
    if documents is hybrid.embedder or not any(r.kind == "example" for r in requests):
        return vectors
    return embed_texts(documents, [r.text for r in requests], cache=hybrid.cache)[0]


def _unclaimed(requests: Sequence[Request], vectors: np.ndarray, catalog: Catalog
               ) -> tuple[np.ndarray, tuple[Bounded, ...]]:
    """Which requests to learn from: all but the example requests that lie NEAR a request of
    the user's own files that went to other tools only (the user's own traffic is the
    authority on where a request goes; a catalog's examples only add to it); and what that
    left out, a tool at a time."""
    keep = np.ones(len(requests), dtype=bool)
    own = [i for i, r in enumerate(requests) if r.kind not in ("example", CHAT) and r.groups]
    examples = [i for i, r in enumerate(requests) if r.kind == "example"]
    if not own or not examples:
        return keep, ()
    own_tools = [set(requests[i].tools) for i in own]
    left: dict[int, list[int]] = {}  # tool -> [written, dropped]
    sources: dict[int, str] = {}
    mine = vectors[own]
    step = max(1, (1 << 22) // len(own))  # a few million cosines at a time
    for start in range(0, len(examples), step):
        chunk = examples[start:start + step]
        near = vectors[chunk] @ mine.T >= NEAR
        for row, i in enumerate(chunk):
            tool = requests[i].tools[0]
            sources[tool] = requests[i].source
            counts = left.setdefault(tool, [0, 0])
            counts[0] += 1
            if any(tool not in own_tools[j] for j in np.flatnonzero(near[row])):
                keep[i] = False
                counts[1] += 1
    claimed = tuple(
        Bounded(sources[t], catalog.tools[t].qualified_name, written, written - dropped,
                f"{dropped} near requests of your own files that went to other tools")
        for t, (written, dropped) in left.items() if dropped)
    return keep, claimed


def tool_usages(material: Material, train: Sequence[int]) -> tuple[np.ndarray, list[ToolUsage]]:
    """The usage of every tool that the `train` requests used: tool indices in catalog
    order, and their usages (with the requests that were shown the tool and did not call
    it, where logs said which were shown)."""
    from toolcat.tune.file import quantized, rounded_bias

    sources = [(material.requests[i], material.vectors[i]) for i in train]
    sums: dict[int, np.ndarray] = {}
    counts: dict[int, int] = {}
    terms: dict[int, dict[str, int]] = {}
    for request, vector in sources:
        words = dict.fromkeys(stems(request.text))
        for tool in request.tools:
            if tool in sums:
                sums[tool] = sums[tool] + vector
            else:
                sums[tool] = vector.astype(np.float64)
            counts[tool] = counts.get(tool, 0) + 1
            known = terms.setdefault(tool, {})
            for word in words:
                known[word] = known.get(word, 0) + 1
    declined = _declined(material, train, sums)
    tools = material.catalog.tools
    indices = np.array(sorted(sums), dtype=np.int64)
    rows = material.positives(train)
    biases = tool_biases(np.maximum(material.base[rows], 0.0),
                         [material.requests[i].groups for i in rows],
                         indices)
    usages = []
    for i, bias in zip(indices.tolist(), biases.tolist(), strict=True):
        norm = float(np.linalg.norm(sums[i])) or 1.0
        kept = sorted(terms[i].items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_TERMS]
        found = declined.get(i)
        usages.append(ToolUsage(tool_key(tools[i]), counts[i],
                                quantized((sums[i] / norm).astype(np.float32)), dict(kept),
                                rounded_bias(bias), *(found or (0, None))))
    return indices, usages


def _declined(material: Material, train: Sequence[int], used: Mapping[int, np.ndarray]
              ) -> dict[int, tuple[int, np.ndarray]]:
    """For each tool with usage that `train` requests were shown and did not call: how many,
    and their mean vector (unit length, as the file keeps it). A tool without usage gets
    none: lowering such tools for requests like those that declined them cost requests for
    them 0.035 nDCG@10 on metatool (docs/tune.md)."""
    from toolcat.tune.file import quantized

    sums: dict[int, np.ndarray] = {}
    counts: dict[int, int] = {}
    for i in train:
        for tool in material.requests[i].declined:
            if tool in used:
                vector = material.vectors[i].astype(np.float64)
                sums[tool] = sums[tool] + vector if tool in sums else vector
                counts[tool] = counts.get(tool, 0) + 1
    out = {}
    for tool, total in sums.items():
        norm = float(np.linalg.norm(total))
        if norm:
            out[tool] = (counts[tool], quantized((total / norm).astype(np.float32)))
    return out


def matched_for(material: Material, train: Sequence[int]) -> Matched:
    indices, usages = tool_usages(material, train)
    return build_matched(material.size, indices, usages)

