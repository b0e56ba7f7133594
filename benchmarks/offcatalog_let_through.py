"""The requests for a missing service that `toolcat pick` lets through on real-server halves
(benchmarks/data/real-servers, the 12 after each `<half>-offcatalog.jsonl`'s small talk), each
with what the abstention's word rules read in it: the tool with the most hybrid evidence and
that evidence in nats (toolcat.search.services.SERVICE_FLOOR gates at 8.5), the request's
words (abstain.SHORT_WORDS gates at 10), the services and products it names
(toolcat.search.services.named_services) and whether the catalog mentions each, and the
words no tool mentions with their Zipf frequency (toolcat.search.unmentioned). What it
prints is what a person sorts into classes; nothing here is a score of the abstention.

    nice -n 5 python benchmarks/offcatalog_let_through.py dev fresh fresh2 fresh3
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
from toolcat.search.abstain import without_quotes
from toolcat.search.hybrid import HybridScorer
from toolcat.search.services import CatalogMentions, named_services
from toolcat.search.unmentioned import unmentioned, zipf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("halves", nargs="+", choices=HALVES)
    parser.add_argument("--model", help="the embedding model hybrid ranks with")
    args = parser.parse_args()
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        options = {} if args.model is None else {"model": args.model}
        scorer = build_scorer(default_scorer(len(tools))[0], tools, **options)
        assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
        off = queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:]
        let = [q for q in off if not empty(q, tools, scorer)]
        print(f"== {half}: {len(let)} of {len(off)} let through", flush=True)
        if not let:
            continue
        mentions = CatalogMentions(tools)
        for request, evidence in zip(let, scorer.evidence(let), strict=True):
            best = int(np.argmax(evidence))
            named = [f"{s}:{'mentioned' if mentions.mentions(s) else 'missing'}"
                     for s in named_services(request, without_quotes)]
            words = [f"{w} {zipf(w.lower(), 'en'):.1f}"
                     for w in unmentioned(request, scorer.lexical, without_quotes)]
            print(f"  {request!r}\n     best {tools[best].qualified_name} "
                  f"{evidence[best]:.2f} nats; {len(request.split())} words; named {named}; "
                  f"unmentioned {words}", flush=True)


if __name__ == "__main__":
    main()
