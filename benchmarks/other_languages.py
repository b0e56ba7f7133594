"""The requests of the real-server halves that are not in English, one by one.

For each request CLD2 is sure is in another language (`toolcat.languages.of_request`): its
language, the rank the default (`hybrid`) gives the first tool it needs, whether every tool it
needs is in the first 5, and each of its words read through the bilingual dictionary
(toolcat.search.bilingual) with the readings the needed tools state. Then the totals: first
places and top 5 of the requests in another language, against the English ones.

    python benchmarks/other_languages.py --halves dev fresh9 fresh14
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from real_servers import DATA, HALVES, SLOTS, covered, groups_of, matches  # noqa: E402

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.languages import of_request  # noqa: E402
from toolcat.search import build_scorer, score_many  # noqa: E402
from toolcat.search.bilingual import Bilingual  # noqa: E402
from toolcat.search.bm25 import BM25Scorer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=HALVES, default=("dev",))
    args = parser.parse_args()
    totals = {"other": [0, 0.0, 0], "English": [0, 0.0, 0]}  # first, top 5, requests
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        with (DATA / f"{half}-queries.jsonl").open(encoding="utf-8") as handle:
            items = [json.loads(line) for line in handle if line.strip()]
        scorer = build_scorer("hybrid", tools)
        # the dictionary's readings, also where the scorer has none (a tree before it)
        bilingual = Bilingual(BM25Scorer(tools))
        print(f"\n{half}: {len(tools)} tools, {len(items)} requests")
        for scores, item in zip(score_many(scorer, [i["query"] for i in items]), items,
                                strict=True):
            order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
            groups = groups_of(item)
            needed = set().union(*groups)
            rank = next((p + 1 for p, i in enumerate(order) if covered(needed, [tools[i]])), None)
            top5 = sum(covered(g, [tools[i] for i in order[:SLOTS]]) for g in groups) / len(groups)
            code = of_request(item["query"])
            kind = "other" if code not in ("", "en") else "English"
            totals[kind][0] += rank == 1
            totals[kind][1] += top5
            totals[kind][2] += 1
            if kind == "English":
                continue
            wanted = [i for i, t in enumerate(tools) if any(matches(n, t) for n in needed)]
            stated = sorted({f"{word} -> {reading}" for i in wanted
                             for word, reading, _ in bilingual.read_as(item["query"], i)})
            read = "; ".join(f"{word} -> {', '.join(r for r, _ in targets)}"
                             for word, _, targets in bilingual.readings(item["query"]))
            print(f"  {code:<3} rank {rank or '-':>4}  top5 {top5:.2f}  {item['query'][:80]!r}\n"
                  f"      read: {read or '-'}\n"
                  f"      needed tools state: {', '.join(stated) or '-'}")
    for kind, (first, top5, n) in totals.items():
        if n:
            print(f"{kind}: {n} requests, first {first} ({first / n:.3f}), top 5 {top5 / n:.3f}")


if __name__ == "__main__":
    main()
