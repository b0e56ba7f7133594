"""Which held-out requests of a set two updates rank differently, and how.

    python train/compare_updates.py --set apibank OLD.npz NEW.npz --cache DIR

prints, for each held-out request (train/tool_model.py's split by tool) whose best rank of
a needed tool differs between the two updates inside `hybrid`'s fusion (BM25F evidence +
LAMBDA x cosine, as train/tool_model.py measures it), the request, the tool it needs, that
tool's rank and the first tool under each update; then the requests that fell and rose.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tool_model import (
    BENCHDATA,
    CONVERTED,
    TRAINED,
    LabeledSet,
    Lower,
    lexical,
    load_model,
    load_set,
    merge,
)


def ranks(data: LabeledSet, rows: list[int], vectors: np.ndarray,
          words: np.ndarray) -> tuple[list[int], list[int]]:
    """Per request, the best rank of a tool it needs and the first tool."""
    from toolcat.search.hybrid import LAMBDA

    fused = words + LAMBDA * np.clip(vectors @ data.vectors.T, 0.0, None)
    best, top = [], []
    for i, f in zip(rows, fused, strict=True):
        order = np.argsort(-f, kind="stable").tolist()
        best.append(min(order.index(t) for t in data.relevant[i]) + 1)
        top.append(order[0])
    return best, top


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--set", required=True, choices=[*TRAINED, *CONVERTED])
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    folder = CONVERTED.get(args.set, BENCHDATA / args.set)
    data = load_set(args.set, folder, True)
    model = load_model()
    encoder = model[0].auto_model.encoder
    kept = {name: module.weight.detach().clone() for name, module in encoder.named_modules()
            if isinstance(module, torch.nn.Linear)}
    lower = Lower(model, data, args.cache)
    words = lexical(data, data.test)
    figures = []
    for update in (args.old, args.new):
        with np.load(update) as stored:
            merge(encoder, stored)
        figures.append(ranks(data, data.test, lower.encode_all(data.test), words))
        with torch.no_grad():
            modules = dict(encoder.named_modules())
            for name, weight in kept.items():
                modules[name].weight.copy_(weight)
    (old_rank, old_top), (new_rank, new_top) = figures
    rows = []
    for n, i in enumerate(data.test):
        if old_rank[n] == new_rank[n]:
            continue
        rows.append({"request": data.texts[i],
                     "needs": [data.tools[t].qualified_name for t in data.relevant[i]],
                     "rank": [old_rank[n], new_rank[n]],
                     "first": [data.tools[old_top[n]].qualified_name,
                               data.tools[new_top[n]].qualified_name]})
        print(f"{old_rank[n]:>3} -> {new_rank[n]:<3} {data.texts[i][:90]!r}  needs "
              f"{rows[-1]['needs']}  first {rows[-1]['first']}")
    fell = sum(r["rank"][1] > r["rank"][0] for r in rows)
    print(f"{len(data.test)} held-out requests: {fell} fell, {len(rows) - fell} rose; first "
          f"{sum(r == 1 for r in old_rank)} -> {sum(r == 1 for r in new_rank)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
