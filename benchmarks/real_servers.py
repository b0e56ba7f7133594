"""Ranking on real MCP servers: benchmarks/data/real-servers (see its SOURCE.md).

For each half (dev, heldout, fresh, fresh2, ..., fresh21) and scorer: first (the first
tool is one the request needs), top5 (every tool the request needs is in the first 5: recall@5 over
`relevant_groups`), nDCG@10, and, with the cut (`toolcat.search.cut`), the share of requests
whose needed tools all survive it and the mean number of tools it keeps of 5. `pick` runs
toolcat's defaults (unsafe tools left out) with 5 slots, as `toolcat pick -k 5` does.

    python benchmarks/real_servers.py                      # dev and heldout, bm25 semantic hybrid
    python benchmarks/real_servers.py --halves dev --scorers bm25 hybrid
    python benchmarks/real_servers.py --halves fresh       # the fresh half: measure it once
    python benchmarks/real_servers.py --halves fresh2      # the fresh2 half: measure it once
    python benchmarks/real_servers.py --halves fresh3      # the fresh3 half: measure it once
    python benchmarks/real_servers.py --halves fresh4      # the fresh4 half: measure it once
    python benchmarks/real_servers.py --halves fresh5      # the fresh5 half: measure it once
    python benchmarks/real_servers.py --halves fresh6      # the fresh6 half: measure it once
    python benchmarks/real_servers.py --halves fresh7      # the fresh7 half: measure it once
    python benchmarks/real_servers.py --halves fresh8      # the fresh8 half: measure it once
    python benchmarks/real_servers.py --halves fresh9      # the fresh9 half: measure it once
    python benchmarks/real_servers.py --halves fresh10     # the fresh10 half: measure it once
    python benchmarks/real_servers.py --halves fresh11     # the fresh11 half: measure it once
    python benchmarks/real_servers.py --halves fresh12     # the fresh12 half: measure it once
    python benchmarks/real_servers.py --halves fresh13     # the fresh13 half: measure it once
    python benchmarks/real_servers.py --halves fresh14     # the fresh14 half: measure it once
    python benchmarks/real_servers.py --halves fresh15     # the fresh15 half: measure it once
    python benchmarks/real_servers.py --halves fresh16     # the fresh16 half: measure it once
    python benchmarks/real_servers.py --halves fresh17     # the fresh17 half: measure it once
    python benchmarks/real_servers.py --halves fresh18     # the fresh18 half: measure it once
    python benchmarks/real_servers.py --halves fresh19     # the fresh19 half: measure it once
    python benchmarks/real_servers.py --halves fresh20     # the fresh20 half: measure it once
    python benchmarks/real_servers.py --halves fresh21     # the fresh21 half: measure it once
    python benchmarks/real_servers.py --halves thirteen    # issue 37's servers: measure it once
    python benchmarks/real_servers.py --model minilm-tools all-MiniLM-L6-v2  # side by side

The fresh halves are left out of the default on purpose: each is for one measurement at the end,
not for looking at while ranking changes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

import toolcat  # noqa: E402
from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import SEMANTIC, build_scorer, score_many  # noqa: E402
from toolcat.search.cut import fit  # noqa: E402

SLOTS = 5
HALVES = ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
          "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
          "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "thirteen")


def groups_of(item: dict) -> list[set[str]]:
    return [{name} for name in item.get("relevant", [])] + [
        set(group) for group in item.get("relevant_groups", [])]


def matches(label: str, tool: toolcat.Tool) -> bool:
    return label == tool.qualified_name if ":" in label else label == tool.name


def covered(group: set[str], tools: list[toolcat.Tool]) -> bool:
    return any(matches(label, t) for t in tools for label in group)


def measure(tools: list, items: list[dict], scorer_name: str,
            misses: bool = False, model: str | None = None) -> dict[str, float]:
    scorer = build_scorer(scorer_name, tools, **({"model": model} if model else {}))
    totals = {"first": 0.0, "top5": 0.0, "ndcg@10": 0.0, "cut_top5": 0.0, "kept": 0.0}
    for scores, item in zip(score_many(scorer, [i["query"] for i in items]), items,
                            strict=True):
        order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
        ranked = [tools[i] for i in order[:10]]
        groups = groups_of(item)
        first = covered(set().union(*groups), ranked[:1])
        totals["first"] += float(first)
        if misses and not (first and all(covered(g, ranked[:SLOTS]) for g in groups)):
            print_miss(item["query"], groups, [(tools[i], scores[i]) for i in order],
                       "past5" if first else "miss")
        totals["top5"] += sum(covered(g, ranked[:SLOTS]) for g in groups) / len(groups)
        gains, open_groups = [], list(groups)  # each group is found once: a request that
        for p, t in enumerate(ranked):  # any of five tools answers gains once, not five times
            hit = next((g for g in open_groups if covered(g, [t])), None)
            if hit is not None:
                open_groups.remove(hit)
                gains.append(1 / math.log2(p + 2))
        ideal = sum(1 / math.log2(p + 2) for p in range(min(len(groups), 10)))
        totals["ndcg@10"] += sum(gains) / ideal
        kept = fit([float(scores[i]) for i in order[:SLOTS]])
        totals["cut_top5"] += sum(covered(g, ranked[:kept]) for g in groups) / len(groups)
        totals["kept"] += kept
    return {k: v / len(items) for k, v in totals.items()}


def print_miss(query: str, groups: list[set[str]], ranked: list[tuple],
               label: str = "miss") -> None:
    """One request whose first tool is not one it needs (`miss`), or whose first is but
    another tool it needs is below the top 5 (`past5`): its top 3 and where the needed tool
    of each group is."""
    top = ", ".join(f"{t.qualified_name} {s:.3f}" for t, s in ranked[:3])
    where = "; ".join(
        f"{'/'.join(sorted(g))} " + str(next((p + 1 for p, (t, _) in enumerate(ranked)
                                               if covered(g, [t])), "-"))
        for g in groups)
    print(f"    {label} {query[:90]!r}\n      top: {top}\n      expected: {where}")


def picked(catalog: toolcat.Catalog, items: list[dict]) -> dict[str, float]:
    first = top5 = kept = 0.0
    for item in items:
        result = toolcat.pick(item["query"], catalog, max_candidates=SLOTS)
        tools = list(result.tools)
        groups = groups_of(item)
        first += float(covered(set().union(*groups), tools[:1]))
        top5 += sum(covered(g, tools) for g in groups) / len(groups)
        kept += len(tools)
    n = len(items)
    return {"first": first / n, "top5": top5 / n, "kept": kept / n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=HALVES, default=("dev", "heldout"))
    parser.add_argument("--scorers", nargs="+", default=("bm25", "semantic", "hybrid"))
    parser.add_argument("--no-pick", action="store_true", help="skip pick's defaults")
    parser.add_argument("--model", nargs="+", default=[None],
                        help="embedding models of semantic, hybrid and cascade, each measured "
                        "in turn (e.g. minilm-tools all-MiniLM-L6-v2; default: the default "
                        "model)")
    parser.add_argument("--misses", action="store_true",
                        help="print each request whose first tool is not one it needs "
                             "(miss) or that needs a tool below the top 5 (past5), with the "
                             "top 3 and the needed tools' ranks")
    args = parser.parse_args()
    for half in args.halves:
        catalog = load_catalog(DATA / f"{half}-catalog.json")
        with (DATA / f"{half}-queries.jsonl").open(encoding="utf-8") as handle:
            items = [json.loads(line) for line in handle if line.strip()]
        print(f"\n{half}: {len(catalog.tools)} tools, {len(items)} requests")
        print(f"  {'scorer':<10} {'first':>6} {'top5':>6} {'nDCG@10':>8} {'cut top5':>9} "
              f"{'kept':>5}")
        # a scorer without a model (bm25) is measured once, whatever --model names
        runs = [(n, m) for n in args.scorers for m in (args.model if n in SEMANTIC else [None])]
        for name, model in runs:
            row = measure(list(catalog.tools), items, name, args.misses, model)
            label = f"{name}@{model}" if model and len(args.model) > 1 else name
            print(f"  {label:<10} {row['first']:6.3f} {row['top5']:6.3f} {row['ndcg@10']:8.3f} "
                  f"{row['cut_top5']:9.3f} {row['kept']:5.2f}", flush=True)
        if not args.no_pick:
            row = picked(catalog, items)
            print(f"  {'pick -k 5':<10} {row['first']:6.3f} {row['top5']:6.3f} {'':>8} "
                  f"{'':>9} {row['kept']:5.2f}", flush=True)


if __name__ == "__main__":
    main()
