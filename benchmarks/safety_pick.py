"""What three-state safety changes for `toolcat pick -k 5` on real MCP servers
(benchmarks/data/real-servers, see its SOURCE.md): per half, how many tools are safe, unsafe
and of unknown safety, and for toolcat's defaults before (unknown treated as unsafe: left out,
`mcp: {unannotated: unsafe}`) and after (unknown picked and marked): the share of requests whose
first pick is a needed tool, the recall of the needed tools in the 5 picks, the requests with no
pick at all, and those where a needed tool was left out as unsafe.

    nice -n 10 python benchmarks/safety_pick.py
    nice -n 10 python benchmarks/safety_pick.py --data PATH --halves dev
    nice -n 10 python benchmarks/safety_pick.py --halves fresh   # the fresh half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh2  # the fresh2 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh3  # the fresh3 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh4  # the fresh4 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh5  # the fresh5 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh6  # the fresh6 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh7  # the fresh7 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh8  # the fresh8 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh9  # the fresh9 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh10  # the fresh10 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh11  # the fresh11 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh12  # the fresh12 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh13  # the fresh13 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh14  # the fresh14 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh15  # the fresh15 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh16  # the fresh16 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh17  # the fresh17 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh18  # the fresh18 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh19  # the fresh19 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh20  # the fresh20 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh21  # the fresh21 half, measured once
    nice -n 10 python benchmarks/safety_pick.py --halves thirteen  # issue 37's servers, once
    nice -n 10 python benchmarks/safety_pick.py --halves fresh9 --empty  # and why pick showed none
    nice -n 10 python benchmarks/safety_pick.py --halves fresh9 --model all-MiniLM-L6-v2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.model import Tool  # noqa: E402
from toolcat.providers.mcp import trust_unannotated  # noqa: E402
from toolcat.search import build_scorer, default_scorer  # noqa: E402
from toolcat.search.pick import pick  # noqa: E402

SLOTS = 5
POLICIES = {"before": "unsafe", "after": "unknown"}


def groups_of(item: dict) -> list[set[str]]:
    return [{name} for name in item.get("relevant", [])] + [
        set(group) for group in item.get("relevant_groups", [])]


def matches(label: str, tool: Tool) -> bool:
    return label == tool.qualified_name if ":" in label else label == tool.name


def covered(group: set[str], tools: list[Tool]) -> bool:
    return any(matches(label, t) for t in tools for label in group)


def measure(tools: tuple[Tool, ...], items: list[dict], *, model: str | None = None
            ) -> tuple[dict[str, float], list[str]]:
    """The shares of `items` (see the module docstring), and a line for each request pick
    shows no tool for, with pick's message (which rule turned it away); `model`: the
    embedding model hybrid ranks with (None: the default)."""
    options = {} if model is None else {"model": model}
    scorer = build_scorer(default_scorer(len(tools))[0], list(tools), **options)
    totals = Counter[str]()
    empty: list[str] = []
    for item in items:
        result = pick(item["query"], list(tools), max_candidates=SLOTS, scorer=scorer)
        picked = [p.tool for p in result.picks]
        groups = groups_of(item)
        needed = set().union(*groups)
        totals["first"] += covered(needed, picked[:1])
        totals["top5"] += sum(covered(g, picked) for g in groups) / len(groups)
        totals["empty"] += not picked
        if not picked:
            empty.append(f"    no pick: {item['query']} (needs {sorted(needed)}): "
                         f"{result.message}")
        totals["hidden"] += any(t.unsafe and any(matches(label, t) for label in needed)
                                for t in tools)
        totals["unknown_picked"] += any(t.safety == "unknown" for t in picked
                                        if covered(needed, [t]))
    return {key: totals[key] / len(items) for key in
            ("first", "top5", "empty", "hidden", "unknown_picked")}, empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=REPO / "benchmarks" / "data" / "real-servers")
    parser.add_argument("--halves", nargs="+",
                        choices=("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5",
                                 "fresh6", "fresh7", "fresh8", "fresh9", "fresh10",
                                 "fresh11", "fresh12", "fresh13", "fresh14", "fresh15",
                                 "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21",
                                 "thirteen"),
                        default=["dev", "heldout"])
    parser.add_argument("--empty", action="store_true",
                        help="print each request with no pick and pick's message")
    parser.add_argument("--model", help="the embedding model hybrid ranks with (default: "
                        "toolcat's default)")
    args = parser.parse_args()
    for half in args.halves:
        catalog = load_catalog(args.data / f"{half}-catalog.json")
        items = [json.loads(line) for line in
                 (args.data / f"{half}-queries.jsonl").read_text().splitlines() if line.strip()]
        states = Counter(t.safety for t in catalog.tools)
        print(f"{half}: {len(catalog.tools)} tools: {states['safe']} safe, {states['unsafe']} "
              f"unsafe, {states['unknown']} unknown; {len(items)} requests "
              f"(default scorer {default_scorer(len(catalog.tools))[0]})")
        for label, policy in POLICIES.items():
            tools = trust_unannotated(catalog.tools, policy)
            got, empty = measure(tools, items, model=args.model)
            print(f"  {label:6} ({policy:7}): first {got['first']:.3f}  top5 {got['top5']:.3f}  "
                  f"no pick {got['empty']:.3f}  needed tool left out {got['hidden']:.3f}  "
                  f"needed tool picked with unknown safety {got['unknown_picked']:.3f}")
            if args.empty and policy == "unknown":  # toolcat's default: why pick showed none
                print("\n".join(empty))


if __name__ == "__main__":
    main()
