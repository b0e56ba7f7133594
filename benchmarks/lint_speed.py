"""Lint speed: `toolcat lint` on the 4,076-tool seal_tools catalog in a fresh process, with
every rule that needs no --target (the default), and where the time goes.

Target (issue 3): under 5 s wall in a fresh process.
Usage: python benchmarks/lint_speed.py [--runs N] [--target NAMES]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--target", default="", help="also time these provider targets")
    args = parser.parse_args()
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
