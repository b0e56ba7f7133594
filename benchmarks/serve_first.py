"""Serve at 43,000 tools, the first moments (issue 42, item 11 and item 8): the regex pass of
a search, a catalog's first serve, and a one-shot client's first answer.

- `regex`: serve's search_tools with a bm25 profile in the gate (no MCP), its word index
  made as serve makes it, query by query, against the same gate with the regex pass scanning
  every field with RE2 (the reference, measured in the same run, interleaved; the answers
  must be equal).
- `start`: `toolcat serve -c CATALOG` of a catalog never served before (a fresh cache), driven
  by the MCP SDK's stdio client: seconds to the handshake, to `tools/list`, to the first
  search_tools answer (target: the handshake within 2 s), against a plain read of the same
  catalog (a fresh process that loads it, with a fresh cache) measured in the same run,
  interleaved; `--runs` of each, medians. `--repo` serves another checkout of toolcat (an
  export of an earlier commit: the figures before a change), interleaved with this one.
- `oneshot`: the demo catalog indexed (`toolcat index`, in a temporary cache), then fresh
  serve processes asked once each, as the MCP Inspector's CLI asks: the first answer's
  latency and whether it is the warm gate's ranking.

    python benchmarks/serve_first.py                     # every row
    python benchmarks/serve_first.py --rows regex start --folder /tmp/scale
    python benchmarks/serve_first.py --rows start --runs 3 --repo /tmp/toolcat-before
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

import anyio
from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
ROWS = ("regex", "start", "oneshot")
PATTERNS = ["list the files in a folder", "weather", "file|folder", "send.*message", "get_.*",
            "(?i)calendar"]


def regex_row(path: Path, count: int) -> None:
    import toolcat.search.regex as regex
    from toolcat.catalog.load import load_catalog
    from toolcat.resolution.profile import Profile
    from toolcat.serve.gate import Gate

    gate = Gate(load_catalog(path), Profile(scorer="bm25"))
    for name in ("regex", gate.scorer_name, "fuzzy"):
        gate.scorer(name)
    began = time.perf_counter()
    gate.scorer("regex").index_words()  # type: ignore[attr-defined]  # as serve's thread does
    print(f"| the regex search's word index, 43k (serve's thread, after the first search) | "
          f"{time.perf_counter() - began:.2f} s | | |")
    with (BENCHDATA / "seal_tools" / "queries.jsonl").open(encoding="utf-8") as handle:
        asked = [json.loads(line)["query"] for line in handle][100:100 + count] + PATTERNS
    words_first = regex.required
    ours, scanned = [], []
    for query in asked:
        regex.required = lambda query: None  # type: ignore[assignment]
        began = time.perf_counter()
        reference = gate.search(query)
        scanned.append(time.perf_counter() - began)
        regex.required = words_first
        began = time.perf_counter()
        answer = gate.search(query)
        ours.append(time.perf_counter() - began)
        assert answer.response == reference.response, query
    print(f"| serve's search_tools, bm25 profile, {len(asked)} queries | "
          f"{_ms(ours)} | every field scanned by RE2: {_ms(scanned)} | "
          f"{statistics.median(ours) / statistics.median(scanned):.2f}× |")


def _ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(seconds) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


async def first_moments(catalog: Path, cache: Path, query: str, repo: Path = REPO
                        ) -> tuple[float, float, float, dict]:
    """Seconds to the handshake, to tools/list and to the first answer, and the answer."""
    from mcp import Client, StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(repo), "TOOLCAT_CACHE_DIR": str(cache)}
    params = StdioServerParameters(command=sys.executable, env=env, cwd=repo,
                                   args=["-m", "toolcat", "serve", "-c", str(catalog)])
    began = time.perf_counter()
    with Path(os.devnull).open("w") as quiet:
        async with Client(stdio_client(params, errlog=quiet), mode="legacy",
                          cache=None) as client:
            handshake = time.perf_counter() - began
            await client.list_tools()
            listed = time.perf_counter() - began
            answer = await client.call_tool("search_tools", {"query": query})
            first = time.perf_counter() - began
    return handshake, listed, first, json.loads(answer.content[0].text)


def plain_read(path: Path, folder: Path) -> float:
    """Seconds a fresh process takes to read the catalog, never seen before, and exit."""
    cache = Path(tempfile.mkdtemp(prefix="cache-read-", dir=folder))
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache)}
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys; from toolcat.catalog.load import "
                    "load_catalog; load_catalog(sys.argv[1])", str(path)], env=env, cwd=REPO,
                   check=True)
    return time.perf_counter() - began


def start_row(path: Path, folder: Path, runs: int, repos: dict[str, Path]) -> None:
    read: list[float] = []
    moments: dict[str, list[tuple[float, float, float]]] = {name: [] for name in repos}
    for _ in range(runs):  # interleaved: the reference, then each checkout
        read.append(plain_read(path, folder))
        for name, repo in repos.items():
            cache = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
            *seconds, _ = anyio.run(first_moments, path, cache, "list the files in a folder",
                                    repo)
            moments[name].append((seconds[0], seconds[1], seconds[2]))
    reference = statistics.median(read)
    load = os.getloadavg()[0]
    print(f"| a plain read of the 43k catalog never seen before (a fresh process; the "
          f"reference) | {reference:.2f} s (runs {', '.join(f'{r:.2f}' for r in read)}) | | "
          f"load average {load:.1f} |")
    for name, seen in moments.items():
        handshake, listed, first = (statistics.median(m[i] for m in seen) for i in range(3))
        print(f"| {name}: a catalog never served before, 43k: handshake / tools/list / "
              f"first answer (medians of {runs}) | {handshake:.2f} s / {listed:.2f} s / "
              f"{first:.2f} s | handshake target 2 s | handshake {handshake / reference:.2f}×"
              f" the read; first answer {first / reference:.2f}× |")


def oneshot_row(folder: Path, sessions: int) -> None:
    from toolcat.catalog.load import load_catalog
    from toolcat.serve.gate import Gate

    catalog = REPO / "catalogs"
    cache = Path(tempfile.mkdtemp(prefix="cache-demo-", dir=folder))
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-m", "toolcat", "index", "-c", str(catalog)], env=env,
                   cwd=REPO, check=True, capture_output=True)
    os.environ["TOOLCAT_CACHE_DIR"] = str(cache)
    query = "list the files in a folder"
    warm = Gate(load_catalog(catalog))
    warm.complete()
    expected = [t["name"] for t in warm.search(query).response["tools"]]
    after_list, same = [], 0
    for _ in range(sessions):
        _, listed, first, answer = anyio.run(first_moments, catalog, cache, query)
        after_list.append(first - listed)
        same += [t["name"] for t in answer["tools"]] == expected and "note" not in answer
    print(f"| one-shot client, demo catalog indexed, first search_tools ({sessions} fresh "
          f"processes) | {statistics.median(after_list):.2f} s after tools/list (median) | "
          f"warm gate's ranking {expected} | {same} of {sessions} ranked the same |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", nargs="+", default=ROWS, choices=ROWS)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--folder", type=Path, help="keep the generated catalog here")
    parser.add_argument("--runs", type=int, default=3, help="serve starts per checkout")
    parser.add_argument("--repo", type=Path, help="also serve this checkout (before)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="toolcat-first-"))
    folder.mkdir(parents=True, exist_ok=True)
    big = folder / "catalog-43k.json"
    if not big.exists():
        from scale import build_catalog

        big.write_text(json.dumps(build_catalog(), indent=1), encoding="utf-8")
    print("| measure | toolcat | reference / target | ratio |\n|---|---|---|---|")
    if "regex" in args.rows:
        regex_row(big, args.queries)
    if "start" in args.rows:
        repos = {"before": args.repo.resolve()} if args.repo else {}
        start_row(big, folder, args.runs, {**repos, "this checkout": REPO})
    if "oneshot" in args.rows:
        oneshot_row(folder, args.sessions)


if __name__ == "__main__":
    main()
