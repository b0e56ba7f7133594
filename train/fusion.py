"""Choose hybrid's semantic weight and what text of a tool is embedded, on training data.

Every figure is nDCG@10 over a set's whole catalog, on the tool-disjoint split of
train/tool_model.py (30% of each set's tools held out): the training requests (all of whose
tools are kept; at most 600, seeded) choose, the held-out tools' requests check. The sets are
train/data's (RestBench, API-Bank, ToolBench), so that benchdata's sets stay ones the choice
never saw (docs/search.md, "The fusion's weight and what is embedded").

- `weights`: toolcat's own HybridScorer (every part of it: actions, verbs, focus, siblings,
  the split of requests that ask for several things) at each semantic weight; LAMBDA is set
  where each part reads it, as a shipped change of it would.
- `views`: the tool vector as a blend, one view, or the best or mean of several views (whole
  text, summary, name + first sentence, name + parameter names), in the fusion
  train/tool_model.py measures (BM25F evidence + 12 x cosine).
- `words`: BM25F evidence with each request word discounted by its share of the training
  requests (log(1/share) / log(1/SHARE) of its idf past SHARE), in that fusion too.
- `lengths`: toolcat's own HybridScorer, ranking with `--model`, at each weight a doubling of
  a request's length past `semantic.LENGTH_FROM` words adds to the cosine's
  (`semantic.LENGTH_WEIGHT`; docs/search.md, "The cosine's weight grows with a long request").
- `midpoint` (with `--model`): the squashing's midpoint for an embedding model, so that pick's
  floor of 0.05 means for it what it means for the base model at MIDPOINT: toolcat's built-in
  small talk (toolcat.tune.chitchat, which no catalog serves) is scored by toolcat's own
  HybridScorer against each set's whole catalog, and the midpoint is the one under which the
  same share of it reaches the floor as under the base model at MIDPOINT. `--write` stores it
  beside the model (toolcat/search/models/fusion.<model>.json, with the model's identity,
  checked on load).

    nice -n 10 python train/fusion.py --out train/results-fusion.json
    nice -n 10 python train/fusion.py --out train/results-fusion-words.json --measures words \
        --also bfcl_v4 seal_tools metatool   # measured only: never chosen on
    nice -n 10 python train/fusion.py --out train/results-fusion-lengths.json --measures lengths
    nice -n 10 python train/fusion.py --out train/results-fusion-midpoint.json \
        --measures midpoint --model minilm-tools --write
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tool_model import BENCHDATA, CONVERTED, TRAINED, LabeledSet, load_set, ndcg10

WEIGHTS = (8.0, 12.0, 16.0, 20.0, 24.0)
CHOOSING = 600  # training requests measured per set (a seeded sample beyond)
SHARE = 0.05  # `words`: a word in more of the training requests than this is discounted
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)][.!?])\s")


def rows_of(data: LabeledSet) -> dict[str, list[int]]:
    train = data.train
    if len(train) > CHOOSING:
        train = sorted(np.random.default_rng(1).choice(train, CHOOSING, replace=False).tolist())
    return {"train": train, "held": data.test}


def mean_ndcg(data: LabeledSet, rows: list[int], evidence: np.ndarray) -> float:
    return float(np.mean([ndcg10(data.relevant[i], np.argsort(-e, kind="stable"))
                          for i, e in zip(rows, evidence, strict=True)]))


def weights(data: LabeledSet) -> dict[str, dict[str, float]]:
    import toolcat.search.hybrid as hybrid
    import toolcat.search.semantic as semantic
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.embeddings import load_embedder

    lexical = BM25Scorer(data.tools)
    scorer = semantic.SemanticScorer.from_vectors(data.tools, load_embedder("all-MiniLM-L6-v2"),
                                                  data.vectors)
    found: dict[str, dict[str, float]] = {}
    shipped = hybrid.LAMBDA
    try:
        for weight in WEIGHTS:
            hybrid.LAMBDA = semantic.LAMBDA = weight  # the split's and siblings' reading too
            fused = hybrid.HybridScorer.from_parts(lexical, scorer, semantic_weight=weight)
            found[str(weight)] = {
                part: mean_ndcg(data, rows, fused.evidence([data.texts[i] for i in rows],
                                                           cached=True))
                for part, rows in rows_of(data).items()}
            print(data.name, "weight", weight, found[str(weight)], flush=True)
    finally:
        hybrid.LAMBDA = semantic.LAMBDA = shipped
    return found


LENGTH_WEIGHTS = (0.0, 2.0, 3.0, 4.0)


def lengths(data: LabeledSet, model: str) -> dict[str, dict[str, float]]:
    """nDCG@10 of toolcat's own HybridScorer (`model` ranking) at each weight a doubling of
    a request's length adds to the cosine's (`semantic.LENGTH_WEIGHT`)."""
    import toolcat.search.semantic as semantic
    from toolcat.search import build_scorer

    scorer = build_scorer("hybrid", data.tools, model=model)
    found: dict[str, dict[str, float]] = {}
    shipped = semantic.LENGTH_WEIGHT
    try:
        for weight in LENGTH_WEIGHTS:
            semantic.LENGTH_WEIGHT = weight  # read by length_weight at every call
            found[str(weight)] = {
                part: mean_ndcg(data, rows, scorer.evidence([data.texts[i] for i in rows]))
                for part, rows in rows_of(data).items()}
            print(data.name, "length weight", weight, found[str(weight)], flush=True)
    finally:
        semantic.LENGTH_WEIGHT = shipped
    return found


def first_sentence(text: str) -> str:
    end = _SENTENCE_END.search(text)
    return text[:end.start()] if end else text


def views(data: LabeledSet) -> dict[str, dict[str, float]]:
    from toolcat.search.embeddings import embed_texts, load_embedder
    from toolcat.search.semantic import MAX_CHARS, tool_texts
    from toolcat.search.text import (
        identifier_names,
        own_description,
        parameter_texts,
        repeated_sentences,
        split_name,
    )

    model = load_embedder("all-MiniLM-L6-v2")
    names, repeated = identifier_names(data.tools), repeated_sentences(data.tools)
    pairs = [tool_texts(t, names, repeated) for t in data.tools]
    texts = {
        "whole": [whole for whole, _ in pairs],
        "summary": [summary for _, summary in pairs],
        "first": [f"{split_name(t.name)}: "
                  f"{first_sentence(own_description(t, names, repeated))}"[:MAX_CHARS]
                  for t in data.tools],
        "params": [(f"{split_name(t.name)}: " + "; ".join(
            split_name(n) for n, _ in parameter_texts(t.parameters)))[:MAX_CHARS]
            for t in data.tools],
    }
    vectors = {k: embed_texts(model, v)[0] for k, v in texts.items()}
    found: dict[str, dict[str, float]] = {}
    for part, rows in rows_of(data).items():
        queries = embed_texts(model, [data.texts[i] for i in rows])[0]
        lexical = words_evidence(data, rows, None)
        w, s, f, p = (queries @ vectors[k].T for k in ("whole", "summary", "first", "params"))
        cosines = {
            "blend 0.8 whole + 0.2 summary": 0.8 * w + 0.2 * s,
            "whole": w,
            "best of whole, summary": np.maximum(w, s),
            "best of whole, summary, first sentence": np.maximum.reduce([w, s, f]),
            "mean of the four views": (w + s + f + p) / 4,
            "best of the four views": np.maximum.reduce([w, s, f, p]),
        }
        for name, cosine in cosines.items():
            found.setdefault(name, {})[part] = mean_ndcg(
                data, rows, lexical + 12.0 * np.clip(cosine, 0.0, None))
    print(data.name, "views", found, flush=True)
    return found


def request_shares(sets: list[LabeledSet]) -> dict[str, float]:
    """Each stem's share of the training requests of `sets`."""
    from toolcat.search.text import stems

    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for data in sets:
        for i in data.train:
            total += 1
            counts.update(set(stems(data.texts[i])))
    return {term: count / total for term, count in counts.items()}


def words_evidence(data: LabeledSet, rows: list[int],
                   shares: dict[str, float] | None) -> np.ndarray:
    """BM25F evidence of each request of `rows`, its common words discounted by `shares`."""
    from toolcat.search.bm25 import BM25Scorer

    lexical = BM25Scorer(data.tools)
    index = lexical.index
    found = np.zeros((len(rows), len(data.tools)))
    for row, i in enumerate(rows):
        for term, t in lexical._query(data.texts[i]):
            if t is None:
                continue
            share = (shares or {}).get(term.split(":")[-1], 0.0)
            weight = 1.0 if share <= SHARE else max(0.0, math.log(1 / share)
                                                    / math.log(1 / SHARE))
            start, end = index.indptr[t], index.indptr[t + 1]
            found[row, index.indices[start:end]] += weight * float(index.idf[t]) \
                * index.data[start:end]
    return found


def words(data: LabeledSet, shares: dict[str, float]) -> dict[str, dict[str, float]]:
    from toolcat.search.embeddings import embed_texts, load_embedder

    model = load_embedder("all-MiniLM-L6-v2")
    found: dict[str, dict[str, float]] = {"as they are": {}, "common words discounted": {}}
    for part, rows in rows_of(data).items():
        cosine = 12.0 * np.clip(embed_texts(model, [data.texts[i] for i in rows])[0]
                                @ data.vectors.T, 0.0, None)
        found["as they are"][part] = mean_ndcg(data, rows, words_evidence(data, rows, None)
                                               + cosine)
        found["common words discounted"][part] = mean_ndcg(
            data, rows, words_evidence(data, rows, shares) + cosine)
    print(data.name, "words", found, flush=True)
    return found


def unrelated_best(sets: list[LabeledSet], model: str) -> np.ndarray:
    """The best hybrid evidence (toolcat's HybridScorer, `model`'s request vectors) of
    toolcat's built-in small talk, which no catalog serves, against each set's whole catalog.
    (The other sets' requests are no such material: against ToolBench's 2,477 tools, or with
    words in common, their BM25F evidence alone is over the floor.)"""
    from toolcat.search.bm25 import BM25Scorer
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.hybrid import HybridScorer
    from toolcat.search.semantic import SemanticScorer
    from toolcat.tune.chitchat import CHITCHAT

    embedder = load_embedder(model)
    best = []
    for catalog in sets:
        scorer = HybridScorer.from_parts(BM25Scorer(catalog.tools), SemanticScorer.from_vectors(
            catalog.tools, embedder, catalog.vectors))
        best.append(scorer.evidence(list(CHITCHAT), cached=True).max(axis=1))
    return np.concatenate(best)


def midpoint(sets: list[LabeledSet], model: str) -> dict[str, Any]:
    """The midpoint under which `model`'s unrelated requests reach pick's floor as often as
    the base model's do at MIDPOINT (see the module docstring)."""
    from toolcat.search.embeddings import BASE_MODEL
    from toolcat.search.hybrid import squash

    floor = 0.05  # pick's default threshold (toolcat.search.pick)
    base = unrelated_best(sets, BASE_MODEL)
    share = float(np.mean(squash(base) >= floor))
    found = unrelated_best(sets, model)
    # squash(e, m) = floor where e = m * (floor / (1 - floor)) ** (1/3): the midpoint whose
    # floor is the model's evidence that as large a share of the small talk reaches
    chosen = float(np.quantile(found, 1 - share)) / (floor / (1 - floor)) ** (1 / 3)
    report = {"model": model, "unrelated requests": len(found),
              "share over the floor, base model": share,
              "evidence quantiles 0.5/0.9/0.99, base": np.quantile(base, [.5, .9, .99]).tolist(),
              "evidence quantiles 0.5/0.9/0.99, model": np.quantile(found, [.5, .9, .99]).tolist(),
              "midpoint": round(chosen, 3)}
    print(report, flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--measures", nargs="+", default=("weights", "views", "words"),
                        choices=("weights", "views", "words", "lengths", "midpoint"))
    parser.add_argument("--model", default="minilm-tools",
                        help="`midpoint`: the embedding model calibrated; `lengths`: the one "
                             "that ranks")
    parser.add_argument("--write", action="store_true",
                        help="`midpoint`: store it beside the model (toolcat/search/models)")
    parser.add_argument("--also", nargs="*", default=(), choices=TRAINED,
                        help="benchdata sets measured too (never chosen on, nor fitted to)")
    args = parser.parse_args()
    sets = [load_set(name, folder, split=True) for name, folder in CONVERTED.items()]
    shares = request_shares(sets)
    sets += [load_set(name, BENCHDATA / name, split=True) for name in args.also]
    report: dict[str, Any] = {"split": "train/tool_model.py (seed, 30% of tools held out)",
                              "training requests measured per set": CHOOSING}
    if "midpoint" in args.measures:
        from toolcat.search.calibration import write
        from toolcat.search.embeddings import load_embedder

        report["midpoint"] = midpoint(sets[:len(CONVERTED)], args.model)
        if args.write:
            write(load_embedder(args.model).ident, report["midpoint"]["midpoint"])
    for data in sets:
        found: dict[str, Any] = {}
        if "weights" in args.measures:
            found["weights"] = weights(data)
        if "views" in args.measures:
            found["views"] = views(data)
        if "words" in args.measures:
            found["words"] = words(data, shares)
        if "lengths" in args.measures:
            found["lengths"] = lengths(data, args.model)
        report[data.name] = found
    args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
