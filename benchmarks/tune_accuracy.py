"""What `toolcat tune` buys on the shared labeled sets: nDCG@10 and Recall@5, zero-shot hybrid
against hybrid+tuning, never scoring a query the tuning learned from.

Three measurements a set:

- cv: 5-fold cross-validation over every query (what `toolcat tune --cv 5` prints);
- halves: a random half of the queries tunes, the other half is measured: all of it, then per
  kind: the queries whose tools all occur in the tuning half ("recurring") and the others
  ("new tools": a tool with no usage);
- disjoint: the tools are split in two at random; the queries of one half tune, the queries of
  the other half are measured (their tools never occur in the tuning: it must not hurt).

Every measurement also gives the false-accept rate: the share of requests no tool fits that
pick would show a tool for (zero-shot at pick's 0.05, tuned at the tuning's fitted threshold),
on tests/data/tune/chitchat.jsonl (50 phrases the threshold was never fitted on), and apart
on BFCL's irrelevance categories (tests/data/tune/bfcl_irrelevance.jsonl, 1,124 requests;
see tests/data/tune/SOURCE.md for what they measure in a pooled catalog).

    python benchmarks/tune_accuracy.py                    # every set
    python benchmarks/tune_accuracy.py --sets metatool --json
    python benchmarks/tune_accuracy.py --convert-irrelevance bfcl_eval-*.whl  # the data file
    python benchmarks/tune_accuracy.py --sets metatool --shown 5 --no-cv

`--shown K` adds the halves and the disjoint split again on a simulated call log that says
which tools were shown: every tuning request as if the zero-shot hybrid had shown its top K
tools and the labeled ones were called (those shown and not called are its negatives).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search.pick import MIN_SCORE  # noqa: E402
from toolcat.tune import prepare_material, read_sources  # noqa: E402
from toolcat.tune.evaluation import (  # noqa: E402
    by_kind,
    cross_validate,
    evaluate,
    no_tool_scores,
)
from toolcat.tune.material import Material  # noqa: E402

CHITCHAT = REPO / "tests" / "data" / "tune" / "chitchat.jsonl"
IRRELEVANCE = REPO / "tests" / "data" / "tune" / "bfcl_irrelevance.jsonl"

SETS = ("bfcl_v4", "seal_tools", "metatool")
SEED = 5


def halves(material: Material, pool: list[int], rng: np.random.Generator
           ) -> tuple[list[int], list[int]]:
    """Queries split in two at random; the same text never on both sides."""
    by_text: dict[str, list[int]] = {}
    for i in pool:
        by_text.setdefault(_digest(material, i), []).append(i)
    groups = list(by_text.values())
    order = rng.permutation(len(groups))
    first = sorted(i for j in order[: len(groups) // 2] for i in groups[j])
    second = sorted(i for j in order[len(groups) // 2:] for i in groups[j])
    return first, second


def _digest(material: Material, i: int) -> str:
    return " ".join(material.requests[i].text.lower().split())


def by_tools(material: Material, pool: list[int], rng: np.random.Generator
             ) -> tuple[list[int], list[int]]:
    """Queries of one random half of the tools, and queries of the other half."""
    used = sorted({t for i in pool for t in material.requests[i].tools})
    one = set(rng.permutation(used)[: len(used) // 2].tolist())
    first = [i for i in pool
             if material.requests[i].tools and set(material.requests[i].tools) <= one]
    second = [i for i in pool
              if material.requests[i].tools and not set(material.requests[i].tools) & one]
    return first, second


def measured(material: Material, train: list[int], test: list[int],
             negatives: list[int], irrelevant: Sequence[int] = ()) -> dict[str, object]:
    run = evaluate(material, train + material.examples, test, negatives=negatives)
    kinds = by_kind([run])
    if irrelevant:
        before, after, away = no_tool_scores(material, train + material.examples, irrelevant,
                                             run.choice.weights, run.abstention)
        kinds["irrelevance"] = {"requests": len(irrelevant),
                                "zero_shot_false_accept": round(float(np.mean(
                                    before >= MIN_SCORE)), 4),
                                "threshold_false_accept": round(float(np.mean(
                                    after >= run.threshold)), 4),
                                "tuned_false_accept": round(float(np.mean(
                                    (after >= run.threshold) & ~away)), 4)}
    (b_ndcg, b_recall), (a_ndcg, a_recall) = run.zero.mean, run.tuned.mean
    return {"queries": len(run.zero.ndcg), "before": [round(b_ndcg, 4), round(b_recall, 4)],
            "after": [round(a_ndcg, 4), round(a_recall, 4)],
            "delta_ndcg@10": round(a_ndcg - b_ndcg, 4), "kinds": kinds,
            "weights": run.choice.weights.to_json(), "fallback": run.choice.fallback,
            "threshold": run.threshold,
            "margin": None if run.abstention is None else run.abstention.margin,
            "checks": run.choice.checks}


def with_shown(material: Material, k: int) -> Material:
    """`material` as if each request's log line said the zero-shot top `k` were shown."""
    from dataclasses import replace

    top = np.argsort(-material.base, axis=1, kind="stable")[:, :k]
    requests = tuple(
        replace(r, declined=tuple(t for t in top[i].tolist()
                                  if t not in r.tools and material.base[i, t] > 0))
        if r.groups else r for i, r in enumerate(material.requests))
    return replace(material, requests=requests)


def run_set(name: str, shown: int = 0, cv: bool = True) -> dict[str, object]:
    started = time.perf_counter()
    catalog = load_catalog(BENCHDATA / name / "catalog.json")
    usage = read_sources(catalog, [BENCHDATA / name / "queries.jsonl", CHITCHAT, IRRELEVANCE])
    material = prepare_material(catalog, usage)
    chat = _texts(CHITCHAT)
    off = _texts(IRRELEVANCE)
    negatives = [i for i in material.measured if material.requests[i].text in chat]
    irrelevant = [i for i in material.measured if material.requests[i].text in off
                  and not material.requests[i].groups]
    pool = [i for i in material.measured
            if material.requests[i].text not in chat and material.requests[i].text not in off]
    rng = np.random.default_rng(SEED)
    out: dict[str, object] = {}
    train, test = halves(material, pool, rng)
    out["halves"] = measured(material, train, test, negatives, irrelevant)
    train, test = by_tools(material, pool, rng)
    out["disjoint tools"] = measured(material, train, test, negatives, irrelevant)
    if shown:
        logged = with_shown(material, shown)
        rng = np.random.default_rng(SEED)  # the same two splits
        train, test = halves(logged, pool, rng)
        out[f"halves, top {shown} shown"] = measured(logged, train, test, negatives)
        train, test = by_tools(logged, pool, rng)
        out[f"disjoint, top {shown} shown"] = measured(logged, train, test, negatives)
    if not cv:
        out["seconds"] = round(time.perf_counter() - started, 1)
        return out
    # in cross-validation the requests no tool fits are requests like the others: the
    # training folds' fit the threshold, the held-out fold's measure it
    folded = cross_validate(material, 5)
    out["cv"] = {"queries": folded.requests,
                 "before": [round(v, 4) for v in folded.before],
                 "after": [round(v, 4) for v in folded.after],
                 "delta_ndcg@10": round(folded.after[0] - folded.before[0], 4),
                 "kinds": folded.kinds, "fallback_folds": folded.fallbacks}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def _texts(path: Path) -> set[str]:
    return {json.loads(line)["query"] for line in path.read_text().splitlines()}


def convert_irrelevance(wheel: Path) -> None:
    """Write IRRELEVANCE from the bfcl-eval wheel (`pip download bfcl-eval --no-deps`): the
    last user message of each irrelevance record's first turn, labeled with no tool."""
    import zipfile

    lines = []
    with zipfile.ZipFile(wheel) as archive:
        for part in ("irrelevance", "live_irrelevance"):
            text = archive.read(f"bfcl_eval/data/BFCL_v4_{part}.json").decode()
            for line in text.splitlines():
                record = json.loads(line)
                users = [m["content"].strip() for m in record["question"][0]
                         if m.get("role") == "user" and isinstance(m.get("content"), str)
                         and m["content"].strip()]
                if users:
                    lines.append(json.dumps({"id": record["id"], "query": users[-1],
                                             "relevant": []}, ensure_ascii=False))
    IRRELEVANCE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _kind(row: dict[str, object], kind: str) -> str:
    entry = row["kinds"].get(kind)  # type: ignore[attr-defined]
    if not entry or not entry.get("requests"):
        return "-"
    if kind in ("no tool", "irrelevance"):  # zero-shot -> the threshold alone -> with abstention
        middle = entry.get("threshold_false_accept")
        shown = "" if middle is None else f"{middle:.2f}->"
        return (f"{entry['zero_shot_false_accept']:.2f}->{shown}"
                f"{entry['tuned_false_accept']:.2f} ({entry['requests']})")
    if kind == "turned away":
        found = row["kinds"].get("no tool", {}).get("turned_away")  # type: ignore[attr-defined]
        return "-" if found is None else f"{found:.3f}"
    return (f"{entry['zero_shot_ndcg@10']:.3f}->{entry['tuned_ndcg@10']:.3f}"
            f" ({entry['requests']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--shown", type=int, default=0, metavar="K",
                        help="also measure on a simulated log that showed the zero-shot top K")
    parser.add_argument("--no-cv", action="store_true", help="skip 5-fold cross-validation")
    parser.add_argument("--convert-irrelevance", type=Path, metavar="WHEEL",
                        help="write tests/data/tune/bfcl_irrelevance.jsonl from bfcl-eval's wheel")
    args = parser.parse_args()
    if args.convert_irrelevance:
        convert_irrelevance(args.convert_irrelevance)
        return
    results = {}
    for name in args.sets:
        results[name] = run_set(name, args.shown, not args.no_cv)
        if not args.json:
            print(f"\n{name}  ({results[name]['seconds']} s)")
            print(f"  {'split':<16} {'queries':>8}  {'nDCG@10 before':>14} {'after':>7} "
                  f"{'delta':>7}  {'recurring':>20} {'new tools':>20} {'false accept':>18} "
                  f"{'irrelevance':>24} {'turned away':>11}")
            for split, row in results[name].items():
                if not isinstance(row, dict):
                    continue
                before, after = row["before"], row["after"]
                print(f"  {split:<16} {row['queries']:>8,}  {before[0]:>14.3f} {after[0]:>7.3f} "
                      f"{after[0] - before[0]:>+7.3f}  {_kind(row, 'recurring'):>20} "
                      f"{_kind(row, 'new tools'):>20} {_kind(row, 'no tool'):>18} "
                      f"{_kind(row, 'irrelevance'):>24} {_kind(row, 'turned away'):>11}")
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
