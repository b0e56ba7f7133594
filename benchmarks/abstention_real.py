"""The zero-shot abstention on real MCP servers (benchmarks/data/real-servers, SOURCE.md): per
half, the share of the requests that need a tool which `toolcat pick` keeps (unsafe tools
allowed, so that only the abstention and the floor turn a request away), and the share of the
half's off-catalog requests (`<half>-offcatalog.jsonl`: greetings and small talk, and requests
for a service no server of the half offers, written before any score was looked at) that it
turns away, with the requests that went the wrong way; the off-catalog share for small talk
and for requests for a missing service apart.

    nice -n 10 python benchmarks/abstention_real.py --halves dev fresh fresh2 fresh3
    nice -n 10 python benchmarks/abstention_real.py --halves fresh5  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh6  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh7  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh8  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh9  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh10  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh11  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh12  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh13  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh14  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh15  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh16  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh17  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh18  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh19  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh20  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves fresh21  # measured once
    nice -n 10 python benchmarks/abstention_real.py --halves dev --model minilm-tools
    nice -n 10 python benchmarks/abstention_real.py --halves --sets bfcl_v4 seal_tools \
        metatool toolalpaca_eval --sample 300   # the labeled public sets: needed kept only

`--sets` measures the share of a labeled public set's requests (each needs a tool of its
catalog) that pick keeps, on a seeded sample of `--sample` requests a set (all of a smaller
one): the sets have no off-catalog requests of their own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.model import Tool  # noqa: E402
from toolcat.search import build_scorer, default_scorer  # noqa: E402
from toolcat.search.pick import pick  # noqa: E402
from toolcat.search.ranking import Scorer  # noqa: E402

PUBLIC = {"bfcl_v4": BENCHDATA / "bfcl_v4", "seal_tools": BENCHDATA / "seal_tools",
          "metatool": BENCHDATA / "metatool",
          "toolalpaca_eval": REPO / "train" / "data" / "toolalpaca_eval"}
HALVES = ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
          "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
          "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21")
SMALL_TALK = 8  # the first requests of each off-catalog file: small talk; the rest ask for a
# service no server of the half offers (SOURCE.md)


def empty(query: str, tools: list[Tool], scorer: Scorer) -> bool:
    """Whether pick shows no tool for `query` (unsafe tools allowed: only the abstention and
    the floor leave a pick empty)."""
    return not pick(query, tools, max_candidates=5, scorer=scorer, allow_unsafe=True).picks


def queries(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)["query"] for line in handle if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", choices=HALVES, default=("dev",))
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=(),
                        help="labeled public sets: the share of their requests kept")
    parser.add_argument("--sample", type=int, default=300,
                        help="requests of each public set (a seeded sample)")
    parser.add_argument("--quiet", action="store_true", help="figures only")
    parser.add_argument("--model", help="the embedding model hybrid ranks with (one of "
                        "toolcat's model names, or a path; default: toolcat's default)")
    args = parser.parse_args()
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        options = {} if args.model is None else {"model": args.model}
        scorer = build_scorer(default_scorer(len(tools))[0], tools, **options)

        needed = queries(DATA / f"{half}-queries.jsonl")
        off = queries(DATA / f"{half}-offcatalog.jsonl")
        lost = [q for q in needed if empty(q, tools, scorer)]
        let = [q for q in off if not empty(q, tools, scorer)]
        talk = sum(q not in let for q in off[:SMALL_TALK])
        service = sum(q not in let for q in off[SMALL_TALK:])
        print(f"{half}: needed kept {1 - len(lost) / len(needed):.3f} ({len(needed) - len(lost)}"
              f" of {len(needed)}); off-catalog turned away {1 - len(let) / len(off):.3f} "
              f"({len(off) - len(let)} of {len(off)}: small talk {talk} of "
              f"{len(off[:SMALL_TALK])}, a missing service {service} of "
              f"{len(off[SMALL_TALK:])})", flush=True)
        if not args.quiet:
            for q in lost:
                print(f"  needed, turned away: {q}")
            for q in let:
                print(f"  off-catalog, let through: {q}")
    for name in args.sets:
        folder = PUBLIC[name]
        tools = list(load_catalog(folder / "catalog.json").tools)
        options = {} if args.model is None else {"model": args.model}
        scorer = build_scorer(default_scorer(len(tools))[0], tools, **options)
        asked = queries(folder / "queries.jsonl")
        random.Random(0).shuffle(asked)
        asked = asked[:args.sample]
        lost = [q for q in asked if empty(q, tools, scorer)]
        print(f"{name}: needed kept {1 - len(lost) / len(asked):.3f} "
              f"({len(asked) - len(lost)} of {len(asked)})", flush=True)
        if not args.quiet:
            for q in lost:
                print(f"  needed, turned away: {q[:160]}")


if __name__ == "__main__":
    main()
