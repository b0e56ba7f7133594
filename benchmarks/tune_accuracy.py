"""What `toolcat tune` buys on the shared labeled sets: nDCG@10 and Recall@5, zero-shot hybrid
against hybrid+tuning, never scoring a query the tuning learned from.

Three measurements a set:

- cv: 5-fold cross-validation over every query (what `toolcat tune --cv 5` prints);
- recurring: a random half of the queries tunes, the other half is measured, first all of it,
  then only the queries whose tools all occur in the tuning half (most of an agent's traffic);
- disjoint: the tools are split in two at random; the queries of one half tune, the queries of
  the other half are measured (their tools never occur in the tuning: it must not hurt).

    python benchmarks/tune_accuracy.py                    # every set
    python benchmarks/tune_accuracy.py --sets metatool --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.tune import prepare_material, read_sources  # noqa: E402
from toolcat.tune.learn import Material, cross_validate, evaluate  # noqa: E402

SETS = ("bfcl_v4", "seal_tools", "metatool")
SEED = 5


def halves(material: Material, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """Queries split in two at random; the same text never on both sides."""
    by_text: dict[bytes, list[int]] = {}
    for i, digest in zip(material.measured, material.digests, strict=True):
        by_text.setdefault(digest, []).append(i)
    groups = list(by_text.values())
    order = rng.permutation(len(groups))
    first = sorted(i for j in order[: len(groups) // 2] for i in groups[j])
    second = sorted(i for j in order[len(groups) // 2:] for i in groups[j])
    return first, second


def by_tools(material: Material, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """Queries of one random half of the tools, and queries of the other half."""
    used = sorted({t for i in material.measured for t in material.requests[i].tools})
    one = set(rng.permutation(used)[: len(used) // 2].tolist())
    first = [i for i in material.measured
             if material.requests[i].tools and set(material.requests[i].tools) <= one]
    second = [i for i in material.measured
              if material.requests[i].tools and not set(material.requests[i].tools) & one]
    return first, second


def measured(material: Material, train: list[int], test: list[int]) -> dict[str, object]:
    zero, tuned, choice = evaluate(material, train + material.examples, test)
    (b_ndcg, b_recall), (a_ndcg, a_recall) = zero.mean, tuned.mean
    return {"queries": len(zero.ndcg), "before": [round(b_ndcg, 4), round(b_recall, 4)],
            "after": [round(a_ndcg, 4), round(a_recall, 4)],
            "delta_ndcg@10": round(a_ndcg - b_ndcg, 4), "weights": choice.weights.to_json(),
            "fallback": choice.fallback}


def run_set(name: str) -> dict[str, object]:
    started = time.perf_counter()
    catalog = load_catalog(BENCHDATA / name / "catalog.json")
    usage = read_sources(catalog, [BENCHDATA / name / "queries.jsonl"])
    material = prepare_material(catalog, usage)
    rng = np.random.default_rng(SEED)
    out: dict[str, object] = {}
    cv = cross_validate(material, 5)
    out["cv"] = {"queries": cv.requests, "before": [round(v, 4) for v in cv.before],
                 "after": [round(v, 4) for v in cv.after],
                 "delta_ndcg@10": round(cv.after[0] - cv.before[0], 4),
                 "fallback_folds": cv.fallbacks}
    train, test = halves(material, rng)
    out["recurring (all of the half)"] = measured(material, train, test)
    seen = {t for i in train for t in material.requests[i].tools}
    recur = [i for i in test if set(material.requests[i].tools) <= seen]
    out["recurring (tools seen)"] = measured(material, train, recur)
    train, test = by_tools(material, rng)
    out["disjoint tools"] = measured(material, train, test)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    results = {}
    for name in args.sets:
        results[name] = run_set(name)
        if not args.json:
            print(f"\n{name}  ({results[name]['seconds']} s)")
            print(f"  {'split':<28} {'queries':>8}  {'nDCG@10 before':>14} {'after':>7} "
                  f"{'delta':>7}  {'R@5 before':>10} {'after':>7}")
            for split, row in results[name].items():
                if not isinstance(row, dict):
                    continue
                before, after = row["before"], row["after"]
                print(f"  {split:<28} {row['queries']:>8,}  {before[0]:>14.3f} {after[0]:>7.3f} "
                      f"{after[0] - before[0]:>+7.3f}  {before[1]:>10.3f} {after[1]:>7.3f}")
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
