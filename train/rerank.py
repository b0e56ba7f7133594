"""Fit the re-ranker's weights (toolcat.search.rerank), measured leave-halves-out.

Features of each labeled request's TOP candidates come from toolcat's own HybridScorer
(`candidates`: every mechanism's evidence before it is summed), on:

- the real-server halves dev, fresh, fresh2, ..., fresh6 (benchmarks/data/real-servers; never
  heldout, which is measured once, by hand, with the shipped weights);
- the training requests of the public sets in train/data (RestBench, API-Bank, ToolBench),
  split by tool as train/tool_model.py splits them. shared/benchdata's sets are not fitted on:
  benchmarks/search_accuracy.py measures the shipped weights on them as unseen material.

The fit is a pairwise logistic loss (RankNet with a linear scorer): for every needed tool i
and other tool j among one request's candidates, log(1 + exp(-(e_i - e_j + (x_i - x_j) w))),
where e is today's evidence (so w = 0 is today's ranking), each request weighing as much in
total, plus L2 on w. `--folds` measures each real half with weights fitted on the other halves
and the public data only; `--ship` fits on everything above and writes the shipped file.

    nice -n 10 python train/rerank.py --folds --out train/results-rerank.json
    nice -n 10 python train/rerank.py --ship
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "train"))

from tool_model import CONVERTED, load_set  # noqa: E402

from toolcat.search.rerank import FEATURES, SHIPPED, TOP  # noqa: E402

REAL = ROOT / "benchmarks" / "data" / "real-servers"
HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")
REST = 10  # tools after the candidates kept, so that a demoted candidate is ranked right
L2 = 0.05
REAL_WEIGHT = 3.0  # a real-server request weighs as much as this many public ones
IDENT: set[str] = set()  # the embedding model's identity the features were computed with


@dataclass
class Request:
    evidence: np.ndarray  # candidates' then the rest's evidence, today's
    features: np.ndarray  # candidates' features
    groups: np.ndarray  # bool (tools, groups): which needed group each tool answers


def extract(tools: list, texts: list[str], groups: list[list[set[int]]]) -> list[Request]:
    """Each request's candidates (toolcat's own `HybridScorer.candidates`)."""
    from toolcat.search import build_scorer

    scorer = build_scorer("hybrid", tools)
    scorer.rerank = False  # today's evidence, whatever is shipped
    IDENT.add(scorer.embedder.ident)
    out = []
    for start in range(0, len(texts), 64):
        chunk = texts[start:start + 64]
        found = scorer.candidates(chunk, cached=True)
        rows = scorer.evidence(chunk, cached=True)
        for k, cands in enumerate(found):
            full = rows[k]
            rest = np.array([], dtype=np.int64)
            if len(tools) > len(cands.indices):
                others = np.ones(len(tools), dtype=bool)
                others[cands.indices] = False
                idx = np.flatnonzero(others)
                rest = idx[np.argsort(-full[idx], kind="stable")[:REST]]
            order = np.concatenate([cands.indices, rest])
            wanted = groups[start + k]
            member = np.array([[int(i) in g for g in wanted] for i in order],
                              dtype=bool).reshape(len(order), len(wanted))
            evidence = np.concatenate([cands.evidence, full[rest]])
            out.append(Request(evidence, cands.features, member))
    return out


def real_half(half: str) -> list[Request]:
    from toolcat.catalog.load import load_catalog

    tools = list(load_catalog(str(REAL / f"{half}-catalog.json")).tools)
    items = [json.loads(line) for line in (REAL / f"{half}-queries.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]

    def indices(labels: set[str]) -> set[int]:
        return {i for i, t in enumerate(tools) for label in labels
                if (label == t.qualified_name if ":" in label else label == t.name)}

    groups = [[indices({n}) for n in item.get("relevant", [])]
              + [indices(set(g)) for g in item.get("relevant_groups", [])] for item in items]
    return extract(tools, [item["query"] for item in items], groups)


def public(name: str, folder: Path) -> list[Request]:
    data = load_set(name, folder, split=True)
    return extract(data.tools, [data.texts[i] for i in data.train],
                   [[{j} for j in data.relevant[i]] for i in data.train])


def metrics(requests: list[Request], weights: np.ndarray) -> dict[str, float]:
    """first, top5 (recall over groups) and nDCG@10 (each group found once), as
    benchmarks/real_servers.py counts them, of the re-ranked order."""
    first = top5 = ndcg = 0.0
    for r in requests:
        n = len(r.features)
        evidence = r.evidence.copy()
        if n:
            weighed = r.features @ weights
            evidence[:n] = np.maximum(evidence[:n] + weighed - weighed[0], 0.0)
        order = np.argsort(-evidence, kind="stable")
        order = order[evidence[order] > 0][:10]
        member = r.groups[order]
        if not r.groups.shape[1]:
            continue
        first += float(len(order) > 0 and member[0].any())
        top5 += float(member[:5].any(axis=0).mean())
        found, gains = np.zeros(r.groups.shape[1], dtype=bool), 0.0
        for p, row in enumerate(member):
            hit = np.flatnonzero(row & ~found)
            if len(hit):
                found[hit[0]] = True
                gains += 1 / math.log2(p + 2)
        ndcg += gains / sum(1 / math.log2(p + 2) for p in range(min(r.groups.shape[1], 10)))
    count = len(requests)
    return {"first": first / count, "top5": top5 / count, "ndcg@10": ndcg / count,
            "requests": count}


def pairs(requests: list[Request], weight: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (needed, other) pair of candidates: feature differences, today's evidence
    difference, and each pair's weight (a request's pairs weigh `weight` together)."""
    diffs, gaps, weights = [], [], []
    for r in requests:
        n = len(r.features)
        needed = r.groups[:n].any(axis=1)
        good, bad = np.flatnonzero(needed), np.flatnonzero(~needed)
        if not len(good) or not len(bad):
            continue
        i, j = (a.ravel() for a in np.meshgrid(good, bad, indexing="ij"))
        diffs.append(r.features[i] - r.features[j])
        gaps.append(r.evidence[i] - r.evidence[j])
        weights.append(np.full(len(i), weight / len(i)))
    return np.concatenate(diffs), np.concatenate(gaps), np.concatenate(weights)


def fit(groups: list[tuple[list[Request], float]], l2: float = L2) -> np.ndarray:
    from scipy.optimize import minimize

    parts = [pairs(requests, weight) for requests, weight in groups if requests]
    diffs = np.concatenate([p[0] for p in parts])
    gaps = np.concatenate([p[1] for p in parts])
    weights = np.concatenate([p[2] for p in parts])
    weights = weights / weights.sum()
    scale = np.maximum(diffs.std(axis=0), 1e-6)  # fitted on standardised features

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = gaps + diffs @ (w / scale)
        value = np.logaddexp(0.0, -margin)
        grad_margin = -weights * np.exp(-np.logaddexp(0.0, margin))
        grad = (diffs.T @ grad_margin) / scale + 2 * l2 * w
        return float(weights @ value + l2 * w @ w), grad

    found = minimize(loss, np.zeros(diffs.shape[1]), jac=True, method="L-BFGS-B")
    fitted: np.ndarray = found.x / scale
    return fitted


def load_all() -> tuple[dict[str, list[Request]], dict[str, list[Request]]]:
    real = {}
    for half in HALVES:
        started = time.time()
        real[half] = real_half(half)
        print(f"{half}: {len(real[half])} requests ({time.time() - started:.0f} s)", flush=True)
    other = {}
    for name, folder in CONVERTED.items():
        started = time.time()
        other[name] = public(name, folder)
        print(f"{name}: {len(other[name])} training requests ({time.time() - started:.0f} s)",
              flush=True)
    return real, other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", action="store_true", help="measure each half left out")
    parser.add_argument("--ship", action="store_true", help=f"fit on all and write {SHIPPED}")
    parser.add_argument("--out", type=Path, help="the figures, as JSON")
    parser.add_argument("--l2", type=float, nargs="+", default=[L2])
    parser.add_argument("--real-weight", type=float, nargs="+", default=[REAL_WEIGHT])
    args = parser.parse_args()
    started = time.time()
    real, other = load_all()
    public_groups = [(requests, float(len(requests))) for requests in other.values()]
    zero = np.zeros(len(FEATURES))
    results: dict[str, Any] = {"features": list(FEATURES), "top": TOP, "today": {
        half: metrics(real[half], zero) for half in HALVES}, "folds": {}}
    for name, requests in other.items():
        results["today"][name] = metrics(requests, zero)
    if args.folds:
        for l2 in args.l2:
            for real_weight in args.real_weight:
                key = f"l2={l2} real_weight={real_weight}"
                fold: dict[str, Any] = {}
                for half in HALVES:
                    fitted = fit(public_groups + [
                        (real[h], real_weight * len(real[h])) for h in HALVES if h != half],
                        l2)
                    fold[half] = metrics(real[half], fitted)
                total = {m: sum(fold[h][m] * fold[h]["requests"] for h in HALVES)
                         / sum(fold[h]["requests"] for h in HALVES)
                         for m in ("first", "top5", "ndcg@10")}
                today = {m: sum(results["today"][h][m] * results["today"][h]["requests"]
                                for h in HALVES)
                         / sum(results["today"][h]["requests"] for h in HALVES)
                         for m in ("first", "top5", "ndcg@10")}
                fold["all"], results["today"]["all"] = total, today
                results["folds"][key] = fold
                print(key, "  ".join(
                    f"{h} {fold[h]['first']:.3f}/{results['today'][h]['first']:.3f}"
                    for h in HALVES), f"| all first {total['first']:.3f} "
                    f"(today {today['first']:.3f}) top5 {total['top5']:.3f} "
                    f"({today['top5']:.3f}) nDCG {total['ndcg@10']:.3f} "
                    f"({today['ndcg@10']:.3f})", flush=True)
    if args.ship:
        fitted = fit(public_groups + [(real[h], args.real_weight[0] * len(real[h]))
                                      for h in HALVES], args.l2[0])
        results["shipped"] = dict(zip(FEATURES, fitted.round(6).tolist(), strict=True))
        (ident,) = IDENT
        np.savez(SHIPPED, model=np.array(ident), features=np.array(FEATURES),
                 weights=fitted)
        print("shipped", results["shipped"])
    results["seconds"] = round(time.time() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
