"""`toolcat bench` speed and accuracy on the shared benchmark sets, in fresh processes.

Targets (issue 5), bfcl_v4 (1,000 queries, 769 tools): bm25 under 10 s wall; semantic under
90 s on a first run (empty embedding cache) and under 15 s when the embeddings are cached.
Each line gives the wall time of the whole command (interpreter start, catalog and query
loading, indexing, scoring, token counting, JSON output), its CPU time, the share of the
machine other processes used meanwhile (wall times mean little when that is high: torch's
threads spin-wait badly on a busy machine), and the accuracy it measured.

Usage: python benchmarks/bench_speed.py [--sets bfcl_v4,seal_tools,metatool]
                                        [--scorers bm25,semantic,hybrid] [--runs N] [--data DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
SEMANTIC = {"semantic", "hybrid", "relevance"}  # scorers that embed (and so use the cache)


def cpu_ticks() -> tuple[int, int]:
    """(busy, idle) clock ticks of the whole machine so far (Linux)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:3]) + sum(fields[5:8]), fields[3] + fields[4]


def bench(data: Path, scorer: str, cache: Path) -> tuple[float, float, float, dict]:
    """Wall time, CPU time of the command, share of the machine others used meanwhile, and
    the report."""
    cmd = [sys.executable, "-m", "toolcat", "bench", "-c", str(data / "catalog.json"),
           "-q", str(data / "queries.jsonl"), "--scorer", scorer, "--json"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy, idle = cpu_ticks()
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    busy, idle = cpu_ticks()[0] - busy, cpu_ticks()[1] - idle
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ticks = os.sysconf("SC_CLK_TCK")
    others = max(0.0, busy / ticks - cpu) / max(1e-9, (busy + idle) / ticks)
    return wall, cpu, others, json.loads(done.stdout)


def line(label: str, measured: tuple[float, float, float, dict]) -> str:
    wall, cpu, others, report = measured
    run = report["scorers"][0]
    m, cost = run["metrics"], run["cost"]
    latency = cost["latency_ms"]
    return (f"{label:<30} wall {wall:6.2f} s (cpu {cpu:6.1f} s, others {others:4.0%}) | "
            f"build {cost['build_s']:5.2f} s, queries {cost['run_s']:5.2f} s, p50 "
            f"{latency['p50']:6.2f} ms, p95 {latency['p95']:6.2f} ms"
            f"{' (batched)' if cost['batched'] else ''} | hit@1 {m['hit@1']:.3f} "
            f"R@5 {m['recall@5']:.3f} R@10 {m['recall@10']:.3f} nDCG@10 {m['ndcg@10']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="bfcl_v4")
    parser.add_argument("--scorers", default="bm25,semantic")
    parser.add_argument("--runs", type=int, default=1, help="cached runs per scorer")
    parser.add_argument("--data", type=Path, default=BENCHDATA, help="the benchdata folder")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from toolcat.search import SCORERS

    for name in args.sets.split(","):
        data = args.data / name
        queries = sum(1 for text in (data / "queries.jsonl").open() if text.strip())
        tools = len(json.loads((data / "catalog.json").read_text()))
        print(f"{name}: {queries:,} queries, {tools:,} tools")
        for scorer in args.scorers.split(","):
            if scorer not in SCORERS:
                print(f"  {scorer}: not in this checkout (known: {', '.join(SCORERS)})")
                continue
            with tempfile.TemporaryDirectory() as cache:
                label = f"  {scorer}, first run" if scorer in SEMANTIC else f"  {scorer}"
                print(line(label, bench(data, scorer, Path(cache))), flush=True)
                again = "cached" if scorer in SEMANTIC else "again"
                for _ in range(args.runs if scorer in SEMANTIC else args.runs - 1):
                    print(line(f"  {scorer}, {again}", bench(data, scorer, Path(cache))),
                          flush=True)


if __name__ == "__main__":
    main()
