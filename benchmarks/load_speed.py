"""Load speed in fresh processes: `toolcat --help`, and loading the 4,076-tool seal_tools
catalog with positions of every tool and schema node.

Targets (issue 2): --help under 0.3 s; seal_tools under 1 s including positions.
Usage: python benchmarks/load_speed.py [--runs N] [--big]  (--big also times a ~50 MB catalog)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
SEAL = BENCHDATA / "seal_tools" / "catalog.json"

LOAD = """
import sys, time
t = time.perf_counter()
from toolcat.catalog.load import load_catalog
c = load_catalog(sys.argv[1])
for tool in c.tools:
    c.locate(tool, "/properties")
print(len(c.tools), time.perf_counter() - t)
"""


def wall(cmd: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return times


def report(label: str, times: list[float]) -> None:
    print(f"{label:<48} median {statistics.median(times):.3f} s  "
          f"min {min(times):.3f} s  max {max(times):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big", action="store_true")
    args = parser.parse_args()
    report("toolcat --help (fresh process)",
           wall([sys.executable, "-m", "toolcat", "--help"], args.runs))
    report("python -c pass (interpreter start, for scale)",
           wall([sys.executable, "-c", "pass"], args.runs))
    report(f"load seal_tools ({SEAL.stat().st_size / 1e6:.1f} MB) + positions, fresh process",
           wall([sys.executable, "-c", LOAD, str(SEAL)], args.runs))
    if args.big:
        tools = json.loads(SEAL.read_text())
        with tempfile.TemporaryDirectory() as folder:
            big = Path(folder) / "big.json"
            copies = [dict(t, name=f"{t['name']}_{i}") for i in range(21) for t in tools]
            big.write_text(json.dumps(copies, indent=1))
            size = big.stat().st_size / 1e6
            report(f"load {len(copies):,} tools ({size:.0f} MB) + positions",
                   wall([sys.executable, "-c", LOAD, str(big)], 1))


if __name__ == "__main__":
    main()
