"""A warm `toolcat pick`'s wall and CPU time with each embedding model, interleaved.

The default model (minilm-tools) against `--model all-MiniLM-L6-v2` and `--scorer bm25`, each
run once first so that the ONNX query encoders and the catalog's vectors are cached; then N
rounds of the three, one process each. The CPU time (the process's, from the OS) is what a
loaded machine does not blur; the ratio is to the base model's, measured in the same run.

    python benchmarks/warm_pick.py            # 5 rounds on the demo catalog
    python benchmarks/warm_pick.py --rounds 9
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter

REPO = Path(__file__).resolve().parent.parent
QUERY = "open a pull request from my branch"
RUNS = {"default (minilm-tools)": [], "--model all-MiniLM-L6-v2": ["--model", "all-MiniLM-L6-v2"],
        "--scorer bm25": ["--scorer", "bm25"]}


def once(extra: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `toolcat pick` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = perf_counter()
    subprocess.run([sys.executable, "-m", "toolcat", "pick", "-c", "demo", QUERY, *extra],
                   env={**os.environ, "PYTHONPATH": str(REPO)}, check=True,
                   capture_output=True)
    wall = perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for extra in RUNS.values():
        once(extra)  # warm: the encoders exported, the catalog encoded
    found: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in RUNS}
    for _ in range(args.rounds):
        for name, extra in RUNS.items():
            wall, cpu = once(extra)
            found[name][0].append(wall)
            found[name][1].append(cpu)
    base = statistics.median(found["--model all-MiniLM-L6-v2"][1])
    for name, (walls, cpus) in found.items():
        print(f"{name:28s} wall median {statistics.median(walls):.2f} s, CPU median "
              f"{statistics.median(cpus):.2f} s, CPU ratio to all-MiniLM-L6-v2 "
              f"{statistics.median(cpus) / base:.2f}")


if __name__ == "__main__":
    main()
