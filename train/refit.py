"""Refit every fit toolcat ships beside an embedding model, after the model changed (a
retrained models/minilm-tools.npz): one command, in the order they depend on each other.

1. the squashing's midpoint (train/fusion.py --measures midpoint --write:
   toolcat/search/models/fusion.<model>.json), which the floor of pick and resolve reads;
2. the zero-shot abstention, small talk and off-catalog parts (train/abstention.py --write:
   toolcat/search/models/zero-shot-{abstain,offcatalog}.<model>.npz);
3. the word-level thresholds of toolcat.search.verbs (train/word_thresholds.py): measured
   only, by agreement with the base model's decisions; the shipped values are one for every
   model, changed by hand when the grid's best differs clearly.

Each writes its report under train/ (results-fusion-midpoint.json,
results-abstention-<model>.json, results-word-thresholds.json). The first two fit on training
data only: the public sets' training tools and toolcat's built-in small talk, no real-server
half (train/abstention.py --real adds some, not shipped: docs/search.md, abstain7); the third
reads the real-server halves no measurement reports on (dev, fresh..fresh6, fresh9, fresh10),
never heldout, fresh7 or fresh8. About 20 to 30 minutes on 2 shared cores.

    nice -n 10 python train/refit.py --model minilm-tools
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="minilm-tools",
                        help="the embedding model whose fits are refitted (default: "
                        "minilm-tools)")
    args = parser.parse_args()
    steps = [
        [sys.executable, str(HERE / "fusion.py"), "--out",
         str(HERE / "results-fusion-midpoint.json"), "--measures", "midpoint", "--model",
         args.model, "--write"],
        [sys.executable, str(HERE / "abstention.py"), "--model", args.model, "--write",
         "--report", str(HERE / f"results-abstention-{args.model}.json")],
        [sys.executable, str(HERE / "word_thresholds.py"), "--model", args.model, "--out",
         str(HERE / "results-word-thresholds.json")],
    ]
    for step in steps:
        print("$", " ".join(step[1:]), flush=True)
        subprocess.run(step, check=True)


if __name__ == "__main__":
    main()
