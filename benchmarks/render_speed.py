"""Render and check-call speed, in process: rendering the demo scenario in every format and
for every provider, costing the 4,076-tool seal_tools catalog, and validating tool calls; and
what resolve's visible set saves over the 109 demo queries under three bundled profiles.

Usage: python benchmarks/render_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUERIES = REPO / "catalogs" / "demo-queries.jsonl"
sys.path.insert(0, str(REPO))  # this checkout's toolcat, not an installed one

from toolcat.calls.check import CallChecker  # noqa: E402
from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.model import ToolCall  # noqa: E402
from toolcat.render import FORMATS, REQUEST_PROVIDERS, RenderInput, method_for, render  # noqa: E402
from toolcat.render.costs import catalog_cost, visible_saving  # noqa: E402
from toolcat.resolution import DEFAULT_PROFILE, Resolver, load_profile  # noqa: E402

SEAL = REPO.parent / "shared" / "benchdata" / "seal_tools" / "catalog.json"


def best(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    demo = load_catalog(REPO / "catalogs")
    builtins = load_catalog(REPO / "catalogs" / "builtins" / "builtins.yaml")
    inp = RenderInput(query="book a meeting", base_prompt="Be brief.",
                      builtins=builtins.tools[:3], tools=demo.tools[:10],
                      deferred=demo.tools[10:], tool_search=True, documents=demo.documents)
    render(inp)  # warm the tokenizer
    print("render, 3 built-ins + 10 tools (+ 62 deferred), best of", runs)
    for fmt in FORMATS:
        ms = best(lambda f=fmt: render(replace(inp, format=f)), runs)
        print(f"  format {fmt:<18} {ms * 1000:7.2f} ms")
    for provider in REQUEST_PROVIDERS:
        ms = best(lambda p=provider: render(inp, provider=p), runs)
        print(f"  provider {provider:<16} {ms * 1000:7.2f} ms")

    if SEAL.exists():
        seal = load_catalog(SEAL)
        ms = best(lambda: catalog_cost(seal.tools, method_for(None)), max(1, runs // 2))
        print(f"tokens for seal_tools ({len(seal.tools)} tools): {ms * 1000:.0f} ms")

    checker = CallChecker(demo)
    good = ToolCall("create_event", json.dumps({
        "summary": "Sync", "start": {"date_time": "2025-03-14T15:00:00+00:00"},
        "end": {"date": "2025-03-14"}, "attendees": [{"email": "ana@example.com"}]}))
    bad = ToolCall("get_weather", '{"location": "", "units": "kelvin"}')
    CallChecker(demo).check(bad)  # import jsonschema before timing
    first = best(lambda: CallChecker(demo).check(good), runs)
    checker.check(good)
    n = 2000
    per_call = best(lambda: [checker.check(c) for c in (good, bad) * (n // 2)], runs) / n
    print(f"check-call: first call of a tool (compiles its validator) {first * 1000:.1f} ms; "
          f"then {per_call * 1e6:.0f} µs per call ({1 / per_call:,.0f} calls/s)")

    cost = catalog_cost(demo.tools, method_for(None))
    queries = [json.loads(line)["query"] for line in QUERIES.read_text().splitlines() if line]
    print(f"visible-set saving over {len(queries)} demo queries ({cost.total:,} tokens for "
          "the whole catalog, exact o200k_base):")
    for profile in (DEFAULT_PROFILE, load_profile("small-model"), load_profile("tool-search")):
        resolver = Resolver(demo, profile)
        shares = [visible_saving(cost, resolver.resolve(q).visible).share for q in queries]
        print(f"  {profile.name:<12} mean {statistics.mean(shares):.1%}, "
              f"min {min(shares):.1%}, max {max(shares):.1%}")


if __name__ == "__main__":
    main()
