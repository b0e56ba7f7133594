"""Lint speed: `toolcat lint` on the 4,076-tool seal_tools catalog in a fresh process, with
every rule that needs no --target (the default), and where the time goes.

Target (issue 3): under 5 s wall in a fresh process.
Usage: python benchmarks/lint_speed.py [--runs N] [--target NAMES]

`--big FILE` (the 43k catalog of benchmarks/scale.py, `build_catalog`) measures issue 41 item
6 instead: `toolcat lint --json` within 12x a plain `json.load` of the file + 1 s. Each round
runs, in fresh processes and in turn, `json.load`, lint never seen (an empty cache folder) and
lint seen before (a cache folder that read the file twice already), with this checkout's code
and, with `--against DIR` (a folder holding another `toolcat` package, e.g. `git archive main
| tar -x`), with that code too; it prints the medians of user+system CPU and their ratios to
`json.load` measured in the same rounds:

    python benchmarks/lint_speed.py --big /tmp/catalog-43k.json --against /tmp/main --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
SEAL = BENCHDATA / "seal_tools" / "catalog.json"

BREAKDOWN = """
import json, sys, time
started = time.perf_counter()
from toolcat.cli.startup import defer_slow_imports
defer_slow_imports()  # as the command line does: else TC101 pays jsonschema's 38 Lark grammars
from toolcat.catalog.load import load_catalog
from toolcat.lint.engine import lint_catalog
from toolcat.lint.settings import LintSettings
from toolcat.lint.rules import RULES
from toolcat.providers.tokens import count_tokens
imported = time.perf_counter()
catalog = load_catalog(sys.argv[1], lenient=True)
loaded = time.perf_counter()
count_tokens("warm up")  # the o200k_base tables: paid once by the token budget rules
tokenizer = time.perf_counter()
rules = {}
for rule_id in RULES:
    t = time.perf_counter()
    report = lint_catalog(catalog, LintSettings(select=(rule_id,)))
    if report.rules:
        rules[rule_id] = (time.perf_counter() - t, len(report.findings))
print(json.dumps({"import": imported - started, "load": loaded - imported,
                  "tokenizer": tokenizer - loaded, "rules": rules}))
"""


def wall(cmd: list[str], runs: int) -> tuple[list[float], str]:
    times, out = [], ""
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=REPO)
        times.append(time.perf_counter() - started)
        if done.returncode not in (0, 1):
            raise SystemExit(done.stderr)
        out = done.stdout
    return times, out


JSON_LOAD = "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))"


def cpu(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = REPO) -> float:
    """User+system CPU seconds of `cmd` run to its end in a fresh process."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors, cwd=cwd,
                                   env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            errors.seek(0)
            raise SystemExit(errors.read().decode(errors="replace"))
    return usage.ru_utime + usage.ru_stime


def big_rounds(big: Path, runs: int, against: Path | None) -> None:
    """Issue 41 item 6: lint of the 43k catalog against its bound, 12x `json.load` + 1 s."""
    codes = {"this checkout": REPO} | ({f"--against {against}": against} if against else {})
    times: dict[str, list[float]] = {"json.load": []}
    with tempfile.TemporaryDirectory(prefix="lint-speed-") as folder:
        neutral = Path(folder)  # `python -m` imports the current folder's package first
        lint = [sys.executable, "-m", "toolcat", "lint", str(big), "--json"]
        seen: dict[str, dict[str, str]] = {}
        for label, code in codes.items():
            env = {"PYTHONPATH": str(code),
                   "TOOLCAT_CACHE_DIR": tempfile.mkdtemp(prefix="seen-", dir=folder)}
            for _ in range(2):  # the first read leaves a marker, the second stores the read
                cpu(lint, env, neutral)
            seen[label] = env
            times[f"{label}, never seen"] = []
            times[f"{label}, seen before"] = []
        for _ in range(runs):
            times["json.load"].append(cpu([sys.executable, "-c", JSON_LOAD, str(big)]))
            for label, code in codes.items():
                never = {"PYTHONPATH": str(code),
                         "TOOLCAT_CACHE_DIR": tempfile.mkdtemp(prefix="never-", dir=folder)}
                times[f"{label}, never seen"].append(cpu(lint, never, neutral))
                times[f"{label}, seen before"].append(cpu(lint, seen[label], neutral))
    floor = statistics.median(times["json.load"])
    print(f"toolcat lint {big.name} --json, CPU (user+system) of fresh processes, median of "
          f"{runs}; bound 12 x json.load + 1 s = {12 * floor + 1:.2f} s")
    for label, found in times.items():
        median = statistics.median(found)
        print(f"  {label:<50} {median:6.2f} s  ({median / floor:5.1f}x json.load)  "
              f"runs {' '.join(f'{t:.2f}' for t in found)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--target", default="", help="also time these provider targets")
    parser.add_argument("--big", type=Path, help="the 43k catalog: issue 41 item 6's bound")
    parser.add_argument("--against", type=Path, help="with --big: also this folder's code")
    args = parser.parse_args()
    if args.big:
        big_rounds(args.big, args.runs, args.against)
        return
    command = [sys.executable, "-m", "toolcat", "lint", str(SEAL), "--json"]
    if args.target:
        command += ["--target", args.target]
    times, out = wall(command, args.runs)
    report = json.loads(out)
    label = f"toolcat lint seal_tools ({report['tools']:,} tools, {len(report['rules'])} rules)"
    print(f"{label:<58} median {statistics.median(times):.2f} s  min {min(times):.2f} s  "
          f"max {max(times):.2f} s   [target: < 5 s]")
    print(f"  findings: {report['counts']}")
    print("  by rule: " + ", ".join(
        f"{rule} {n}" for rule, n in sorted(_count(report['findings']).items())))
    steps = json.loads(subprocess.run([sys.executable, "-c", BREAKDOWN, str(SEAL)],
                                      capture_output=True, text=True, check=True,
                                      cwd=REPO).stdout)
    print(f"  one process, step by step: import {steps['import']:.2f} s, load "
          f"{steps['load']:.2f} s, tokenizer tables {steps['tokenizer']:.2f} s")
    slow = sorted(steps["rules"].items(), key=lambda item: -item[1][0])
    print("  slowest rules: " + ", ".join(f"{rule} {secs:.2f} s" for rule, (secs, _) in slow[:6]))


def _count(findings: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding["rule"]] = counts.get(finding["rule"], 0) + 1
    return counts


if __name__ == "__main__":
    main()
