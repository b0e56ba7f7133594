"""How near the line each request of a real-server half lies (benchmarks/data/real-servers):
for the requests for a missing service (the 12 after `<half>-offcatalog.jsonl`'s small talk)
and for the requests that need a tool (`<half>-queries.jsonl`), whether pick turns it away,
the off-catalog model's log-odds against its threshold (toolcat.search.abstain), the best
tool's hybrid evidence in nats and that tool, the share of the request's content words some
tool has (`known_share`), and the content words no tool of the catalog has with their Zipf
frequency. Needed requests are printed only when they lie near the line (log-odds within
`--near` of the threshold, or evidence under 8.5 nats). What it prints is what a person sorts
into classes; nothing here is a score of the abstention.

    nice -n 10 python benchmarks/offcatalog_margins.py dev fresh2 fresh6
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, SMALL_TALK, empty, queries

from toolcat.catalog.load import load_catalog
from toolcat.search import build_scorer, default_scorer
from toolcat.search.abstain import (
    catalog_kinds,
    features,
    known_share,
    lexical_features,
    shipped_off_catalog,
)
from toolcat.search.bm25 import SERVER
from toolcat.search.hybrid import HybridScorer
from toolcat.search.text import STOPWORDS, without_values, word_stems
from toolcat.search.unmentioned import zipf


def absent(request: str, scorer: HybridScorer) -> list[str]:
    """The content words of `request` (without values) that no tool's text or server has."""
    found = []
    for word in without_values(request).lower().split():
        word = "".join(c for c in word if c.isalpha())
        if len(word) < 3 or word in STOPWORDS:
            continue
        stems = word_stems(word)
        if stems and not any(scorer.lexical.term_id(s) is not None
                             or scorer.lexical.term_id(SERVER + s) is not None for s in stems):
            found.append(f"{word} {zipf(word, 'en'):.1f}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("halves", nargs="+", choices=HALVES)
    parser.add_argument("--near", type=float, default=2.0)
    args = parser.parse_args()
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        scorer = build_scorer(default_scorer(len(tools))[0], tools)
        assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
        semantic = scorer._semantic
        assert semantic is not None
        model = shipped_off_catalog(scorer.embedder.ident)
        assert model is not None
        kinds = catalog_kinds(model, semantic.vectors)
        off = queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:]
        needed = queries(DATA / f"{half}-queries.jsonl")
        print(f"== {half} (threshold {model.threshold:.2f})", flush=True)
        for label, asked in (("off", off), ("needed", needed)):
            vectors = np.stack([scorer.embedder.query_vector(q) for q in asked])
            similarity = vectors @ semantic.vectors.T
            best, at = similarity.max(axis=1), similarity.argmax(axis=1)
            lexical = [lexical_features(scorer.lexical, q, int(i))
                       for q, i in zip(asked, at, strict=True)]
            score = model.score(features(model, kinds, vectors, best, lexical, asked, at))
            evidence = scorer.evidence(asked)
            for k, request in enumerate(asked):
                nats = float(evidence[k].max())
                if label == "needed" and score[k] < model.threshold - args.near \
                        and nats >= 8.5:
                    continue
                away = "AWAY" if empty(request, tools, scorer) else "kept"
                top = tools[int(evidence[k].argmax())].qualified_name
                print(f"  {label} {away} {request[:90]!r}\n      logodds {score[k]:.2f} "
                      f"nats {nats:.2f} top {top} known {known_share(scorer.lexical, request):.2f}"
                      f" absent {absent(request, scorer)}", flush=True)


if __name__ == "__main__":
    main()
