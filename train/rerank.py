"""A learned re-ranking of hybrid's best candidates, measured leave-halves-out (left out).

Each of hybrid's mechanisms (BM25F, the cosine of several readings, verb agreement, siblings,
a server's name, focus, number, states, statements, values...) adds evidence in nats with a
weight set by hand. This script asks whether weights learned from labeled requests do better:
for each request, hybrid's TOP candidates by today's evidence get a feature vector (`features`:
each mechanism's evidence before it is summed, read from toolcat's own HybridScorer, and a few
facts about the candidate among the others), and a model adds a residual to today's evidence
(no weight at all is today's ranking), so only the order of the candidates can change.

Models (`--model`): `pairs`, a linear scorer fitted with the pairwise logistic loss (RankNet:
log(1 + exp(-(e_i - e_j + (x_i - x_j) w))) for every needed i and other j among one request's
candidates, each request weighing as much, L2 on the standardised weights); `list`, the
same linear scorer with the softmax (ListNet) loss, which weighs first place most; `gbm`,
LightGBM's LambdaMART with today's evidence as its initial score (lightgbm, `bench` extra).

Material: the real-server halves dev, fresh, ..., fresh6 (benchmarks/data/real-servers), and
the training requests of train/data's public sets (RestBench, API-Bank, ToolBench) split by
tool as train/tool_model.py splits them (`--benchdata-train`: also 300 training requests of
each of shared/benchdata's bfcl_v4, seal_tools and metatool, split the same way). Every
figure of a half is measured with weights fitted without it (`--folds`: on the other halves
and the public data; `--chronological`: on the halves written before it). `--heldout` fits
once on every half above and measures the heldout half, and benchmarks/search_accuracy.py's
sets (`--benchdata`, a seeded sample), which no fit without `--benchdata-train` sees. Nothing
from BFCL's live sets, Gorilla APIBench, Seal-Tools' test split or LiveMCPBench. Features
are computed once into `--cache` (a pickle the script itself writes; read only from there).

    nice -n 10 python train/rerank.py --cache /tmp/rerank.pkl --folds --chronological \
        --in-sample --out train/results-rerank.json
    nice -n 10 python train/rerank.py --cache /tmp/rerank.pkl --heldout --benchdata \
        --out train/results-rerank-heldout.json
    nice -n 10 python train/rerank.py --cache /tmp/rerank.pkl --folds --benchdata-train \
        --out train/results-rerank-benchdata-train.json
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "train"))

from tool_model import BENCHDATA, CONVERTED, SEED, TRAINED, load_set  # noqa: E402

from toolcat.search.text import split_name, stems  # noqa: E402

REAL = ROOT / "benchmarks" / "data" / "real-servers"
HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")  # as written
# `--benchdata`: benchmarks/search_accuracy.py's sets, never fitted on
MEASURED = ("bfcl_v4", "seal_tools", "metatool", "toolalpaca_eval", "demo")
TOP = 30  # candidates weighed again per request
REST = 10  # tools after the candidates kept, so that a demoted candidate is ranked right
SAMPLE = 300  # `--benchdata`: requests measured per set; `--benchdata-train`: fitted on
# each mechanism's evidence for the request read whole (nats; the clipped cosine 0..1), and
# what the whole request's evidence holds beyond them (another developer's new mechanism)
PIECES = ("words", "server", "action", "focus", "number", "states", "statements", "values",
          "look", "cosine", "narrower", "rest")
FEATURES = (*PIECES,
            "part",  # evidence a part of a split request gave beyond the whole request
            "behind",  # today's evidence minus the best candidate's
            "words_behind", "cosine_behind",  # the same for words alone, the cosine alone
            "words_rank", "cosine_rank",  # log(1 + rank among the candidates)
            "description", "name_words", "server_size",  # log(1 + count)
            "no_words",  # 1 when the request shares no word with the tool
            "name_asked",  # the share of the tool's name's words the request says
            "asked_named")  # the share of the request's words the tool's name says


@dataclass
class Request:
    evidence: np.ndarray  # today's: the candidates', then the REST next tools'
    features: np.ndarray  # the candidates' (one row each, one column per FEATURES)
    groups: np.ndarray  # bool (tools, groups): which needed group each tool answers


def pieces(scorer: Any, query: str) -> dict[str, np.ndarray]:
    """Each mechanism's evidence per tool for `query` read whole, from the scorer's own parts
    (toolcat.search.hybrid.HybridScorer._parts_of sums the lexical ones)."""
    from toolcat.search.focus import read
    from toolcat.search.hybrid import LAMBDA
    from toolcat.search.topic import view

    semantic = scorer.semantic
    reading = read(scorer.servers.strip(query))
    found = {
        "words": scorer._words_evidence(query, semantic),
        "server": scorer.servers.evidence(view(query) or query),
        "action": scorer._action(query, semantic),
        "focus": scorer.focus.evidence(reading),
        "number": scorer.number.evidence(query),
        "states": scorer.states.evidence(query),
        "statements": scorer.statements.evidence(query),
        "values": scorer.values.evidence(query),
        "look": scorer.centres.look(scorer.servers.alone(query)),
        "cosine": scorer.cosine([query], cached=True)[0],
    }
    lexical = sum(v for k, v in found.items() if k != "cosine")
    found["narrower"] = scorer.siblings.evidence(query, lexical + LAMBDA * found["cosine"])
    whole = scorer.whole_evidence([query], cached=True)[0]
    found["rest"] = whole - np.maximum(lexical + scorer.weight * found["cosine"]
                                       + found["narrower"], 0.0)
    found["whole"] = whole  # not a feature: what a split request's part adds is read from it
    return found


class Traits:
    """What a candidate's features read of the tool alone."""

    def __init__(self, tools: Sequence[Any]) -> None:
        sizes: dict[str, int] = {}
        for tool in tools:
            sizes[tool.server or ""] = sizes.get(tool.server or "", 0) + 1
        self.values = np.array(
            [(math.log1p(len((tool.description or "").split())),
              math.log1p(len(split_name(tool.name).split())),
              math.log1p(sizes[tool.server or ""] if tool.server else 1))
             for tool in tools], dtype=np.float64).reshape(len(tools), 3)
        self.names = [frozenset(stems(split_name(tool.name))) for tool in tools]


def rank(values: np.ndarray) -> np.ndarray:
    """Each value's rank among `values`, 0 for the largest (ties share the better rank)."""
    ordered = np.sort(values)[::-1]
    return np.searchsorted(-ordered, -values, side="left").astype(np.float64)


def features(query: str, found: dict[str, np.ndarray], evidence: np.ndarray,
             traits: Traits) -> tuple[np.ndarray, np.ndarray]:
    """The TOP tools of `evidence` (today's), best first, and their features."""
    count = min(TOP, len(evidence))
    top = np.argsort(-evidence, kind="stable")[:count]
    best = evidence[top]
    columns = [np.asarray(found[name][top], dtype=np.float64) for name in PIECES]
    words, cosine = found["words"][top], found["cosine"][top]
    columns += [best - found["whole"][top], best - best.max(initial=0.0),
                words - words.max(initial=0.0), cosine - cosine.max(initial=0.0),
                np.log1p(rank(words)), np.log1p(rank(cosine)),
                *traits.values[top].T, (words <= 0).astype(np.float64)]
    said = frozenset(stems(query[:4000]))
    names = [traits.names[i] for i in top.tolist()]
    columns += [np.array([len(n & said) / len(n) if n else 0.0 for n in names]),
                np.array([len(n & said) / len(said) if said else 0.0 for n in names])]
    return top, np.stack(columns, axis=1).reshape(count, len(FEATURES))


def extract(tools: list[Any], texts: list[str], groups: list[list[set[int]]]) -> list[Request]:
    """Each request's candidates and their features, by toolcat's own HybridScorer."""
    from toolcat.search import build_scorer

    scorer = build_scorer("hybrid", tools)
    traits = Traits(tools)
    out = []
    for start in range(0, len(texts), 64):
        chunk = texts[start:start + 64]
        rows = scorer.evidence(chunk, cached=True)
        for k, query in enumerate(chunk):
            top, found = features(query, pieces(scorer, query), rows[k], traits)
            others = np.ones(len(tools), dtype=bool)
            others[top] = False
            idx = np.flatnonzero(others)
            rest = idx[np.argsort(-rows[k][idx], kind="stable")[:REST]]
            order = np.concatenate([top, rest])
            wanted = groups[start + k]
            member = np.array([[int(i) in g for g in wanted] for i in order],
                              dtype=bool).reshape(len(order), len(wanted))
            out.append(Request(rows[k][order], found, member))
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


def public(name: str, folder: Path, sample: int | None = None) -> list[Request]:
    """The training requests of a public set, split by tool (`sample`: at most so many)."""
    data = load_set(name, folder, split=True)
    rows = data.train
    if sample is not None and len(rows) > sample:
        rows = sorted(np.random.default_rng(SEED).choice(rows, sample, replace=False).tolist())
    return extract(data.tools, [data.texts[i] for i in rows],
                   [[{j} for j in data.relevant[i]] for i in rows])


def measured_only(name: str) -> list[Request]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from search_accuracy import load_set as load_measured

    tools, texts, relevant = load_measured(name, None)
    index = {t.name: i for i, t in enumerate(tools)}
    rows = list(range(len(texts)))
    if len(rows) > SAMPLE:
        rows = sorted(np.random.default_rng(SEED).choice(rows, SAMPLE, replace=False).tolist())
    return extract(tools, [texts[i] for i in rows],
                   [[{index[n]} for n in sorted(relevant[i]) if n in index] for i in rows])


Lift = Callable[[np.ndarray], np.ndarray]  # a request's features -> each candidate's lift


def metrics(requests: list[Request], lift: Lift | None) -> dict[str, float]:
    """first, top5 (recall over groups) and nDCG@10 (each group found once), as
    benchmarks/real_servers.py counts them, of the re-ranked order."""
    first = top5 = ndcg = 0.0
    for r in requests:
        n = len(r.features)
        evidence = r.evidence.copy()
        if n and lift is not None:
            weighed = lift(r.features)
            evidence[:n] = np.maximum(evidence[:n] + weighed - weighed[0], 0.0)
        order = np.argsort(-evidence, kind="stable")
        order = order[evidence[order] > 0][:10]
        member = r.groups[order]
        if not r.groups.shape[1]:
            continue
        first += float(len(order) > 0 and bool(member[0].any()))
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


Groups = list[tuple[list[Request], float]]  # requests, and the weight they have together


def usable(groups: Groups) -> list[tuple[Request, float]]:
    """Requests with a needed and another candidate, each with its share of the weight."""
    rows = [(r, weight / len(requests)) for requests, weight in groups for r in requests
            if 0 < r.groups[:len(r.features)].any(axis=1).sum() < len(r.features)]
    total = sum(w for _, w in rows)
    return [(r, w / total) for r, w in rows]


def fit_pairs(groups: Groups, l2: float) -> Lift:
    from scipy.optimize import minimize

    diffs, gaps, weights = [], [], []
    for r, weight in usable(groups):
        needed = r.groups[:len(r.features)].any(axis=1)
        i, j = (a.ravel() for a in np.meshgrid(np.flatnonzero(needed),
                                               np.flatnonzero(~needed), indexing="ij"))
        diffs.append(r.features[i] - r.features[j])
        gaps.append(r.evidence[i] - r.evidence[j])
        weights.append(np.full(len(i), weight / len(i)))
    x, gap, weight = np.concatenate(diffs), np.concatenate(gaps), np.concatenate(weights)
    scale = np.maximum(x.std(axis=0), 1e-6)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = gap + x @ (w / scale)
        grad_margin = -weight * np.exp(-np.logaddexp(0.0, margin))
        return (float(weight @ np.logaddexp(0.0, -margin) + l2 * w @ w),
                (x.T @ grad_margin) / scale + 2 * l2 * w)

    fitted = minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B").x / scale
    return lambda features: np.asarray(features @ fitted)


def fit_list(groups: Groups, l2: float) -> Lift:
    from scipy.optimize import minimize

    rows = usable(groups)
    scale = np.maximum(np.concatenate([r.features for r, _ in rows]).std(axis=0), 1e-6)
    data = [(r.features / scale, r.evidence[:len(r.features)],
             r.groups[:len(r.features)].any(axis=1), w) for r, w in rows]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = l2 * float(w @ w), 2 * l2 * w
        for x, e, needed, weight in data:
            s = e + x @ w
            every, wanted = np.logaddexp.reduce(s), np.logaddexp.reduce(s[needed])
            value += weight * float(every - wanted)
            grad += weight * (x.T @ (np.exp(s - every)
                                     - np.where(needed, np.exp(s - wanted), 0.0)))
        return value, grad

    fitted = minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B").x / scale
    return lambda features: np.asarray(features @ fitted)


def fit_gbm(groups: Groups, rounds: float) -> Lift:
    import lightgbm

    rows = usable(groups)
    x = np.concatenate([r.features for r, _ in rows])
    y = np.concatenate([r.groups[:len(r.features)].any(axis=1) for r, _ in rows]).astype(int)
    data = lightgbm.Dataset(x, y, group=[len(r.features) for r, _ in rows],
                            init_score=np.concatenate([r.evidence[:len(r.features)]
                                                       for r, _ in rows]),
                            weight=np.concatenate([np.full(len(r.features), w * len(rows))
                                                   for r, w in rows]))
    booster = lightgbm.train({"objective": "lambdarank", "num_leaves": 7, "learning_rate": 0.05,
                              "min_data_in_leaf": 20, "lambdarank_truncation_level": 10,
                              "verbose": -1, "seed": SEED, "deterministic": True,
                              "num_threads": 1}, data, int(rounds))
    return lambda features: np.asarray(booster.predict(features))


FITS: dict[str, Callable[[Groups, float], Lift]] = {
    "pairs": fit_pairs, "list": fit_list, "gbm": fit_gbm}
SETTINGS = {"pairs": (0.01, 0.1, 1.0), "list": (0.01, 0.1, 1.0), "gbm": (30.0, 100.0)}


def load_all(cache: Path | None, benchdata: bool, benchdata_train: bool
             ) -> dict[str, dict[str, list[Request]]]:
    """{"real": halves, "public": training requests, "measured": benchdata, "heldout",
    "benchdata": benchdata's training requests}, each read once into `cache`."""
    loaded: dict[str, dict[str, list[Request]]] = {
        "real": {}, "public": {}, "measured": {}, "heldout": {}, "benchdata": {}}
    if cache is not None and cache.is_file():
        with cache.open("rb") as handle:
            loaded = {**loaded, **pickle.load(handle)}
    loaders: list[tuple[str, str, Callable[[], list[Request]]]] = [
        *(("real", h, functools.partial(real_half, h)) for h in HALVES),
        ("heldout", "heldout", functools.partial(real_half, "heldout")),
        *(("public", n, functools.partial(public, n, f)) for n, f in CONVERTED.items()),
        *(("measured", n, functools.partial(measured_only, n))
          for n in (MEASURED if benchdata else ())),
        *(("benchdata", n, functools.partial(public, n, BENCHDATA / n, SAMPLE))
          for n in (TRAINED if benchdata_train else ()))]
    for kind, name, load in loaders:
        if name not in loaded[kind]:
            started = time.time()
            loaded[kind][name] = load()
            print(f"{name}: {len(loaded[kind][name])} requests "
                  f"({time.time() - started:.0f} s)", flush=True)
    if cache is not None:
        with cache.open("wb") as handle:
            pickle.dump(loaded, handle)
    return loaded


def pooled(rows: dict[str, dict[str, float]], names: Sequence[str]) -> dict[str, float]:
    count = sum(rows[n]["requests"] for n in names)
    return {m: round(sum(rows[n][m] * rows[n]["requests"] for n in names) / count, 4)
            for m in ("first", "top5", "ndcg@10")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", nargs="+", choices=tuple(FITS), default=tuple(FITS))
    parser.add_argument("--folds", action="store_true", help="each half left out of its fit")
    parser.add_argument("--chronological", action="store_true",
                        help="each half fitted on the halves written before it")
    parser.add_argument("--in-sample", action="store_true",
                        help="fit on every half and measure the same halves: what the "
                             "features can fit at all")
    parser.add_argument("--heldout", action="store_true",
                        help="fit on every half and measure heldout (once)")
    parser.add_argument("--benchdata", action="store_true",
                        help="with --heldout: also measure shared/benchdata's sets")
    parser.add_argument("--benchdata-train", action="store_true",
                        help="fit also on the training requests of shared/benchdata's "
                             "bfcl_v4, seal_tools and metatool (split by tool; then "
                             "--benchdata's figures for them are no longer unseen)")
    parser.add_argument("--real-weight", type=float, default=3.0,
                        help="a half's requests weigh as many public ones times this")
    parser.add_argument("--cache", type=Path, help="keep the features here between runs")
    parser.add_argument("--out", type=Path, help="the figures, as JSON")
    args = parser.parse_args()
    started = time.time()
    data = load_all(args.cache, args.benchdata, args.benchdata_train)
    real, public_sets = data["real"], dict(data["public"])
    if args.benchdata_train:
        public_sets.update(data["benchdata"])
    common: Groups = [(r, float(len(r))) for r in public_sets.values()]

    def halves(names: Sequence[str]) -> Groups:
        return [(real[h], args.real_weight * len(real[h])) for h in names]

    today = {h: metrics(real[h], None) for h in HALVES}
    results: dict[str, Any] = {"features": list(FEATURES), "top": TOP,
                               "real_weight": args.real_weight,
                               "today": {**today, "all": pooled(today, HALVES)}}
    print("today", " ".join(f"{h} {today[h]['first']:.3f}" for h in HALVES),
          "| all", results["today"]["all"], flush=True)
    for model in args.model:
        for setting in SETTINGS[model]:
            key = f"{model} {setting}"
            if args.folds:
                fold = {h: metrics(real[h], FITS[model](
                    common + halves([x for x in HALVES if x != h]), setting)) for h in HALVES}
                fold["all"] = pooled(fold, HALVES)
                results.setdefault("folds", {})[key] = fold
                print("folds", key, " ".join(f"{h} {fold[h]['first']:.3f}" for h in HALVES),
                      "| all", fold["all"], flush=True)
            if args.chronological:
                later = HALVES[1:]
                chrono = {h: metrics(real[h], FITS[model](
                    common + halves(HALVES[:HALVES.index(h)]), setting)) for h in later}
                chrono["all"] = pooled(chrono, later)
                results.setdefault("chronological", {})[key] = chrono
                print("chronological", key,
                      " ".join(f"{h} {chrono[h]['first']:.3f}" for h in later),
                      "| all", chrono["all"], "today", pooled(today, later), flush=True)
            if args.in_sample:
                lift = FITS[model](common + halves(HALVES), setting)
                fitted = {h: metrics(real[h], lift) for h in HALVES}
                fitted["all"] = pooled(fitted, HALVES)
                results.setdefault("in_sample", {})[key] = fitted
                print("in-sample", key, "| all", fitted["all"], flush=True)
            if args.heldout:
                lift = FITS[model](common + halves(HALVES), setting)
                measured = {"heldout": (metrics(data["heldout"]["heldout"], None),
                                        metrics(data["heldout"]["heldout"], lift))}
                for name, requests in data["measured"].items():
                    measured[name] = (metrics(requests, None), metrics(requests, lift))
                results.setdefault("heldout", {})[key] = {
                    name: {"today": a, "fitted": b} for name, (a, b) in measured.items()}
                for name, (a, b) in measured.items():
                    print("measured", key, name, "first/top5/nDCG@10 today",
                          f"{a['first']:.3f}/{a['top5']:.3f}/{a['ndcg@10']:.3f} fitted",
                          f"{b['first']:.3f}/{b['top5']:.3f}/{b['ndcg@10']:.3f}", flush=True)
    results["seconds"] = round(time.time() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
