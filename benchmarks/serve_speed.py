"""How fast `toolcat serve` answers: search_tools on the demo catalog and on seal_tools (4,076
tools), add_tool, and the first call of an upstream server (its start) against later calls.

search_tools is measured in the gate (what serve runs for each call, without the JSON-RPC
round trip) next to the reference measured in the same run: tool search as `toolcat
search` runs it (`toolcat.search.find.search_tools`, regex then fuzzy, indexes built per
query). The ratio is reference / serve: above 1, serve is faster.

    python benchmarks/serve_speed.py                        # demo and seal_tools, bm25 + default
    python benchmarks/serve_speed.py --queries 20 --scorers bm25
    python benchmarks/serve_speed.py --upstream             # also: mcp-server-time via serve
    python benchmarks/serve_speed.py --round-trip           # also: search_tools over stdio
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.resolution.profile import Profile  # noqa: E402
from toolcat.search import default_scorer  # noqa: E402
from toolcat.search.find import search_tools  # noqa: E402
from toolcat.serve.gate import Gate  # noqa: E402

BENCHDATA = REPO.parent / "shared" / "benchdata"
PATTERNS = ["weather", "file|folder", "send.*message", "get_.*", "(?i)calendar"]


def queries(name: str, count: int, benchdata: Path) -> list[str]:
    path = (REPO / "catalogs" / "demo-queries.jsonl" if name == "demo"
            else benchdata / name / "queries.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [q["query"] for q in lines[:count]] + PATTERNS


def timed(function, items: list[str]) -> list[float]:
    out = []
    for item in items:
        began = time.perf_counter()
        function(item)
        out.append((time.perf_counter() - began) * 1000)
    return out


def summary(ms: list[float]) -> str:
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ms):8.2f} ms  p95 {p95:8.2f} ms"


def bench_set(name: str, count: int, scorers: list[str], benchdata: Path) -> None:
    catalog = load_catalog(REPO / "catalogs" if name == "demo"
                           else benchdata / name / "catalog.json")
    items = queries(name, count, benchdata)
    print(f"\n{name}: {len(catalog.tools)} tools, {len(items)} queries "
          f"({len(items) - len(PATTERNS)} labeled + {len(PATTERNS)} patterns)")
    reference = timed(lambda q: search_tools(q, catalog.tools), items)
    print(f"  reference (toolcat search)           {summary(reference)}")
    for scorer in scorers:
        began = time.perf_counter()
        gate = Gate(catalog, Profile(scorer=scorer))
        start_ms = (time.perf_counter() - began) * 1000
        began = time.perf_counter()
        for built in ("regex", gate.scorer_name, "fuzzy"):
            gate.scorer(built)
        gate.complete()  # the semantic stage, as serve's thread readies it (words until then)
        index_ms = (time.perf_counter() - began) * 1000
        methods: dict[str, int] = {}

        def search(query: str, gate: Gate = gate, methods: dict[str, int] = methods) -> None:
            method = gate.search(query).method
            methods[method] = methods.get(method, 0) + 1

        ms = timed(search, items)
        ratio = statistics.median(reference) / statistics.median(ms)
        print(f"  serve, scorer {scorer:<8}                {summary(ms)}  "
              f"ratio {ratio:5.1f}x  (gate {start_ms:.0f} ms, indexes {index_ms:.0f} ms; "
              f"answered by {methods})")
        names = list(gate.search(items[0]).found)[:3] or [gate.show_all()["tools"][0]]
        add = timed(lambda n, gate=gate: gate.add([n]), names)
        print(f"  add_tool (a resolution of the catalog)  {summary(add)}")


def bench_upstream(rounds: int) -> None:
    """mcp-server-time through `python -m toolcat serve` over stdio: first call (starts the
    server) against the calls after it."""
    import subprocess
    import tempfile

    import anyio
    from mcp import Client, StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as folder:
        catalog = Path(folder) / "time.yaml"
        subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "-o", str(catalog),
                        "--", "mcp-server-time"], env=env, check=True, capture_output=True)
        firsts, laters = [], []
        for _ in range(rounds):
            params = StdioServerParameters(command=sys.executable, env=env, args=[
                "-m", "toolcat", "serve", "-c", str(catalog)])

            async def session(params: StdioServerParameters = params) -> None:
                async with Client(stdio_client(params), mode="legacy", cache=None) as client:
                    await client.call_tool("add_tool", {"tool_names": ["get_current_time"]})
                    for i in range(6):
                        began = time.perf_counter()
                        await client.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
                        (firsts if i == 0 else laters).append(
                            (time.perf_counter() - began) * 1000)

            anyio.run(session)
    print(f"\nmcp-server-time through toolcat serve ({rounds} sessions):")
    print(f"  first call (starts the upstream)  {summary(firsts)}")
    print(f"  later calls (kept for the session) {summary(laters)}")


def bench_round_trip(name: str, count: int, scorer: str, benchdata: Path) -> None:
    """search_tools through `python -m toolcat serve` over stdio, JSON-RPC included: the first
    answer (it may wait for the index built as serve starts) and the ones after it."""
    import tempfile

    import anyio
    from mcp import Client, StdioServerParameters, stdio_client

    catalog = REPO / "catalogs" if name == "demo" else benchdata / name / "catalog.json"
    items = queries(name, count, benchdata)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as folder:
        profile = Path(folder) / "profile.yaml"
        profile.write_text(f"name: bench\nscorer: {scorer}\n")
        params = StdioServerParameters(command=sys.executable, env=env, args=[
            "-m", "toolcat", "serve", "-c", str(catalog), "-p", str(profile)])
        ms: list[float] = []

        async def session() -> float:
            began = time.perf_counter()
            async with Client(stdio_client(params), mode="legacy", cache=None) as client:
                connected = (time.perf_counter() - began) * 1000
                for query in items:
                    start = time.perf_counter()
                    await client.call_tool("search_tools", {"query": query})
                    ms.append((time.perf_counter() - start) * 1000)
            return connected

        connected = anyio.run(session)
    print(f"  round trip over stdio, {scorer:<8}      {summary(ms[1:])}  (serve up in "
          f"{connected:.0f} ms, first answer {ms[0]:.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=["demo", "seal_tools"])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--scorers", nargs="+", default=["bm25", default_scorer()[0]])
    parser.add_argument("--upstream", action="store_true")
    parser.add_argument("--round-trip", action="store_true",
                        help="also search_tools through toolcat serve over stdio")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--benchdata", type=Path, default=BENCHDATA)
    options = parser.parse_args()
    for name in options.sets:
        bench_set(name, options.queries, list(dict.fromkeys(options.scorers)),
                  options.benchdata)
        if options.round_trip:
            for scorer in dict.fromkeys(options.scorers):
                bench_round_trip(name, options.queries, scorer, options.benchdata)
    if options.upstream:
        bench_upstream(options.rounds)


if __name__ == "__main__":
    main()
