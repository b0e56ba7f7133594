"""What the rule for requests whose object is of a kind no tool is about
(toolcat.search.uncovered) turns away, before and after, in one run: per real-server half
(benchmarks/data/real-servers) the needed requests kept, the small talk and the requests for a
missing service turned away, with the rule's reasons left out (before) and counted (after), and
per public labeled set the needed requests kept (a seeded sample, as
benchmarks/abstention_real.py draws it). A request counts as turned away as pick turns it away
(toolcat.search.abstain.shows_nothing: the abstention's reason, or no tool at pick's floor),
with the whole batch embedded at once. `--quiet` prints the figures only (for the halves held
out). `--small` measures the needed requests of benchmarks/data/small-catalogs (requests naming
the data they act on by a name, over catalogs of one to ten tools) the same way.

    nice -n 10 python benchmarks/uncovered_study.py --halves dev fresh2 --sets metatool --small
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, PUBLIC, REPO, SMALL_TALK, queries

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search import build_scorer, default_scorer
from toolcat.search.abstain import shows_nothing
from toolcat.search.hybrid import HybridScorer
from toolcat.search.pick import MIN_SCORE

SMALL = REPO / "benchmarks" / "data" / "small-catalogs" / "named-values.jsonl"
# what only the rule's reason says (toolcat.search.uncovered.why_uncovered)
RULE = ", a kind of service no tool here is about"


def scorer_of(tools: list[Tool]) -> HybridScorer:
    scorer = build_scorer(default_scorer(len(tools))[0], tools)
    assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
    return scorer


def away(scorer: HybridScorer, asked: list[str]
         ) -> tuple[np.ndarray, np.ndarray, list[str | None]]:
    """Which of `asked` pick turns away without the rule and with it, and why."""
    best = np.array([max(s) for s in scorer.scores_many(asked)])
    reasons = scorer.away_reasons(asked)
    before = shows_nothing(best, MIN_SCORE, [r is not None and RULE not in r for r in reasons])
    after = shows_nothing(best, MIN_SCORE, [r is not None for r in reasons])
    return before, after, reasons


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", choices=HALVES, default=())
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=())
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--small", action="store_true",
                        help="the needed requests over small catalogs that name a value")
    parser.add_argument("--quiet", action="store_true", help="figures only")
    args = parser.parse_args()
    if args.small:
        small(args.quiet)
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        scorer = scorer_of(tools)
        needed = queries(DATA / f"{half}-queries.jsonl")
        off = queries(DATA / f"{half}-offcatalog.jsonl")
        before, after, reasons = away(scorer, needed + off)
        n, t = len(needed), len(needed) + SMALL_TALK
        print(f"{half}: needed kept {n - before[:n].sum()} -> {n - after[:n].sum()} of {n}; "
              f"small talk away {before[n:t].sum()} -> {after[n:t].sum()} of {SMALL_TALK}; "
              f"missing service away {before[t:].sum()} -> {after[t:].sum()} of "
              f"{len(off) - SMALL_TALK}", flush=True)
        if not args.quiet:
            for k, request in enumerate(needed + off):
                if after[k] and not before[k]:
                    kind = "needed" if k < n else "off-catalog"
                    print(f"  {kind}, now turned away: {request!r}: {reasons[k]}")
            let = [q for q, a in zip(off[SMALL_TALK:], after[t:], strict=True) if not a]
            for request, evidence in zip(let, scorer.evidence(let), strict=True):
                print(f"  off-catalog, let through: {request!r} (best "
                      f"{tools[int(evidence.argmax())].qualified_name}, "
                      f"{evidence.max():.2f} nats)")
    for name in args.sets:
        scorer = scorer_of(list(load_catalog(PUBLIC[name] / "catalog.json").tools))
        asked = queries(PUBLIC[name] / "queries.jsonl")
        random.Random(0).shuffle(asked)
        asked = asked[:args.sample]
        before, after, reasons = away(scorer, asked)
        n = len(asked)
        print(f"{name}: needed kept {n - before.sum()} -> {n - after.sum()} of {n}", flush=True)
        if not args.quiet:
            for k, request in enumerate(asked):
                if after[k] and not before[k]:
                    print(f"  needed, now turned away: {request[:160]!r}: {reasons[k]}")


def small(quiet: bool) -> None:
    """Needed requests over small catalogs kept without the rule and with it."""
    by_catalog: dict[tuple[str, str | None], list[str]] = {}
    with SMALL.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            by_catalog.setdefault((row["catalog"], row.get("server")), []).append(row["query"])
    kept_before = kept_after = total = 0
    for (catalog, server), asked in by_catalog.items():
        tools = [t for t in load_catalog(REPO / catalog).tools
                 if server is None or t.server == server]
        before, after, reasons = away(scorer_of(tools), asked)
        total += len(asked)
        kept_before += len(asked) - int(before.sum())
        kept_after += len(asked) - int(after.sum())
        if not quiet:
            for k, request in enumerate(asked):
                if after[k]:
                    print(f"  {catalog} {server or ''}: turned away {request!r}: {reasons[k]}")
    print(f"small catalogs: needed kept {kept_before} -> {kept_after} of {total}", flush=True)


if __name__ == "__main__":
    main()
