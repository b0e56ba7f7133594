"""What the words a request names that no tool mentions would add to the shipped off-catalog
model (toolcat.search.abstain) on the real-server halves a choice may read: for each request
that needs a tool and each request for a missing service (`<half>-offcatalog.jsonl`, after its
small talk), the shipped model's score, how specific its unmentioned words are
(toolcat.search.unmentioned.specificity) and its best tool's BM25F evidence; then, for a few
weights w, how many requests `pick` keeps today would score over the threshold with w times
that specificity added (docs/search.md, abstain8). heldout, fresh7 and fresh8 are refused.

    nice -n 5 python benchmarks/unmentioned_weight.py --halves dev fresh fresh2 fresh3 \
        fresh4 fresh5 fresh6 fresh9 fresh10 fresh11
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "train"))

from real_pairs import ALLOWED  # noqa: E402

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import abstain, build_scorer, default_scorer  # noqa: E402
from toolcat.search.hybrid import HybridScorer  # noqa: E402
from toolcat.search.pick import pick  # noqa: E402
from toolcat.search.unmentioned import specificity, unmentioned  # noqa: E402

WEIGHTS = (0.15, 0.3, 0.5, 0.75, 1.0)  # log-odds a Zipf unit of specificity adds
SMALL_TALK = 8  # the first requests of each off-catalog file (benchmarks/abstention_real.py)


def queries(path: Path) -> list[str]:
    return [json.loads(line)["query"] for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=ALLOWED, required=True)
    parser.add_argument("--quiet", action="store_true", help="the sweep only")
    args = parser.parse_args()
    threshold = 0.0
    rows = []  # (half, needed?, kept today?, score, specificity, evidence, request)
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        scorer = build_scorer(default_scorer(len(tools))[0], tools)
        assert isinstance(scorer, HybridScorer), "the default scorer is hybrid at this size"
        model = abstain.shipped_off_catalog(scorer.embedder.ident)
        assert model is not None, "no off-catalog model for the default embedding model"
        asked = [(q, True) for q in queries(DATA / f"{half}-queries.jsonl")]
        asked += [(q, False) for q in queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:]]
        texts = [q for q, _ in asked]
        semantic = scorer.semantic
        near = semantic.similarity(texts)
        vectors = np.stack([scorer.embedder.query_vector(q) for q in texts])
        at = near.argmax(axis=1)
        lexical = [abstain.lexical_features(scorer.lexical, q, int(i))
                   for q, i in zip(texts, at, strict=True)]
        score = model.score(abstain.features(
            model, abstain.catalog_kinds(model, semantic.vectors), vectors, near.max(axis=1),
            lexical, texts, at))
        evidence = scorer.evidence(texts, cached=False).max(axis=1)
        for k, (text, needed) in enumerate(asked):
            kept = bool(pick(text, tools, max_candidates=5, scorer=scorer,
                             allow_unsafe=True).picks)
            words = specificity(unmentioned(text, scorer.lexical, abstain.without_quotes))
            rows.append((half, needed, kept, float(score[k]), words, float(evidence[k]), text))
        threshold = model.threshold
    for half, needed, kept, found, words, best, text in rows:
        if kept and not args.quiet and (not needed or words >= 1.0):
            print(f"{half:8} {'needed ' if needed else 'missing'} score {found:6.2f} "
                  f"specificity {words:4.2f} evidence {best:5.2f}  {text[:90]}")
    kept_needed = [r for r in rows if r[1] and r[2]]
    kept_missing = [r for r in rows if not r[1] and r[2]]
    print(f"kept today: {len(kept_needed)} needed, {len(kept_missing)} missing services; "
          f"needed naming 1 Zipf unit or more: {sum(r[4] >= 1.0 for r in kept_needed)}")
    for w in WEIGHTS:
        lost = sum(r[3] + w * r[4] > threshold for r in kept_needed)
        gained = sum(r[3] + w * r[4] > threshold for r in kept_missing)
        print(f"w {w}: needed turned away {lost}, missing services turned away {gained} more")


if __name__ == "__main__":
    main()
