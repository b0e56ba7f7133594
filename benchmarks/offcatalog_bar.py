"""What a lower bar for the off-catalog model (toolcat.search.abstain.OffCatalog, whose
fitted threshold turns a request away) would catch among the requests for a missing service
that pick lets through on the real-server halves, and lose among the requests that need a
tool which pick keeps, on the halves and on a seeded sample of each labeled public set: per
bar of log-odds, alone and with the best tool's hybrid evidence under a cap (nats).

    nice -n 5 python benchmarks/offcatalog_bar.py --halves dev fresh fresh2 \
        --sets metatool toolalpaca_eval bfcl_v4 seal_tools --sample 1000
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, PUBLIC, SMALL_TALK, queries

from toolcat.catalog.load import load_catalog
from toolcat.search import build_scorer, default_scorer
from toolcat.search.abstain import (
    catalog_kinds,
    features,
    lexical_features,
    shipped_off_catalog,
)
from toolcat.search.hybrid import HybridScorer

MEASURE = ("heldout", "fresh7", "fresh8")  # the halves held out: never read here
BARS = (1.0, 1.5, 2.0, 2.5, 3.0)  # log-odds (the fitted threshold: 3.389 for minilm-tools)
CAPS = (None, 6.0, 5.0, 4.0)  # nats of the best tool's evidence under which the bar applies


def kept(catalog: Path, texts: list[str]) -> list[tuple[float, float]]:
    """For each of `texts` that pick does not turn away today: its log-odds and its best
    tool's hybrid evidence."""
    tools = list(load_catalog(catalog).tools)
    scorer = build_scorer(default_scorer(len(tools))[0], tools)
    assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
    semantic, model = scorer.semantic, shipped_off_catalog(scorer.embedder.ident)
    assert model is not None, "a model with a shipped fit"
    away = scorer.away_reasons(texts)
    best = scorer.evidence(texts, cached=True).max(axis=1)
    vectors = scorer.embedder.encode(texts)
    near = vectors @ semantic.vectors.T
    at = near.argmax(axis=1)
    lexical = [lexical_features(scorer.lexical, q, int(a)) for q, a in zip(texts, at,
                                                                           strict=True)]
    odds = model.score(features(model, catalog_kinds(model, semantic.vectors), vectors,
                                near.max(axis=1), lexical, texts, at))
    return [(float(o), float(b)) for why, o, b in zip(away, odds, best, strict=True)
            if why is None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", default=(),
                        choices=[h for h in HALVES if h not in MEASURE])
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=())
    parser.add_argument("--sample", type=int, default=1000, help="requests of each set")
    args = parser.parse_args()
    off: list[tuple[float, float]] = []
    needed: dict[str, list[tuple[float, float]]] = {}
    for half in args.halves:
        catalog = DATA / f"{half}-catalog.json"
        off += kept(catalog, queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:])
        needed.setdefault("halves", []).extend(
            kept(catalog, queries(DATA / f"{half}-queries.jsonl")))
    for name in args.sets:
        asked = queries(PUBLIC[name] / "queries.jsonl")
        random.Random(1).shuffle(asked)
        needed[name] = kept(PUBLIC[name] / "catalog.json", asked[:args.sample])
    print(f"let through today: {len(off)} requests for a missing service; kept today: "
          + ", ".join(f"{name} {len(rows)}" for name, rows in needed.items()))
    for bar in BARS:
        for cap in CAPS:
            def over(row: tuple[float, float], bar: float = bar, cap: float | None = cap
                     ) -> bool:
                return row[0] > bar and (cap is None or row[1] < cap)
            lost = Counter({name: sum(map(over, rows)) for name, rows in needed.items()})
            print(f"log-odds over {bar}" + (f", under {cap} nats" if cap else "")
                  + f": caught {sum(map(over, off))}; lost " + ", ".join(
                      f"{name} {count}" for name, count in lost.items()), flush=True)


if __name__ == "__main__":
    main()
