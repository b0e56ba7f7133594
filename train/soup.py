"""Average stored updates (train/tool_model.py's .npz files) into one, exactly.

    python train/soup.py OUT.npz OLD.npz NEW.npz [--weights 0.5 0.5]

Each layer's update is the product B @ A; the weighted mean of several products is itself
a low-rank product: the A factors stacked, and the B factors, each times its weight, side by
side. The result's rank is the sum of the inputs' ranks (two rank-8 updates make a rank-16
file, twice the size), and toolcat merges it as any other update
(toolcat.search.embeddings.merge_delta). Averaging an update with the shipped one pulls it
half way back, as merging at a scale pulls it toward the base model.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def soup(updates: list[Path], weights: list[float]) -> dict[str, np.ndarray]:
    stored = [dict(np.load(path, allow_pickle=False)) for path in updates]
    names = sorted({key.rsplit(".", 1)[0] for key in stored[0]})
    if any(sorted({key.rsplit(".", 1)[0] for key in arrays}) != names for arrays in stored):
        raise SystemExit("the updates change different layers")
    out = {}
    for name in names:
        out[f"{name}.A"] = np.concatenate([a[f"{name}.A"] for a in stored]).astype(np.float16)
        out[f"{name}.B"] = np.concatenate(
            [np.float32(w) * a[f"{name}.B"].astype(np.float32)
             for a, w in zip(stored, weights, strict=True)], axis=1).astype(np.float16)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("updates", type=Path, nargs="+")
    parser.add_argument("--weights", type=float, nargs="+",
                        help="one per update (default: equal, summing to 1)")
    args = parser.parse_args()
    weights = args.weights or [1 / len(args.updates)] * len(args.updates)
    if len(weights) != len(args.updates):
        raise SystemExit("one weight per update")
    np.savez_compressed(args.out, **soup(args.updates, weights))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
