"""Where the needed tool is second to fifth: the requests whose first tool is a near miss.

For each half, the requests whose first needed tool the default ranks 2nd to 5th, counted by
how the first tool's name stands to the needed one's (`relation`: another server's tool, a
broader or narrower sibling, the same object with another action, the same action on another
object, ...); `--show` prints each with the tools above it, their evidence and `--explain`
clauses (slow: a request is read again per tool). `--json FILE` writes every request's rank of
its first needed tool, so two trees' runs can be compared request by request (`--compare
OLD.json NEW.json`). The development halves only: the held-out halves are measured by
`real_servers.py`, never read request by request.

    python benchmarks/sibling_places.py                       # every development half
    python benchmarks/sibling_places.py --halves dev fresh9 --show --json before.json
    python benchmarks/sibling_places.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.model import Tool  # noqa: E402
from toolcat.search import build_scorer  # noqa: E402
from toolcat.search.actions import named  # noqa: E402
from toolcat.search.text import stem, words  # noqa: E402

DEVELOPMENT = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
               "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16",
               "fresh17", "fresh18")


def labels(item: dict) -> set[str]:
    found = set(item.get("relevant", []))
    for group in item.get("relevant_groups", []):
        found |= set(group)
    return found


def relation(first: Tool, needed: Tool, acts: tuple[object, object]) -> str:
    """How the first tool's name stands to the needed tool's; `acts`: each one's action and
    object (`toolcat.search.actions.named`), None where its server does not name tools by
    action."""
    if first.server != needed.server:
        return "another server's tool first"
    mine, theirs = ({stem(w) for w in words(t.name)} for t in (first, needed))
    if mine < theirs or theirs < mine:
        return "a broader or narrower sibling (one name holds the other's words)"
    one, other = acts
    if not (isinstance(one, tuple) and isinstance(other, tuple)):
        return "a sibling on a server that does not name tools by action"
    if one[1] == other[1]:
        return "the same object, another action"
    if one[0] == other[0]:
        return "the same action, another object"
    return "another action and another object"


def half(name: str, show: bool, classes: Counter[str]) -> dict[str, int]:
    catalog = load_catalog(DATA / f"{name}-catalog.json")
    tools = list(catalog.tools)
    scorer = build_scorer("hybrid", tools)
    with (DATA / f"{name}-queries.jsonl").open(encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    acts = named(tools)
    ranks: dict[str, int] = {}
    evidence = scorer.evidence([i["query"] for i in items], cached=True)  # type: ignore[attr-defined]
    for row, item in zip(evidence, items, strict=True):
        order = sorted(range(len(tools)), key=lambda i: -row[i])
        wanted = labels(item)
        rank = next((p + 1 for p, i in enumerate(order)
                     if tools[i].name in wanted or tools[i].qualified_name in wanted), 0)
        ranks[f"{name}/{item['id']}"] = rank
        if not 2 <= rank <= 5:
            continue
        first, needed = order[0], order[rank - 1]
        classes[relation(tools[first], tools[needed], (acts[first], acts[needed]))] += 1
        if show:
            print(f"\n{name}/{item['id']} rank {rank}: {item['query']!r}")
            for p, i in enumerate(order[:rank]):
                tool = tools[i]
                same = "same server" if tool.server == tools[needed].server else tool.server
                reason, _ = scorer.explain(item["query"], i)  # type: ignore[attr-defined]
                mark = "*" if p == rank - 1 else " "
                print(f"  {mark}{p + 1} {tool.qualified_name} {row[i]:.2f} ({same})\n"
                      f"      {tool.description[:150]!r}\n      {reason[:400]}")
    return ranks


def compare(old_path: str, new_path: str) -> None:
    old = json.loads(Path(old_path).read_text())
    new = json.loads(Path(new_path).read_text())
    for key in sorted(set(old) & set(new)):
        if old[key] != new[key] and 1 in (old[key], new[key]):
            print(f"{key}: {old[key]} -> {new[key]}")
    gained = sum(1 for k in old if k in new and new[k] == 1 and old[k] != 1)
    lost = sum(1 for k in old if k in new and old[k] == 1 and new[k] != 1)
    print(f"first places: +{gained} -{lost}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=DEVELOPMENT, default=DEVELOPMENT)
    parser.add_argument("--json", help="write each request's rank of its needed tool here")
    parser.add_argument("--show", action="store_true",
                        help="print each request ranked 2nd to 5th, with --explain's clauses")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    ranks: dict[str, int] = {}
    classes: Counter[str] = Counter()
    for name in args.halves:
        ranks |= half(name, args.show, classes)
    firsts = sum(r == 1 for r in ranks.values())
    print(f"{len(ranks)} requests, first {firsts}, needed tool 2nd to 5th "
          f"{sum(classes.values())}:")
    for kind, count in classes.most_common():
        print(f"  {count:4} {kind}")
    if args.json:
        Path(args.json).write_text(json.dumps(ranks, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
