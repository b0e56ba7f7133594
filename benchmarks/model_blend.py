"""A request's vector as a blend of `minilm-tools`' encoding and the base model's: the study.

`minilm-tools` changes how a request is encoded, never a tool; it was trained on the halves
dev, fresh .. fresh6 and gains most there. This measures `hybrid` (first / top 5 / nDCG@10,
as benchmarks/real_servers.py does) with the request's vector the unit mix
`(1 - w) * update + w * base` (`toolcat.search.embeddings.TOOLS_BLEND`) for each weight w,
per half and summed, and with `--disagree W` lists the requests whose first tool is right
under one of 0 and W and not the other, with what could explain them (language, length).

    python benchmarks/model_blend.py --halves fresh9 fresh10 --weights 0 0.2 0.4
    python benchmarks/model_blend.py --halves fresh9 --weights 0 0.3 --disagree 0.3

Choose a weight on halves no fit was trained on (fresh9 .. fresh18; docs/search.md, "The
embedding model"); heldout, fresh7 and fresh8 are measured once before and once after, and
--disagree refuses them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import real_servers  # noqa: E402

import toolcat.search.embeddings as embeddings  # noqa: E402
from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.languages import of_request  # noqa: E402
from toolcat.search import build_scorer, score_many  # noqa: E402

HELD_OUT = ("heldout", "fresh7", "fresh8")


def ranked(half: str, weight: float) -> tuple[list, list[dict], list[list]]:
    """The half's tools, requests and each request's first ten tools under `weight`."""
    embeddings.TOOLS_BLEND = weight
    embeddings._models.clear()  # a handle is kept per identity; the blend is part of it
    catalog = load_catalog(real_servers.DATA / f"{half}-catalog.json")
    with (real_servers.DATA / f"{half}-queries.jsonl").open(encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    tools = list(catalog.tools)
    scorer = build_scorer("hybrid", tools)
    tops = []
    for scores in score_many(scorer, [i["query"] for i in items]):
        order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
        tops.append([tools[i] for i in order[:10]])
    return tools, items, tops


def figures(items: list[dict], tops: list[list]) -> tuple[int, float, float]:
    """First places (a count), top 5 and nDCG@10 summed over the requests."""
    first, top5, ndcg = 0, 0.0, 0.0
    for item, top in zip(items, tops, strict=True):
        groups = real_servers.groups_of(item)
        first += real_servers.covered(set().union(*groups), top[:1])
        top5 += sum(real_servers.covered(g, top[:5]) for g in groups) / len(groups)
        gains, open_groups = [], list(groups)
        for p, t in enumerate(top):
            hit = next((g for g in open_groups if real_servers.covered(g, [t])), None)
            if hit is not None:
                open_groups.remove(hit)
                gains.append(1 / math.log2(p + 2))
        ndcg += sum(gains) / sum(1 / math.log2(p + 2) for p in range(min(len(groups), 10)))
    return first, top5, ndcg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=real_servers.HALVES, required=True)
    parser.add_argument("--weights", nargs="+", type=float, default=(0.0, 0.2, 0.4))
    parser.add_argument("--disagree", type=float, help="list the requests whose first place "
                        "differs between 0 and this weight (development halves only)")
    args = parser.parse_args()
    if args.disagree is not None and set(args.halves) & set(HELD_OUT):
        parser.error("--disagree reads requests one by one: not on heldout, fresh7, fresh8")
    weights = sorted({*args.weights, *(() if args.disagree is None else (0.0, args.disagree))})
    totals = {w: [0, 0.0, 0.0, 0] for w in weights}
    print(f"{'half':<9} " + " ".join(f"{'w=' + format(w, 'g'):>20}" for w in weights))
    for half in args.halves:
        cells, firsts = [], {}
        for weight in weights:
            _, items, tops = ranked(half, weight)
            first, top5, ndcg = figures(items, tops)
            n = len(items)
            for k, v in enumerate((first, top5, ndcg, n)):
                totals[weight][k] += v
            cells.append(f"{first / n:.3f}/{top5 / n:.3f}/{ndcg / n:.3f}")
            firsts[weight] = [(real_servers.covered(set().union(*real_servers.groups_of(i)),
                                                    t[:1]), t[0].qualified_name if t else "-")
                              for i, t in zip(items, tops, strict=True)]
        print(f"{half:<9} " + " ".join(f"{c:>20}" for c in cells), flush=True)
        if args.disagree is not None:
            for item, before, after in zip(items, firsts[0.0], firsts[args.disagree],
                                           strict=True):
                if before[0] != after[0]:
                    sign = "+" if after[0] else "-"
                    query = item["query"]
                    print(f"    {sign} [{of_request(query) or '?'} {len(query.split())}w] "
                          f"{query[:80]!r}: {before[1]} -> {after[1]}")
    print(f"{'all':<9} " + " ".join(
        f"{f'{t[0]}/{t[1] / t[3]:.3f}/{t[2] / t[3]:.3f}':>20}" for t in totals.values()))


if __name__ == "__main__":
    main()
