"""The requests that name, in a service's slot, a service their catalog never mentions
(toolcat.search.services.naming, CatalogMentions): what a rule that weighs such a name more
would lose among the requests that need a tool, and what it would catch among the halves'
requests for a missing service (`--offcatalog`). Every request of the labeled public sets is
read (not a sample), and the requests of the real-server halves named (never heldout,
fresh7, fresh8). Without `--scores` it reads names and the catalog's text only (no model);
with it, each such request also gets what the abstention's gates read: whether pick turns it
away today, the off-catalog model's log-odds (toolcat.search.abstain.OffCatalog; its
threshold turns away, 0 is its leaning), the best tool's hybrid evidence in nats (the
services' gate, SERVICE_FLOOR) and that tool's server.

    nice -n 5 python benchmarks/named_missing_needed.py --halves dev fresh fresh2 \
        --sets metatool toolalpaca_eval bfcl_v4 seal_tools --offcatalog --scores
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, PUBLIC, SMALL_TALK, queries

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search import build_scorer, default_scorer
from toolcat.search.abstain import (
    catalog_kinds,
    features,
    lexical_features,
    shipped_off_catalog,
    without_quotes,
)
from toolcat.search.hybrid import HybridScorer
from toolcat.search.services import CatalogMentions, naming

MEASURE = ("heldout", "fresh7", "fresh8")  # the halves held out: never read here


def missing(requests: list[str], mentions: CatalogMentions) -> list[tuple[str, list[str]]]:
    """Each of `requests` that names in a service's slot a service no tool mentions, with
    those services."""
    found = []
    for request in requests:
        names = [s for s, slot in naming(request, without_quotes).items()
                 if slot and not mentions.mentions(s)]
        if names:
            found.append((request, names))
    return found


def scores(tools: list[Tool], texts: list[str]) -> list[str]:
    """What the abstention's gates read of each of `texts` (see the module docstring)."""
    scorer = build_scorer(default_scorer(len(tools))[0], tools)
    assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
    semantic = scorer.semantic
    model = shipped_off_catalog(scorer.embedder.ident)
    assert semantic is not None and model is not None, "a model with a shipped fit"
    away = scorer.away_reasons(texts)
    evidence = scorer.evidence(texts, cached=True)
    vectors = scorer.embedder.encode(texts)
    near = vectors @ semantic.vectors.T
    at, best = near.argmax(axis=1), near.max(axis=1)
    lexical = [lexical_features(scorer.lexical, q, int(a)) for q, a in zip(texts, at,
                                                                           strict=True)]
    odds = model.score(features(model, catalog_kinds(model, semantic.vectors), vectors, best,
                                lexical, texts, at))
    return [f"{'away' if why else 'kept'}, log-odds {o:+.2f}, {row.max():.2f} nats "
            f"({tools[int(row.argmax())].server})"
            for why, o, row in zip(away, odds, evidence, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", default=(),
                        choices=[h for h in HALVES if h not in MEASURE])
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=())
    parser.add_argument("--offcatalog", action="store_true",
                        help="the halves' requests for a missing service too")
    parser.add_argument("--scores", action="store_true",
                        help="what the gates read of each (loads the model)")
    args = parser.parse_args()
    groups = [(f"{half} needed", DATA / f"{half}-catalog.json",
               queries(DATA / f"{half}-queries.jsonl")) for half in args.halves]
    if args.offcatalog:
        groups += [(f"{half} off-catalog", DATA / f"{half}-catalog.json",
                    queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:])
                   for half in args.halves]
    groups += [(name, PUBLIC[name] / "catalog.json", queries(PUBLIC[name] / "queries.jsonl"))
               for name in args.sets]
    for name, catalog, asked in groups:
        tools = list(load_catalog(catalog).tools)
        found = missing(asked, CatalogMentions(tools))
        print(f"{name}: {len(found)} of {len(asked)} name a missing service in a slot",
              flush=True)
        read = scores(tools, [r for r, _ in found]) if args.scores and found \
            else [""] * len(found)
        for (request, names), gates in zip(found, read, strict=True):
            print(f"  {len(request.split())} words {names} {gates}: {request[:160]}",
                  flush=True)


if __name__ == "__main__":
    main()
