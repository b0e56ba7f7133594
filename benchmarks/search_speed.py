"""Speed of search: per-query latency of each scorer, and `toolcat search` from a cold start.

Targets (issue 4): on the 4,076-tool seal_tools catalog, after the index is built, lexical
scorers under 5 ms per query at the median and semantic under 20 ms with cached embeddings;
`toolcat search` on the demo catalog in a fresh process (lexical) under 0.4 s wall.

    python benchmarks/search_speed.py                 # everything
    python benchmarks/search_speed.py --scorers bm25 fuzzy --queries 100

Last, a warm `toolcat pick` on seal_tools (its index stored) in fresh processes, with and
without a value in the request, as ratios to `toolcat list` of the same catalog.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import SCORERS, build_scorer, rank  # noqa: E402

SEAL = BENCHDATA / "seal_tools"
LEXICAL = ("regex", "keyword", "fuzzy", "bm25", "relevance")
TARGET_MS = {"semantic": 20.0, "hybrid": 20.0}  # lexical: 5 ms


def per_query(scorer_name: str, tools: list, queries: list[str]) -> tuple[float, list[float]]:
    """Seconds to build the index, and milliseconds per query (top 10, with reasons)."""
    started = time.perf_counter()
    scorer = build_scorer(scorer_name, tools)
    built = time.perf_counter() - started
    rank(scorer, queries[0], limit=10)  # warm caches (first query, stemmer, model threads)
    times = []
    for query in queries:
        started = time.perf_counter()
        rank(scorer, query, limit=10)
        times.append((time.perf_counter() - started) * 1000)
    return built, times


def cold(commands: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Wall seconds of `python -m toolcat ...` in fresh processes, the commands interleaved
    so that a busy moment of the machine weighs on all of them alike."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    walls: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(runs):
        for label, argv in commands.items():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "toolcat", *argv], env=env, check=True,
                           stdout=subprocess.DEVNULL, cwd=REPO)
            walls[label].append(time.perf_counter() - started)
    return walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scorers", nargs="+", default=list(SCORERS), choices=list(SCORERS))
    parser.add_argument("--queries", type=int, default=200, help="queries to time per scorer")
    parser.add_argument("--runs", type=int, default=7, help="cold `toolcat search` runs")
    args = parser.parse_args()

    tools = list(load_catalog(SEAL / "catalog.json").tools)
    with (SEAL / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [json.loads(line)["query"] for line in handle][: args.queries]
    print(f"seal_tools: {len(tools):,} tools, {len(queries)} queries, top 10 with reasons")
    print(f"  {'scorer':<10} {'index s':>8} {'median ms':>10} {'p90 ms':>8} {'target':>7}")
    for name in args.scorers:
        if name in TARGET_MS:
            build_scorer(name, tools)  # fill the embedding cache: the target is with it cached
        built, times = per_query(name, tools, queries)
        target = TARGET_MS.get(name, 5.0)
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        verdict = "ok" if median < target else "SLOW"
        print(f"  {name:<10} {built:8.2f} {median:10.2f} {p90:8.2f} {target:5.0f}ms {verdict}",
              flush=True)

    print(f"\n`toolcat search` on the demo catalog, fresh process, {args.runs} runs "
          "(`toolcat list` for the cost of starting any command):")
    commands = {"list (baseline)": ["list"], "search regex": ["search", "weather"],
                "search fuzzy": ["search", "wether"],
                "search bm25": ["search", "send msg", "--scorer", "bm25"]}
    for label, walls in cold(commands, args.runs).items():
        median = statistics.median(walls)
        verdict = "" if label.startswith("list") else \
            f" (target 0.4 s: {'ok' if median < 0.4 else 'SLOW'})"
        print(f"  {label:<16} median {median:.3f} s, best {min(walls):.3f} s{verdict}")
    warm_pick(args.runs)


# a seal_tools request that names a value (an IP address), and one that names none
VALUE_REQUEST = ('Enroll a youth participant with the name "192.168.143.207" and age of 63 in '
                 'the program with ID "Y4MkKoaGP".')
PLAIN_REQUEST = "Enroll a youth participant in the program"


def warm_pick(runs: int) -> None:
    """`toolcat pick` on seal_tools in fresh processes once its index is stored (`toolcat
    index`, not timed), as ratios to `toolcat list` of the same catalog (reading it): a
    request naming a value also reads the tool side of toolcat.search.values."""
    seal = str(SEAL / "catalog.json")
    subprocess.run([sys.executable, "-m", "toolcat", "index", "-c", seal], check=True,
                   env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.DEVNULL,
                   cwd=REPO)
    walls = cold({"list seal_tools": ["list", "-c", seal, "--json"],
                  "pick, no value": ["pick", PLAIN_REQUEST, "-c", seal, "--json"],
                  "pick, a value": ["pick", VALUE_REQUEST, "-c", seal, "--json"]}, runs)
    reference = statistics.median(walls["list seal_tools"])
    print(f"\n`toolcat pick` on seal_tools, fresh process, its index stored, {runs} runs:")
    for label, times in walls.items():
        median = statistics.median(times)
        print(f"  {label:<16} median {median:.3f} s, {median / reference:.2f} x list")


if __name__ == "__main__":
    main()
